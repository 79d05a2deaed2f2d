// PyScript's `interpreter` (pyscript.json points here instead of at pyodide.mjs): the same
// module interface (loadPyodide, version), but it boots Pyodide from the start-up memory
// snapshot that build.py made, and falls back to a normal boot when the snapshot is
// missing, corrupt, refused by Pyodide or made for other code. Then it unpacks the page's
// Python before PyScript runs app/main.py, so no micropip is needed at start-up:
//   app.zip  modules the snapshot does not hold (the app's panel modules need `pyscript`)
//   lib.zip  chunker_py and its dependencies, already imported in the snapshot, so only
//            a normal boot downloads and unpacks them
//
// It reports to the page through `ci:boot` events on window (boot.js shows them):
//   {stage: "progress", text}                    a sentence for #boot-status
//   {stage: "path", path: "snapshot" | "full", reason}   which boot was used, and why not
//                                                the snapshot when it was not

const BUILD = /* build.py fills this in */ {};

const here = (path) => new URL(path, import.meta.url).href;

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

// Marks for benchmarks (bench/bench_boot.py reports them): performance.mark("ci:...").
const mark = (name) => performance.mark(`ci:${name}`);
mark("interpreter-module");

// A worker to inflate the snapshot in, started now so it is ready when the bytes are.
let inflater = null;
try {
  inflater = new Worker(here("./inflate.js"));
} catch {
  // no worker (say, a policy without worker-src 'self'): inflate in the page below
}

const inflateInPage = async (compressed) => {
  const stream = new Blob([compressed]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
};

const inflate = (compressed) => {
  if (!inflater) return inflateInPage(compressed);
  return new Promise((resolve, reject) => {
    inflater.onmessage = ({ data }) => {
      if (data.error) reject(new Error(data.error));
      else resolve(data.bytes);
    };
    inflater.onerror = (event) => {
      event.preventDefault();
      inflateInPage(compressed).then(resolve, reject); // the worker itself failed
    };
    // Copied, not transferred (a few ms): the page keeps the bytes if the worker fails.
    inflater.postMessage(compressed);
  });
};

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
  let bytes;
  try {
    bytes = await new Response(response.body.pipeThrough(counting(total))).arrayBuffer();
  } catch (error) {
    throw new Unusable(`not downloaded: ${error.message || error}`);
  }
  mark("snapshot-downloaded");
  if (!BUILD.snapshot.endsWith(".gz")) return new Uint8Array(bytes); // Content-Encoding did it
  // A .gz file (any static host can serve it) is inflated in a worker; the gzip CRC also
  // catches a corrupt download.
  try {
    const inflated = new Uint8Array(await inflate(bytes));
    mark("snapshot-inflated");
    return inflated;
  } catch (error) {
    throw new Unusable(`corrupt: ${error.message || error}`);
  } finally {
    inflater?.terminate();
  }
}

const snapshot = fetchSnapshot();
snapshot.catch(() => {}); // handled in loadPyodide; never an unhandled rejection

const download = (path) => {
  const bytes = fetch(here(path)).then((response) => {
    if (!response.ok) throw new Error(`${path} failed to load (HTTP ${response.status})`);
    return response.arrayBuffer();
  });
  bytes.catch(() => {}); // reported by boot.js (it watches every request) and rethrown below
  return bytes;
};
const app = download(BUILD.app);

// Imported after the downloads above have started.
const pyodideModule = await import(here(`${BUILD.pyodide}pyodide.mjs`));
export const version = pyodideModule.version;
mark("pyodide-module");

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
  mark("pyodide-restored");
  // build.py leaves the key it made the snapshot for in sys: the code it holds must be the
  // code this page ships (a stale copy under the right name is refused here).
  const key = pyodide.runPython("import sys; getattr(sys, '_chunk_inspector_snapshot', '')");
  if (key !== BUILD.key) throw new Unusable(`stale: made for ${key || "other code"}`);
  return pyodide;
}

async function unpack(pyodide, zips) {
  progress("Loading the page's Python code…");
  for (const zip of zips) {
    pyodide.unpackArchive(await zip, "zip", { extractDir: pyodide.FS.cwd() });
  }
  // Path finders cache directory listings; forget them so the new files are seen.
  // (importlib.invalidate_caches() would also import importlib.metadata: 0.25-1 s here.)
  pyodide.runPython(
    "import sys\nfor f in sys.path_importer_cache.values():\n" +
      "    if hasattr(f, 'invalidate_caches'): f.invalidate_caches()",
  );
  mark("code-unpacked");
}

export async function loadPyodide(options = {}) {
  mark("load-called");
  try {
    const pyodide = await fromSnapshot(options);
    report({ stage: "path", path: "snapshot", reason: "" });
    await unpack(pyodide, [app]);
    return pyodide;
  } catch (error) {
    if (!(error instanceof Unusable)) throw error;
    const reason = error.message;
    console.warn(`Chunk Inspector: start-up snapshot not used (${reason}); booting normally.`);
    report({ stage: "path", path: "full", reason });
    progress(`Starting Python without the start-up snapshot (${reason}); this takes longer…`);
    const lib = download(BUILD.lib);
    const pyodide = await pyodideModule.loadPyodide({ ...options, indexURL });
    mark("pyodide-started");
    await unpack(pyodide, [lib, app]);
    return pyodide;
  }
}
