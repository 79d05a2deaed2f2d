// Inlined into index.html's <head> by the build (its slot html:wasm_preload),
// allowed by its SHA-256 in the page's policy (sitebuild/policy.py): the one inline script.
// A first visit (a page no service worker controls) needs every byte of Pyodide's wasm, on
// either boot path, but Pyodide asks for it only once it starts loading (on a slow link,
// after the link probe). A preload asks for it with the page's first requests. Inline, not
// in snapshot.js: that script's own round trip came first (bench/bench_boot.py, 100 Mbit/s,
// 40 ms per request: the wasm's request left ~160 ms after navigation, its first byte
// ~280 ms; the link carried little meanwhile).
// What it preloads: the wasm's brotli copy (2.7 MB, the gzip file 3.5 MB) when the build
// has one and this browser can decode and check it (snapshot.js decodes it in a worker,
// and interpreter.js hands Pyodide the result); it names it in chunkInspectorWasmBrotli.
// Otherwise the wasm itself, whose preloaded response Pyodide's own request (same URL,
// same credentials mode) takes.
// Not on a repeat visit: the service worker's cache serves the wasm there, and a preload
// on warm loads kept V8 from reusing its compiled wasm. Nor on loopback: there the
// snapshot and with it the wasm are asked for at once anyway, and the preloaded 9.6 MB,
// delivered to the page's main thread, delayed PyScript's start by ~300 ms in a
// bench/bench_boot.py run on localhost (0.48x bare, 0.42x without it).
(() => {
  const { wasm, wasmBrotli } = document.currentScript.dataset;
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
  if (!wasm || loopback || navigator.serviceWorker?.controller) return;
  const url = (name) => new URL(name, location.href).href;
  const decodable = wasmBrotli && globalThis.Worker && globalThis.crypto?.subtle;
  if (decodable) globalThis.chunkInspectorWasmBrotli = { brotli: url(wasmBrotli), wasm: url(wasm) };
  const preload = document.createElement("link");
  Object.assign(preload, { rel: "preload", as: "fetch", crossOrigin: "anonymous" });
  preload.href = url(decodable ? wasmBrotli : wasm);
  document.head.append(preload);
})();
