// PyScript's `interpreter` (the page's inline PyScript config points here instead of at
// pyodide.mjs): the same module interface (loadPyodide, version), but it boots Pyodide from
// the start-up memory snapshot that build.py made (fetched and inflated by snapshot.js),
// and falls back to a normal boot when the snapshot is missing, corrupt, refused by Pyodide
// or made for other code. Then it unpacks the page's Python before PyScript runs
// app/main.py, so no micropip is needed at start-up:
//   app.zip  what the snapshot does not hold (token data, tokenizers imported lazily)
//   lib.zip  chunker_py, its dependencies and the app's modules, already imported in the
//            snapshot, so only a normal boot downloads and unpacks them
//
// It reports to the page through `ci:boot` events on window (boot.js shows them):
//   {stage: "progress", text}                    a sentence for #boot-status
//   {stage: "path", path: "snapshot" | "full", reason}   which boot was used, and why not
//                                                the snapshot when it was not
//
// The contract with sitebuild/snapshot_imports.py, which prepared the snapshot's Python
// (each name is spelt the same there; tests/build/test_snapshot_imports.py checks both):
//   sys._chunk_inspector_snapshot   the key the snapshot was made for; read after the
//                                   restore and compared with BUILD.key ("stale" if not)
//   globalThis.chunkInspectorUnpack defined by unpackOnDemand when BUILD.appOnDemand: the
//                                   UnpackOnDemand finder (app/boot_finders.py; in the
//                                   snapshot, or installed here on a normal boot) calls it
//                                   once, at the
//                                   first import of a lazy module (the tokenizers), after
//                                   taking itself off sys.meta_path; it deletes itself and
//                                   unpacks app.zip into the working directory
//                                   (/home/pyodide, as at snapshot time)
//   sys._chunk_inspector_precompiled the paths of PyScript's package served precompiled

const BUILD = /* build.py fills this in */ {};

const here = (path) => new URL(path, import.meta.url).href;

const report = (detail) => dispatchEvent(new CustomEvent("ci:boot", { detail }));
const progress = (text) => report({ stage: "progress", text });

class Unusable extends Error {}

// Marks for benchmarks (bench/bench_boot.py reports them): performance.mark("ci:...").
const mark = (name) => performance.mark(`ci:${name}`);
mark("interpreter-module");

// snapshot.js is an async script: on a busy machine it can run after this module (seen in
// tests at load 4-5: the page then booted normally, "snapshot.js did not run"). Resolves once
// it has run or failed: its element's load or error event, or the document's load, which
// an async script delays (a document already loaded has run it).
const snapshotScriptRun = () =>
  new Promise((resolve) => {
    const script = document.querySelector("script[data-snapshot]");
    if (!script || document.readyState === "complete") return resolve();
    for (const event of ["load", "error"]) script.addEventListener(event, resolve, { once: true });
    addEventListener("load", resolve, { once: true });
  });

// The snapshot's bytes, or an Unusable error saying why not. snapshot.js (in the page's
// <head>) has usually started fetching and inflating it long before this runs.
async function fetchSnapshot() {
  if (!globalThis.chunkInspectorSnapshot) await snapshotScriptRun();
  const early = globalThis.chunkInspectorSnapshot;
  if (!early) throw new Unusable(`not requested: snapshot.js did not run for ${BUILD.snapshot}`);
  try {
    return await early;
  } catch (error) {
    throw new Unusable(error.message);
  }
}

let snapshot = fetchSnapshot();
snapshot.catch(() => {}); // handled in loadPyodide; never an unhandled rejection

// Once Python runs (restored, or booted without it), the snapshot's 31 MB are of no more
// use: every reference to them is dropped (this module's promise, snapshot.js's, the
// stand-in's), so the page does not keep them for as long as it is open; so is the wasm
// decoded from its brotli copy (9.6 MB; see withDecodedWasm below).
let releaseStandIn = () => {};
const forgetSnapshot = () => {
  snapshot = null;
  delete globalThis.chunkInspectorSnapshot;
  delete globalThis.chunkInspectorWasm;
  releaseStandIn();
};

