// The chunk map's DOM builder (app/chunkmap.py calls it with JSON). It draws the whole
// source text once, verbatim and with textContent only, cut into elements at the chunks'
// offsets; it never searches the text. Chunk i's element holds the text from its start to
// the next chunk's start (or its own end): the part already covered by an earlier chunk is
// the repeated (overlap) part; text in no chunk is an omitted gap.
//
// Elements are keyed by their text, so a keystroke rebuilds only the elements whose text
// changed; the others are kept and get their index, offsets and colour as attributes.

// Elements and whitespace symbols as the preview makes them: render.js's (loaded first).
const el = (tag, className, text) => globalThis.ciRender.make(tag, className, text);

// The UTF-16 offset of every code point offset (JS strings index UTF-16 units), as an
// array, or null when the text has no surrogate pair and the two are the same.
const utf16Offsets = (text) => {
  if (!/[\uD800-\uDFFF]/.test(text)) return null;
  const out = [0];
  let unit = 0;
  for (const ch of text) {
    unit += ch.length;
    out.push(unit);
  }
  return out;
};

// The map's pieces in source order: {kind: "chunk"|"gap"|"covered", a, b (code points),
// ...}. `spans` is a [[start0, end0], [start1, end1], ...] list in source order.
const pieces = (length, spans) => {
  const out = [];
  let reach = 0; // end of the union of the chunks so far
  const count = spans.length;
  for (let i = 0; i < count; i += 1) {
    const [start, end] = spans[i];
    const next = i + 1 < count ? spans[i + 1][0] : length;
    if (start > reach) out.push({ kind: "gap", a: reach, b: start });
    const ownEnd = Math.max(start, Math.min(end, next));
    const repeated = Math.min(Math.max(reach - start, 0), ownEnd - start);
    out.push({ kind: "chunk", i, a: start, b: ownEnd, start, end, repeated });
    const newReach = Math.max(reach, end);
    // text after this chunk's own part that an earlier, longer chunk still covers
    const coveredEnd = Math.min(newReach, next);
    if (coveredEnd > ownEnd) out.push({ kind: "covered", a: ownEnd, b: coveredEnd });
    reach = newReach;
  }
  if (length > reach) out.push({ kind: "gap", a: reach, b: length });
  return out;
};

// `repeated`: the length of the repeated part in UTF-16 units
// The chunk's focusable part is its handle, the bar drawn at its start: a button named by
// index and range, with no text of its own (the chunk's text is not the button's name).
const buildChunk = (slice, repeated) => {
  const node = el("span", "map-chunk");
  const handle = el("span", "map-handle");
  handle.setAttribute("role", "button");
  handle.tabIndex = -1;
  node.append(handle);
  if (repeated) {
    node.append(el("span", "map-repeated", slice.slice(0, repeated)));
    node.append(slice.slice(repeated));
  } else {
    node.append(slice);
  }
  if (!slice) node.classList.add("map-empty");
  return node;
};

const buildGap = (slice, kind) => {
  const node = el("span", kind === "gap" ? "map-gap" : "map-covered", slice);
  if (kind === "gap") {
    // the omitted characters stay in the text (copying gives the source); CSS draws them
    node.dataset.shown = globalThis.ciRender.symbols(slice);
  }
  return node;
};

const setAttr = (node, name, value) => {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
};

// A chunk's damage: at its start, at its end, and all of it in words ("" for none). CSS
// marks the edges; the handle's name (nameChunks) says it.
const setMarks = (node, startMark, endMark, words) => {
  // most chunks are unchanged between keystrokes: skip them by one comparison
  const sig = `${node._place}:${startMark}:${endMark}:${words}`;
  if (node._sig === sig) return;
  node._sig = sig;
  setAttr(node, "data-start-mark", startMark);
  setAttr(node, "data-end-mark", endMark);
  setAttr(node, "data-damage", words);
};

