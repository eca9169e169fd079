// The service worker: keeps the shell (SHELL_FILES) in a cache named by its version and
// serves it from there, so the app opens without a network. Pages are answered from the
// network first and from the cached shell when offline; the API is never cached.
import { VERSION, CACHE_PREFIX, SHELL_FILES } from './shell.js';

const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(VERSION)
      .then((cache) => cache.addAll(SHELL_FILES.map((path) => new Request(path, { cache: 'reload' }))))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== VERSION).map((name) => caches.delete(name)),
      ))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== worker.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => shellDocument()));
    return;
  }
  event.respondWith(
    caches.open(VERSION)
      .then((cache) => cache.match(request))
      .then((cached) => cached ?? fetch(request)),
  );
});

/** The cached index.html, for a page opened while offline. */
async function shellDocument() {
  const cache = await caches.open(VERSION);
  return (await cache.match('/')) ?? Response.error();
}
