// Starts the start-up snapshot's download at once (a classic async script in <head>, so it
// runs as soon as it arrives, long before PyScript asks for its interpreter) and inflates it
// in a worker (inflate.js) as the bytes arrive: the response body is handed over to the
// worker, which can take 100-200 ms to start. interpreter.js takes the result from
// globalThis.chunkInspectorSnapshot: a promise of the inflated bytes, or a rejection whose
// message says why there are none ("missing: HTTP 404", "not downloaded: …", "corrupt: …").
// Without a worker (none allowed, or its script failed) the rejection says so
// (workerFailed) and interpreter.js fetches and inflates the snapshot in the page instead.
(() => {
  const script = document.currentScript;
  const report = (detail) => dispatchEvent(new CustomEvent("ci:boot", { detail }));
  const megabytes = (bytes) => (bytes / 1e6).toFixed(1);
  const noWorker = (why) => Object.assign(new Error(why), { workerFailed: true });

  const inflate = (response) =>
    new Promise((resolve, reject) => {
      let worker;
      try {
        worker = new Worker(script.dataset.worker);
      } catch (error) {
        response.body.cancel();
        reject(noWorker(error.message));
        return;
      }
      const total = Number(response.headers.get("Content-Length")) || 0;
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
      worker.postMessage({ body: response.body, total }, [response.body]);
    });

  const download = async () => {
    let response;
    try {
      response = await fetch(script.dataset.snapshot);
    } catch (error) {
      throw new Error(`not downloaded: ${error.message || error}`);
    }
    if (!response.ok) throw new Error(`missing: HTTP ${response.status}`);
    return inflate(response);
  };

  globalThis.chunkInspectorSnapshot = download();
  globalThis.chunkInspectorSnapshot.catch(() => {}); // interpreter.js handles it
})();
