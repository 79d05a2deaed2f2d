// Starts the start-up snapshot's download and inflation as the page starts: a classic
// async script in <head>, so it runs as soon as it arrives, long before PyScript asks for
// its interpreter. A worker does both, off the page's main thread (inflating 31 MB takes
// 170-250 ms here; a response body read on, or streamed through, the main thread arrived
// hundreds of ms late while the page was laying itself out). interpreter.js takes the
// result from globalThis.chunkInspectorSnapshot: a promise of the inflated bytes, or a
// rejection whose message says why there are none ("missing: HTTP 404", "not downloaded:
// …", "corrupt: …"). When no worker runs (none allowed, or it failed to start) the
// rejection says so (workerFailed) and interpreter.js fetches and inflates the snapshot in
// the page instead.
(() => {
  const script = document.currentScript;
  const url = new URL(script.dataset.snapshot, location.href).href;
  const report = (detail) => dispatchEvent(new CustomEvent("ci:boot", { detail }));
  const megabytes = (bytes) => (bytes / 1e6).toFixed(1);
  const noWorker = (why) => Object.assign(new Error(why), { workerFailed: true });

  // The worker's code. It runs from a blob: URL (the policy's worker-src allows blob:), so
  // starting it needs no request of its own. Receives {url}; answers
  //   {seen, total}   bytes downloaded so far (at most every 100 ms)
  //   {downloaded}    once every byte has arrived
  //   {bytes}         the inflated snapshot (transferred)
  //   {error}         why there is none (the gzip CRC catches a damaged file)
  const inflater = () => {
    const download = async (url) => {
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
            postMessage({ seen, total });
          }
          controller.enqueue(chunk);
        },
        flush() {
          postMessage({ downloaded: true });
        },
      });
      return response.body.pipeThrough(counting);
  };

  addEventListener("message", async ({ data: { url } }) => {
    try {
      const compressed = await download(url);
      let bytes;
      try {
        // inflated as the bytes arrive; an error here is about the data (or a download
        // that broke off midway), which makes the snapshot unusable either way
        // (a file not named .gz came with Content-Encoding: the browser inflated it)
        const gzip = new URL(url).pathname.endsWith(".gz");
        const inflated = gzip ? compressed.pipeThrough(new DecompressionStream("gzip")) : compressed;
        bytes = await new Response(inflated).arrayBuffer();
      } catch (error) {
        throw new Error(`corrupt: ${error.message || error}`);
      }
      postMessage({ bytes }, [bytes]);
    } catch (error) {
      postMessage({ error: String(error?.message || error) });
    }
  });
  };

  globalThis.chunkInspectorSnapshot = new Promise((resolve, reject) => {
    let worker;
    try {
      const code = new Blob([`(${inflater})();`], { type: "text/javascript" });
      worker = new Worker(URL.createObjectURL(code));
    } catch (error) {
      reject(noWorker(error.message));
      return;
    }
    worker.onmessage = ({ data }) => {
      if (data.total) {
        const text = `Downloading the start-up snapshot: ${megabytes(data.seen)} of ${megabytes(data.total)} MB`;
        report({ stage: "progress", text });
        return;
      }
      if (data.downloaded) {
        performance.mark("ci:snapshot-downloaded");
        return;
      }
      worker.terminate();
      if (data.error) return reject(new Error(data.error));
      performance.mark("ci:snapshot-inflated");
      resolve(new Uint8Array(data.bytes));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      reject(noWorker(event.message || "the worker failed"));
    };
    worker.postMessage({ url });
  });
  globalThis.chunkInspectorSnapshot.catch(() => {}); // interpreter.js handles it
})();
