// The files that make the app work offline: the service worker caches them at install under
// VERSION and serves them from there. Change VERSION whenever one of them changes, so that
// browsers fetch the new ones (the old cache is deleted when the new worker activates).
// A unit test checks that this list and the files in Web/ agree.

export const VERSION = 'waymark-shell-2026-11-25.5';
export const CACHE_PREFIX = 'waymark-shell-';

/** `/` is the shell document (Web/index.html), which every page URL answers with. */
export const SHELL_FILES = Object.freeze([
  '/',
  '/favicon.ico',
  '/manifest.webmanifest',
  '/styles/app.css',
  '/app/api.js',
  '/app/dom.js',
  '/app/errors.js',
  '/app/geodesy.js',
  '/app/i18n.js',
  '/app/main.js',
  '/app/pages.json',
  '/app/router.js',
  '/app/session.js',
  '/app/shell.js',
  '/app/status.js',
  '/app/store.js',
  '/app/pages/account.js',
  '/app/pages/home.js',
  '/app/pages/map.js',
  '/app/pages/not-found.js',
  '/app/pages/paths.js',
  '/app/pages/photo.js',
  '/app/pages/upload.js',
  '/app/pages/record.js',
  '/app/pages/route.js',
  '/app/pages/routes.js',
  '/app/pages/settings.js',
  '/app/pages/sky.js',
  '/app/pages/vault.js',
  '/app/pages/vault-module.js',
  '/app/pages/vault-user.js',
  '/inspection/geometry.js',
  '/inspection/nmea.js',
  '/paths/local.js',
  '/paths/model.js',
  '/photos/browse.js',
  '/photos/format.js',
  '/photos/leaflet.js',
  '/photos/photo-card.js',
  '/photos/position.js',
  '/photos/tiles.js',
  '/photos/upload-queue.js',
  '/photos/uploads.js',
  '/recorder/engine.js',
  '/recorder/envelope.js',
  '/recorder/keeper.js',
  '/recorder/notices.js',
  '/recorder/passphrase-rules.js',
  '/recorder/route-queue.js',
  '/recorder/routes.js',
  '/recorder/ui/beep.js',
  '/recorder/ui/connection.js',
  '/recorder/ui/gauge.js',
  '/recorder/ui/icons.js',
  '/recorder/ui/live.js',
  '/recorder/ui/qr.js',
  '/recorder/ui/resume.js',
  '/recorder/ui/wake-lock.js',
  '/scenes/attitude.js',
  '/sky/plot.js',
  '/styles/paths.css',
  '/styles/sky.css',
  '/styles/vault.css',
  '/vault/cache.js',
  '/vault/client.js',
  '/vault/connection.js',
  '/vault/push.js',
  '/vault/qr.js',
  '/vault/records.js',
  '/vault/seal.js',
  '/vault/ui/login.js',
  '/vault/ui/modules.js',
  '/vault/ui/scanner.js',
  '/vault/ui/words.js',
  '/i18n/de.json',
  '/i18n/en.json',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/icons/maskable-512.png',
]);

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
