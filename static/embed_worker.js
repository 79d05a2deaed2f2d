// The embedding model in a worker (a module worker started by static/embed_client.js): it
// downloads onnxruntime-web and all-MiniLM-L6-v2 from the page's own origin, checks each
// file's length and SHA-256 before anything uses or keeps it, stores the checked copies in
// the build's cache (the service worker serves them from there, offline too), then answers
// "embed these word-piece id lists" with float32 unit vectors. It never sees text: the
// page's Python turns text into ids (chunker_py.embedding.wordpieces.encode), as the
// command line does, so both doors feed the model the same ids.
//
// Messages in:  {type: "load", files: [{url, bytes, sha256, kind}], cache, ort}
//               {type: "embed", job, ids: "[[int, ...], ...]"}  (JSON, parsed here)
//               {type: "cancel", job}
// Messages out: {type: "progress", loaded, total}
//               {type: "ready", seconds, fromCache}
//               {type: "failed", file, reason}        (nothing damaged is kept)
//               {type: "vectors", job, first, count, data: Float32Array}  (per batch)
//               {type: "done", job} / {type: "error", job, reason}
const DIMENSIONS = 384;
// A batch pads every text to its longest: texts are sorted by length first, and a batch
// holds at most this many word pieces (padding included), so a 256-piece chunk does not
// make eight short ones cost 256 each.
const BATCH_PIECES = 2048;
const CHECKED = "Chunk-Inspector-Sha256";
const TYPES = {
  module: "text/javascript",
  wasm: "application/wasm",
  model: "application/octet-stream",
};

let session = null;
let ort = null;

const hex = (buffer) =>
  [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

class FileProblem extends Error {
  constructor(file, reason) {
    super(`${file}: ${reason}`);
    this.file = file;
    this.reason = reason;
  }
}

const nameOf = (url) => new URL(url).pathname.split("/").pop();

// The bytes of one file: the build's cache's checked copy, or a download whose length and
// SHA-256 are checked before it is stored. `report(n)` is told the bytes that arrived.
const fetchChecked = async (file, cache, report) => {
  const name = nameOf(file.url);
  const kept = cache ? await cache.match(file.url) : null;
  if (kept && kept.headers.get(CHECKED) === file.sha256) {
    const bytes = await kept.arrayBuffer();
    report(bytes.byteLength);
    return { bytes, cached: true };
  }
  let response;
  try {
    response = await fetch(file.url, { cache: "no-cache", credentials: "same-origin" });
  } catch {
    throw new FileProblem(name, "the download failed (the network or the server is down)");
  }
  if (!response.ok) throw new FileProblem(name, `the server answered HTTP ${response.status}`);
  // Read into one buffer of the announced size; a longer body is refused at once.
  const data = new Uint8Array(file.bytes);
  let at = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (at + value.length > file.bytes) {
        throw new FileProblem(name, `it is longer than the ${file.bytes} bytes it should have`);
      }
      data.set(value, at);
      at += value.length;
      report(value.length);
    }
  } catch (error) {
    if (error instanceof FileProblem) throw error;
    throw new FileProblem(name, "the download broke off before the end");
  }
  if (at !== file.bytes) {
    throw new FileProblem(name, `${at} bytes arrived of the ${file.bytes} it should have`);
  }
  const digest = hex(await crypto.subtle.digest("SHA-256", data));
  if (digest !== file.sha256) throw new FileProblem(name, "its SHA-256 differs (damaged)");
  if (cache) {
    // the served type is kept: a module answered from the cache as anything but
    // JavaScript would be refused by import()
    const type = response.headers.get("Content-Type") || TYPES[file.kind];
    const headers = { "Content-Type": type, [CHECKED]: file.sha256 };
    await cache.put(file.url, new Response(data, { headers })).catch(() => {});
  }
  return { bytes: data.buffer, cached: false };
};

