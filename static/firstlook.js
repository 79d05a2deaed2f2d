// The first look: on a default start, the sample's readiness, summary, chunk map and records
// at once, before Python is ready. build.py draws them with the page's own code (see
// sitebuild/first_look.py) into the inert <template id="first-look">; this module (which
// runs before boot.js and PyScript) moves them in place of the empty panels and marks
// #app[data-first-look="starting"] (style.css labels each panel "starting…"). The live
// result then draws into those same elements and the mark goes.
//
// A default start: the address has no fragment, or the one a default start writes (the
// template's data-fragment), and every control still holds its value from the HTML (the
// browser restores edited controls on a reload or a return). Any other start shows the
// empty panels until the live result. An edit before Python is ready puts the empty panels
// back at once: Python has not looked up any element yet (the first update runs in one go
// from the moment it does).

const root = document.getElementById("app");
const template = document.getElementById("first-look");

const unchanged = (control) => {
  if (control.type === "file") return !control.files || control.files.length === 0;
  if (control.type === "checkbox" || control.type === "radio") {
    return control.checked === control.defaultChecked;
  }
  if (control.tagName === "SELECT") {
    return [...control.options].every((option) => option.selected === option.defaultSelected);
  }
  return control.value === control.defaultValue;
};

const defaultStart = () =>
  (location.hash === "" || location.hash === template.dataset.fragment) &&
  [...root.querySelectorAll("input, textarea, select")].every(unchanged);

const show = () => {
  const swapped = []; // [first-look panel, the empty panel it stands in for]
  for (const drawn of template.content.children) {
    const empty = document.getElementById(drawn.id);
    if (!empty) continue;
    const panel = document.importNode(drawn, true);
    empty.replaceWith(panel);
    swapped.push([panel, empty]);
  }
  root.dataset.firstLook = "starting";
  performance.mark("ci:first-look"); // bench/bench_boot.py reports it

  const started = () => performance.getEntriesByName("ci:app-imported").length > 0;
  const events = ["input", "change", "drop", "hashchange"];
  const done = () => {
    observer.disconnect();
    for (const type of events) removeEventListener(type, withdraw, true);
    delete root.dataset.firstLook;
  };
  // An edit, a dropped file or a new address before the live result: the empty panels
  // again (no result until the live one), unless Python has started (it then owns them).
  function withdraw() {
    if (root.dataset.firstLook !== "starting" || started()) return;
    for (const [panel, empty] of swapped) panel.replaceWith(empty);
    done();
  }
  for (const type of events) addEventListener(type, withdraw, true);
  // #app leaves "loading" when the live result is shown (or the page failed to start).
  const observer = new MutationObserver(() => {
    if (root.dataset.state === "loading") return;
    if (root.dataset.state === "error" && !started()) withdraw();
    else done();
  });
  observer.observe(root, { attributes: true, attributeFilter: ["data-state"] });
};

if (template && root?.dataset.state === "loading" && defaultStart()) show();