// json: {count, changed: {"<chunk index>": name}}: the handles' accessible names, written
// by app/chunkmap.py (only the changed ones are sent; the rest are kept on the root). A
// handle built or placed anew gets its chunk's name too.
const nameChunks = (root, json) => {
  const { count, changed } = JSON.parse(json);
  const names = (root._names || []).slice(0, count);
  for (const index in changed) names[index] = changed[index];
  root._names = names;
  for (const node of root.getElementsByClassName("map-chunk")) {
    const name = names[node._index];
    if (node._name !== name) {
      node._name = name;
      node.firstChild.setAttribute("aria-label", name);
    }
  }
};

// json: [[startMark, endMark, words], ...] per chunk index (from the damage analysis).
const markDamage = (root, json) => {
  const marks = JSON.parse(json);
  for (const node of root.querySelectorAll(".map-chunk")) {
    const [startMark, endMark, words] = marks[node.dataset.index] || ["", "", ""];
    setMarks(node, startMark, endMark, words);
  }
};

// Gives a chunk element its index, offsets and colour (skipped when they are unchanged).
const place = (node, p, empty) => {
  const where = `${p.i}:${p.start}:${p.end}`;
  if (node._place === where) return;
  node._place = where;
  node._index = p.i;
  setAttr(node, "class", `map-chunk c${p.i % 2}${empty ? " map-empty" : ""}`);
  setAttr(node, "data-index", String(p.i));
  setAttr(node, "data-start", String(p.start));
  setAttr(node, "data-end", String(p.end));
  setAttr(node, "data-repeated", String(p.repeated));
  // damage marks come later (markDamage), for this result: none until then
  setMarks(node, "", "", "");
};

// A long line is cut into blocks too (so no task runs long: 20,000 code points without a
// line break were one block, laid out whole on every edit, 50-240 ms): a block ends at the
// first piece end after BLOCK_UNITS UTF-16 units that follows white space, or after twice
// as many at any piece end, but only where a grapheme cluster ends: never inside a ZWJ
// sequence, a combining sequence or a surrogate pair (the chunks' offsets may fall there).
// The pieces themselves, their offsets and colours are the same either way.
const BLOCK_UNITS = 1000;

// Whether UTF-16 offset `at` of `text` is a grapheme cluster boundary. The map asks in
// increasing order, so each question segments only the text from the last cluster start
// found (a cluster boundary is a safe place to start: UAX #29's rules look back no further
// than the cluster they are in) to a little past `at`. `containing` on the whole text
// scanned it from its start on each question when no boundary was near (a long task:
// 20,000 code points of ZWJ emoji, ~30 ms an edit). The segmenter is made on the first
// question only: most texts' lines are short.
const AFTER_UNITS = 32; // text after `at` handed to the segmenter (its rules look back)
const graphemeBoundary = (text) => {
  let segmenter = null;
  let from = 0; // a cluster start at or before the questions to come
  return (at) => {
    if (at <= 0 || at >= text.length) return true;
    if (at < from) from = 0; // asked out of order: start again
    segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
    const part = text.slice(from, at + AFTER_UNITS);
    from += segmenter.segment(part).containing(at - from).index;
    return from === at;
  };
};

