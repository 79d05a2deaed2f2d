// Offline use. After the page's first result and the downloads that follow it (so it never
// competes with them for bandwidth), register the service worker (sw.js beside index.html, see static/sw.js) and
// say in the footer when this build is stored for offline use. Without service workers
// (an insecure origin, a browser or policy that blocks them) the page works as before and
// the footer says it is not available offline.
//
// #offline-status[data-offline]: "saving" while the worker stores the files, "ready" when
// the active worker holds exactly this build, "unavailable" or "failed" otherwise.
(() => {
  const script = document.currentScript;
  const buildId = script.dataset.offlineId;
  const status = document.getElementById("offline-status");
  const app = document.getElementById("app");
  if (!status || !app) return;

  const say = (state, text) => {
    status.dataset.offline = state;
    status.textContent = text;
  };

  if (!("serviceWorker" in navigator) || !buildId) {
    say("unavailable", " · not available offline in this browser");
    return;
  }

  const firstResult = new Promise((resolve) => {
    const done = () => app.dataset.state === "ready" || app.dataset.state === "error";
    if (done()) return resolve();
    const observer = new MutationObserver(() => {
      if (done()) {
        observer.disconnect();
        resolve();
      }
    });
    observer.observe(app, { attributes: true, attributeFilter: ["data-state"] });
  });

  const heldBy = (worker) =>
    new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data);
      worker.postMessage({ type: "offline-id" }, [channel.port2]);
    });

  // "activated" only once the worker's activate step (dropping older caches) is done.
  const activated = (worker) =>
    new Promise((resolve) => {
      if (worker.state === "activated") return resolve();
      worker.addEventListener("statechange", () => worker.state === "activated" && resolve());
    });

  const check = async (registration) => {
    const worker = registration.active;
    if (worker && (await heldBy(worker)) === buildId) {
      await activated(worker);
      say("ready", " · available offline");
    }
  };

  // The worker downloads the whole build (~28 MB) at once: after the page's own downloads
  // that follow the first result (app.zip, the tokenizers: interpreter.js resolves
  // chunkInspectorAppPending once it has arrived or failed), once the page is idle, so on
  // a slow link it never shares the bandwidth with them.
  const appArrived = () => globalThis.chunkInspectorAppPending;
  const idle = () =>
    new Promise((resolve) =>
      "requestIdleCallback" in globalThis
        ? requestIdleCallback(() => resolve(), { timeout: 3000 })
        : setTimeout(resolve, 0),
    );

  // A first visit over a measured link downloaded brotli copies of the snapshot and of
  // Pyodide's wasm, which the worker does not keep (sitebuild/offline.py): the page puts
  // the decoded bytes it has (snapshot.js's chunkInspectorSeeds, each checked against its
  // SHA-256 list) into a cache the worker's install copies from, as from an earlier build's
  // (static/sw.js, earlierCopy), and its activation drops; else the install downloads the
  // 5.9 MB gzip snapshot and the 3.5 MB gzip wasm again.
  const SEED = "chunk-inspector-seed";
  const seed = async () => {
    // taken out of snapshot.js's own list too, which would otherwise keep them (41 MB)
    const given = (globalThis.chunkInspectorSeeds ?? []).splice(0);
    delete globalThis.chunkInspectorSeeds;
    if (!given.length || !globalThis.caches) return;
    try {
      const cache = await caches.open(SEED);
      for (const { url, bytes, headers } of given) {
        await cache.put(url, new Response(bytes, { headers }));
      }
    } catch (error) {
      console.warn("offline use: downloaded again", error);
    }
  };

  firstResult.then(appArrived).then(idle).then(async () => {
    performance.mark("ci:offline-register"); // tests/page/boot/test_first_visit.py reads it
    await seed();
    try {
      const registration = await navigator.serviceWorker.register(script.dataset.worker, {
        updateViaCache: "none",
      });
      if (status.dataset.offline !== "ready") say("saving", " · saving for offline use…");
      registration.addEventListener("updatefound", () => {
        const installing = registration.installing;
        installing?.addEventListener("statechange", () => {
          if (installing.state === "redundant" && status.dataset.offline !== "ready") {
            say("failed", " · could not be saved for offline use");
          }
        });
      });
      navigator.serviceWorker.addEventListener("controllerchange", () => check(registration));
      await check(await navigator.serviceWorker.ready);
      if (status.dataset.offline === "ready") await caches.delete(SEED); // if no install took it
    } catch (error) {
      say("failed", " · could not be saved for offline use");
      console.warn("offline use:", error);
    }
  });
})();
