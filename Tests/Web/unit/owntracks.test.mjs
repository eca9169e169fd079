// OwnTracks as a background recorder (DESIGN §3.13): the configuration link's exact text, the
// key's alphabet and length, the key sealed as a route envelope under its own associated data,
// and messages made as OwnTracks makes them (TweetNaCl's secretbox, libsodium's bytes: a 24-byte
// nonce, then the box, in Base64) opened, read as fixes and thinned to one per interval.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { webModule } from './helpers.mjs';

const nacl = createRequire(import.meta.url)('/usr/share/nodejs/tweetnacl/nacl-fast.js');
const { owntracksConfiguration, makeEncryptionKey, KEY_ALPHABET, isDeviceNonce } = await webModule('/owntracks/configuration.js');
const { secretboxKey, openMessage, locationFix, readFixes, oneFixPerInterval } = await webModule('/owntracks/messages.js');
const { sealOwnTracksKey, openOwnTracksKey, openEnvelope, sealRoute, EnvelopeError } = await webModule('/recorder/envelope.js');
const { recordFromFix } = await webModule('/vault/records.js');
const { recordJSON } = await webModule('/vault/seal.js');

const KEY = 'k7Hq2mXw9RtZ4vBn8sLd3fGj6pYc5aEu';

test('the configuration link: exactly this JSON, keys in this order, as standard Base64 with padding', () => {
  const { json, link } = owntracksConfiguration({ url: 'https://phone.test:8443/api/v1/owntracks', username: 'anna', password: 'ots_Secret/1+2', key: KEY });
  assert.equal(json, '{"_type":"configuration","mode":3,"url":"https://phone.test:8443/api/v1/owntracks","auth":true,'
    + '"username":"anna","password":"ots_Secret/1+2","deviceId":"waymark","tid":"WM","encryptionKey":"k7Hq2mXw9RtZ4vBn8sLd3fGj6pYc5aEu",'
    + '"monitoring":2,"locatorInterval":10,"locatorDisplacement":0,"cmd":false,"remoteConfiguration":false}');
  assert.ok(link.startsWith('owntracks:///config?inline='));
  const base64 = link.slice('owntracks:///config?inline='.length);
  assert.match(base64, /^[A-Za-z0-9+/]+={0,2}$/);
  assert.equal(base64.length % 4, 0);
  assert.equal(Buffer.from(base64, 'base64').toString('utf8'), json);
  // Not ASCII: the Base64 is of the UTF-8 bytes.
  const named = owntracksConfiguration({ url: 'https://x/api/v1/owntracks', username: 'jürgen', password: 's', key: KEY });
  assert.equal(Buffer.from(named.link.split('inline=')[1], 'base64').toString('utf8'), named.json);
  assert.equal(JSON.parse(named.json).username, 'jürgen');
});

test('a key is 32 characters of the unambiguous alphabet, drawn without bias', () => {
  assert.equal(KEY_ALPHABET.length, 56);
  for (const confusable of '0Oo1Il') assert.ok(!KEY_ALPHABET.includes(confusable), confusable);
  const keys = Array.from({ length: 200 }, () => makeEncryptionKey());
  for (const key of keys) assert.match(key, /^[2-9A-HJ-NP-Za-km-np-z]{32}$/);
  assert.equal(new Set(keys).size, keys.length);
  // Bytes at or above 224 (4 × 56) are drawn again: a generator that gives only 255 then 0 makes the first letter.
  let call = 0;
  const key = makeEncryptionKey((bytes) => bytes.fill(call++ === 0 ? 255 : 0));
  assert.equal(key, '2'.repeat(32));
  let values = 0;
  const counted = makeEncryptionKey((bytes) => { for (let i = 0; i < bytes.length; i++) bytes[i] = (values++ % 2) ? 223 : 224; return bytes; });
  assert.equal(counted, KEY_ALPHABET[223 % 56].repeat(32));
});

test('a device nonce is 12 characters of 0-9A-Z', () => {
  assert.ok(isDeviceNonce('2OANEZK7Q1XD'));
  for (const bad of ['2oanezk7q1xd', '2OANEZK7Q1X', '2OANEZK7Q1XDX', '2OANEZK7Q1X-', '', null]) assert.ok(!isDeviceNonce(bad), String(bad));
});

