// The vault's records and their sealing (DESIGN §3.11, seed 002): the seed's vector reproduced
// byte for byte with Debian's TweetNaCl and node's WebCrypto, the records' JSON in the Swift
// library's key order, and speed and heading derived from a route's fixes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { REPO } from './helpers.mjs';
import { sealRecord, recordJSON, swiftNumber, senderSecretKey, toHex, fromHex, SealError, RECORD_KEYS } from '../../../Web/vault/seal.js';
import { recordsFromTrack, recordFromPosition, isoSeconds } from '../../../Web/vault/records.js';
import { geodesic } from '../../../Web/app/geodesy.js';

const nacl = createRequire(import.meta.url)('/usr/share/nodejs/tweetnacl/nacl-fast.js');
const vector = JSON.parse(readFileSync(join(REPO, 'Tests', 'Conformance', 'vault', 'seal-vector.json'), 'utf8'));

test('the seed’s vector: the 116-byte record sealed to 3c14…3920 with nonce 59b1…876e gives the seed’s 264 hex digits', async () => {
  assert.equal(new TextEncoder().encode(vector.plaintext).length, 116);
  assert.equal(vector.senderSecretKeySource, 'auth');
  const sealed = await sealRecord(nacl, vector.plaintext, vector.publicKey, fromHex(vector.nonce, 24));
  assert.deepEqual(sealed, { value: vector.value, nonce: vector.nonce, version: '0.4' });
  assert.equal(sealed.value.length, 264);
  // The seed's own text, independent of the shared file.
  assert.ok(sealed.value.startsWith('2322818113e73144fab77ce62916ec88') && sealed.value.endsWith('d2778f5a8b842117d'));
  assert.equal(toHex(nacl.box.keyPair.fromSecretKey(await senderSecretKey()).publicKey), vector.senderPublicKey);
});

test('the repo’s side opens what was sealed (a fresh nonce every time)', async () => {
  const repo = nacl.box.keyPair();
  const plaintext = recordJSON({ timestamp: '2026-11-24T21:00:00Z', latitude: 45.5, longitude: 13.75, altitude: 12.5, accuracy: 4 });
  const first = await sealRecord(nacl, plaintext, toHex(repo.publicKey));
  const second = await sealRecord(nacl, plaintext, toHex(repo.publicKey));
  assert.notEqual(first.nonce, second.nonce);
  assert.match(first.nonce, /^[0-9a-f]{48}$/);
  assert.match(first.value, /^[0-9a-f]+$/);
  const senderPublic = nacl.box.keyPair.fromSecretKey(await senderSecretKey()).publicKey;
  const opened = nacl.box.open(fromHex(first.value, first.value.length / 2), fromHex(first.nonce, 24), senderPublic, repo.secretKey);
  assert.equal(new TextDecoder().decode(opened), plaintext);
});

test('a repo key that is not 64 hex digits, or a nonce that is not 24 bytes, is refused', async () => {
  for (const key of ['', 'abc', vector.publicKey.slice(2), `${vector.publicKey}00`, 'z'.repeat(64), null]) {
    await assert.rejects(sealRecord(nacl, '{}', /** @type {any} */ (key)), (error) => error instanceof SealError && error.code === 'invalidKey');
  }
  await assert.rejects(sealRecord(nacl, '{}', vector.publicKey, new Uint8Array(23)), (error) => error instanceof SealError && error.code === 'invalidNonce');
});

test('a record’s JSON is the Swift library’s, byte for byte: key order, nulls, numbers as Swift prints them', () => {
  assert.deepEqual(RECORD_KEYS, ['timestamp', 'latitude', 'longitude', 'altitude', 'accuracy', 'speed', 'heading', 'datum']);
  // The two strings of Tests/WaymarkVaultTests/VaultRecordTests.swift.
  assert.equal(recordJSON({ timestamp: '2017-12-28T16:49:22Z', latitude: 40.75846, longitude: 73.92248, altitude: 160.34 }),
    '{"timestamp":"2017-12-28T16:49:22Z","latitude":40.75846,"longitude":73.92248,"altitude":160.34,"accuracy":null,"speed":null,"heading":null,"datum":"EPSG:4326"}');
  assert.equal(recordJSON({ timestamp: '1970-01-01T00:00:00Z', latitude: -33.5, longitude: -0.000125, altitude: -12, accuracy: 20, speed: 0, heading: 359.75 }),
    '{"timestamp":"1970-01-01T00:00:00Z","latitude":-33.5,"longitude":-0.000125,"altitude":-12.0,"accuracy":20.0,"speed":0.0,"heading":359.75,"datum":"EPSG:4326"}');
  // Given in any order, with another datum and non-finite values: the order, EPSG:4326 and null win.
  assert.equal(
    recordJSON({ heading: 90, speed: Infinity, datum: 'WGS84', accuracy: NaN, altitude: 1.34, longitude: 15.4288967, latitude: 47.0700467, timestamp: '2017-12-28T00:49:22Z' }),
    '{"timestamp":"2017-12-28T00:49:22Z","latitude":47.0700467,"longitude":15.4288967,"altitude":1.34,"accuracy":null,"speed":null,"heading":90.0,"datum":"EPSG:4326"}');
  assert.equal(JSON.parse(recordJSON({ timestamp: 'x"y\u0001', latitude: 0, longitude: 1 })).timestamp, 'x"y\u0001');
  // Swift's description of a Double.
  const cases = [[160, '160.0'], [0, '0.0'], [-0, '-0.0'], [1.5, '1.5'], [0.0001, '0.0001'], [0.00001, '1e-05'], [-0.0000123, '-1.23e-05'],
    [1e-7, '1e-07'], [123456789.125, '123456789.125'], [2 ** 53, '9007199254740992.0'], [2 ** 53 + 2, '9.007199254740994e+15'], [1e16, '1e+16'], [9.5e15, '9.5e+15'], [1e15, '1000000000000000.0'],
    [0.1 + 0.2, '0.30000000000000004'], [NaN, 'null']];
  for (const [value, text] of cases) assert.equal(swiftNumber(value), text, String(value));
});

