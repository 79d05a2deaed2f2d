// Text-only DOM builders for the Python UI (app/*.py). They receive JSON that Python
// computed and build elements with textContent: document text is never parsed as HTML.
// They know nothing about chunking; they exist because one call with JSON is far cheaper
// than thousands of Python-to-JavaScript DOM calls for a 2,000-row table.

const make = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const WS_SYMBOL = { " ": "·", "\t": "→", "\n": "↵", "\r": "␍", "\u00a0": "⍽" };

// Appends `text` to `parent`; whitespace characters get a span whose symbol is drawn by
// CSS (data-ws), so copying the text still yields exactly the original characters.
const appendText = (parent, text, className) => {
  const holder = className ? make("span", className) : parent;
  let plain = "";
  const flush = () => {
    if (plain) holder.append(document.createTextNode(plain));
    plain = "";
  };
  for (const ch of text) {
    if (ch in WS_SYMBOL) {
      flush();
      const span = make("span", "ws", ch);
      span.dataset.ws = WS_SYMBOL[ch];
      holder.append(span);
    } else {
      plain += ch;
    }
  }
  flush();
  if (holder !== parent) parent.append(holder);
};

// rows: [[cell, ...], ...]; a cell is a string or number. The last column is text.
const rows = (tbody, json) => {
  const data = JSON.parse(json);
  const fragment = document.createDocumentFragment();
  for (const row of data) {
    const tr = make("tr");
    row.forEach((cell, i) => {
      const td = make("td", i === row.length - 1 ? "text-cell" : "num");
      if (i === row.length - 1) appendText(td, String(cell));
      else td.textContent = String(cell);
      tr.append(td);
    });
    fragment.append(tr);
  }
  tbody.replaceChildren(fragment);
};

// items: [{title, repeated, rest, gap}], `repeated` is the prefix shared with the
// previous chunk; `gap` (optional) describes source text no chunk kept before this one.
const preview = (list, json) => {
  const data = JSON.parse(json);
  const fragment = document.createDocumentFragment();
  for (const item of data) {
    if (item.gap) fragment.append(make("li", "gap", item.gap));
    const li = make("li", "chunk");
    li.append(make("p", "chunk-title", item.title));
    const body = make("p", "chunk-text");
    if (item.repeated) {
      const mark = make("mark", "repeated");
      mark.title = "Repeated from the previous chunk";
      appendText(mark, item.repeated);
      body.append(mark);
    }
    appendText(body, item.rest);
    li.append(body);
    fragment.append(li);
  }
  list.replaceChildren(fragment);
};

// Saves `text` as a file through a same-origin blob: URL (no request leaves the page).
const download = (text, name, type) => {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = make("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};

// Code points, not UTF-16 units (a lone surrogate counts as one, as in Python).
const codePoints = (text) => {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
};

globalThis.ciRender = { rows, preview, download, codePoints };
