// The browser's route envelope (Web/recorder/envelope.js) against DESIGN §3.2 and the Swift
// implementation, through the shared vectors in Tests/Conformance/envelope/ (the Swift half is
// Tests/WaymarkCoreTests/BrowserEnvelopeTests.swift): the browser seals the same bytes again and
// opens what Swift sealed; a changed byte, another nonce or passphrase opens nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, webModule } from './helpers.mjs';

const { sealRoute, openEnvelope, openEnvelopeWithToken, routePlaintext, makeVerifier, checkVerifier, lookupKey, deleteTokenHash, EnvelopeError } =
  await webModule('/recorder/envelope.js');

const vector = (name) => JSON.parse(readFileSync(join(REPO, 'Tests', 'Conformance', 'envelope', name), 'utf8'));
const fromHex = (hex) => Uint8Array.from(hex.match(/../g), (pair) => parseInt(pair, 16));
const browser = vector('browser-sealed.json');
const swift = vector('swift-sealed.json');

test('the browser seals the shared vector again byte for byte (fixed salt and IV)', async () => {
  assert.equal(browser.envelope.kdf.iterations, 600000, 'the vector uses the real iteration count');
  assert.equal(routePlaintext(browser.route), browser.plaintext);
  const sealed = await sealRoute(browser.route, browser.passphrase, { iterations: browser.envelope.kdf.iterations, salt: fromHex(browser.saltHex), iv: fromHex(browser.ivHex) });
  assert.equal(JSON.stringify(sealed.envelope), JSON.stringify(browser.envelope));
  assert.equal(sealed.lookupKey, browser.lookupKey);
  assert.equal(sealed.deleteToken, browser.deleteToken);
  assert.equal(sealed.deleteTokenHash, browser.deleteTokenHash);
  assert.match(sealed.deleteTokenHash, /^[0-9a-f]{64}$/);
});

test('the passphrase is hashed in its NFC form: composed and decomposed seal alike', async () => {
  assert.notEqual(browser.passphrase, browser.passphrase.normalize('NFC'), 'the vector\'s passphrase is written decomposed');
  const sealed = await sealRoute(browser.route, browser.passphrase.normalize('NFC'), { iterations: 600000, salt: fromHex(browser.saltHex), iv: fromHex(browser.ivHex) });
  assert.equal(sealed.envelope.ct, browser.envelope.ct);
});

test('opens the route Swift sealed: plaintext, route, delete token and its hash, lookup key', async () => {
  assert.equal(swift.envelope.kdf.alg, 'pbkdf2-sha256');
  const opened = await openEnvelopeWithToken(swift.envelope, swift.passphrase, swift.nonce);
  assert.equal(opened.plaintext, swift.plaintext);
  assert.equal(opened.deleteToken, swift.deleteToken);
  assert.equal(await deleteTokenHash(opened.deleteToken), swift.deleteTokenHash);
  assert.equal(await lookupKey(swift.nonce), swift.lookupKey);
  assert.equal(opened.route.nonce, swift.nonce);
  assert.equal(opened.route.qrPeriod, 12);
  assert.deepEqual(opened.route.tracks.map((track) => track.length), [2, 1]);
  assert.deepEqual(opened.route.tracks[0][1], { latitude: 47.37702, longitude: 8.54188, altitude: null, accuracy: null, time: 1764003601.75 });
  assert.equal(opened.route.tracks[0][0].altitude, 408.25);
});

test('opens its own vector and gets the route back', async () => {
  const route = await openEnvelope(browser.envelope, browser.passphrase, browser.nonce);
  assert.deepEqual(route, browser.route);
});