test('the key sealed under the passphrase opens with its nonce alone, and never as a route', async () => {
  const nonce = '2OANEZK7Q1XD';
  const sealed = await sealOwnTracksKey(KEY, 'correct horse battery staple', nonce, { iterations: 1000 });
  assert.deepEqual(Object.keys(sealed), ['v', 'kdf', 'aead', 'iv', 'ct']);
  assert.equal(sealed.kdf.alg, 'pbkdf2-sha256');
  assert.equal(Buffer.from(sealed.ct, 'base64').length, 32 + 16);
  assert.equal(await openOwnTracksKey(sealed, 'correct horse battery staple', nonce), KEY);
  await assert.rejects(openOwnTracksKey(sealed, 'another passphrase', nonce), (error) => error instanceof EnvelopeError && error.code === 'cannotOpen');
  await assert.rejects(openOwnTracksKey(sealed, 'correct horse battery staple', 'XXXXXXXXXXXX'), (error) => error.code === 'cannotOpen');
  // The associated data differs from a route's: the same envelope does not open as a route.
  await assert.rejects(openEnvelope(sealed, 'correct horse battery staple', nonce), (error) => error.code === 'cannotOpen');
  // The browser's default is the real iteration count.
  const real = await sealOwnTracksKey(KEY, 'pass', nonce);
  assert.equal(real.kdf.iterations, 600000);
});

test('a route sealed with fixed salt and IV is what it was before the key was added (AES-GCM with the route’s associated data)', async () => {
  const { webcrypto } = await import('node:crypto');
  const route = { nonce: 'ABCDEFGHIJKL', qrPeriod: 5, tracks: [[{ latitude: 1, longitude: 2, altitude: null, accuracy: 3, time: 4 }]] };
  const salt = new Uint8Array(16).fill(7);
  const iv = new Uint8Array(12).fill(9);
  const sealed = await sealRoute(route, 'pass', { iterations: 1000, salt, iv });
  // The same bytes by hand, from DESIGN §3.2.
  const subtle = webcrypto.subtle;
  const base = await subtle.importKey('raw', new TextEncoder().encode('pass'), 'PBKDF2', false, ['deriveBits']);
  const master = await subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: 1000 }, base, 256);
  const hk = await subtle.importKey('raw', master, 'HKDF', false, ['deriveBits']);
  const enc = await subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode('waymark-route-enc-v1') }, hk, 256);
  const aes = await subtle.importKey('raw', enc, 'AES-GCM', false, ['encrypt']);
  const ct = await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode('waymark-route-v1:ABCDEFGHIJKL') }, aes,
    new TextEncoder().encode('{"v":1,"nonce":"ABCDEFGHIJKL","qrPeriod":5,"tracks":[[[1,2,null,3,4]]]}'));
  assert.equal(sealed.envelope.ct, Buffer.from(ct).toString('base64'));
  assert.deepEqual((await openEnvelope(sealed.envelope, 'pass', 'ABCDEFGHIJKL')).tracks[0][0].latitude, 1);
});

/** A message as OwnTracks encrypts it: Base64 of a random 24-byte nonce and secretbox(JSON) under the zero-padded key. */
function encrypted(message, key = KEY) {
  const nonce = nacl.randomBytes(24);
  const padded = new Uint8Array(32);
  padded.set(Buffer.from(key, 'utf8'));
  const box = nacl.secretbox(Buffer.from(JSON.stringify(message), 'utf8'), nonce, padded);
  return Buffer.concat([Buffer.from(nonce), Buffer.from(box)]).toString('base64');
}

test('a short key is padded with zero bytes to 32; a longer one is refused', () => {
  assert.deepEqual([...secretboxKey('ab')], [97, 98, ...new Array(30).fill(0)]);
  assert.equal(secretboxKey(KEY).length, 32);
  assert.throws(() => secretboxKey('x'.repeat(33)), RangeError);
});

test('messages OwnTracks encrypted open; another key, a broken box or Base64 give null', () => {
  const location = { _type: 'location', lat: 48.2082, lon: 16.3738, tst: 1764000000, acc: 12, alt: 180, vel: 36, cog: 270, tid: 'WM' };
  assert.deepEqual(openMessage(nacl, encrypted(location), secretboxKey(KEY)), location);
  assert.equal(openMessage(nacl, encrypted(location, 'another key'), secretboxKey(KEY)), null);
  const data = Buffer.from(encrypted(location), 'base64');
  data[30] ^= 1;
  assert.equal(openMessage(nacl, data.toString('base64'), secretboxKey(KEY)), null);
  assert.equal(openMessage(nacl, 'not base64!', secretboxKey(KEY)), null);
  assert.equal(openMessage(nacl, Buffer.alloc(30).toString('base64'), secretboxKey(KEY)), null);
  // A short key, as a person may have typed one in OwnTracks.
  assert.deepEqual(openMessage(nacl, encrypted(location, 'short'), secretboxKey('short')), location);
});

