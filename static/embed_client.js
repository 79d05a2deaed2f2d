// The page's door to the embedding model (app/embeddings.py drives it): says whether this
// browser can run it, starts static/embed_worker.js when Semantic or Hybrid retrieval is
// first chosen, and relays the worker's progress and vectors. Nothing here runs, and
// nothing of the model or its runtime is requested, until Python calls `load`: a first
// visit costs this file only.
//
// What is downloaded, all from the page's own origin, in this order: onnxruntime-web's
// module and wasm (static/vendor/onnxruntime-web-<version>/, their sizes and SHA-256 in
// this script's data-runtime-files, written by the build) and the model
// (static/model/all-MiniLM-L6-v2.onnx, its size and SHA-256 in static/model/manifest.json).
globalThis.chunkInspectorEmbed = (() => {
  const script = document.currentScript;
  const base = document.baseURI;
  const runtime = new URL(`${script.dataset.runtime}/`, base);
  const modelFolder = new URL(`${script.dataset.model}/`, base);
  const workerUrl = new URL("embed_worker.js", script.src);
  const offlineId = document.querySelector("script[data-offline-id]")?.dataset.offlineId;
  const cacheName = offlineId ? `chunk-inspector-${offlineId}` : "";

  // A module of one function whose body uses a SIMD instruction (v128 const + i8x16
  // splat): it validates only where WebAssembly SIMD is supported.
  const SIMD_PROBE = new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0,
    253, 15, 253, 98, 11,
  ]);

  // "" when the model can run here, else why not (a sentence for the page to show).
  const support = () => {
    if (typeof WebAssembly !== "object" || !WebAssembly.validate?.(SIMD_PROBE)) {
      return "this browser does not offer WebAssembly SIMD, which the embedding model's runtime needs";
    }
    if (typeof Worker !== "function") {
      return "this browser does not offer Web Workers, in which the embedding model runs";
    }
    if (!globalThis.crypto?.subtle) {
      return "the page is not served over HTTPS (or from this computer), so the model's download could not be checked";
    }
    return "";
  };

  const runtimeFiles = () =>
    (script.dataset.runtimeFiles || "")
      .split(" ")
      .filter(Boolean)
      .map((entry) => {
        const [name, bytes, sha256] = entry.split(":");
        return { name, url: new URL(name, runtime).href, bytes: Number(bytes), sha256 };
      });

  // The model's entry in manifest.json: {files: [{name, bytes, sha256}]} or
  // {files: {name: {bytes, sha256}}} ("size" accepted for "bytes").
  const modelEntry = (manifest) => {
    const files = manifest.files ?? manifest;
    const entries = Array.isArray(files)
      ? files.map((f) => [f.name ?? f.file ?? f.path, f])
      : Object.entries(files);
    const found = entries.find(([name]) => String(name).endsWith(".onnx"));
    if (!found) throw Object.assign(new Error("no .onnx file listed"), { file: "manifest.json" });
    const [name, f] = found;
    return {
      name,
      url: new URL(name, modelFolder).href,
      bytes: Number(f.bytes ?? f.size),
      sha256: String(f.sha256).toLowerCase(),
    };
  };

  // manifest.json: the build's cache's copy (the same build serves the same file), else
  // the network; kept once the model has loaded.
  const manifestUrl = new URL("manifest.json", modelFolder).href;
  const readManifest = async () => {
    const cache = cacheName && globalThis.caches ? await caches.open(cacheName) : null;
    const kept = cache ? await cache.match(manifestUrl) : null;
    let response = kept;
    if (!response) {
      try {
        response = await fetch(manifestUrl, { cache: "no-cache", credentials: "same-origin" });
      } catch {
        throw Object.assign(new Error("the download failed"), { file: "manifest.json" });
      }
    }
    if (!response.ok) {
      throw Object.assign(new Error(`the server answered HTTP ${response.status}`), {
        file: "manifest.json",
      });
    }
    const text = await response.text();
    const headers = { "Content-Type": "application/json" };
    const keep = kept || !cache ? null : () => cache.put(manifestUrl, new Response(text, { headers }));
    return { manifest: JSON.parse(text), keep };
  };

  let worker = null;
  let loading = null; // the promise of the current load
  let jobs = 0;
  const handlers = new Map(); // job -> {vectors, done, error}

  const onMessage = ({ data }) => {
    if (data.type === "vectors" || data.type === "done" || data.type === "error") {
      const job = handlers.get(data.job);
      if (!job) return;
      if (data.type === "vectors") job.vectors(data.indexes, data.data);
      else {
        handlers.delete(data.job);
        if (data.type === "done") job.done();
        else job.error(data.reason);
      }
    }
  };

  // Loads the runtime and the model; `progress(loaded, total)` hears the bytes as they
  // arrive. Resolves {seconds, fromCache, bytes}; rejects with {file, reason}. After a
  // failure the worker is dropped, so the next load starts clean.
  const load = (progress) => {
    if (loading) return loading;
    loading = (async () => {
      const { manifest, keep } = await readManifest();
      const model = modelEntry(manifest);
      const files = runtimeFiles();
      const mjs = files.find((f) => f.name.endsWith(".mjs"));
      const wasm = files.find((f) => f.name.endsWith(".wasm"));
      worker = new Worker(workerUrl, { type: "module", name: "embedding model" });
      const answer = new Promise((resolve, reject) => {
        worker.addEventListener("message", ({ data }) => {
          if (data.type === "progress") progress(data.loaded, data.total);
          else if (data.type === "ready") resolve(data);
          else if (data.type === "failed") reject(data);
        });
        worker.addEventListener("error", (event) =>
          reject({ file: "embed_worker.js", reason: event.message || "the worker did not start" }),
        );
      });
      worker.addEventListener("message", onMessage);
      worker.postMessage({
        type: "load",
        cache: cacheName,
        ort: mjs.url,
        files: [
          { ...mjs, kind: "module" },
          { ...wasm, kind: "wasm" },
          { ...model, kind: "model" },
        ],
      });
      const ready = await answer;
      await keep?.();
      return { ...ready, bytes: files.reduce((s, f) => s + f.bytes, model.bytes) };
    })().catch((error) => {
      worker?.terminate();
      worker = null;
      loading = null;
      throw { file: error.file ?? "the model", reason: error.reason ?? error.message ?? String(error) };
    });
    return loading;
  };

  // `load` for the page's Python: resolves {ok: true, seconds, fromCache, bytes} or
  // {ok: false, file, reason}, never rejects (a rejection reaches Python as an exception
  // whose fields are not the object's).
  const settle = (progress) =>
    load(progress).then(
      (ready) => ({ ok: true, ...ready }),
      (error) => ({ ok: false, file: error.file, reason: error.reason }),
    );

  // Embeds the id lists in `idsJson` (a JSON list of lists of word-piece ids):
  // `vectors(indexes, Float32Array)` per batch (the rows of the texts at `indexes`),
  // then `done()`, or `error(reason)`.
  const embed = (idsJson, vectors, done, error) => {
    if (!worker) {
      error("the model is not loaded");
      return 0;
    }
    const job = ++jobs;
    handlers.set(job, { vectors, done, error });
    worker.postMessage({ type: "embed", job, ids: idsJson }); // parsed in the worker
    return job;
  };

  // A job nobody waits for any more (a newer edit): its batches are ignored as they come.
  const forget = (job) => {
    handlers.delete(job);
    worker?.postMessage({ type: "cancel", job });
  };

  return { support, load, settle, embed, forget };
})();
