/* The offline wallet (issue 52), loaded by the generated service worker (vite.config.ts
   workbox.importScripts). A car's documents list and its pages are asked of the network first;
   without an answer (no signal, or none within 3 s) they come from the "evdra-papers" cache, which
   the app fills with the latest document of each type of the user's cars (src/lib/offline/papers.ts)
   while the "keep papers on this device" setting is on, and empties on logout. A page already kept
   is refreshed in the cache when the network answers. */
const PAPERS_CACHE = 'evdra-papers';
const PAPERS_URL = /^\/api\/vehicles\/\d+\/documents(\/\d+\/file)?$/;

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !PAPERS_URL.test(url.pathname)) return;
  event.respondWith(papersFirstFromNetwork(request));
});

async function papersFirstFromNetwork(request) {
  const kept = async () => {
    if (!(await caches.has(PAPERS_CACHE))) return undefined;
    const cache = await caches.open(PAPERS_CACHE);
    return cache.match(request, { ignoreVary: true });
  };
  const network = fetch(request).then(async (response) => {
    if (response.ok && (await caches.has(PAPERS_CACHE))) {
      const cache = await caches.open(PAPERS_CACHE);
      if (await cache.match(request, { ignoreVary: true })) await cache.put(request, response.clone());
    }
    return response;
  });
  network.catch(() => undefined); // answered from the kept copy: a later failure is nobody's to report
  // No answer within 3 s (a roadside's weak signal): the kept copy, if there is one; else keep waiting.
  const slow = new Promise((resolve) => setTimeout(() => resolve('slow'), 3000));
  try {
    const first = await Promise.race([network, slow]);
    if (first !== 'slow') return first;
    const copy = await kept();
    return copy ?? (await network);
  } catch (err) {
    const copy = await kept();
    if (copy) return copy;
    throw err;
  }
}
