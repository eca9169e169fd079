// Writes browser-sealed.json: a route sealed by Web/recorder/envelope.js with a fixed salt and
// IV, and everything a reader must get back from it. Run from the repository's root:
//   node Tests/Conformance/envelope/make-browser-vector.mjs
// Tests/WaymarkCoreTests/BrowserEnvelopeTests.swift opens it with the Swift implementation;
// Tests/Web/unit/recorder-envelope.test.mjs seals it again and must get the same bytes.
import { writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { webcrypto } from 'node:crypto';

if (!globalThis.crypto) globalThis.crypto = /** @type {any} */ (webcrypto);
const here = dirname(fileURLToPath(import.meta.url));
const { sealRoute, routePlaintext } = await import(join(here, '..', '..', '..', 'Web', 'recorder', 'envelope.js'));

const toHex = (bytes) => Buffer.from(bytes).toString('hex');
const salt = Uint8Array.from({ length: 16 }, (_, index) => 0x30 + index);
const iv = Uint8Array.from({ length: 12 }, (_, index) => 0xc0 + index);
// Written decomposed (e + U+0301): both sides must hash its NFC form "Café …".
const passphrase = 'Cafe\u0301 am Meer 7 \u00fc\u00df';
const route = {
  nonce: 'B7ROWSER0QR5',
  qrPeriod: 5,
  tracks: [
    [
      { latitude: 52.5163, longitude: 13.3777, altitude: 34.5, accuracy: 4, time: 1764000000.25 },
      { latitude: 52.51641, longitude: 13.37792, altitude: null, accuracy: 12.75, time: 1764000001.125 },
      { latitude: 52.5165, longitude: 13.378, altitude: 35, accuracy: null, time: 1764000002 },
    ],
    [
      { latitude: -33.8568, longitude: 151.2153, altitude: -2, accuracy: 8, time: 1764000600.5 },
    ],
  ],
};
const iterations = 600000;
const sealed = await sealRoute(route, passphrase, { iterations, salt, iv });
const vector = {
  about: 'A route sealed in the browser (Web/recorder/envelope.js, PBKDF2-SHA256 as DESIGN §3.2 allows) with a fixed salt and IV. Made by make-browser-vector.mjs; see README.md.',
  passphrase,
  nonce: route.nonce,
  route,
  plaintext: routePlaintext(route),
  saltHex: toHex(salt),
  ivHex: toHex(iv),
  envelope: sealed.envelope,
  lookupKey: sealed.lookupKey,
  deleteToken: sealed.deleteToken,
  deleteTokenHash: sealed.deleteTokenHash,
};
// Non-ASCII written as \u escapes, so no editor can normalise the decomposed passphrase.
const ascii = JSON.stringify(vector, null, 2).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
writeFileSync(join(here, 'browser-sealed.json'), ascii + '\n');
console.log('wrote browser-sealed.json');
