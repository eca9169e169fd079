// The files that make the app work offline: the service worker caches them at install under
// VERSION and serves them from there. Both come from the files themselves: shell-manifest.js is
// written by `node scripts/shell-version.mjs` (and by `make run`), which lists every file of Web/
// with its SHA-256 and names the cache by their hash, so a changed file gives a new VERSION and
// browsers fetch the new ones (the old cache is deleted when the new worker activates). A unit test
// fails while the written manifest is stale.
import { VERSION, SHELL_MANIFEST } from './shell-manifest.js';

export { VERSION };
export const CACHE_PREFIX = 'waymark-shell-';

/**
 * The shell's URL paths; `/` is the shell document (Web/index.html), which every page URL answers
 * with. The manifest is one of them (the pages that show the version import it), the one without
 * a hash of its own: it is made of the others'.
 */
export const SHELL_FILES = Object.freeze([...SHELL_MANIFEST.map(([path]) => path), '/app/shell-manifest.js']);

/** Each file's Subresource Integrity (`sha256-…`): the worker caches a file only if its bytes are these. */
export const SHELL_INTEGRITY = Object.freeze(Object.fromEntries(SHELL_MANIFEST));

/**
 * The browser libraries the server serves from the system's packages under /vendor/ (DESIGN §3.8)
 * that the offline parts need: the QR code of a recording, Leaflet for a route's map, and
 * TweetNaCl that seals location records for the data vault.
 * Cached when the server has them; not part of Web/.
 */
export const VENDOR_FILES = Object.freeze([
  '/vendor/qrcode-generator/qrcode.js',
  '/vendor/leaflet/leaflet.esm.js',
  '/vendor/leaflet/leaflet.css',
  '/vendor/tweetnacl/nacl-fast.js',
]);
