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

// The Splitter comparison's columns sort: each column header (but Apply) holds a button
// (keyboard: Tab, Enter or Space) that sorts the rows by that column, ascending, then
// descending; the header says which with aria-sort. Cells compare as numbers where they
// read as one ("12.5%", "1,234", "0.912"), else as text; "—" and blanks go last. New rows
// drawn by the page are sorted the same way.
(() => {
  const table = document.getElementById("compare-table");
  if (!table) return;
  const body = document.getElementById("compare-body");
  const state = { column: -1, direction: "none" };

  const value = (row, column) => {
    const cell = row.children[column];
    const text = cell ? cell.textContent.trim() : "";
    if (!text || text === "—" || text === "…") return null;
    const number = Number.parseFloat(text.replace(/,/g, ""));
    return Number.isNaN(number) || !/^[-\d.,]/.test(text) ? text.toLowerCase() : number;
  };

  const sortRows = () => {
    if (state.column < 0) return;
    const rows = Array.from(body.children);
    const sign = state.direction === "descending" ? -1 : 1;
    rows.sort((a, b) => {
      const x = value(a, state.column);
      const y = value(b, state.column);
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;
      return (x < y ? -1 : x > y ? 1 : 0) * sign;
    });
    observer.disconnect();
    body.append(...rows);
    observer.observe(body, { childList: true });
  };

  const observer = new MutationObserver(sortRows);
  const headers = Array.from(table.querySelectorAll("thead th"));
  headers.forEach((th, column) => {
    const label = th.textContent.trim();
    if (label === "Apply") return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.textContent = label;
    button.addEventListener("click", () => {
      const ascending = state.column !== column || state.direction === "descending";
      state.column = column;
      state.direction = ascending ? "ascending" : "descending";
      for (const other of headers) other.removeAttribute("aria-sort");
      th.setAttribute("aria-sort", state.direction);
      sortRows();
    });
    th.replaceChildren(button);
  });
  observer.observe(body, { childList: true });
})();
