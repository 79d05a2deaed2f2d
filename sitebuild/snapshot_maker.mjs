// Makes the page's start-up memory snapshot with Node's Pyodide (the same files the page
// vendors). sitebuild/snapshot.py runs it as `node snapshot_maker.mjs RECIPE.json` and
// reads the import report it prints; the snapshot itself goes to the recipe's `out`.
//
// The recipe comes in a file, not as JSON on the command line: Emscripten takes the
// arguments for the program's, and Python's start-up fails to join paths with one longer
// than PATH_MAX. Its fields:
//   pyodide     the pyodide npm package's folder
//   bundle      the page's Python as one zip, unpacked into `home` as the page does
//   home        Pyodide's working directory, as in the page (/home/pyodide)
//   imports     sitebuild/snapshot_imports.py, run in Python's __main__ (see there for
//               what it imports and for its contract with static/interpreter.js)
//   precompile  @pyscript/core's stdlib artifact (its Python package), compiled ahead
//   site        sitebuild/snapshot_site.py, Python's sitecustomize while the snapshot is made
//   modules, required, lazy, key   read by snapshot_imports.py (and `main`, which this
//               program adds: the names in Pyodide's __main__ before it runs)
//   out         where to write the raw snapshot
//   stdlib      the standard library zip to mount (the trimmed one the page mounts;
//               zipimport's listing of it stays in the snapshot), or null for Pyodide's own
//   record      true: write no snapshot; print what record_stdlib() reports (which members
//               of the standard library zip the page imports) instead
import fs from "node:fs";
import { pathToFileURL } from "node:url";

// Zeroes the heap's unused bytes before the snapshot is taken (the snapshot is the
// largest download of a first visit). malloc's free chunks and the stack below its pointer
// keep the bytes they held when last used; zeros cost almost nothing in the gzip (8.15 ->
// 7.1 MB here) and nothing reads them: a free chunk keeps its own header words (size, bin
// links; the next chunk's first word, its size again, is outside it). dlmalloc (Emscripten's
// malloc) lays its chunks end to end from __heap_base to the break, each with its size in
// its second word (bit 1: in use); the walk must land exactly on the break, or nothing is
// zeroed (another malloc, another layout) and the report says why.
// Returns {heapBase, heapEnd, freeChunks, bytes} for the report, or {skipped}.
const clearUnusedMemory = (module) => {
  const heap = module.HEAPU8;
  const words = new Uint32Array(heap.buffer);
  const heapBase = module.___heap_base;
  const heapEnd = module._sbrk(0);
  const spans = [];
  let chunk = heapBase;
  while (chunk + 8 <= heapEnd) {
    const head = words[(chunk + 4) >>> 2];
    const size = head & ~7;
    if (size < 16 || chunk + size > heapEnd) return { skipped: `no chunk at ${chunk}` };
    // a free chunk: its bin links (2 words; 6 from 256 bytes up, a tree bin's) stay
    if (!(head & 2)) spans.push([chunk + (size >= 256 ? 32 : 16), chunk + size]);
    chunk += size;
  }
  if (chunk !== heapEnd) return { skipped: `the chunks end at ${chunk}, the break at ${heapEnd}` };
  // the stack grows down from its base; nothing runs on it now (JS called this)
  spans.push([module._emscripten_stack_get_end(), module._emscripten_stack_get_current()]);
  let bytes = 0;
  for (const [from, to] of spans) {
    if (from >= to) continue;
    heap.fill(0, from, to);
    bytes += to - from;
  }
  return { heapBase, heapEnd, freeChunks: spans.length - 1, bytes };
};

const config = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
// The page's globals the app modules bind at import (`from js import document, window`).
// Pyodide records the path by which the snapshot reached each JS object and looks the same
// path up in the page that restores it, so these stand-ins become the page's own objects.
globalThis.window = globalThis;
globalThis.document = {};
const { loadPyodide } = await import(pathToFileURL(`${config.pyodide}/pyodide.mjs`).href);
// sitebuild/snapshot_site.py as Python's sitecustomize, written before Python starts: every
// module from then on (Pyodide's own too) is compiled without docstrings and location
// columns; prepare_snapshot stops it and removes it.
const slimCompiles = (FS, { sitePackages }) => {
  FS.mkdirTree(sitePackages);
  FS.writeFile(`${sitePackages}/sitecustomize.py`, `${fs.readFileSync(config.site, "utf8")}\nstart()\n`);
};
const pyodide = await loadPyodide({
  _makeSnapshot: !config.record,
  indexURL: `${config.pyodide}/`,
  ...(config.stdlib ? { stdLibURL: config.stdlib } : {}),
  ...(config.record ? {} : { fsInit: slimCompiles }),
});
const bundle = new Uint8Array(fs.readFileSync(config.bundle));
pyodide.unpackArchive(bundle, "zip", { extractDir: config.home });
// PyScript's own Python package as PyScript writes it into the page's file system (its
// stdlib artifact: {folder: {file: source}}), for snapshot_imports.py to compile ahead.
const sources = {};
const walk = (base, tree) => {
  for (const [name, value] of Object.entries(tree)) {
    if (typeof value === "string") sources[`${base}/${name}`] = value;
    else walk(`${base}/${name}`, value);
  }
};
walk(config.home, (await import(pathToFileURL(config.precompile).href)).default);
// The names Pyodide's __main__ holds before this program runs: prepare_snapshot deletes
// every other one (its own definitions, its inputs) before the heap is saved.
const names = pyodide.runPython("sorted(globals())");
config.main = names.toJs();
names.destroy();
// Plain strings cross into Python (no proxy is left alive in the snapshot).
pyodide.globals.set("snapshot_config", JSON.stringify(config));
pyodide.globals.set("precompile_sources", JSON.stringify(sources));
let report;
try {
  pyodide.runPython(fs.readFileSync(config.imports, "utf8"));
  const call = config.record ? "record_stdlib" : "prepare_snapshot";
  report = pyodide.runPython(`${call}(snapshot_config, precompile_sources)`);
} catch (error) {
  console.error(error.message); // the Python traceback, without the minified source line
  process.exit(1);
}
if (!config.record) {
  const cleared = clearUnusedMemory(pyodide._module);
  fs.writeFileSync(config.out, pyodide.makeMemorySnapshot());
  report = JSON.stringify({ ...JSON.parse(report), cleared });
}
process.stdout.write(report);
