// Starts the start-up snapshot's download and inflation as the page starts: a classic
// async script in <head>, so it runs as soon as it arrives, long before PyScript asks for
// its interpreter. A worker does both, off the page's main thread (inflating 31 MB takes
// 170-250 ms here; a response body read on, or streamed through, the main thread arrived
// hundreds of ms late while the page was laying itself out); when no worker runs (none
// allowed, or it failed to start), the page does it itself. interpreter.js takes the
// result from globalThis.chunkInspectorSnapshot: a promise of the inflated bytes, or a
// rejection whose message says why there are none ("missing: HTTP 404", "not downloaded:
// …", "corrupt: …").
(() => {
  const script = document.currentScript;
  const url = new URL(script.dataset.snapshot, location.href).href;
  const report = (detail) => dispatchEvent(new CustomEvent("ci:boot", { detail }));
  const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

  // Downloads and inflates the snapshot at `url` into an ArrayBuffer, telling `tell` about
  // the download: {seen, total} at most every 100 ms, {downloaded} once every byte has
  // arrived. Rejects with why there is no snapshot. Runs in the worker (its source is
  // copied into the worker's code below) or, without one, in the page.
  const fetchInflated = async (url, tell) => {
    let response;
    try {
      response = await fetch(url);
    } catch (error) {
      throw new Error(`not downloaded: ${error.message || error}`);
    }
    if (!response.ok) throw new Error(`missing: HTTP ${response.status}`);
    const total = Number(response.headers.get("Content-Length")) || 0;
    let seen = 0;
    let shown = 0;
    const counting = new TransformStream({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        const now = performance.now();
        if (total && now - shown > 100) {
          shown = now;
          tell({ seen, total });
        }
        controller.enqueue(chunk);
      },
      flush() {
        tell({ downloaded: true });
      },
    });
    const compressed = response.body.pipeThrough(counting);
    try {
      // Inflated as the bytes arrive (a file not named .gz came with Content-Encoding: the
      // browser inflated it). An error here is about the data, or a download that broke
      // off midway: the snapshot is unusable either way; the gzip CRC catches damage.
      const gzip = new URL(url).pathname.endsWith(".gz");
      const body = gzip ? compressed.pipeThrough(new DecompressionStream("gzip")) : compressed;
      return await new Response(body).arrayBuffer();
    } catch (error) {
      throw new Error(`corrupt: ${error.message || error}`);
    }
  };

  // What the page shows and marks of the download, from either place.
  const told = (data) => {
    if (data.total) {
      const text = `Downloading the start-up snapshot: ${megabytes(data.seen)} of ${megabytes(data.total)} MB`;
      report({ stage: "progress", text });
    } else if (data.downloaded) {
      performance.mark("ci:snapshot-downloaded");
    }
  };

  // The worker's code. It runs from a blob: URL (the policy's worker-src allows blob:), so
  // starting it needs no request of its own. Receives {url}; answers what fetchInflated
  // tells, then {bytes} (transferred) or {error}.
  const workerMain = () => {
    addEventListener("message", async ({ data: { url } }) => {
      try {
        const bytes = await fetchInflated(url, postMessage);
        postMessage({ bytes }, [bytes]);
      } catch (error) {
        postMessage({ error: String(error?.message || error) });
      }
    });
  };

  // The bytes from a worker; rejects with {workerFailed} when no worker could run.
  const inWorker = () =>
    new Promise((resolve, reject) => {
      const noWorker = (why) => Object.assign(new Error(why), { workerFailed: true });
      let worker;
      try {
        const code = `const fetchInflated = ${fetchInflated};\n(${workerMain})();`;
        worker = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })));
      } catch (error) {
        reject(noWorker(error.message));
        return;
      }
      worker.onmessage = ({ data }) => {
        if (data.total || data.downloaded) return told(data);
        worker.terminate();
        if (data.error) reject(new Error(data.error));
        else resolve(data.bytes);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        worker.terminate();
        reject(noWorker(event.message || "the worker failed"));
      };
      worker.postMessage({ url });
    });

  globalThis.chunkInspectorSnapshot = inWorker()
    .catch((error) => {
      if (!error.workerFailed) throw error;
      return fetchInflated(url, told); // in the page
    })
    .then((bytes) => {
      performance.mark("ci:snapshot-inflated");
      return new Uint8Array(bytes);
    });
  globalThis.chunkInspectorSnapshot.catch(() => {}); // interpreter.js handles it
})();