test('timestamps are ISO 8601 UTC in whole seconds, fractions dropped', () => {
  assert.equal(isoSeconds(1514479762.999), '2017-12-28T16:49:22Z');
  assert.equal(isoSeconds(0), '1970-01-01T00:00:00Z');
  assert.equal(isoSeconds(951_782_400), '2000-02-29T00:00:00Z');
  assert.equal(isoSeconds(-1), '1969-12-31T23:59:59Z');
  assert.equal(isoSeconds(4_102_444_799), '2099-12-31T23:59:59Z');
});

const fix = (latitude, longitude, time, more = {}) => ({ latitude, longitude, altitude: null, accuracy: null, time, ...more });

test('speed and heading as the Swift library derives them: to the next fix, the last from the one before', () => {
  const t = 1_600_000_000;
  // On the equator 0.0001° of latitude is 11.0574 m, of longitude 11.1319 m (WGS-84).
  const north = recordsFromTrack([fix(0, 0, t), fix(0.0001, 0, t + 1)]);
  assert.ok(Math.abs(north[0].speed - 11.0574) < 0.001 && Math.abs(north[1].speed - 11.0574) < 0.001);
  assert.ok(north[0].heading < 1e-9);
  assert.ok(north[1].heading < 1e-9 || 360 - north[1].heading < 1e-9);
  const east = recordsFromTrack([fix(0, 0, t), fix(0, 0.0001, t + 1)]);
  assert.ok(Math.abs(east[0].speed - 11.1319) < 0.001);
  assert.ok(Math.abs(east[0].heading - 90) < 1e-9);
  const southWest = recordsFromTrack([fix(0, 0, t), fix(0, -0.0001, t + 2), fix(-0.0001, -0.0001, t + 4)]);
  assert.ok(Math.abs(southWest[0].heading - 270) < 1e-9);
  assert.ok(Math.abs(southWest[0].speed - 11.1319 / 2) < 0.001);
  assert.ok(Math.abs(southWest[1].heading - 180) < 1e-6);
  assert.ok(Math.abs(southWest[2].heading - 180) < 1e-6, 'the last fix: the direction of arrival');
});

test('Vincenty’s published line, Flinders Peak to Buninyong: 54,972.271 m and both azimuths', () => {
  const dms = (d, m, s) => d + m / 60 + s / 3600;
  const records = recordsFromTrack([fix(-dms(37, 57, 3.72030), dms(144, 25, 29.52440), 0), fix(-dms(37, 39, 10.15610), dms(143, 55, 35.38390), 100)]);
  assert.ok(Math.abs(records[0].speed - 549.72271) < 0.00001, String(records[0].speed));
  assert.ok(Math.abs(records[0].heading - dms(306, 52, 5.37)) < 0.01 / 3600);
  assert.ok(Math.abs(records[1].heading - (dms(127, 10, 25.07) + 180)) < 0.01 / 3600);
  const across = geodesic({ latitude: 0, longitude: 179.9995 }, { latitude: 0, longitude: -179.9995 });
  assert.ok(Math.abs(across.distance - 111.32) < 0.01, `across the antimeridian: ${across.distance}`);
  assert.ok(Math.abs(across.start - 90) < 1e-6);
});

test('a lone fix has no speed or heading; standing still speed 0 and no heading; the same instant none', () => {
  const t = 1_600_000_000;
  const lone = recordsFromTrack([fix(46, 14, t, { altitude: 500, accuracy: 4 })]);
  assert.deepEqual(lone, [{ timestamp: '2020-09-13T12:26:40Z', latitude: 46, longitude: 14, altitude: 500, accuracy: 4, speed: null, heading: null, datum: 'EPSG:4326' }]);
  const still = recordsFromTrack([fix(46, 14, t), fix(46, 14, t + 5)]);
  assert.deepEqual(still.map((r) => [r.speed, r.heading]), [[0, null], [0, null]]);
  const sameInstant = recordsFromTrack([fix(46, 14, t), fix(46.001, 14, t)]);
  assert.deepEqual(sameInstant.map((r) => [r.speed, r.heading]), [[null, null], [null, null]]);
  assert.deepEqual(recordsFromTrack([]), []);
  // A source's own speed and heading are kept.
  assert.deepEqual(recordsFromTrack([fix(46, 14, t, { speed: 3, heading: 270 }), fix(46.001, 14, t + 10)]).map((r) => r.speed === 3 ? [r.speed, r.heading] : 'derived'), [[3, 270], 'derived']);
});

test('one position read now becomes one record with the browser’s speed and heading', () => {
  const record = recordFromPosition({ timestamp: 1764018000123, coords: { latitude: 45.2, longitude: 13.9, altitude: null, accuracy: 12, speed: null, heading: -90 } });
  assert.equal(recordJSON(record), '{"timestamp":"2025-11-24T21:00:00Z","latitude":45.2,"longitude":13.9,"altitude":null,"accuracy":12.0,"speed":null,"heading":270.0,"datum":"EPSG:4326"}');
});