const download = (path) => {
  const bytes = fetch(here(path)).then((response) => {
    if (!response.ok) throw new Error(`${path} failed to load (HTTP ${response.status})`);
    return response.arrayBuffer();
  });
  bytes.catch(() => {}); // reported by boot.js (it watches every request) and rethrown below
  return bytes;
};
// app.zip. A page opened with a settings link may size its first result in tokens, which
// needs app.zip's tokenizers, so it is fetched at once; so it is when app.zip holds more
// than lazy modules. Otherwise (the sample with default settings, from the snapshot) the
// first result never needs it: it is fetched only after the first result, so it never
// competes with the start for bandwidth (1.6 MB, ~1.3 s at 10 Mbit/s).
let app = null;
const appBytes = () => (app ??= download(BUILD.app));
if (location.hash || !BUILD.appOnDemand) appBytes();

const afterFirstResult = (then) => {
  const root = document.getElementById("app");
  const done = () => !root || ["ready", "error"].includes(root.dataset.state);
  if (done()) return then();
  const observer = new MutationObserver(() => {
    if (!done()) return;
    observer.disconnect();
    then();
  });
  observer.observe(root, { attributes: true, attributeFilter: ["data-state"] });
};

// app.zip's bytes now, for the snapshot's finder, which cannot wait (an import is
// synchronous): only when Python imports a tokenizer before the download started after
// the first result has arrived. A synchronous request (binary through x-user-defined).
const downloadNow = (path) => {
  const request = new XMLHttpRequest();
  request.open("GET", here(path), false);
  request.overrideMimeType("text/plain; charset=x-user-defined");
  request.send();
  if (request.status !== 200) throw new Error(`${path} failed to load (HTTP ${request.status})`);
  const text = request.responseText;
  const data = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) data[i] = text.charCodeAt(i) & 0xff;
  return data;
};

// Imported after the downloads above have started.
const pyodideModule = await import(here(`${BUILD.pyodide}pyodide.mjs`));
export const version = pyodideModule.version;
mark("pyodide-module");

const indexURL = here(BUILD.pyodide);

// Pyodide asks for its wasm with fetch(indexURL + "pyodide.asm.wasm") while it loads (once
// a boot; again when the snapshot fails and the page boots normally). On a first visit
// snapshot.js has those bytes already, decoded from the wasm's smaller brotli copy
// (globalThis.chunkInspectorWasm, see sitebuild/wasm_preload.js): during `load`, the first
// such request is answered with them; any other request, or one made without them (none
// decoded, or the decoding failed), goes to the network as usual.
const wasmURL = `${indexURL}pyodide.asm.wasm`;
async function withDecodedWasm(load) {
  const network = globalThis.fetch;
  const hook = function (resource, ...rest) {
    const bytes = String(resource) === wasmURL ? globalThis.chunkInspectorWasm : null;
    if (!bytes) return network.call(this, resource, ...rest);
    globalThis.fetch = network; // answered once (a load that never ends keeps no hook)
    const headers = { "Content-Type": "application/wasm" };
    return bytes.then(
      (data) => new Response(data, { headers }),
      () => network.call(this, resource, ...rest),
    );
  };
  globalThis.fetch = hook;
  try {
    return await load();
  } finally {
    if (globalThis.fetch === hook) globalThis.fetch = network;
  }
}

// The standard library limited to what the page imports (the snapshot was made with it).
const stdLibURL = here(BUILD.stdlib);
const firstLine = (error) => String(error?.message || error).trim().split("\n")[0];

