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
// The snapshot costs bytes: ≈ 7 MB gzip (its heap's free memory zeroed at build time:
// sitebuild/snapshot_maker.mjs), 4.8 MB as the brotli copy a first visit downloads (decoded
// here by the vendored brotli-dec-wasm: see fetchInflated), where the whole of a normal
// boot's runtime costs ≈ 4.5 MB. On a fast link it is still the quicker start (it saves
// seconds of Python start-up for a fraction of a second of download), on a slow one the
// slower (10 Mbit/s: ≈ 4 s for the brotli copy's bytes alone, ≈ 6.5 s for the gzip's).
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
  // preloaded below, among them): the probe reads about half the link's speed
  // (bench/bench_boot.py, 10 Mbit/s: 3.7-5.0 measured; 4.4-6.0 before the wasm preload).
  // The snapshot's extra ~7 MB cost less than the ~4 s of Python start-up they save from
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
  // fewer bytes than the gzip file: 4.8 against 7.0 MB) is downloaded instead, decoded as it
  // arrives by the vendored brotli-dec-wasm (browsers decode only gzip and deflate
  // themselves) and checked piece by piece like the stored copy (brotli has no checksum).
  // Where that decoder cannot run (it failed to load, or no WebCrypto to check its output),
  // the gzip file is downloaded as before.
  const fetchInflated = async (url, tell, from, sha256, brotli) => {
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
    // The response's body as it arrives, counted for the progress line.
    const counted = (response) => {
      const total = Number(response.headers.get("Content-Length")) || 0;
      let seen = 0;
      let shown = 0;
      return response.body.pipeThrough(
        new TransformStream({
          transform(chunk, controller) {
            seen += chunk.byteLength;
            const now = performance.now();
            if (total && now - shown > 100) {
              shown = now;
              tell({ seen, total });
            }
            controller.enqueue(chunk);
          },
          flush() {
            tell({ downloaded: true });
          },
        }),
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
    // The brotli copy, decoded and checked; null when the decoder cannot run here.
    const fromBrotli = async () => {
      if (!globalThis.crypto?.subtle) return null; // nothing to check it with: the gzip's CRC
      // fetched while the snapshot's first bytes come (a module and ~100 KB gzip of wasm)
      const decoder = import(brotli.decoder).then(async (module) => {
        await module.default();
        tell({ decoder: true });
        return module;
      });
      decoder.catch(() => {});
      let response;
      try {
        response = await fetch(brotli.url);
      } catch (error) {
        throw new Error(`not downloaded: ${error.message || error}`);
      }
      if (!response.ok) throw new Error(`missing: HTTP ${response.status}`);
      tell({ started: true });
      // a host that sent it with Content-Encoding: br had the browser decode it already
      if (response.headers.get("Content-Encoding") === "br") {
        return readChecked(counted(response), "the brotli copy");
      }
      let module;
      try {
        module = await decoder;
      } catch (error) {
        response.body.cancel().catch(() => {});
        tell({ decoderFailed: String(error?.message || error) });
        return null;
      }
      return readChecked(counted(response).pipeThrough(brotliDecoding(module)), "the brotli copy");
    };

    if (from === "network" && brotli) {
      const bytes = await fromBrotli();
      if (bytes) return bytes;
    }
    let response;
    try {
      const only = { cache: "only-if-cached", mode: "same-origin" };
      const stored = from === "cache" && globalThis.caches ? await caches.match(url) : null;
      response = stored || (await fetch(url, from === "cached-only" ? only : {}));
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
    const compressed = counted(response);
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
      started();
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
  // module, under the policy's script-src). Receives {url, from, sha256, brotli}; answers
  // what fetchInflated tells, then {bytes} (transferred) or {error}.
  const workerMain = () => {
    addEventListener("message", async ({ data: { url, from, sha256, brotli } }) => {
      try {
        const tell = (data) => postMessage({ ...data, at: performance.timeOrigin + performance.now() });
        tell({ working: true });
        const bytes = await fetchInflated(url, tell, from, sha256, brotli);
        postMessage({ bytes }, [bytes.buffer ?? bytes]);
      } catch (error) {
        postMessage({ error: String(error?.message || error) });
      }
    });
  };

  // The bytes from a worker; rejects with {workerFailed} when no worker could run.
  const inWorker = (from) =>
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
      worker.onmessage = ({ data }) => {
        if (!("bytes" in data || "error" in data)) return told(data);
        worker.terminate();
        if (data.error) reject(new Error(data.error));
        else resolve(data.bytes);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        worker.terminate();
        reject(noWorker(event.message || "the worker failed"));
      };
      worker.postMessage({ url, from, sha256, brotli });
    });

  const attempt = (from) =>
    inWorker(from).catch((error) => {
      if (!error.workerFailed) throw error;
      return fetchInflated(url, told, from, sha256, brotli); // in the page
    });

  // The link's speed in Mbit/s, from the timing of stdlib.zip's download (preloaded by
  // index.html): its bytes over the time from its first byte to its last. Shared with the
  // other start-up downloads, so a lower bound; 0 when there is no timing to go by.
  const stdlib = new URL(script.dataset.stdlib, location.href).href;
  const linkSpeed = () =>
    new Promise((resolve) => {
      const measure = (entry) => {
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
      setTimeout(() => {
        observer.disconnect();
        resolve(0);
      }, PROBE_WAIT_MS);
    });


  // A first visit (no service worker controls the page) needs every byte of Pyodide's
  // wasm, on either path; Pyodide asks for it only once it starts loading (on a slow link,
  // after the probe below). A preload asks for it now, beside stdlib.zip: Pyodide's own
  // request (same URL, same credentials mode) takes the preloaded response. Not on a
  // repeat visit: the service worker's cache serves it there, and a preload on warm loads
  // kept V8 from reusing its compiled wasm (see index.html). Nor on loopback: there the
  // snapshot and with it the wasm are asked for at once anyway, and the preloaded 9.6 MB,
  // delivered to the page's main thread, delayed PyScript's start by ~300 ms in a
  // bench/bench_boot.py run on localhost (0.48× bare, 0.42× without it).
  if (!loopback && !navigator.serviceWorker?.controller && script.dataset.wasm) {
    const preload = document.createElement("link");
    Object.assign(preload, { rel: "preload", as: "fetch", crossOrigin: "anonymous" });
    preload.href = new URL(script.dataset.wasm, location.href).href;
    document.head.append(preload);
  }

  // A page its service worker controls has the snapshot in that worker's cache; on
  // loopback a plain request (the HTTP cache answers it when it can) is asked at once.
  const first = navigator.serviceWorker?.controller ? "cache" : loopback ? "network" : "cached-only";
  let downloaded = false; // after the probe: from the network, not from a cache
  globalThis.chunkInspectorSnapshot = attempt(first)
    .catch(async (error) => {
      if (!error.message.startsWith("not cached")) throw error;
      const mbit = await linkSpeed();
      performance.mark("ci:link-measured", { detail: { mbit } });
      if (mbit < FAST_MBIT) {
        const speed = mbit ? `${mbit.toFixed(1)} Mbit/s` : "speed unknown";
        throw new Error(`first visit on a slow link (${speed}): saved for the next visit`);
      }
      downloaded = true;
      return attempt("network");
    })
    .then((bytes) => {
      performance.mark("ci:snapshot-inflated");
      const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
      // The service worker keeps the gzip file's bytes, not the brotli copy's: the bytes
      // this visit downloaded are handed to it (static/offline.js), so that its install does
      // not download the 7 MB gzip file again.
      if (downloaded && brotli) globalThis.chunkInspectorSnapshotSeed = { url, bytes: view };
      return view;
    });
  globalThis.chunkInspectorSnapshot.catch(() => {}); // interpreter.js handles it
})();
