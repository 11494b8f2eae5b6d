// The app's service worker: the verify page keeps working offline once it has been loaded.
// It caches the app shell (index.html, theme.js) and the built assets — which hold the proof code
// that checks a bundle — and nothing else: API answers and the published keys always go to the
// network (offline, the page verifies with the keys pinned in the browser's storage).
// A plain file in public/ (not bundled): the server's Content-Security-Policy allows no inline script.
const CACHE = 'saksi-shell-v1';
const SHELL = '/';

/** Asset paths an index.html loads (`/assets/…`). */
function assetsOf(html) {
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
}

async function cacheShell() {
  const cache = await caches.open(CACHE);
  const response = await fetch(SHELL, { cache: 'no-store' });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(SHELL, response);
  await cache.addAll(['/theme.js', ...assetsOf(html)]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** Never cached: the API, the published keys, and anything not the app's own. */
function cacheable(url) {
  return (
    url.origin === self.location.origin &&
    !url.pathname.startsWith('/api/') &&
    !url.pathname.startsWith('/.well-known/') &&
    url.pathname !== '/sw.js'
  );
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!cacheable(url)) return;
  if (request.mode === 'navigate') {
    // Pages: the network first (a new build is picked up at once), the cached shell offline. Every
    // route is the same single-page app, so one cached index.html serves them all.
    event.respondWith(
      (async () => {
        try {
          const response = await fetch(request);
          const type = response.headers.get('content-type') ?? '';
          if (response.ok && type.startsWith('text/html')) {
            const cache = await caches.open(CACHE);
            await cache.put(SHELL, response.clone());
          }
          return response;
        } catch (error) {
          const cached = await caches.match(SHELL);
          if (cached) return cached;
          throw error;
        }
      })(),
    );
    return;
  }
  // Assets are content-hashed, so a cached copy is always right; theme.js and the rest: network first.
  const immutable = url.pathname.startsWith('/assets/');
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      if (immutable) {
        const cached = await cache.match(request);
        if (cached) return cached;
      }
      try {
        const response = await fetch(request);
        if (response.ok && (immutable || url.pathname === '/theme.js'))
          await cache.put(request, response.clone());
        return response;
      } catch (error) {
        const cached = await cache.match(request);
        if (cached) return cached;
        throw error;
      }
    })(),
  );
});
