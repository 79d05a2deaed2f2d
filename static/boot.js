// Boot watchdog. Owns #app[data-state] until the runtime is up: "loading" while files
// arrive, "error" (with the failed file named in #boot-status) if any of them cannot be
// loaded or the runtime throws while starting. app/main.py sets "ready"/"busy" after that.
//
// Why several sources: PyScript imports pyodide.mjs with import() (no element to listen
// to), Pyodide fetches the wasm, stdlib and wheels, and loadPackage only logs a failed
// wheel and resolves, so under PyScript the page would otherwise wait forever.

const root = document.getElementById("app");
const status = document.getElementById("boot-status");
const ownOrigin = location.origin;

const shortName = (url) => {
  const parsed = new URL(url, location.href);
  return parsed.origin === ownOrigin ? parsed.pathname.replace(/^\//, "") : parsed.href;
};

let failure = null; // {url, message} of the first failure; later ones add nothing

const fail = (message, url = null) => {
  // The same file reported again with its HTTP status (the timing entry can arrive after
  // fetch() has already rejected) only sharpens the message.
  const sharper = url && failure?.url === url && /\(HTTP \d+\)\.$/.test(message);
  if (failure && !sharper) return;
  // Once the UI has started, a failed request is not a boot failure (say, a fetch the CSP
  // blocked): the page keeps working and the UI reports its own errors.
  if (!failure && root.dataset.state !== "loading") return;
  failure = { url, message };
  root.dataset.state = "error";
  root.removeAttribute("aria-busy");
  status.hidden = false;
  status.setAttribute("role", "alert");
  status.classList.add("boot-error");
  status.textContent = message;
};

// The HTTP status the browser saw for `url`, if it has recorded one yet.
const statusOf = (url) => {
  const entries = performance.getEntriesByName(new URL(url, location.href).href);
  return entries.length ? entries[entries.length - 1].responseStatus : 0;
};

// The start-up snapshot (build.py names it snapshot-*) is optional: when it cannot be
// loaded, static/interpreter.js boots Python normally and says so (see "ci:boot" below).
// So is the wasm's brotli copy (a .br file): without it Pyodide downloads the wasm itself.
const optional = (url) =>
  /\/snapshot-[^/]*$|\.wasm\.br$/.test(new URL(url, location.href).pathname);

const failedFile = (url, why) => {
  if (optional(url)) return;
  fail(`The page could not start: ${shortName(url)} failed to load (${why}).`, shortName(url));
};

// Every resource the browser fetches: scripts, modules (including import()), fetch().
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.responseStatus >= 400) failedFile(entry.name, `HTTP ${entry.responseStatus}`);
  }
}).observe({ type: "resource", buffered: true });

// Network failures (no status at all) and the status text for fetch() calls.
const originalFetch = globalThis.fetch;
globalThis.fetch = async function fetchWatched(input, init) {
  const url = input instanceof Request ? input.url : String(input);
  try {
    const response = await originalFetch.call(this, input, init);
    if (!response.ok) failedFile(url, `HTTP ${response.status}`);
    return response;
  } catch (error) {
    // A 404 fetched with an integrity check (Pyodide's wheels) rejects as "Failed to
    // fetch"; its timing entry still holds the status, which is the more useful fact.
    const status = statusOf(url);
    failedFile(url, status >= 400 ? `HTTP ${status}` : error.message || String(error));
    throw error;
  }
};

// <script>/<link> elements that fail; these events do not bubble, so listen in capture.
addEventListener(
  "error",
  (event) => {
    const element = event.target;
    if (element && element !== window && (element.src || element.href)) {
      const url = element.src || element.href;
      const status = statusOf(url);
      failedFile(url, status >= 400 ? `HTTP ${status}` : "could not be loaded");
    }
  },
  true,
);