// Boots from the snapshot; returns the interpreter, or throws Unusable. Pyodide is given
// the snapshot still on its way: it fetches and loads its own files meanwhile. It waits
// for the snapshot's bytes only to size the wasm memory (prepareSnapshot) and compiles its
// wasm only after that, so once snapshot.js says the bytes are coming, it is handed a
// stand-in of the snapshot's size at once (BUILD.snapshotBytes, the gzip's own length
// field; see standIn): the wasm compiles and instantiates while the snapshot is read and
// inflated (on a repeat visit ~200 ms each), and the fsInit hook, which Pyodide awaits
// before it reads the memory, points the stand-in at the bytes. A snapshot that fails
// after that leaves this first instance waiting in fsInit for ever (dropped); the failure
// is the reason to give.
//
// The stand-in: what Pyodide 314 reads of the snapshot it was handed is its length (to size
// the memory, in prepareSnapshot) and then, in restoreSnapshot, its buffer, byteOffset,
// byteLength and subarray() (it copies the heap into the wasm memory from a subarray). A
// 0-byte Uint8Array answering those from the inflated bytes, once they are there, saves a
// 31 MB buffer and a 31 MB copy (45-90 ms here) on the start's critical path. Read before
// the bytes came (another Pyodide), it throws, and the page boots normally.
const standIn = (size) => {
  let bytes = null;
  const real = () => {
    if (!bytes) throw new Error("the snapshot was read before its bytes arrived");
    return bytes;
  };
  const view = new Uint8Array(0);
  Object.defineProperties(view, {
    length: { get: () => size },
    byteLength: { get: () => size },
    buffer: { get: () => real().buffer },
    byteOffset: { get: () => real().byteOffset },
    subarray: { value: (...range) => real().subarray(...range) },
  });
  return { view, fill: (inflated) => (bytes = inflated) };
};

async function fromSnapshot(options) {
  snapshot.then(() => progress("Starting Python from the start-up snapshot…"), () => {});
  const size = BUILD.snapshotBytes;
  const started = globalThis.chunkInspectorSnapshotStarted;
  let loadSnapshot = snapshot;
  let fsInit = options.fsInit;
  let failed = new Promise(() => {});
  if (size && started) {
    const into = standIn(size);
    releaseStandIn = () => into.fill(null);
    const filled = snapshot.then((bytes) => {
      if (bytes.length !== size) {
        throw new Unusable(`corrupt: ${bytes.length} bytes inflated, ${size} expected`);
      }
      into.fill(bytes);
      mark("snapshot-handed");
    });
    filled.catch(() => {}); // reported through `failed`
    loadSnapshot = started.then(() => into.view);
    const own = options.fsInit;
    fsInit = async (...args) => {
      await filled.catch(() => new Promise(() => {}));
      if (own) await own(...args);
    };
    failed = filled.then(() => new Promise(() => {}));
  }
  let pyodide;
  try {
    pyodide = await Promise.race([
      withDecodedWasm(() =>
        pyodideModule.loadPyodide({
          ...options,
          indexURL,
          stdLibURL,
          _loadSnapshot: loadSnapshot,
          ...(fsInit ? { fsInit } : {}),
        }),
      ),
      failed,
    ]);
  } catch (error) {
    if (error instanceof Unusable) throw error;
    await snapshot; // the snapshot's own failure (missing, corrupt) is the reason to give
    throw new Unusable(`refused by Pyodide: ${firstLine(error)}`);
  }
  mark("pyodide-restored");
  // snapshot_imports.py left the key the snapshot was made for in sys: the code it holds
  // must be the code this page ships (a stale copy under the right name is refused here).
  const key = pyodide.runPython("import sys; getattr(sys, '_chunk_inspector_snapshot', '')");
  if (key !== BUILD.key) throw new Unusable(`stale: made for ${key || "other code"}`);
  return pyodide;
}

// Unpacks zips into Python's working directory (on sys.path). Path finders cache
// directory listings; they forget them so the new files are seen.
// (importlib.invalidate_caches() would also import importlib.metadata: 0.25-1 s here.)
const unpackNow = (pyodide, zips) => {
  for (const bytes of zips) pyodide.unpackArchive(bytes, "zip", { extractDir: pyodide.FS.cwd() });
  pyodide.runPython(
    "import sys\nfor f in sys.path_importer_cache.values():\n" +
      "    if hasattr(f, 'invalidate_caches'): f.invalidate_caches()",
  );
};

async function unpack(pyodide, zips) {
  progress("Loading the page's Python code…");
  unpackNow(pyodide, await Promise.all(zips));
  mark("code-unpacked");
}

