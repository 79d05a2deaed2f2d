// `python bench/bench_tokens.py --pyodide`: the tokenizer figures inside Pyodide under Node.
// Usage: node bench/bench_tokens_runner.mjs REPO_ROOT. Mounts the repository (NODEFS),
// imports bench/bench_tokens.py there and prints one JSON line: {loads, recount}.
import path from "node:path";
import { createRequire } from "node:module";

const [repo] = process.argv.slice(2);
const { loadPyodide } = createRequire(path.join(repo, "package.json"))("pyodide");
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, "/repo");
console.log(
  await pyodide.runPythonAsync(`
import sys, os, json
sys.path.insert(0, "/repo"); os.chdir("/repo")
import bench.bench_tokens as b
loads = {n: b.cold_load_ms(n) for n in b.NAMES}
json.dumps({"loads": loads, "recount": b.measure_ours()})
`),
);
