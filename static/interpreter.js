// PyScript's `interpreter` (pyscript.json points here instead of at pyodide.mjs): the same
// module interface (loadPyodide, version), but it boots Pyodide from the start-up memory
// snapshot that build.py made, and falls back to a normal boot when the snapshot is
// missing, corrupt, refused by Pyodide or made for other code. Either way it unpacks py.zip
// (chunker_py, its dependencies and the app's panel modules) before PyScript runs
// app/main.py, so no micropip is needed at start-up.
//
// It reports to the page through `ci:boot` events on window (boot.js shows them):
//   {stage: "progress", text}                    a sentence for #boot-status
//   {stage: "path", path: "snapshot" | "full", reason}   which boot was used, and why not
//                                                the snapshot when it was not

const BUILD = /* build.py fills this in */ {};

const here = (path) => new URL(path, import.meta.url).href;
const pyodideModule = await import(here(`${BUILD.pyodide}pyodide.mjs`));
export const version = pyodideModule.version;

const report = (detail) => dispatchEvent(new CustomEvent("ci:boot", { detail }));
const progress = (text) => report({ stage: "progress", text });
const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

// Counts bytes as they arrive so the page can show how far the download is.
const counting = (total) => {
  let seen = 0;
  let shown = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      const now = performance.now();
      if (total && now - shown > 100) {
        shown = now;
        progress(`Downloading the start-up snapshot: ${megabytes(seen)} of ${megabytes(total)} MB`);
      }
      controller.enqueue(chunk);
    },
  });
};

class Unusable extends Error {}

// The snapshot's bytes, or an Unusable error saying why not. Started at once (index.html
// also preloads it), so the download overlaps PyScript's own start.
async function fetchSnapshot() {
  let response;
  try {
    response = await fetch(here(BUILD.snapshot));
  } catch (error) {
    throw new Unusable(`not downloaded: ${error.message || error}`);
  }
  if (!response.ok) throw new Unusable(`missing: HTTP ${response.status}`);
  const total = Number(response.headers.get("Content-Length")) || 0;
  // A .gz file is inflated here (any static host can serve it); the gzip CRC also catches a
  // corrupt download. Served with Content-Encoding instead, the browser inflates it.
  let body = response.body.pipeThrough(counting(total));
  if (BUILD.snapshot.endsWith(".gz")) body = body.pipeThrough(new DecompressionStream("gzip"));
  try {
    return new Uint8Array(await new Response(body).arrayBuffer());
  } catch (error) {
    throw new Unusable(`corrupt: ${error.message || error}`);
  }
}

const snapshot = fetchSnapshot();
snapshot.catch(() => {}); // handled in loadPyodide; never an unhandled rejection
const bundle = fetch(here(BUILD.bundle)).then((response) => {
  if (!response.ok) throw new Error(`${BUILD.bundle} failed to load (HTTP ${response.status})`);
  return response.arrayBuffer();
});
bundle.catch(() => {}); // reported by boot.js (it watches every request) and rethrown below

const indexURL = here(BUILD.pyodide);
const firstLine = (error) => String(error?.message || error).trim().split("\n")[0];

// Boots from the snapshot; returns the interpreter, or throws Unusable.
async function fromSnapshot(options) {
  const bytes = await snapshot;
  progress("Starting Python from the start-up snapshot…");
  let pyodide;
  try {
    pyodide = await pyodideModule.loadPyodide({ ...options, indexURL, _loadSnapshot: bytes });
  } catch (error) {
    throw new Unusable(`refused by Pyodide: ${firstLine(error)}`);
  }
  // build.py leaves the key it made the snapshot for in sys: the code it holds must be the
  // code this page ships (a stale copy under the right name is refused here).
  const key = pyodide.runPython("import sys; getattr(sys, '_chunk_inspector_snapshot', '')");
  if (key !== BUILD.key) throw new Unusable(`stale: made for ${key || "other code"}`);
  return pyodide;
}

async function unpackBundle(pyodide) {
  progress("Loading the page's Python code…");
  pyodide.unpackArchive(await bundle, "zip", { extractDir: pyodide.FS.cwd() });
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
}

export async function loadPyodide(options = {}) {
  let pyodide;
  try {
    pyodide = await fromSnapshot(options);
    report({ stage: "path", path: "snapshot", reason: "" });
  } catch (error) {
    if (!(error instanceof Unusable)) throw error;
    const reason = error.message;
    console.warn(`Chunk Inspector: start-up snapshot not used (${reason}); booting normally.`);
    report({ stage: "path", path: "full", reason });
    progress(`Starting Python without the start-up snapshot (${reason}); this takes longer…`);
    pyodide = await pyodideModule.loadPyodide({ ...options, indexURL });
  }
  await unpackBundle(pyodide);
  return pyodide;
}