// Stylesheets in <head> have settled before this module runs. A failed one (a 404 is
// served as text/html with nosniff, so its timing entry shows status 0) has no sheet or
// one whose rules cannot be read; all of ours are same-origin, so readable when loaded.
const sheetLoaded = (link) => {
  try {
    return link.sheet !== null && link.sheet.cssRules !== null;
  } catch {
    return false;
  }
};
for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
  if (!sheetLoaded(link)) failedFile(link.href, "could not be loaded");
}

// Errors thrown while starting (a missing module, a Python exception in main.py).
const duringBoot = () => root.dataset.state === "loading";
addEventListener("error", (event) => {
  if (event.target === window && duringBoot()) fail(`The page could not start: ${event.message}`);
});
addEventListener("unhandledrejection", (event) => {
  if (!duringBoot()) return;
  const reason = event.reason;
  fail(`The page could not start: ${reason && reason.message ? reason.message : String(reason)}`);
});

// Progress for the indicator: PyScript/polyscript's steps until static/interpreter.js
// (PyScript's interpreter) reports its own (snapshot download, which boot path); after
// the interpreter is up, PyScript's last step is running app/main.py.
let interpreterReports = false;
const showProgress = (text) => {
  if (duringBoot()) status.textContent = text;
};
addEventListener("py:progress", (event) => {
  if (event.detail === "Loaded Pyodide") showProgress("Starting the page…");
  else if (!interpreterReports) showProgress(`Loading the Python runtime: ${event.detail}…`);
});

// Which boot path was taken is kept on #app (data-boot = snapshot | full, and
// data-boot-reason when the snapshot was not used) and stated in the footer, so a slow
// fallback is visible rather than silent.
addEventListener("ci:boot", (event) => {
  const { stage, text, path, reason } = event.detail;
  interpreterReports = true;
  if (stage === "progress") showProgress(text);
  if (stage !== "path") return;
  root.dataset.boot = path;
  if (reason) root.dataset.bootReason = reason;
  const note = document.createElement("span");
  note.id = "boot-path";
  note.textContent =
    path === "snapshot"
      ? " · started from the start-up snapshot"
      : ` · started without the start-up snapshot (${reason})`;
  document.querySelector("footer")?.append(note);
});

// Once app/main.py takes over, the indicator goes. A boot failure is final: the UI may
// still set "ready" after, say, a stylesheet failed, but the page is not what was built.
new MutationObserver(() => {
  if (failure && root.dataset.state !== "error") root.dataset.state = "error";
  const state = root.dataset.state;
  if (state !== "loading") root.removeAttribute("aria-busy");
  if (state === "ready" || state === "busy") status.hidden = true;
}).observe(root, { attributes: true, attributeFilter: ["data-state"] });

// PyScript 0.7.31 turns its *worker* hooks into code with Function() whenever a script
// starts, even on the main thread, and a policy without 'unsafe-eval' refuses that. Its one
// default worker hook only sets up `_pyscript` inside workers; this page runs Python on the
// main thread, so removing it keeps 'unsafe-eval' out of the CSP. If the UI ever uses
// <script type="py" worker>, delete this and add 'unsafe-eval' to script-src in
// sitebuild/policy.py.
// Same URL as the <script> tag, so this is the same module instance, imported once.
//
// Also: an exception raised by the Python entry point while it starts (say, main.py
// looking for an element that is not in index.html) reaches only PyScript's stderr, as an
// Error object; it raises no window event. Report it as a boot failure, naming the script.
const lastLine = (text) => text.trim().split("\n").pop();
import(document.getElementById("pyscript-core").src)
  .then(({ hooks }) => {
    hooks.worker.onBeforeRunAsync.clear();
    hooks.main.onReady.add((wrap, element) => {
      const stderr = wrap.io.stderr;
      wrap.io.stderr = (error, ...rest) => {
        if (error instanceof Error && duringBoot()) {
          const script = element.getAttribute("src") || "the page's Python";
          fail(`The page could not start: ${shortName(script)} raised ${lastLine(error.message)}`);
        }
        return stderr(error, ...rest);
      };
    });
  })
  .catch(() => {}); // a failed load is reported above, naming the file
