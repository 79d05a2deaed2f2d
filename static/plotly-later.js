// Plotly after the first result. Parsing and running plotly-basic.min.js (~1 MB) costs the
// main thread ~100-150 ms, which at start-up competes with Pyodide for the same thread.
// Until it is loaded, window.Plotly is a stand-in that records the calls per chart: react()
// or newPlot() start a chart's list afresh, purge() drops it, any other call (restyle,
// relayout, ...) is appended. Once #app first reaches data-state="ready", the real script
// is added and each chart's calls are replayed in order. <html data-plotly="loaded"> then
// marks it as ready (benchmarks wait for it before wrapping Plotly.react).

(() => {
  const script = document.currentScript;
  const source = script.dataset.plotly;
  const pending = new Map(); // chart element -> [[method, args], ...]

  const record = (method) => (element, ...rest) => {
    if (method === "purge") {
      pending.delete(element);
      return element;
    }
    const fresh = method === "react" || method === "newPlot";
    const calls = fresh ? [] : pending.get(element) || [];
    calls.push([method, [element, ...rest]]);
    pending.set(element, calls);
    return Promise.resolve(element);
  };
  // A plain object of Plotly's chart-changing calls (not a Proxy answering every name:
  // Pyodide probes objects for `then`, `length`, ... when Python touches them).
  const methods = ["newPlot", "react", "restyle", "relayout", "update", "purge",
    "addTraces", "deleteTraces", "moveTraces", "extendTraces", "prependTraces"];
  window.Plotly = Object.fromEntries(methods.map((method) => [method, record(method)]));

  const load = () => {
    const real = document.createElement("script");
    real.src = source;
    real.addEventListener("load", () => {
      for (const calls of pending.values()) {
        for (const [method, args] of calls) window.Plotly[method](...args);
      }
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
