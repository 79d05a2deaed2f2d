// The page's service worker: keeps exactly this build's files (the manifest below, written
// by sitebuild/offline.py) in one cache and serves them when the network is gone.
//
// - Install: every file of the manifest, from this origin only. A file under static/ is
//   content-addressed (static/build-<hash>/, static/vendor/<package>-<version>/), so one
//   an earlier build already cached is copied from there instead of downloaded again.
// - Activate: drop every earlier build's cache, then take over the open pages.
// - Fetch: a GET of a manifest file is answered from the cache (index.html: the network
//   first, so a new deployment is seen at once; the cache when the network fails).
//   Anything else is not touched: no other request is answered, cached or sent from here.
const MANIFEST = {"cache": "chunk-inspector-4f5272d9b02f2325", "files": ["index.html", "static/build-a3e6d3d4ed4b/app.zip", "static/build-a3e6d3d4ed4b/app/chart.py", "static/build-a3e6d3d4ed4b/app/chunkmap.py", "static/build-a3e6d3d4ed4b/app/copycode.py", "static/build-a3e6d3d4ed4b/app/damage.py", "static/build-a3e6d3d4ed4b/app/describe.py", "static/build-a3e6d3d4ed4b/app/dom.py", "static/build-a3e6d3d4ed4b/app/evidence.py", "static/build-a3e6d3d4ed4b/app/export.py", "static/build-a3e6d3d4ed4b/app/form.py", "static/build-a3e6d3d4ed4b/app/histogram.py", "static/build-a3e6d3d4ed4b/app/inspector.py", "static/build-a3e6d3d4ed4b/app/main.py", "static/build-a3e6d3d4ed4b/app/preview.py", "static/build-a3e6d3d4ed4b/app/readiness.py", "static/build-a3e6d3d4ed4b/app/records.py", "static/build-a3e6d3d4ed4b/app/settings.py", "static/build-a3e6d3d4ed4b/app/snippets.py", "static/build-a3e6d3d4ed4b/app/source.py", "static/build-a3e6d3d4ed4b/app/summary.py", "static/build-a3e6d3d4ed4b/app/theme.py", "static/build-a3e6d3d4ed4b/app/tokenizer_file.py", "static/build-a3e6d3d4ed4b/boot.js", "static/build-a3e6d3d4ed4b/chunkmap.js", "static/build-a3e6d3d4ed4b/interpreter.js", "static/build-a3e6d3d4ed4b/lib.zip", "static/build-a3e6d3d4ed4b/offline.js", "static/build-a3e6d3d4ed4b/plotly-later.js", "static/build-a3e6d3d4ed4b/render.js", "static/build-a3e6d3d4ed4b/sample-questions.csv", "static/build-a3e6d3d4ed4b/sample.txt", "static/build-a3e6d3d4ed4b/snapshot-37ae2a2cdf086adb6b01.bin.gz", "static/build-a3e6d3d4ed4b/snapshot.js", "static/build-a3e6d3d4ed4b/style.css", "static/build-a3e6d3d4ed4b/wheels/chunker_py-0.2.0-py3-none-any.whl", "static/vendor/plotly-basic-4.1.1/LICENSE", "static/vendor/plotly-basic-4.1.1/plotly-basic.min.js", "static/vendor/pyodide-314.0.7/LICENSE", "static/vendor/pyodide-314.0.7/LICENSE.micropip", "static/vendor/pyodide-314.0.7/micropip-0.11.1-py3-none-any.whl", "static/vendor/pyodide-314.0.7/pyodide-lock.json", "static/vendor/pyodide-314.0.7/pyodide.asm.mjs", "static/vendor/pyodide-314.0.7/pyodide.asm.wasm", "static/vendor/pyodide-314.0.7/pyodide.mjs", "static/vendor/pyodide-314.0.7/python_stdlib.zip", "static/vendor/pyscript-core-0.7.31/LICENSE", "static/vendor/pyscript-core-0.7.31/codemirror-BDx3jn9j.js", "static/vendor/pyscript-core-0.7.31/codemirror_commands-JTJPAaAA.js", "static/vendor/pyscript-core-0.7.31/codemirror_lang-python-r-dBg-Wd.js", "static/vendor/pyscript-core-0.7.31/codemirror_language-BeYrpeur.js", "static/vendor/pyscript-core-0.7.31/codemirror_state-DxSVIxgn.js", "static/vendor/pyscript-core-0.7.31/codemirror_view-BsXnWedx.js", "static/vendor/pyscript-core-0.7.31/core-C9KDLldu.js", "static/vendor/pyscript-core-0.7.31/core.css", "static/vendor/pyscript-core-0.7.31/core.js", "static/vendor/pyscript-core-0.7.31/deprecations-manager-UpAPKqCb.js", "static/vendor/pyscript-core-0.7.31/donkey-4Hrqd7WZ.js", "static/vendor/pyscript-core-0.7.31/error-D2315lOB.js", "static/vendor/pyscript-core-0.7.31/index-CSo4Vcso.js", "static/vendor/pyscript-core-0.7.31/mpy-Dvj-3zXq.js", "static/vendor/pyscript-core-0.7.31/py-Dl-y4L1b.js", "static/vendor/pyscript-core-0.7.31/py-editor-C4XsZtn7.js", "static/vendor/pyscript-core-0.7.31/py-game-DWiCrr7a.js", "static/vendor/pyscript-core-0.7.31/py-terminal-CwQ6kcjg.js", "static/vendor/pyscript-core-0.7.31/pyodide_graph-CX6fRcVL.js", "static/vendor/pyscript-core-0.7.31/toml-Blg7Izee.js", "static/vendor/pyscript-core-0.7.31/toml-V4Savzlc.js", "static/vendor/pyscript-core-0.7.31/xterm-Bdboj2r8.js", "static/vendor/pyscript-core-0.7.31/xterm-readline-CVifJ5yI.js", "static/vendor/pyscript-core-0.7.31/xterm.css", "static/vendor/pyscript-core-0.7.31/xterm_addon-fit-43qXDVCl.js", "static/vendor/pyscript-core-0.7.31/xterm_addon-web-links-DVH-i-UR.js", "static/vendor/pyscript-core-0.7.31/zip-T1gzVEcZ.js"], "id": "4f5272d9b02f2325"};