// `text`: the source text; json: [[s0, e0], ...]: the chunks' code-point offsets.
// The pieces are grouped into blocks that end after a piece ending in a line break (e.g. a
// trimmed paragraph break), or on a long line as above: an edit re-lays out its own block
// only, and blocks out of the map's view skip layout (content-visibility). Blocks are kept or built by render.js's
// reconcile. Signatures live in expando properties (_place, _sig, _where), as the keys do:
// reading thousands of attributes per keystroke would cost more than the rest of the update.
const chunkMap = (root, text, json) => {
  const offsets = utf16Offsets(text);
  const unit = offsets ? (a) => offsets[a] : (a) => a; // code point offset -> UTF-16
  const length = offsets ? offsets.length - 1 : text.length; // in code points
  const parts = pieces(length, JSON.parse(json));
  const slices = parts.map((p) => text.slice(unit(p.a), unit(p.b)));
  const keys = parts.map((p, n) =>
    p.kind === "chunk" ? `c${p.repeated}:${slices[n]}` : `${p.kind[0]}:${slices[n]}`,
  );
  const blocks = [[]];
  const boundary = graphemeBoundary(text);
  let run = 0; // UTF-16 units in the block so far
  parts.forEach((p, n) => {
    blocks[blocks.length - 1].push(n);
    if (n + 1 === parts.length) return;
    const slice = slices[n];
    const last = slice.slice(-1);
    run += slice.length;
    const broken = last === "\n" || last === "\r";
    const long = run >= BLOCK_UNITS && (/\s/.test(last) || run >= 2 * BLOCK_UNITS);
    if (broken || (long && boundary(unit(p.b)))) {
      blocks.push([]);
      run = 0;
    }
  });
  const blockKeys = blocks.map((members) => members.map((n) => keys[n]).join("\u0000"));
  const built = globalThis.ciRender.reconcile(root, blockKeys, (b) => {
    const block = el("div", "map-block");
    for (const n of blocks[b]) {
      const p = parts[n];
      const node =
        p.kind === "chunk"
          ? buildChunk(slices[n], unit(p.a + p.repeated) - unit(p.a))
          : buildGap(slices[n], p.kind);
      block.append(node);
    }
    return block;
  });
  built.forEach((block, b) => {
    const members = blocks[b];
    // A kept block (same key: the same pieces, kinds and texts) needs no placing when it
    // starts at the same offset with the same first chunk index, and its chunks reaching
    // past their own piece (overlap) end where they did; the other chunks' indices and
    // offsets follow from those. Typing in one block leaves the others untouched.
    let first = -1;
    let reaching = "";
    for (const n of members) {
      const p = parts[n];
      if (p.kind !== "chunk") continue;
      if (first < 0) first = p.i;
      if (p.end !== p.b) reaching += `:${n - members[0]}>${p.end}`;
    }
    const where = `${parts[members[0]].a}:${first}${reaching}`;
    if (block._where === where) return;
    block._where = where;
    let node = block.firstElementChild;
    for (const n of members) {
      const p = parts[n];
      if (p.kind === "chunk") place(node, p, !slices[n]);
      node = node.nextElementSibling;
    }
  });
  // roving tabindex: one chunk is in the tab order; arrow keys move between chunks
  if (!root.querySelector('.map-handle[tabindex="0"]')) {
    const first = root.querySelector(".map-handle");
    if (first) first.tabIndex = 0;
  }
};

const chunkAt = (root, index) => root.querySelector(`.map-chunk[data-index="${index}"]`);

// Moves the roving tab stop to chunk `index` and focuses it (scrolling it into view).
const focusChunk = (root, index) => {
  const chunk = chunkAt(root, index);
  if (!chunk) return false;
  const target = chunk.firstChild;
  for (const node of root.querySelectorAll('.map-handle[tabindex="0"]')) node.tabIndex = -1;
  target.tabIndex = 0;
  target.focus({ preventScroll: true });
  chunk.scrollIntoView({ block: "nearest", inline: "nearest" });
  return true;
};

// Whether the map's panel is (partly) on screen, kept by an IntersectionObserver so the
// keystroke path reads a flag instead of forcing a layout.
let shown = false;
const onScreen = () => shown;

// Arrow-key moves between chunks (the detail line under the map is app/chunkmap.py's).
const wireChunkMap = (root, panel) => {
  new IntersectionObserver((entries) => {
    for (const entry of entries) shown = entry.isIntersecting;
  }).observe(panel);
  root.addEventListener("keydown", (event) => {
    const node = event.target.closest(".map-chunk");
    if (!node) return;
    const index = Number(node.dataset.index);
    const last = root.querySelectorAll(".map-chunk").length - 1;
    const moves = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1,
                    ArrowUp: index - 1, Home: 0, End: last }; // prettier-ignore
    if (event.key in moves) {
      event.preventDefault();
      focusChunk(root, Math.min(Math.max(moves[event.key], 0), last));
    }
  });
};

