// Runs the core's pytest suite inside real Pyodide under Node.
// Usage: node tests/pyodide/run_core_tests.mjs REPO_ROOT SITE_PACKAGES [pytest args...]
// The repository and a folder of pure-Python test dependencies are mounted read-only-ish
// through NODEFS; the exit code is pytest's.
import path from "node:path";
import { createRequire } from "node:module";

const [repo, site, ...pytestArgs] = process.argv.slice(2);
const require = createRequire(path.join(repo, "package.json"));
const { loadPyodide } = require("pyodide");

const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mkdirTree("/site");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, "/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: site }, "/site");
const writer = (stream) => ({
  write: (bytes) => {
    stream.write(bytes);
    return bytes.length;
  },
});
pyodide.setStdout(writer(process.stdout));
pyodide.setStderr(writer(process.stderr));
pyodide.globals.set("pytest_args", pyodide.toPy(pytestArgs));
const code = await pyodide.runPythonAsync(`
import os, sys
sys.path[:0] = ["/site", "/repo"]
os.chdir("/repo")
os.environ["HYPOTHESIS_PROFILE"] = "pyodide"
import platform, pytest
print("Python", platform.python_version(), "on", sys.platform)
int(pytest.main(list(pytest_args)))
`);
process.exit(code);
