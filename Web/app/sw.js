// The service worker: keeps the shell (SHELL_FILES) in a cache named by its version and
// serves it from there, so the app opens without a network. Pages are answered from the
// network first and from the cached shell when offline; the API is never cached. Background
// Sync (where the browser has it) wakes it to upload the recorder's queued routes with no page open.
import { VERSION, CACHE_PREFIX, SHELL_FILES, SHELL_INTEGRITY, VENDOR_FILES } from './shell.js';
import { ROUTE_SYNC_TAG, syncNow } from '../recorder/routes.js';

const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(VERSION)
      .then(async (cache) => {
        // Each file is checked against its hash in the manifest: a file from another version (a
        // server being updated, a proxy's stale copy) fails the install rather than mixing versions.
        await cache.addAll(SHELL_FILES.map((path) => new Request(path, { cache: 'reload', integrity: SHELL_INTEGRITY[path] ?? '' })));
        // The system's browser libraries may be missing on a server (`--web-vendor`): each is kept
        // when it is there, and the app installs without it (the page then says what is missing).
        await Promise.all(VENDOR_FILES.map((path) => cache.add(new Request(path, { cache: 'reload' })).catch(() => undefined)));
      })
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

// Background Sync: drain the route queue (Web/recorder/routes.js). A drain that leaves routes
// waiting fails the event, so the browser tries again later; open pages hear what was stored.
worker.addEventListener('sync', (event) => {
  const sync = /** @type {ExtendableEvent & {tag?: string}} */ (event);
  if (sync.tag !== ROUTE_SYNC_TAG) return;
  sync.waitUntil(syncNow().then(async (result) => {
    if (result.stored.length > 0) {
      for (const client of await worker.clients.matchAll({ type: 'window' })) {
        client.postMessage({ type: 'waymark-routes-stored', routes: result.stored.map((route) => route.id) });
      }
    }
    if (result.waiting > 0) throw new Error(`${result.waiting} route uploads still wait (${result.blocked ?? 'retry later'})`);
  }));
});
