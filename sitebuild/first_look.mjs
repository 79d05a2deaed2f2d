// The page's first look, rendered at build time by the page's own code: Node's Pyodide (the
// files the page vendors) runs app/inspector.py's first update against the built index.html
// in a DOM stand-in (linkedom), with the page's own static/render.js and chunkmap.js, and
// prints the panels it drew as HTML. sitebuild/first_look.py runs it as
// `node first_look.mjs RECIPE.json`; the recipe's fields:
//   pyodide   the pyodide npm package's folder
//   bundle    the page's Python as one zip (unpacked into `home`, as the page does)
//   home      Pyodide's working directory, as in the page (/home/pyodide)
//   html      the built index.html, without its first look
//   scripts   the page's drawing scripts, run in the stand-in window in page order
//   panels    the ids of the panels to print
//   text      null, or a text to put in the Source text box instead of the page's (tests)
// Prints {"panels": {id: outerHTML}, "fragment": the address's fragment after the update}.
// Serialising is linkedom's: text and attribute values are escaped (& < > in text, & " in
// attributes), so document text can only ever become text in the page.
import fs from "node:fs";
import vm from "node:vm";
import { pathToFileURL } from "node:url";
import { parseHTML } from "linkedom";

const config = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const { loadPyodide } = await import(pathToFileURL(`${config.pyodide}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${config.pyodide}/` });
pyodide.unpackArchive(new Uint8Array(fs.readFileSync(config.bundle)), "zip", {
  extractDir: config.home,
});

const { document, HTMLElement, HTMLInputElement, HTMLTextAreaElement } = parseHTML(
  fs.readFileSync(config.html, "utf8"),
);
// What linkedom leaves out of the form controls the first update reads: a checkbox's or
// radio's `checked` (kept in its attribute here: nothing else changes it), and a text
// area's `value` (linkedom keeps its content as written, entities and all: decoded here as
// the HTML parser does for what build.py escapes, until the value is set).
Object.defineProperty(HTMLInputElement.prototype, "checked", {
  get() { return this.hasAttribute("checked"); },
  set(on) { this.toggleAttribute("checked", Boolean(on)); },
});
const entities = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&amp;": "&" };
const values = new WeakMap();
Object.defineProperty(HTMLTextAreaElement.prototype, "value", {
  get() {
    if (values.has(this)) return values.get(this);
    return this.textContent.replace(/&(?:lt|gt|quot|#39|amp);/g, (entity) => entities[entity]);
  },
  set(text) { values.set(this, String(text)); },
});
if (config.text !== null) document.getElementById("source-text").value = config.text;
// linkedom has no layout: nothing is ever scrolled to
HTMLElement.prototype.scrollIntoView = () => {};
// The page's window as far as the first update uses it (`from js import document, window`:
// Pyodide's `js` is globalThis). Timers and frames never run: the first look is what the
// first update drew, plus the chunk map's catch-up (below), which the page runs first after
// the paint; the work after it (token counts, damage, the comparison) is live-only.
const noop = () => {};
Object.assign(globalThis, {
  window: globalThis,
  document,
  location: { hash: "", href: "http://localhost/", origin: "http://localhost" },
  history: { replaceState: (_state, _title, url) => { globalThis.location.hash = url; } },
  matchMedia: (media) => ({ matches: false, media, addEventListener: noop, addListener: noop }),
  requestAnimationFrame: () => 0,
  setTimeout: () => 0,
  clearTimeout: noop,
  addEventListener: noop,
  removeEventListener: noop,
  getSelection: () => null,
  IntersectionObserver: class { observe() {} disconnect() {} },
});
for (const script of config.scripts) vm.runInThisContext(fs.readFileSync(script, "utf8"), script);

let drawn;
try {
  drawn = pyodide.runPython(`
import os, sys
os.chdir(${JSON.stringify(config.home)})
sys.path.insert(0, ${JSON.stringify(config.home)})
import inspector
page = inspector.Page()
page.start()
page.chunk_map.catch_up()
page.root.dataset.state
`);
} catch (error) {
  console.error(error.message); // the Python traceback
  process.exit(1);
}
if (drawn !== "ready") {
  console.error(`the first update ended "${drawn}", not "ready"`);
  process.exit(1);
}
const panels = {};
for (const id of config.panels) {
  const panel = document.getElementById(id);
  if (!panel) {
    console.error(`#${id} is missing from index.html`);
    process.exit(1);
  }
  panels[id] = panel.outerHTML;
}
process.stdout.write(JSON.stringify({ panels, fragment: globalThis.location.hash }));
process.exit(0); // the page's idle timers are stand-ins: nothing is left to run