const load = async ({ files, cache: cacheName, ort: ortUrl }) => {
  const started = performance.now();
  const cache = cacheName && globalThis.caches ? await caches.open(cacheName) : null;
  const total = files.reduce((sum, f) => sum + f.bytes, 0);
  let loaded = 0;
  let lastPost = 0;
  const report = (n) => {
    loaded += n;
    const now = performance.now();
    if (now - lastPost > 100 || loaded === total) {
      lastPost = now;
      postMessage({ type: "progress", loaded, total });
    }
  };
  // one file after another: the model's bytes never compete with the runtime's
  const got = {};
  let fromCache = true;
  for (const file of files) {
    const { bytes, cached } = await fetchChecked(file, cache, report);
    got[file.kind] = bytes;
    fromCache &&= cached;
  }
  try {
    // the module checked above is what the service worker (or the HTTP cache) now serves
    ort = await import(ortUrl);
  } catch (error) {
    throw new FileProblem(nameOf(ortUrl), `onnxruntime-web did not load (${error.message})`);
  }
  ort.env.wasm.numThreads = 1; // not cross-origin isolated: no shared memory, one thread
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmBinary = got.wasm;
  try {
    session = await ort.InferenceSession.create(new Uint8Array(got.model), {
      executionProviders: ["wasm"],
      graphOptimizationLevel: "all",
    });
  } catch (error) {
    throw new FileProblem("the model", `the runtime refused it (${error.message})`);
  }
  return { seconds: (performance.now() - started) / 1000, fromCache };
};

// Batches of texts of similar length: indexes into `ids`, each batch in length order.
const batches = (ids) => {
  const order = ids.map((_, i) => i).sort((a, b) => ids[a].length - ids[b].length || a - b);
  const out = [];
  let batch = [];
  for (const i of order) {
    const width = ids[i].length;
    if (batch.length && (batch.length + 1) * width > BATCH_PIECES) {
      out.push(batch);
      batch = [];
    }
    batch.push(i);
  }
  if (batch.length) out.push(batch);
  return out;
};

const embedBatch = async (ids, batch) => {
  const width = Math.max(...batch.map((i) => ids[i].length));
  const size = batch.length * width;
  const inputIds = new BigInt64Array(size);
  const mask = new BigInt64Array(size);
  batch.forEach((i, row) => {
    ids[i].forEach((id, column) => {
      inputIds[row * width + column] = BigInt(id);
      mask[row * width + column] = 1n;
    });
  });
  const shape = [batch.length, width];
  const feeds = {
    input_ids: new ort.Tensor("int64", inputIds, shape),
    attention_mask: new ort.Tensor("int64", mask, shape),
    token_type_ids: new ort.Tensor("int64", new BigInt64Array(size), shape),
  };
  const output = await session.run(feeds, ["sentence_embedding"]);
  const data = output.sentence_embedding.data;
  if (data.length !== batch.length * DIMENSIONS) {
    throw new Error(`the model gave ${data.length} numbers for ${batch.length} texts`);
  }
  return data;
};

// Jobs the page no longer waits for (a newer edit): their remaining batches are skipped.
const cancelled = new Set();

const embed = async ({ job, ids: idsJson }) => {
  const ids = JSON.parse(idsJson);
  for (const batch of batches(ids)) {
    if (cancelled.has(job)) break;
    const data = await embedBatch(ids, batch);
    // one message per batch, rows in the batch's order: `indexes` says which texts
    const out = new Float32Array(data);
    postMessage({ type: "vectors", job, indexes: batch, data: out }, [out.buffer]);
  }
  cancelled.delete(job);
  postMessage({ type: "done", job });
};

// One message at a time, in order: a job waits for the load and for the job before it.
let queue = Promise.resolve();
self.onmessage = ({ data: message }) => {
  if (message.type === "cancel") {
    cancelled.add(message.job); // at once, not behind the job it cancels
    return;
  }
  queue = queue.then(async () => {
    if (message.type === "load") {
      try {
        postMessage({ type: "ready", ...(await load(message)) });
      } catch (error) {
        const file = error.file ?? "the model";
        postMessage({ type: "failed", file, reason: error.reason ?? String(error) });
      }
    } else if (message.type === "embed") {
      if (!session) {
        postMessage({ type: "error", job: message.job, reason: "the model is not loaded" });
        return;
      }
      try {
        await embed(message);
      } catch (error) {
        postMessage({ type: "error", job: message.job, reason: String(error?.message ?? error) });
      }
    }
  });
};
