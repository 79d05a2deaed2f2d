// Inflates the gzip-compressed start-up snapshot off the page's main thread, as its bytes
// arrive (inflating 31 MB takes 170-250 ms here). snapshot.js fetches it and transfers the
// response body; this answers
//   {seen, total}   bytes received so far (at most every 100 ms)
//   {downloaded}    once every byte has arrived
//   {bytes}         the inflated snapshot (transferred)
//   {error}         "corrupt: …" (the gzip CRC catches a damaged file; a download that
//                   breaks off midway ends here too)
addEventListener("message", async ({ data: { body, total } }) => {
  let seen = 0;
  let shown = 0;
  const counting = new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      const now = performance.now();
      if (total && now - shown > 100) {
        shown = now;
        postMessage({ seen, total });
      }
      controller.enqueue(chunk);
    },
    flush() {
      postMessage({ downloaded: true });
    },
  });
  try {
    const inflated = body.pipeThrough(counting).pipeThrough(new DecompressionStream("gzip"));
    const bytes = await new Response(inflated).arrayBuffer();
    postMessage({ bytes }, [bytes]);
  } catch (error) {
    postMessage({ error: `corrupt: ${error?.message || error}` });
  }
});
