// `python bench/bench_hf_tokenizer.py --pyodide`: our tokenizer.json figures inside Pyodide
// under Node. Usage: node bench/bench_hf_runner.mjs REPO_ROOT FOLDER (FOLDER holds the
// tokenizer.json files). Mounts both (NODEFS) and prints one JSON line: {version, <file>: figures}.
import path from "node:path";
import { createRequire } from "node:module";

const [repo, folder] = process.argv.slice(2);
const { loadPyodide } = createRequire(path.join(repo, "package.json"))("pyodide");
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, "/repo");
pyodide.FS.mkdirTree("/files");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, "/files");
console.log(
  await pyodide.runPythonAsync(`
import sys, os, json
sys.path.insert(0, "/repo"); os.chdir("/repo")
import bench.bench_hf_tokenizer as b
out = b.pyodide_figures("/files")
json.dumps({"version": "${pyodide.version}", **out})
`),
);