// On the snapshot path app.zip holds only the tokenizers' code and data, which the first
// result needs only when a settings link sizes it in tokens: it stays packed (50 ms saved
// before the first result), and without a link is not even downloaded before the first
// result, until Python first imports one of those modules; the snapshot's finder
// (app/boot_finders.py, UnpackOnDemand) then calls this, once. A normal boot does the same.
async function unpackOnDemand(pyodide) {
  progress("Loading the page's Python code…");
  let bytes = null;
  let settle = () => {};
  if (app) bytes = await app; // a settings link: the first result may need it
  else {
    // app/inspector.py's work after the paint waits for this (deleted once settled)
    let arrived;
    globalThis.chunkInspectorAppPending = new Promise((resolve) => (arrived = resolve));
    settle = () => {
      delete globalThis.chunkInspectorAppPending;
      arrived();
    };
    afterFirstResult(() =>
      appBytes().then(
        (data) => {
          bytes ??= data;
          settle();
        },
        (error) => {
          missing(error);
          settle();
        },
      ),
    );
  }
  // app/inspector.py reads globalThis.chunkInspectorAppMissing: the tokenizers are missing,
  // which it says in their place (no bug report): a sentence naming the file
  const missing = (error) => {
    const file = here(BUILD.app).replace(new URL("./", location.href).href, "");
    const why = String(error?.message || error).replace(BUILD.app, "").trim();
    globalThis.chunkInspectorAppMissing = `${file} (the tokenizers' code and data) ${why}`;
  };
  globalThis.chunkInspectorUnpack = () => {
    delete globalThis.chunkInspectorUnpack;
    try {
      bytes ??= downloadNow(BUILD.app);
    } catch (error) {
      missing(error);
      settle();
      throw error;
    }
    unpackNow(pyodide, [bytes]);
    settle();
  };
  mark("code-unpacked"); // the page's code is ready to run
}

// The whole standard library, for app/boot_finders.py's FullStdlibOnDemand, which calls this (once)
// when Python imports a module stdlib.zip left out: written beside stdlib.zip, and its path
// returned. Synchronous, because an import cannot wait.
const fullStdlibOnDemand = (pyodide) => {
  globalThis.chunkInspectorFullStdlib = () => {
    delete globalThis.chunkInspectorFullStdlib;
    console.warn("Chunk Inspector: a module outside stdlib.zip: fetching the whole standard library");
    const path = "/lib/python_stdlib_full.zip";
    pyodide.FS.writeFile(path, downloadNow(BUILD.fullStdlib));
    return path;
  };
};

// A first visit on a slow link boots without the snapshot (snapshot.js); the service worker
// stores it after the first result. A browser without service workers gets it into its HTTP
// cache instead, after the first result, for the next visit.
const snapshotForNextVisit = (reason) => {
  if (!reason.startsWith("first visit") || "serviceWorker" in navigator) return;
  afterFirstResult(() => fetch(here(BUILD.snapshot)).catch(() => {}));
};

export async function loadPyodide(options = {}) {
  mark("load-called");
  try {
    const pyodide = await fromSnapshot(options);
    forgetSnapshot();
    report({ stage: "path", path: "snapshot", reason: "" });
    fullStdlibOnDemand(pyodide); // its finder is in the snapshot
    if (BUILD.appOnDemand) await unpackOnDemand(pyodide);
    else await unpack(pyodide, [appBytes()]);
    return pyodide;
  } catch (error) {
    if (!(error instanceof Unusable)) throw error;
    const reason = error.message;
    console.warn(`Chunk Inspector: start-up snapshot not used (${reason}); booting normally.`);
    report({ stage: "path", path: "full", reason });
    progress(`Starting Python without the start-up snapshot (${reason}); this takes longer…`);
    snapshotForNextVisit(reason);
    const lib = download(BUILD.lib);
    const pyodide = await withDecodedWasm(() =>
      pyodideModule.loadPyodide({ ...options, indexURL, stdLibURL }),
    );
    forgetSnapshot();
    mark("pyodide-started");
    // app.zip as on the snapshot path: on demand when it holds only lazy modules and data
    await unpack(pyodide, BUILD.appOnDemand ? [lib] : [lib, appBytes()]);
    const lazy = BUILD.appOnDemand ? BUILD.lazy : [];
    // the snapshot's import hooks (app/boot_finders.py), for this boot
    pyodide.runPython(
      `import boot_finders\nboot_finders.install(${JSON.stringify(lazy)}, ${JSON.stringify(BUILD.stdlibRest)})`,
    );
    fullStdlibOnDemand(pyodide);
    if (BUILD.appOnDemand) await unpackOnDemand(pyodide);
    return pyodide;
  }
}
