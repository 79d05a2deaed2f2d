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

// The symbol for each whitespace character comes from Python (app/dom.py, WHITESPACE),
// which decides what is shown; the chunk map's omitted characters use the same table.
const whitespace = () => globalThis.ciWhitespace || {};

// `text` with each whitespace character replaced by its symbol (the chunk map's gaps).
const symbols = (text) => {
  const table = whitespace();
  return [...text].map((ch) => table[ch] || ch).join("");
};

// Appends `text` to `parent`; whitespace characters get a span whose symbol is drawn by
// CSS (data-ws), so copying the text still yields exactly the original characters.
const appendText = (parent, text) => {
  let plain = "";
  const flush = () => {
    if (plain) parent.append(document.createTextNode(plain));
    plain = "";
  };
  const table = whitespace();
  for (const ch of text) {
    if (ch in table) {
      flush();
      const span = make("span", "ws", ch);
      span.dataset.ws = table[ch];
      parent.append(span);
    } else {
      plain += ch;
    }
  }
  flush();
};

// Makes `parent`'s children the nodes for `keys`, building only the ones whose key
// changed: an edit near the end of a text changes the last chunk or two, so most rows,
// preview items and chunk map blocks are kept as they are and the browser lays out far
// less per keystroke. Keys may repeat (two blocks of the same text); each kept node is
// used once. Keys live in an expando property (_key): reading thousands of attributes per
// keystroke would cost more than the rest of the update. The first `kept` children stay
// as they are, untouched (Python found them unchanged and sent keys only for the rest).
// Returns the nodes after them, in order.
const reconcile = (parent, keys, build, kept = 0) => {
  const old = new Map();
  const children = parent.children;
  for (let n = kept; n < children.length; n++) {
    const node = children[n];
    const list = old.get(node._key);
    if (list) list.push(node);
    else old.set(node._key, [node]);
  }
  const nodes = keys.map((key, n) => {
    const list = old.get(key);
    if (list && list.length) return list.shift();
    const node = build(n);
    node._key = key;
    return node;
  });
  for (const list of old.values()) for (const node of list) node.remove();
  nodes.forEach((node, n) => {
    const at = children[kept + n];
    if (at !== node) parent.insertBefore(node, at || null);
  });
  return nodes;
};

// rows: [[cell, ...], ...]; a cell is a string or number; the first is the chunk index
// and the last text. A trailing Damage cell is left empty here and filled by `damage`
// once the damage pass has run after the paint.
// `tokensAt` is the column of token counts ("…" until the tokenizer has loaded).
// `kept`: the first rows stay as they are (an edit changes the rows from its chunk on);
// `json` holds the rows after them.
const rows = (tbody, json, tokensAt = -1, kept = 0) => {
  const data = JSON.parse(json);
  // each cell names its column (data-label): narrow screens show a row as a card
  const heads = [...(tbody.closest("table")?.tHead?.rows[0]?.cells ?? [])].map((th) => th.textContent);
  const labelled = (td, j) => {
    td.dataset.label = heads[j] ?? "";
    return td;
  };
  reconcile(tbody, data.map((row) => JSON.stringify(row)), (i) => {
    const tr = make("tr");
    tr.dataset.index = String(data[i][0]);
    const last = data[i].length - 1;
    data[i].forEach((cell, j) => {
      const kind = j === last ? "text-cell" : j === tokensAt ? "num tokens-cell" : "num";
      tr.append(labelled(make("td", kind, String(cell)), j));
    });
    tr.append(labelled(make("td", "evidence-cell"), last + 1), labelled(make("td", "damage-cell"), last + 2));
    return tr;
  }, kept);
};

// damage: {"<chunk index>": "words", ...} for every chunk a list shows (the preview's
// items or the records' rows); sets their damage words in place (their other content
// stays as it is).
const damage = (parent, json) => {
  const words = JSON.parse(json);
  for (const node of parent.querySelectorAll(":scope > [data-index]")) {
    const text = words[node.dataset.index] || "";
    const slot = node.querySelector(".chunk-damage, .damage-cell");
    slot.textContent = text;
    if (slot.classList.contains("chunk-damage")) slot.hidden = !text;
    node.classList.toggle("damaged", Boolean(text));
  }
};