// -- Evidence check: the questions' excerpts underlined over the chunks, with the CSS
// Custom Highlight API (no element is added or changed: the text stays as textContent put
// it), and each chunk holding evidence names its questions (data-evidence; the handle's
// name and the detail line say so, from app/chunkmap.py). The map's text nodes hold the source text in order, so a
// code-point offset is found by walking them.

// The text nodes of `root` with their UTF-16 starts, and the UTF-16 offset of every code
// point offset (null when they are the same).
const textIndex = (root) => {
  const nodes = [];
  const starts = [];
  let at = 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push(node);
    starts.push(at);
    at += node.data.length;
  }
  const text = nodes.map((n) => n.data).join("");
  return { nodes, starts, offsets: utf16Offsets(text), length: at };
};

// The text node holding UTF-16 offset `unit` and the offset inside it (binary search).
const locate = (index, unit) => {
  let lo = 0;
  let hi = index.nodes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (index.starts[mid] <= unit) lo = mid;
    else hi = mid - 1;
  }
  return [index.nodes[lo], unit - index.starts[lo]];
};

// json: {"ranges": [[start, end], ...] (code points), "chunks": {"<index>": "words"}}.
const markEvidence = (root, json) => {
  const { ranges, chunks } = JSON.parse(json);
  for (const node of root.querySelectorAll(".map-chunk")) {
    const words = chunks[node.dataset.index] || "";
    if ((node.dataset.evidence || "") !== words) {
      if (words) node.dataset.evidence = words;
      else node.removeAttribute("data-evidence");
    }
  }
  if (!globalThis.CSS || !CSS.highlights || typeof Highlight === "undefined") return;
  const index = textIndex(root);
  const highlight = new Highlight();
  if (index.nodes.length) {
    const unit = index.offsets ? (a) => index.offsets[a] : (a) => a;
    for (const [start, end] of ranges) {
      const a = unit(start);
      const b = unit(end);
      if (a === undefined || b === undefined || b > index.length || a >= b) continue;
      const range = document.createRange();
      range.setStart(...locate(index, a));
      const [node, offset] = locate(index, b);
      // an end at a node's very start is the previous node's end (no empty tail)
      range.setEnd(node, offset);
      highlight.add(range);
    }
  }
  CSS.highlights.set("ci-evidence", highlight);
};

// The code-point offsets [start, end] of the document selection inside `root`, or null.
const selectionOffsets = (root) => {
  const selection = document.getSelection();
  if (!selection || selection.isCollapsed || !selection.rangeCount) return null;
  const range = selection.getRangeAt(0);
  if (!root.contains(range.startContainer) || !root.contains(range.endContainer)) return null;
  const index = textIndex(root);
  const before = (container, offset) => {
    // UTF-16 units of the map's text before the boundary point (container, offset)
    const probe = document.createRange();
    probe.setStart(root, 0);
    probe.setEnd(container, offset);
    return probe.toString().length;
  };
  const toCodePoint = (unit) => {
    if (!index.offsets) return unit;
    let lo = 0;
    let hi = index.offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (index.offsets[mid] < unit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const start = toCodePoint(before(range.startContainer, range.startOffset));
  const end = toCodePoint(before(range.endContainer, range.endOffset));
  return end > start ? [start, end] : null;
};

// Where the user last selected text: "map" (the chunk map) or "other" (kept up to date
// from selectionchange, so a button press that moves the focus does not change it).
let lastSelection = "other";
const wireSelection = (root) => {
  document.addEventListener("selectionchange", () => {
    const selection = document.getSelection();
    const inMap =
      selection && !selection.isCollapsed && selection.rangeCount &&
      root.contains(selection.getRangeAt(0).commonAncestorContainer); // prettier-ignore
    if (inMap) lastSelection = "map";
    else if (document.activeElement && document.activeElement.id === "source-text")
      lastSelection = "other";
  });
};
const selectedIn = () => lastSelection;

globalThis.ciChunkMap = {
  chunkMap, nameChunks, markDamage, focusChunk, wireChunkMap, onScreen, pieces, markEvidence,
  selectionOffsets, wireSelection, selectedIn, graphemeBoundary,
}; // prettier-ignore