const scope = new URL("./", self.location.href);
const urlOf = (name) => new URL(name, scope).href;
const kept = new Set(MANIFEST.files.map(urlOf));
const INDEX = urlOf("index.html");
const contentAddressed = (name) => name.startsWith("static/");

const ownCaches = async () =>
  (await caches.keys()).filter((name) => name.startsWith("chunk-inspector-"));

const earlierCopy = async (url) => {
  for (const name of await ownCaches()) {
    if (name === MANIFEST.cache) continue;
    const found = await (await caches.open(name)).match(url);
    if (found) return found;
  }
  return null;
};

const download = async (name) => {
  const url = urlOf(name);
  const reused = contentAddressed(name) ? await earlierCopy(url) : null;
  if (reused) return [url, reused];
  const response = await fetch(url, { cache: "no-cache", credentials: "same-origin" });
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return [url, response];
};

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(MANIFEST.cache);
      for (const name of MANIFEST.files) {
        const [url, response] = await download(name);
        await cache.put(url, response);
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await ownCaches()) {
        if (name !== MANIFEST.cache) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

const fromCache = async (url) => (await caches.open(MANIFEST.cache)).match(url);

const pageRequest = (request) => {
  const url = new URL(request.url);
  url.hash = "";
  url.search = "";
  return request.mode === "navigate" && (url.href === scope.href || url.href === INDEX);
};

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  if (pageRequest(request)) {
    event.respondWith(
      fetch(request).catch(async (error) => (await fromCache(INDEX)) || Promise.reject(error)),
    );
    return;
  }
  const url = new URL(request.url);
  url.hash = "";
  if (!kept.has(url.href)) return;
  event.respondWith(
    (async () => (await fromCache(url.href)) || fetch(request))(),
  );
});

// static/offline.js asks which build this worker holds, to say whether the page it shows
// is available offline.
self.addEventListener("message", (event) => {
  if (event.data?.type === "offline-id" && event.ports[0]) {
    event.ports[0].postMessage(MANIFEST.id);
  }
});