// evidence: {"<chunk index>": "questions 1, 3", ...}: the Evidence cell of each row.
const evidence = (tbody, json) => {
  const words = JSON.parse(json);
  for (const row of tbody.querySelectorAll(":scope > tr[data-index]")) {
    const text = words[row.dataset.index] || "";
    const cell = row.querySelector(".evidence-cell");
    if (cell.textContent !== text) cell.textContent = text;
    row.classList.toggle("has-evidence", Boolean(text));
  }
};

// compare: [{label, current, cells: [...], best: [cell positions], damageAt: [cell
// positions], evidenceAt: the first evidence cell's position, fragment}] -> the
// comparison table, each row with a button that applies its settings (a share-link
// fragment). A cell in `best` is the fewest of its column: emphasised and said in words.
const compare = (tbody, json, apply) => {
  const data = JSON.parse(json);
  tbody.replaceChildren(
    ...data.map((row) => {
      const tr = make("tr", row.current ? "current" : "");
      const th = make("th", "", row.label + (row.current ? " (current)" : ""));
      th.scope = "row";
      tr.append(th);
      row.cells.forEach((cell, i) => {
        const td = make("td", i === 1 ? "unit" : "num", cell);
        if (row.damageAt.includes(i)) td.classList.add("dmg-col");
        if (i >= row.evidenceAt) td.classList.add("ev-col");
        if (row.best.includes(i)) {
          td.classList.add("best");
          td.append(" ", make("span", "best-tag", "fewest"));
        }
        tr.append(td);
      });
      const td = make("td");
      const button = make("button", "", row.current ? "Current" : "Use");
      button.type = "button";
      button.disabled = row.current;
      button.setAttribute("aria-label", `${button.textContent} ${row.label} settings`);
      button.addEventListener("click", () => apply(row.fragment));
      td.append(button);
      tr.append(td);
      return tr;
    }),
  );
};

// items: [{title, repeated, rest, gap}], `repeated` is the prefix shared with the
// previous chunk; `gap` (optional) describes source text no chunk kept before this one.
// Whitespace gets its own elements only while the list shows whitespace (class show-ws):
// thousands of extra elements would slow every keystroke's layout for nothing.
// `kept`: the first items stay as they are (an edit changes the items from its chunk on);
// `json` holds the items after them.
const preview = (list, json, kept = 0) => {
  const data = JSON.parse(json);
  const visible = list.classList.contains("show-ws");
  const put = (parent, text) => (visible ? appendText(parent, text) : parent.append(text));
  // A gap line and its chunk's box travel together in one <li> so keys stay one per chunk.
  reconcile(list, data.map((item) => `${visible}:${JSON.stringify(item)}`), (i) => {
    const item = data[i];
    const li = make("li", "chunk");
    li.dataset.index = String(item.index);
    if (item.gap) li.append(make("p", "gap", item.gap));
    const box = make("div", "chunk-box");
    box.append(make("p", "chunk-title", item.title));
    if (item.prefix) {
      // Context the mode would prepend when embedding: shown apart, never as source text.
      const prefix = make("div", "chunk-prefix");
      prefix.append(make("span", "prefix-label", "Context prefix (not in the source text)"));
      prefix.append(make("pre", "prefix-text", item.prefix));
      box.append(prefix);
    }
    const body = make("p", "chunk-text");
    if (item.repeated) {
      const mark = make("mark", "repeated");
      mark.title = "Repeated from the previous chunk";
      put(mark, item.repeated);
      body.append(mark);
    }
    put(body, item.rest);
    box.append(body);
    const hurt = make("p", "chunk-damage");
    hurt.hidden = true;
    box.append(hurt);
    li.append(box);
    return li;
  }, kept);
};

// header: ["Index", ...]: the records table's column headings.
const header = (thead, json) => {
  const tr = make("tr");
  for (const name of JSON.parse(json)) {
    const th = make("th", "", name);
    th.scope = "col";
    tr.append(th);
  }
  thead.replaceChildren(tr);
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

globalThis.ciRender = {
  rows, preview, header, damage, evidence, compare, download, reconcile, make, symbols,
}; // prettier-ignore