test('a changed byte, another nonce or another passphrase opens nothing', async () => {
  const flip = (base64, index) => {
    const bytes = Buffer.from(base64, 'base64');
    bytes[index] ^= 0x01;
    return bytes.toString('base64');
  };
  for (const source of [browser, swift]) {
    const length = Buffer.from(source.envelope.ct, 'base64').length;
    for (const index of [0, Math.floor(length / 2), length - 1]) {
      const changed = { ...source.envelope, ct: flip(source.envelope.ct, index) };
      await assert.rejects(openEnvelope(changed, source.passphrase, source.nonce), (error) => error instanceof EnvelopeError && error.code === 'cannotOpen');
    }
    await assert.rejects(openEnvelope({ ...source.envelope, iv: flip(source.envelope.iv, 3) }, source.passphrase, source.nonce), { code: 'cannotOpen' });
    await assert.rejects(openEnvelope({ ...source.envelope, kdf: { ...source.envelope.kdf, salt: flip(source.envelope.kdf.salt, 0) } }, source.passphrase, source.nonce), { code: 'cannotOpen' });
    await assert.rejects(openEnvelope(source.envelope, source.passphrase, source.nonce.replace(/.$/, 'Z')), { code: 'cannotOpen' });
    await assert.rejects(openEnvelope(source.envelope, `${source.passphrase}!`, source.nonce), { code: 'cannotOpen' });
  }
});

test('iterations come from the envelope: the same route sealed with fewer opens with them', async () => {
  const sealed = await sealRoute(browser.route, 'short', { iterations: 1000 });
  assert.equal(sealed.envelope.kdf.iterations, 1000);
  assert.equal(Buffer.from(sealed.envelope.kdf.salt, 'base64').length, 16);
  assert.equal(Buffer.from(sealed.envelope.iv, 'base64').length, 12);
  assert.deepEqual(await openEnvelope(sealed.envelope, 'short', browser.nonce), browser.route);
  const again = await sealRoute(browser.route, 'short', { iterations: 1000 });
  assert.notEqual(again.envelope.iv, sealed.envelope.iv, 'fresh IV every time');
  assert.notEqual(again.deleteToken, sealed.deleteToken, 'fresh salt, so another delete token');
  assert.equal(again.lookupKey, sealed.lookupKey, 'the lookup key depends on the nonce alone');
});

test('bad input is refused by name', async () => {
  await assert.rejects(sealRoute(browser.route, '', { iterations: 1000 }), { code: 'emptyPassphrase' });
  await assert.rejects(sealRoute(browser.route, null, { iterations: 1000 }), { code: 'emptyPassphrase' }, 'no kept passphrase is not the text "null"');
  await assert.rejects(sealRoute(browser.route, 'p', { iterations: 0 }), { code: 'unsupportedKDF' });
  await assert.rejects(openEnvelope({ ...browser.envelope, kdf: { alg: 'scrypt', n: 1024, r: 8, p: 1, salt: browser.envelope.kdf.salt } }, 'p', browser.nonce), { code: 'unsupportedKDF' });
  await assert.rejects(openEnvelope({ ...browser.envelope, iv: 'AAAA' }, 'p', browser.nonce), { code: 'malformed', field: 'iv' });
  await assert.rejects(openEnvelope({ ...browser.envelope, v: 2 }, 'p', browser.nonce), { code: 'malformed', field: 'v' });
  await assert.rejects(deleteTokenHash('xyz'), { code: 'malformed' });
});

test('a missing altitude or accuracy is written as null, the fix time with its fractions', () => {
  const text = routePlaintext({ nonce: 'N', qrPeriod: 1, tracks: [[{ latitude: 1.5, longitude: -2.25, altitude: undefined, accuracy: Number.NaN, time: 1700000000.125 }]] });
  assert.equal(text, '{"v":1,"nonce":"N","qrPeriod":1,"tracks":[[[1.5,-2.25,null,null,1700000000.125]]]}');
});

test('the passphrase verifier tells the kept passphrase from another (NFC, never an empty one)', async () => {
  const verifier = await makeVerifier('Cafe\u0301 7', { iterations: 1000 });
  assert.equal(verifier.alg, 'pbkdf2-sha256');
  assert.equal(await checkVerifier(verifier, 'Caf\u00e9 7'), true);
  assert.equal(await checkVerifier(verifier, 'Cafe 7'), false);
  assert.equal(await checkVerifier(verifier, ''), false);
  assert.equal(await checkVerifier({ ...verifier, hash: Buffer.alloc(32).toString('base64') }, 'Caf\u00e9 7'), false);
  const standard = await makeVerifier('x');
  assert.equal(standard.iterations, 600000);
});
