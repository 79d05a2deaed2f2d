// The sweep's chart (app/sweep.py decides what it shows): Plotly draws it, and a click on
// a point hands the point's settings link back to Python. Until the real Plotly is loaded
// (static/plotly-later.js) the chart element has no `on`: the click handler is attached
// once <html data-plotly="loaded"> says it is.

(() => {
  let picked = null; // the Python callback of the latest draw

  const listen = (element) => {
    if (element.dataset.sweepListening) return;
    element.dataset.sweepListening = "1";
    element.on("plotly_click", (event) => {
      const point = event && event.points && event.points[0];
      if (point && picked) picked(point.customdata);
    });
  };

  const whenLoaded = (element) => {
    if (typeof element.on === "function") {
      listen(element);
      return;
    }
    const html = document.documentElement;
    const observer = new MutationObserver(() => {
      if (html.dataset.plotly !== "loaded") return;
      observer.disconnect();
      if (typeof element.on === "function") listen(element);
    });
    observer.observe(html, { attributes: true, attributeFilter: ["data-plotly"] });
  };

  const draw = (element, data, layout, config, onPick) => {
    picked = onPick;
    element.hidden = false;
    return Promise.resolve(window.Plotly.react(element, data, layout, config)).then(() =>
      whenLoaded(element),
    );
  };

  globalThis.ciSweep = { draw };
})();
