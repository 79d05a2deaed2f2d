// Plotly after the first result. Parsing and running plotly-basic.min.js (~1 MB) costs the
// main thread ~100-150 ms, which at start-up competes with Pyodide for the same thread.
// Until it is loaded, window.Plotly is a stand-in that keeps only the latest react() per
// chart (purge() forgets it); once #app first reaches data-state="ready", the real script
// is added and those calls are replayed. <html data-plotly="loaded"> then marks it as
// ready (benchmarks wait for it before wrapping Plotly.react).

(() => {
  const script = document.currentScript;
  const source = script.dataset.plotly;
  const pending = new Map(); // chart element -> latest react() arguments

  window.Plotly = {
    react(element, ...rest) {
      pending.set(element, [element, ...rest]);
      return Promise.resolve(element);
    },
    purge(element) {
      pending.delete(element);
      return element;
    },
  };

  const load = () => {
    const real = document.createElement("script");
    real.src = source;
    real.addEventListener("load", () => {
      for (const args of pending.values()) window.Plotly.react(...args);
      pending.clear();
      document.documentElement.dataset.plotly = "loaded";
    });
    document.head.append(real);
  };

  const app = document.getElementById("app");
  const observer = new MutationObserver(() => {
    if (app.dataset.state !== "ready") return;
    observer.disconnect();
    load();
  });
  observer.observe(app, { attributes: true, attributeFilter: ["data-state"] });
})();