test('a location message is a fix: speed from km/h to m/s, heading from the course; other messages are none', () => {
  assert.deepEqual(locationFix({ _type: 'location', lat: 48.2, lon: 16.3, tst: 1764000000, acc: 12, alt: 180, vel: 36, cog: 270 }),
    { latitude: 48.2, longitude: 16.3, time: 1764000000, altitude: 180, accuracy: 12, speed: 10, heading: 270 });
  assert.deepEqual(locationFix({ _type: 'location', lat: 48.2, lon: 16.3, tst: 1764000000 }),
    { latitude: 48.2, longitude: 16.3, time: 1764000000, altitude: null, accuracy: null, speed: null, heading: null });
  // OwnTracks on iOS sends -1 for a speed or course it does not know.
  assert.deepEqual(locationFix({ _type: 'location', lat: 1, lon: 2, tst: 3, vel: -1, cog: -1 }).speed, null);
  assert.equal(locationFix({ _type: 'transition', lat: 1, lon: 2, tst: 3 }), null);
  assert.equal(locationFix({ _type: 'location', lat: 1, tst: 3 }), null);
  assert.equal(locationFix({ _type: 'location', lat: 91, lon: 2, tst: 3 }), null);
});

test('read fixes: locations kept, other messages skipped, foreign ones counted', () => {
  const items = [
    { data: encrypted({ _type: 'location', lat: 1, lon: 2, tst: 100 }) },
    { data: encrypted({ _type: 'lwt', tst: 101 }) },
    { data: encrypted({ _type: 'location', lat: 3, lon: 4, tst: 50 }, 'someone else') },
    { data: encrypted({ _type: 'location', lat: 5, lon: 6, tst: 200 }) },
  ];
  const { fixes, unreadable } = readFixes(nacl, items, KEY);
  assert.deepEqual(fixes.map((fix) => fix.time), [100, 200]);
  assert.equal(unreadable, 1);
});

test('one fix per interval: the first of each floor(tst / interval) from the epoch, as the CLI, inside the span only', () => {
  const from = 1764000000;
  const fix = (time) => ({ latitude: 1, longitude: 2, time, altitude: null, accuracy: null, speed: null, heading: null });
  const times = [from - 1, from + 299, from, from + 10, from + 300, from + 301, from + 1200, from + 899, from + 3600, from + 3599];
  const kept = oneFixPerInterval(times.map(fix), { from, to: from + 3600, interval: 300 });
  assert.deepEqual(kept.map((f) => f.time - from), [0, 300, 899, 1200, 3599]);
  // A span that starts mid-interval: its intervals are still the epoch's, the CLI's.
  const late = from + 100;
  assert.deepEqual(oneFixPerInterval([late, late + 199, late + 200, late + 499].map(fix), { from: late, to: late + 600, interval: 300 })
    .map((f) => f.time - late), [0, 200]);
  assert.deepEqual(oneFixPerInterval([], { from, to: from + 60, interval: 300 }), []);
  assert.throws(() => oneFixPerInterval([], { from, to: from + 60, interval: 0 }), RangeError);
});

test('a fix becomes the vault’s record with its own speed and heading', () => {
  const record = recordFromFix({ latitude: 48.2, longitude: 16.3, time: 1764000000.5, altitude: 180, accuracy: 12, speed: 10, heading: 270 });
  assert.equal(recordJSON(record), '{"timestamp":"2025-11-24T16:00:00Z","latitude":48.2,"longitude":16.3,"altitude":180.0,"accuracy":12.0,"speed":10.0,"heading":270.0,"datum":"EPSG:4326"}');
  const bare = recordFromFix({ latitude: 48.2, longitude: 16.3, time: 1764000000, altitude: null, accuracy: null, speed: null, heading: null });
  assert.equal(recordJSON(bare), '{"timestamp":"2025-11-24T16:00:00Z","latitude":48.2,"longitude":16.3,"altitude":null,"accuracy":null,"speed":null,"heading":null,"datum":"EPSG:4326"}');
});
