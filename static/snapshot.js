// Starts the start-up snapshot's download and inflation as the page starts: a classic
// script at the top of <head>, so it runs as soon as it arrives, before the page's first
// layout (~0.1-0.2 s of main thread that an async script waited behind) and long before
// PyScript asks for its interpreter. A worker does both, off the page's main thread (inflating 31 MB takes
// 170-250 ms here; a response body read on, or streamed through, the main thread arrived
// hundreds of ms late while the page was laying itself out); when no worker runs (none
// allowed, or it failed to start), the page does it itself. interpreter.js takes the
// result from globalThis.chunkInspectorSnapshot: a promise of the inflated bytes, or a
// rejection whose message says why there are none ("missing: HTTP 404", "not downloaded:
// …", "corrupt: …", "first visit on a slow link: …").
//
// The snapshot costs bytes: ≈ 7 MB gzip (its heap's free memory zeroed at build time:
// sitebuild/snapshot_maker.mjs), where the whole of a normal boot's runtime costs
// ≈ 4.5 MB. On a fast link it is still the quicker start (it saves seconds of Python start-up
// for a fraction of a second of download), on a slow one the slower (10 Mbit/s: ≈ 6.5 s for
// its bytes alone). So it is used when a cache holds it (a repeat visit: the service worker
// stored it after the first result), on a link from this machine (localhost, 127.0.0.1,
// ::1: fast, and not measured: on a busy machine a probe measured loopback slow), and on a
// first visit whose link is fast. The link probe is the snapshot's own download, asked for
// at once: its first PROBE_MS of bytes (after the response's headers) tell the link's speed
// (the browser's HTTP cache answers at once: fast), and the download simply goes on when that
// is at least FAST_MBIT; otherwise it is cancelled there, having taken a fraction of a second
// of a slow link's bandwidth, and the page boots normally. The service worker (offline.js
// registers it after the first result) then stores the snapshot for the next visit, inflated:
// a repeat visit reads it straight from the worker's cache with nothing to inflate, and
// checks its SHA-256 (index.html's data-snapshot-sha256) where the gzip's CRC checked it.
(() => {
  performance.mark("ci:snapshot-script");
  const script = document.currentScript;
  const url = new URL(script.dataset.snapshot, location.href).href;
  const sha256 = script.dataset.snapshotSha256;
  // The snapshot shares the link with the page's other first downloads (Pyodide's wasm,
  // preloaded below, among them): in its first PROBE_MS the probe reads a share of the
  // link's speed (bench/bench_boot.py, gzip host: 2.1 Mbit/s measured on a 10 Mbit/s link,
  // 17-66 on a 100 Mbit/s one, the less the busier the machine). The snapshot's extra
  // ~7 MB cost less than the ~4 s of Python start-up they save from a link of about
  // 16-20 Mbit/s up (quiet machine; less on a busy one): 6 measured is about 25.
  const FAST_MBIT = 6;
  const PROBE_MS = 250; // the probe's window, from the response's headers on
  const HEADERS_WAIT_MS = 3000; // no headers by then: the link is slow (or the host)
  const report = (detail) => dispatchEvent(new CustomEvent("ci:boot", { detail }));
  const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

  // Reads and inflates the snapshot's response into an ArrayBuffer, telling `tell` about
  // the download: {seen, total} at most every 100 ms, {downloaded} once every byte has
  // arrived. Rejects with why there is no snapshot. Runs in the worker (its source is
  // copied into the worker's code below) or, without one, in the page.
  // `opened`: a promise of the response as {ok, status, length, inflated, body, headersAt}
  // (headersAt: when its headers came, ms since 1970), opened by the page (see request
  // below).
  // The service worker's copy is inflated already (static/sw.js marks it): its SHA-256 must
  // be `sha256` (index.html's data-snapshot-sha256), as the gzip's CRC checks the other.
  // `probe` ({mbit, ms}, or null): the download is the link's probe. It goes on as soon as
  // it has brought at least mbit Mbit/s since its headers, over ms at least; if it has
  // not by then, it is cancelled: a rejection whose message starts "slow link". Either
  // way it tells {measured} (Mbit/s); once it goes on, {started}.
  const fetchInflated = async (opened, tell, sha256, probe, gzip) => {
    const response = await opened;
    if (!response.ok) throw new Error(`missing: HTTP ${response.status}`);
    if (response.inflated) {
      tell({ started: true });
      let bytes;
      try {
        bytes = await new Response(response.body).arrayBuffer();
      } catch (error) {
        throw new Error(`corrupt: ${error.message || error}`);
      }
      tell({ downloaded: true });
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
      const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
      if (hex !== sha256) throw new Error("corrupt: the stored copy's SHA-256 differs");
      return bytes;
    }
    const headers = response.headersAt - performance.timeOrigin; // on this thread's clock
    let seen = 0;
    let decided = !probe;
    let slow = null; // why the probe cancelled the download
    let windowEnd = 0;
    let counter = null; // the counting stream's controller
    const elapsed = () => Math.max(performance.now() - headers, 1);
    const fastEnough = () => (seen * 8) / Math.max(elapsed(), probe.ms) / 1000 >= probe.mbit;
    const decide = (fast) => {
      decided = true;
      clearTimeout(windowEnd);
      const measured = (seen * 8) / elapsed() / 1000;
      tell({ measured });
      if (fast) return tell({ started: true });
      slow = new Error(`slow link (${measured.toFixed(1)} Mbit/s)`);
      counter.error(slow); // cancels the response's body: the request ends here
    };
    let shown = 0;
    const counting = new TransformStream({
      start(controller) {
        counter = controller;
      },
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (!decided && fastEnough()) decide(true);
        const now = performance.now();
        if (response.length && now - shown > 100) {
          shown = now;
          tell({ seen, total: response.length });
        }
        controller.enqueue(chunk);
      },
      flush() {
        if (!decided) decide(true); // all of it within the window: fast
        tell({ downloaded: true });
      },
    });
    if (decided) tell({ started: true });
    else {
      // the window's end; at least a moment from now, for bytes that arrived meanwhile
      const wait = Math.max(headers + probe.ms - performance.now(), 50);
      windowEnd = setTimeout(() => decided || decide(fastEnough()), wait);
    }
    const compressed = response.body.pipeThrough(counting);
    try {
      // Inflated as the bytes arrive (a file not named .gz came with Content-Encoding: the
      // browser inflated it). An error here is about the data, or a download that broke
      // off midway: the snapshot is unusable either way; the gzip CRC catches damage.
      const body = gzip ? compressed.pipeThrough(new DecompressionStream("gzip")) : compressed;
      return await new Response(body).arrayBuffer();
    } catch (error) {
      throw slow || new Error(`corrupt: ${error.message || error}`);
    } finally {
      clearTimeout(windowEnd);
    }
  };

  // The response in the shape fetchInflated reads (see there); `at` = when it came.
  const shape = (response, at) => ({
    ok: response.ok,
    status: response.status,
    length: Number(response.headers.get("Content-Length")) || 0,
    inflated: response.headers.get("Chunk-Inspector-Snapshot") === "inflated",
    body: response.body,
    headersAt: at,
  });

  // Opens the snapshot's response (shaped): `from` "cache", the copy a service worker
  // stored (a page it controls: its cache is read directly, not through a request to the
  // worker); otherwise a request, whose headers must come within `wait` ms when it is the
  // link's probe (`wait` set), or it is a slow link.
  const open = async (url, from, wait) => {
    const now = () => performance.timeOrigin + performance.now();
    if (from === "cache") {
      try {
        const stored = globalThis.caches ? await caches.match(url) : null;
        return shape(stored || (await fetch(url)), now());
      } catch (error) {
        throw new Error(`not downloaded: ${error.message || error}`);
      }
    }
    const cancel = new AbortController();
    let late = false;
    const waited = wait
      ? setTimeout(() => {
          late = true;
          cancel.abort();
        }, wait)
      : 0;
    try {
      return shape(await fetch(url, { signal: cancel.signal }), now());
    } catch (error) {
      if (late) throw new Error("slow link (speed unknown)");
      throw new Error(`not downloaded: ${error.message || error}`);
    } finally {
      clearTimeout(waited);
    }
  };

  // Resolves once the snapshot's bytes are on their way (a cached copy, or a download
  // after a fast link's probe): interpreter.js then lets Pyodide compile its wasm while
  // they arrive. Never resolves when no snapshot comes.
  let started;
  globalThis.chunkInspectorSnapshotStarted = new Promise((resolve) => (started = resolve));

  // What the page shows and marks of the download, from either place.
  const told = (data) => {
    if (data.measured !== undefined) {
      performance.mark("ci:link-measured", { detail: { mbit: data.measured } });
    } else if (data.started) {
      performance.mark("ci:snapshot-started");
      started();
    } else if (data.total) {
      const text = `Downloading the start-up snapshot: ${megabytes(data.seen)} of ${megabytes(data.total)} MB`;
      report({ stage: "progress", text });
    } else if (data.downloaded) {
      performance.mark("ci:snapshot-downloaded");
    }
  };

  // The worker's code. It runs from a blob: URL (the policy's worker-src allows blob:), so
  // starting it needs no request of its own. Receives {url, from, wait, sha256, probe,
  // gzip}; answers what fetchInflated tells, then {bytes} (transferred) or {error}.
  const workerMain = () => {
    addEventListener("message", async ({ data }) => {
      const { url, from, wait, sha256, probe, gzip } = data;
      try {
        const opened = open(url, from, wait);
        const bytes = await fetchInflated(opened, postMessage, sha256, probe, gzip);
        postMessage({ bytes }, [bytes]);
      } catch (error) {
        postMessage({ error: String(error?.message || error) });
      }
    });
  };

  // The bytes from a worker; rejects with {workerFailed} when no worker could run.
  const inWorker = (message) =>
    new Promise((resolve, reject) => {
      const noWorker = (why) => Object.assign(new Error(why), { workerFailed: true });
      let worker;
      try {
        const code =
          `const fetchInflated = ${fetchInflated};\nconst shape = ${shape};\n` +
          `const open = ${open};\n(${workerMain})();`;
        worker = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })));
      } catch (error) {
        reject(noWorker(error.message));
        return;
      }
      worker.onmessage = ({ data }) => {
        if (!("bytes" in data || "error" in data)) return told(data);
        worker.terminate();
        if (data.error) reject(new Error(data.error));
        else resolve(data.bytes);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        worker.terminate();
        reject(noWorker(event.message || "the worker failed"));
      };
      worker.postMessage(message);
    });

  const gzip = new URL(url).pathname.endsWith(".gz");
  const attempt = (from) => {
    const probe = from === "probed" ? { mbit: FAST_MBIT, ms: PROBE_MS } : null;
    const wait = probe ? HEADERS_WAIT_MS : 0;
    performance.mark("ci:snapshot-requested");
    return inWorker({ url, from, wait, sha256, probe, gzip }).catch((error) => {
      if (!error.workerFailed) throw error;
      return fetchInflated(open(url, from, wait), told, sha256, probe, gzip); // in the page
    });
  };

  // This machine: no probe, the link is fast (other 127.x addresses are probed, which is
  // how tests and benchmarks serve a throttled host: bench/bench_boot.py uses 127.0.0.2).
  const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];
  const loopback = LOOPBACK.includes(location.hostname);

  // A first visit (no service worker controls the page) needs every byte of Pyodide's
  // wasm, on either path; Pyodide asks for it only once it starts loading (after PyScript's
  // own start). A preload asks for it now, beside the snapshot: Pyodide's own
  // request (same URL, same credentials mode) takes the preloaded response. Not on a
  // repeat visit: the service worker's cache serves it there, and a preload on warm loads
  // kept V8 from reusing its compiled wasm (see index.html). Nor on loopback: there the
  // snapshot and with it the wasm are asked for at once anyway, and the preloaded 9.6 MB,
  // delivered to the page's main thread, delayed PyScript's start by ~300 ms in a
  // bench/bench_boot.py run on localhost (0.48× bare, 0.42× without it).
  if (!loopback && !navigator.serviceWorker?.controller && script.dataset.wasm) {
    const preload = document.createElement("link");
    Object.assign(preload, { rel: "preload", as: "fetch", crossOrigin: "anonymous" });
    preload.href = new URL(script.dataset.wasm, location.href).href;
    document.head.append(preload);
  }

  // A page its service worker controls has the snapshot in that worker's cache; on
  // loopback a plain request (the HTTP cache answers it when it can) is asked at once;
  // anywhere else the request is asked at once too, and is the link's probe.
  const first = navigator.serviceWorker?.controller ? "cache" : loopback ? "network" : "probed";
  globalThis.chunkInspectorSnapshot = attempt(first)
    .catch((error) => {
      if (!error.message.startsWith("slow link")) throw error;
      const speed = error.message.slice("slow link ".length);
      throw new Error(`first visit on a slow link ${speed}: saved for the next visit`);
    })
    .then((bytes) => {
      performance.mark("ci:snapshot-inflated");
      return new Uint8Array(bytes);
    });
  globalThis.chunkInspectorSnapshot.catch(() => {}); // interpreter.js handles it
})();
