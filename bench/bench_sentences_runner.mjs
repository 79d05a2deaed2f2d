// `python bench/bench_sentences.py --pyodide`: sentence boundaries inside Pyodide under Node.
// Usage: node bench/bench_sentences_runner.mjs REPO_ROOT SITE. Mounts the repository and a
// folder of pure-Python packages (the core's dependencies and pySBD; NODEFS), imports
// bench/bench_sentences.py there and prints one JSON line: {case: [ours_s, pysbd_s]}.
import path from "node:path";
import { createRequire } from "node:module";

const [repo, site] = process.argv.slice(2);
const { loadPyodide } = createRequire(path.join(repo, "package.json"))("pyodide");
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mkdirTree("/site");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, "/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: site }, "/site");
console.log(
  await pyodide.runPythonAsync(`
import sys, os, json
sys.path[:0] = ["/site", "/repo"]; os.chdir("/repo")
import bench.bench_sentences as b
json.dumps(b.measure_in_pyodide())
`),
);
