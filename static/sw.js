// The page's service worker: keeps exactly this build's files (the manifest below, written
// by sitebuild/offline.py) in one cache and serves them when the network is gone.
//
// - Install: every file of the manifest, from this origin only. A file under static/ is
//   content-addressed (static/build-<hash>/, static/vendor/<package>-<version>/), so one
//   an earlier build already cached is copied from there instead of downloaded again.
// - Activate: drop every earlier build's cache, then take over the open pages.
// - Fetch: a GET of a manifest file is answered from the cache (index.html: the network
//   first, so a new deployment is seen at once; the cache when the network fails).
//   Anything else is not touched: no other request is answered, cached or sent from here.
// - On demand (MANIFEST.on_demand: the embedding model and its runtime, with their SHA-256):
//   never downloaded here. The page downloads and checks them when Semantic or Hybrid
//   retrieval is first chosen and stores them in this cache (static/embed_worker.js, the
//   header below naming the SHA-256 checked); from then on they are answered from here.
//   An install carries over an earlier build's copies whose SHA-256 is still the one listed.
// - The start-up snapshot (snapshot-*.bin.gz) is stored inflated, marked by the header
//   below: a repeat visit then reads it with nothing to inflate (static/snapshot.js checks
//   its SHA-256, which index.html gives, in place of the gzip's CRC).
const MANIFEST = /* build.py fills this in */ {};
const INFLATED = "Chunk-Inspector-Snapshot";

const scope = new URL("./", self.location.href);
const urlOf = (name) => new URL(name, scope).href;
const ON_DEMAND = new Map(Object.entries(MANIFEST.on_demand ?? {}).map(([n, h]) => [urlOf(n), h]));
const CHECKED = "Chunk-Inspector-Sha256";
const kept = new Set([...MANIFEST.files.map(urlOf), ...ON_DEMAND.keys()]);
const INDEX = urlOf("index.html");
const contentAddressed = (name) => name.startsWith("static/");

const ownCaches = async () =>
  (await caches.keys()).filter((name) => name.startsWith("chunk-inspector-"));

const earlierCopy = async (url) => {
  for (const name of await ownCaches()) {
    if (name === MANIFEST.cache) continue;
    const found = await (await caches.open(name)).match(url);
    if (found) return found;
  }
  return null;
};

// The snapshot as it is stored: inflated (a host that sent it with Content-Encoding: gzip
// had the browser inflate it already). A damaged download fails the gzip's CRC here, and
// with it the install.
const isSnapshot = (name) => /(^|\/)snapshot-[^/]*\.gz$/.test(name);
const inflated = async (response) => {
  if (response.headers.get(INFLATED) === "inflated") return response;
  const data = new Uint8Array(await response.arrayBuffer());
  const gzip = data[0] === 0x1f && data[1] === 0x8b;
  const body = gzip ? new Blob([data]).stream().pipeThrough(new DecompressionStream("gzip")) : data;
  const bytes = await new Response(body).arrayBuffer();
  const headers = { "Content-Type": "application/octet-stream", [INFLATED]: "inflated" };
  return new Response(bytes, { headers });
};

const download = async (name) => {
  const url = urlOf(name);
  const reused = contentAddressed(name) ? await earlierCopy(url) : null;
  const response = reused || (await fetch(url, { cache: "no-cache", credentials: "same-origin" }));
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return [url, isSnapshot(name) ? await inflated(response) : response];
};

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(MANIFEST.cache);
      for (const name of MANIFEST.files) {
        const [url, response] = await download(name);
        await cache.put(url, response);
      }
      for (const [url, sha256] of ON_DEMAND) {
        const earlier = await earlierCopy(url);
        if (earlier?.headers.get(CHECKED) === sha256) await cache.put(url, earlier);
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await ownCaches()) {
        if (name !== MANIFEST.cache) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

const fromCache = async (url) => (await caches.open(MANIFEST.cache)).match(url);

const pageRequest = (request) => {
  const url = new URL(request.url);
  url.hash = "";
  url.search = "";
  return request.mode === "navigate" && (url.href === scope.href || url.href === INDEX);
};

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  if (pageRequest(request)) {
    event.respondWith(
      fetch(request).catch(async (error) => (await fromCache(INDEX)) || Promise.reject(error)),
    );
    return;
  }
  const url = new URL(request.url);
  url.hash = "";
  if (!kept.has(url.href)) return;
  event.respondWith(
    (async () => (await fromCache(url.href)) || fetch(request))(),
  );
});

// static/offline.js asks which build this worker holds, to say whether the page it shows
// is available offline.
self.addEventListener("message", (event) => {
  if (event.data?.type === "offline-id" && event.ports[0]) {
    event.ports[0].postMessage(MANIFEST.id);
  }
});
