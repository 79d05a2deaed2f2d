// Starts the start-up snapshot's download and inflation as the page starts: a classic
// async script in <head>, so it runs as soon as it arrives, long before PyScript asks for
// its interpreter. A worker does both, off the page's main thread (inflating 31 MB takes
// 170-250 ms here; a response body read on, or streamed through, the main thread arrived
// hundreds of ms late while the page was laying itself out); when no worker runs (none
// allowed, or it failed to start), the page does it itself. interpreter.js takes the
// result from globalThis.chunkInspectorSnapshot: a promise of the inflated bytes, or a
// rejection whose message says why there are none ("missing: HTTP 404", "not downloaded:
// …", "corrupt: …", "first visit on a slow link: …").
//
// The snapshot costs bytes: ≈ 5.9 MB gzip (its heap's free memory zeroed, its code slim:
// sitebuild/snapshot_maker.mjs), 4.1 MB as the brotli copy a first visit downloads (decoded
// here by the vendored brotli-dec-wasm: see fetchInflated), where the whole of a normal
// boot's runtime costs ≈ 4.5 MB. On a fast link it is still the quicker start (it saves
// seconds of Python start-up for a fraction of a second of download), on a slow one the
// slower (10 Mbit/s: ≈ 3.5 s for the brotli copy's bytes alone, ≈ 5 s for the gzip's).
// So it is used when a cache holds it (a repeat visit: the service worker
// stored it after the first result; or the browser's HTTP cache), or when the link measured
// while the page's standard library (stdlib.zip, which every boot needs first) arrived is at
// least FAST_MBIT; or when the page comes from this machine (localhost, 127.0.0.1, ::1):
// a loopback link is fast, and no probe is taken there (it would wait for stdlib.zip
// before asking for the snapshot, and on a busy machine it measured loopback slow).
// Otherwise the page boots normally, and the service worker (offline.js registers it
// after the first result) stores the snapshot for the next visit, inflated:
// a repeat visit reads it straight from the worker's cache with nothing to inflate, and
// checks the SHA-256 of each of its 4 MiB pieces (index.html's data-snapshot-sha256) where
// the gzip's CRC checked it.
(() => {
  const script = document.currentScript;
  const url = new URL(script.dataset.snapshot, location.href).href;
  const sha256 = script.dataset.snapshotSha256;
  // This machine: no probe, the link is fast (other 127.x addresses are probed, which is
  // how tests and benchmarks serve a throttled host: bench/bench_boot.py uses 127.0.0.2).
  const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];
  const loopback = LOOPBACK.includes(location.hostname);
  // The brotli copy and its decoder (index.html leaves them empty when the build has none),
  // for a link that costs something. Not on loopback: there bytes cost nothing and the
  // gzip file's native inflation is the quicker (bench/bench_boot.py on localhost, load
  // 2.5-3.6: first result 0.54x bare with the brotli copy against 0.42x with the gzip
  // file; its decoding, digests included, took ~550 ms beside Pyodide's wasm compile on
  // two cores, DecompressionStream ~380 ms).
  const absolute = (name) => new URL(name, location.href).href;
  const { snapshotBrotli, brotliDecoder } = script.dataset;
  const brotli =
    snapshotBrotli && brotliDecoder && !loopback
      ? { url: absolute(snapshotBrotli), decoder: absolute(brotliDecoder) }
      : null;
  // stdlib.zip shares the link with the page's other first downloads (Pyodide's wasm,
  // preloaded by index.html's inline script from the first request, among them): the
  // probe reads a third to half the link's speed (bench/bench_boot.py: 3.3 measured at
  // 10 Mbit/s, 31-37 at 100; 4.3 and 39-48 when the wasm's preload came after snapshot.js).
  // The snapshot's extra ~4-6 MB cost less than the ~4 s of Python start-up they save from
  // a link of about 15 Mbit/s up (quiet machine; less on a busy one): 15 measured is ~30.
  const FAST_MBIT = 15;
  const PROBE_WAIT_MS = 20000; // no timing entry for stdlib.zip by then: take the link as slow
  const report = (detail) => dispatchEvent(new CustomEvent("ci:boot", { detail }));
  const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

  // Downloads and inflates the snapshot at `url` into an ArrayBuffer (the service worker's
  // copy, or the brotli copy: a Uint8Array over a little more), telling `tell` about
  // the download: {seen, total} at most every 100 ms, {downloaded} once every byte has
  // arrived. Rejects with why there is no snapshot. Runs in the worker (its source is
  // copied into the worker's code below) or, without one, in the page.
  // `from`: "network"; "cache" (a page its service worker controls: the worker's cache is
  // read directly, not through a request to the worker); "cached-only" (a service worker's
  // or the HTTP cache's copy, or a rejection whose message starts "not cached").
  // The service worker's copy is inflated already (static/sw.js marks it): the SHA-256 of
  // each of its 4 MiB pieces must be the one `sha256` lists (index.html's
  // data-snapshot-sha256, space-separated), as the gzip's CRC checks the other.
  // `brotli` ({url, decoder}, or null): from the network, the snapshot's brotli copy (a third
  // fewer bytes than the gzip file: 4.1 against 5.9 MB) is downloaded instead, decoded as it
  // arrives by the vendored brotli-dec-wasm (browsers decode only gzip and deflate
  // themselves) and checked piece by piece like the stored copy (brotli has no checksum).
  // Where that decoder cannot run (it failed to load, or no WebCrypto to check its output),
  // the gzip file is downloaded as before.
  // `early` ({fastMbit, windowMs}, or null), with "cached-only": when no cache holds it, the
  // snapshot is asked of the network at once (tell({notCached})), and the download's own
  // speed over its first windowMs is told ({mbit}); the brotli decoder is fetched only once
  // that speed is at least fastMbit, or `fast` (a promise) resolves: the page's probe found
  // the link fast. The page stops the download when either its probe or this speed finds
  // the link slow (firstVisit below).
  // `signal`: an AbortSignal that stops the requests (in the page; a worker is ended instead).
  const fetchInflated = async (url, tell, from, job) => {
    const { sha256, brotli, early, signal, fast: linkFast } = job;
    const PIECE = 4 << 20; // sitebuild/site.py's SNAPSHOT_PIECE
    const expected = sha256.split(" ");
    // Reads `stream` (the inflated bytes) into one buffer; each PIECE-byte piece's SHA-256
    // is started as soon as the piece is whole (WebCrypto digests off this thread), so the
    // check overlaps the read: only the last piece's waits for its end (checking all 31 MB
    // once read took 40-190 ms here, the read itself ~50 ms). `what` names the copy; `read`
    // is called once every byte is read.
    const readChecked = async (stream, what, read = () => {}) => {
      const bytes = new Uint8Array(expected.length * PIECE);
      const digests = [];
      const hex = (digest) =>
        Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
      const check = (piece, end) =>
        digests.push(
          crypto.subtle.digest("SHA-256", bytes.subarray(piece * PIECE, end)).then(hex),
        );
      let size = 0;
      try {
        const reader = stream.getReader();
        for (let next = await reader.read(); !next.done; next = await reader.read()) {
          const chunk = next.value;
          if (size + chunk.byteLength > bytes.length) {
            reader.cancel().catch(() => {});
            throw new Error(`${what} is longer than its SHA-256 list`);
          }
          bytes.set(chunk, size);
          const whole = Math.floor((size + chunk.byteLength) / PIECE);
          for (let piece = Math.floor(size / PIECE); piece < whole; piece++) {
            check(piece, (piece + 1) * PIECE);
          }
          size += chunk.byteLength;
        }
      } catch (error) {
        throw new Error(`corrupt: ${error.message || error}`);
      }
      if (size % PIECE) check(Math.floor(size / PIECE), size);
      read();
      const found = await Promise.all(digests);
      if (found.length !== expected.length || found.some((digest, i) => digest !== expected[i])) {
        throw new Error(`corrupt: ${what}'s SHA-256 differs`);
      }
      return bytes.subarray(0, size); // a view: copying 31 MB to trim the buffer costs
    };
    // The response's body as it arrives, counted for the progress line. Read at once,
    // whatever reads it later: its queue has no limit, so the download never waits for the
    // brotli decoder (the body of a response nobody reads stops at the browser's buffer,
    // and with it the transfer). With `rated` (a function), its speed in Mbit/s over its
    // first early.windowMs is told once ({mbit}; over all of it when it ends sooner) and
    // handed to `rated`.
    const counted = (response, rated = null) => {
      const total = Number(response.headers.get("Content-Length")) || 0;
      const begun = performance.now();
      let seen = 0;
      let shown = 0;
      const rate = (now) => {
        const mbit = (seen * 8) / Math.max(now - begun, 1) / 1000;
        tell({ mbit });
        rated(mbit);
        rated = null;
      };
      return response.body.pipeThrough(
        new TransformStream(
          {
            transform(chunk, controller) {
              seen += chunk.byteLength;
              const now = performance.now();
              if (rated && now - begun >= early.windowMs) rate(now);
              if (total && now - shown > 100) {
                shown = now;
                tell({ seen, total });
              }
              controller.enqueue(chunk);
            },
            flush() {
              if (rated) rate(performance.now());
              tell({ downloaded: true });
            },
          },
          undefined,
          { highWaterMark: Infinity },
        ),
      );
    };
    // brotli-dec-wasm's streaming decoder as a TransformStream; an error (damaged data), or
    // a stream that ends before its last block (a download broken off), errors it.
    const brotliDecoding = ({ DecompressStream, BrotliStreamResultCode: Code }) => {
      const decoder = new DecompressStream();
      let code = Code.NeedsMoreInput;
      return new TransformStream({
        transform(chunk, controller) {
          if (code === Code.ResultSuccess) throw new Error("bytes after the brotli stream's end");
          let offset = 0;
          do {
            const result = decoder.decompress(chunk.subarray(offset), 1 << 20);
            const out = result.buf; // a copy out of the decoder's memory, on each read
            code = result.code;
            offset += result.input_offset;
            result.free();
            if (out.byteLength) controller.enqueue(out);
          } while (code === Code.NeedsMoreOutput);
          if (code === Code.ResultSuccess && offset < chunk.byteLength) {
            throw new Error("bytes after the brotli stream's end");
          }
        },
        flush() {
          decoder.free();
          if (code !== Code.ResultSuccess) throw new Error("the brotli stream ends early");
        },
      });
    };
    // brotli-dec-wasm, ready to decode
    const loadDecoder = () =>
      import(brotli.decoder).then(async (module) => {
        await module.default();
        tell({ decoder: true });
        return module;
      });
    // The brotli copy, decoded and checked; null when the decoder cannot run here.
    // `measure`: a first visit's early request (see `early`).
    const fromBrotli = async (measure) => {
      if (!globalThis.crypto?.subtle) return null; // nothing to check it with: the gzip's CRC
      // fetched while the snapshot's first bytes come (a module and ~100 KB gzip of wasm);
      // on a first visit's early request only once its own speed says the link is fast
      // (on a slow one the page stops it: those bytes would be lost)
      let fast = () => {};
      const own = new Promise((resolve) => (fast = resolve));
      const fastEnough = measure ? Promise.race([own, linkFast ?? own]) : null;
      const decoder = Promise.resolve(fastEnough).then(loadDecoder);
      decoder.catch(() => {});
      let response;
      try {
        response = await fetch(brotli.url, { signal });
      } catch (error) {
        throw new Error(`not downloaded: ${error.message || error}`);
      }
      if (!response.ok) throw new Error(`missing: HTTP ${response.status}`);
      tell({ started: true });
      // a host that sent it with Content-Encoding: br had the browser decode it already
      const decoded = response.headers.get("Content-Encoding") === "br";
      const rated = measure ? (mbit) => mbit >= early.fastMbit && !decoded && fast() : null;
      const body = counted(response, rated);
      if (decoded) return readChecked(body, "the brotli copy");
      let module;
      try {
        module = await decoder;
      } catch (error) {
        body.cancel().catch(() => {});
        tell({ decoderFailed: String(error?.message || error) });
        return null;
      }
      return readChecked(body.pipeThrough(brotliDecoding(module)), "the brotli copy");
    };

    // "decode": job.stream (or job.buffer) is a brotli copy the page downloads (Pyodide's
    // wasm; see decodeWasm below), decoded as it arrives (unless job.decoded: the browser
    // did) and checked here
    if (from === "decode") {
      const body = job.stream ?? new Response(job.buffer).body;
      if (job.decoded) return readChecked(body, url);
      return readChecked(body.pipeThrough(brotliDecoding(await loadDecoder())), url);
    }
    let measure = false; // a first visit's early request (see `early`)
    if (from === "cached-only" && early) {
      try {
        return await fetchInflated(url, tell, from, { ...job, early: null });
      } catch (error) {
        if (!error.message.startsWith("not cached")) throw error;
      }
      tell({ notCached: true });
      [from, measure] = ["network", true];
    }
    if (from === "network" && brotli) {
      const bytes = await fromBrotli(measure);
      if (bytes) return bytes;
    }
    let response;
    try {
      const only = { cache: "only-if-cached", mode: "same-origin" };
      const stored = from === "cache" && globalThis.caches ? await caches.match(url) : null;
      const mode = from === "cached-only" ? only : {};
      response = stored || (await fetch(url, { ...mode, signal }));
    } catch (error) {
      if (from === "cached-only") throw new Error("not cached");
      throw new Error(`not downloaded: ${error.message || error}`);
    }
    if (from === "cached-only" && !response.ok) throw new Error("not cached");
    if (!response.ok) throw new Error(`missing: HTTP ${response.status}`);
    tell({ started: true });
    if (response.headers.get("Chunk-Inspector-Snapshot") === "inflated") {
      return readChecked(response.body, "the stored copy", () => tell({ downloaded: true }));
    }
    const compressed = counted(response, measure ? () => {} : null);
    try {
      // Inflated as the bytes arrive (a file not named .gz came with Content-Encoding: the
      // browser inflated it). An error here is about the data, or a download that broke
      // off midway: the snapshot is unusable either way; the gzip CRC catches damage.
      const gzip = new URL(url).pathname.endsWith(".gz");
      const body = gzip ? compressed.pipeThrough(new DecompressionStream("gzip")) : compressed;
      return await new Response(body).arrayBuffer();
    } catch (error) {
      throw new Error(`corrupt: ${error.message || error}`);
    }
  };

  // Resolves once the snapshot's bytes are on their way (a cached copy, or a download
  // after a fast link's probe): interpreter.js then lets Pyodide compile its wasm while
  // they arrive. Never resolves when no snapshot comes.
  let started;
  globalThis.chunkInspectorSnapshotStarted = new Promise((resolve) => (started = resolve));

  // What the page shows and marks of the download, from either place.
  // The marks are placed when the worker told (`at`, its clock), not when this busy thread
  // read its message.
  const told = (data) => {
    const when = data.at ? { startTime: data.at - performance.timeOrigin } : undefined;
    if (data.working) {
      performance.mark("ci:snapshot-worker", when); // the worker runs: it looks for the bytes
    } else if (data.started) {
      performance.mark("ci:snapshot-started", when);
      if (gate) gate.started();
      else started();
    } else if (data.notCached) {
      gate?.network(); // a first visit's early request: from the network after all
    } else if ("mbit" in data) {
      performance.mark("ci:snapshot-rate", { ...when, detail: { mbit: data.mbit } });
      gate?.rate(data.mbit);
    } else if (data.total) {
      const text = `Downloading the start-up snapshot: ${megabytes(data.seen)} of ${megabytes(data.total)} MB`;
      report({ stage: "progress", text });
    } else if (data.downloaded) {
      performance.mark("ci:snapshot-downloaded", when);
    } else if (data.decoder) {
      performance.mark("ci:snapshot-decoder", when); // the brotli decoder is ready
    } else if (data.decoderFailed) {
      // no brotli decoder here: the gzip file instead
      performance.mark("ci:snapshot-decoder-failed", { ...when, detail: data.decoderFailed });
    }
  };

  // The worker's code. It runs from a blob: URL (the policy's worker-src allows blob:), so
  // starting it needs no request of its own (the brotli decoder it imports is a same-origin
  // module, under the policy's script-src). Receives {url, from, ...job} (fetchInflated's),
  // and {faster} once the page's probe finds the link fast; answers what fetchInflated
  // tells, then {bytes} (transferred) or {error}.
  const workerMain = () => {
    let linkFast = () => {};
    const fast = new Promise((resolve) => (linkFast = resolve));
    addEventListener("message", async ({ data: { url, from, faster, ...job } }) => {
      if (faster) return linkFast(); // the page's probe found the link fast
      try {
        const tell = (data) => postMessage({ ...data, at: performance.timeOrigin + performance.now() });
        tell({ working: true });
        const bytes = await fetchInflated(url, tell, from, { ...job, fast });
        postMessage({ bytes }, [bytes.buffer ?? bytes]);
      } catch (error) {
        postMessage({ error: String(error?.message || error) });
      }
    });
  };

  // Rejects with the reason `signal` (an AbortSignal, or null) is aborted with.
  const stopped = (signal) =>
    new Promise((_, reject) => {
      const stop = () => reject(new Error(signal.reason));
      if (signal?.aborted) stop();
      else signal?.addEventListener("abort", stop, { once: true });
    });

  // The bytes from a worker, which runs fetchInflated(url, ·, from, job) and tells `tell`;
  // rejects with {workerFailed} when no worker could run. Aborting `signal` ends the worker,
  // and with it its download; `fast` resolving tells it {faster}; `transfer`: job's buffers.
  const inWorker = (url, from, job, { signal = null, fast = null, tell = told, transfer = [] }) =>
    new Promise((resolve, reject) => {
      const noWorker = (why) => Object.assign(new Error(why), { workerFailed: true });
      let worker;
      try {
        const code = `const fetchInflated = ${fetchInflated};\n(${workerMain})();`;
        worker = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })));
      } catch (error) {
        reject(noWorker(error.message));
        return;
      }
      stopped(signal).catch((error) => {
        worker.terminate();
        reject(error);
      });
      fast?.then(() => worker.postMessage({ faster: true }));
      worker.onmessage = ({ data }) => {
        if (!("bytes" in data || "error" in data)) return tell(data);
        worker.terminate();
        if (data.error) reject(new Error(data.error));
        else resolve(data.bytes);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        worker.terminate();
        reject(noWorker(event.message || "the worker failed"));
      };
      worker.postMessage({ url, from, ...job }, transfer);
    });

  // The snapshot's bytes: in a worker, or in the page when no worker runs.
  const attempt = (from, early = null, signal = null, fast = null) =>
    inWorker(url, from, { sha256, brotli, early }, { signal, fast }).catch((error) => {
      if (!error.workerFailed) throw error;
      const job = { sha256, brotli, early, signal, fast };
      return Promise.race([fetchInflated(url, told, from, job), stopped(signal)]);
    });

  // The link's speed in Mbit/s, from the timing of stdlib.zip's download (preloaded by
  // index.html): its bytes over the time from its first byte to its last. Shared with the
  // other start-up downloads, so a lower bound; 0 when there is no timing to go by.
  const stdlib = new URL(script.dataset.stdlib, location.href).href;
  const linkSpeed = () =>
    new Promise((resolve) => {
      let timer = 0;
      const measure = (entry) => {
        clearTimeout(timer); // (its closure would keep this script's state alive 20 s)
        const seconds = Math.max(entry.responseEnd - entry.responseStart, 1) / 1000;
        resolve(((entry.encodedBodySize || entry.transferSize) * 8) / seconds / 1e6);
      };
      const done = () => performance.getEntriesByName(stdlib).find((e) => e.responseEnd > 0);
      if (done()) return measure(done());
      const observer = new PerformanceObserver(() => {
        if (!done()) return;
        observer.disconnect();
        measure(done());
      });
      observer.observe({ type: "resource", buffered: true });
      timer = setTimeout(() => {
        observer.disconnect();
        resolve(0);
      }, PROBE_WAIT_MS);
    });

  // A first visit off this machine, with no service worker's copy: the worker looks in the
  // HTTP cache and, finding nothing there, asks the network for the snapshot at once, while
  // two measures of the link run: stdlib.zip's download (linkSpeed) and the snapshot's own
  // first RATE_WINDOW_MS (told as {mbit}). Either one below FAST_MBIT stops the worker, and
  // its download with it: the page boots normally. Pyodide is told that the bytes are
  // coming (`started`) only once both have passed; the brotli decoder is fetched once
  // either has (on a slow link neither: ~0.1 MB saved). Asking at once rather than after the
  // probe puts the snapshot's bytes on the link beside Pyodide's wasm instead of after it.
  // (bench/bench_boot.py, 100 Mbit/s, 40 ms: the snapshot's first byte came ~80-160 ms
  // after the probe ended, ~220 ms after navigation now.) On a slow link its first
  // RATE_WINDOW_MS cost the bytes they brought (10 Mbit/s: ~0.1 MB).
  const RATE_WINDOW_MS = 250;
  let gate = null; // the first visit's verdict on the link, while the two measures run
  const firstVisit = () => {
    const stop = new AbortController();
    let network = false; // no cache held it: the download is on the link
    let headers = false; // the response has begun
    let passed = 0; // measures that found the link fast (two: go)
    let go = () => {};
    const verdict = new Promise((resolve) => (go = resolve));
    const judge = (mbit, what = "") => {
      if (!network || stop.signal.aborted) return;
      if (mbit < FAST_MBIT) {
        const speed = mbit ? `${mbit.toFixed(1)} Mbit/s` : "speed unknown";
        stop.abort(`first visit on a slow link (${speed}${what}): saved for the next visit`);
      } else if (++passed === 2) {
        go();
        if (headers) started();
      }
    };
    let probed = null; // linkSpeed's measure, kept until the download is on the link
    let probeFast = () => {};
    const fast = new Promise((resolve) => (probeFast = resolve));
    gate = {
      network() {
        network = downloaded = true;
        if (probed !== null) judge(probed);
      },
      rate: (mbit) => judge(mbit, ` over the snapshot's first ${RATE_WINDOW_MS} ms`),
      started() {
        headers = true;
        if (!network || passed === 2) started();
      },
    };
    linkSpeed().then((mbit) => {
      performance.mark("ci:link-measured", { detail: { mbit } });
      probed = mbit;
      judge(mbit);
      if (mbit >= FAST_MBIT) probeFast();
    });
    const early = { fastMbit: FAST_MBIT, windowMs: RATE_WINDOW_MS };
    // bytes that came before the verdict (a fast download, a slow probe) wait for it
    return attempt("cached-only", early, stop.signal, fast).then(async (bytes) => {
      if (network) await Promise.race([verdict, stopped(stop.signal)]);
      return bytes;
    });
  };

  // The decoded copies of files this visit downloaded as brotli, for the service worker
  // (static/offline.js puts them in its seed cache, then drops them): {url, bytes, headers}.
  // Without service workers nothing would take them: they are not kept (41 MB).
  const seeds = "serviceWorker" in navigator ? (globalThis.chunkInspectorSeeds ??= []) : [];

  // Pyodide's wasm from its brotli copy (2.7 MB where the gzip file is 3.5). On a first
  // visit off loopback, index.html's inline script (sitebuild/wasm_preload.js) preloaded
  // that copy and named it in globalThis.chunkInspectorWasmBrotli ({brotli, wasm}: both
  // URLs). It is read here (the preload's response), decoded in a worker by the snapshot's
  // decoder and checked against the wasm's SHA-256 list (data-wasm-sha256); interpreter.js
  // answers Pyodide's request for the wasm with these bytes (globalThis.chunkInspectorWasm).
  // Without them (the decoder failed, a damaged copy) Pyodide's request goes to the network.
  // Whether a stream can be handed to a worker (asked only where the wasm is decoded).
  const transferable = () => {
    try {
      const stream = new ReadableStream();
      structuredClone(stream, { transfer: [stream] });
      return true;
    } catch {
      return false;
    }
  };
  // The response's body goes to the worker as it arrives where streams can be transferred
  // (else the whole body, once it is in).
  const decodeWasm = async ({ brotli: from, wasm }) => {
    const response = await fetch(from);
    if (!response.ok) throw new Error(`${from}: HTTP ${response.status}`);
    const body = transferable()
      ? { stream: response.body }
      : { buffer: await response.arrayBuffer() };
    const job = {
      sha256: script.dataset.wasmSha256,
      brotli: { decoder: absolute(brotliDecoder) },
      decoded: response.headers.get("Content-Encoding") === "br", // by the browser
      ...body,
    };
    const quiet = () => {};
    const transfer = [body.stream ?? body.buffer];
    const bytes = await inWorker(from, "decode", job, { tell: quiet, transfer }).catch((error) => {
      // in the page when no worker could start (and so nothing was handed to one)
      const kept = body.buffer?.byteLength || (body.stream && !body.stream.locked);
      if (!error.workerFailed || !kept) throw error;
      return fetchInflated(from, quiet, "decode", job);
    });
    performance.mark("ci:wasm-decoded");
    seeds.push({ url: wasm, bytes, headers: { "Content-Type": "application/wasm" } });
    return bytes;
  };
  const wasmCopy = globalThis.chunkInspectorWasmBrotli;
  if (wasmCopy && brotliDecoder && script.dataset.wasmSha256) {
    globalThis.chunkInspectorWasm = decodeWasm(wasmCopy);
    globalThis.chunkInspectorWasm.catch((error) =>
      console.warn(`Chunk Inspector: Pyodide's wasm downloaded again (${error.message || error})`),
    );
  }

  // A page its service worker controls has the snapshot in that worker's cache; on
  // loopback a plain request (the HTTP cache answers it when it can) is asked at once.
  const first = navigator.serviceWorker?.controller ? "cache" : loopback ? "network" : null;
  let downloaded = false; // a first visit's bytes: from the network, not from a cache
  globalThis.chunkInspectorSnapshot = (first ? attempt(first) : firstVisit())
    .then((bytes) => {
      performance.mark("ci:snapshot-inflated");
      const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
      // The service worker keeps the gzip file's bytes, not the brotli copy's: the bytes
      // this visit downloaded are handed to it (static/offline.js), so that its install does
      // not download the 5.9 MB gzip file again.
      // (stored inflated, marked as static/sw.js's INFLATED says)
      if (downloaded && brotli) {
        const headers = { "Content-Type": "application/octet-stream" };
        headers["Chunk-Inspector-Snapshot"] = "inflated";
        seeds.push({ url, bytes: view, headers });
      }
      return view;
    });
  globalThis.chunkInspectorSnapshot.catch(() => {}); // interpreter.js handles it
})();
