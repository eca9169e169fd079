// The vault's records and their sealing (DESIGN §3.11, seed 002): the seed's vector reproduced
// byte for byte with Debian's TweetNaCl and node's WebCrypto, the records' JSON in the Swift
// library's key order, and speed and heading derived from a route's fixes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { REPO } from './helpers.mjs';
import { sealRecord, recordJSON, senderSecretKey, toHex, fromHex, SealError, RECORD_KEYS } from '../../../Web/vault/seal.js';
import { recordsFromTrack, recordFromPosition, isoSeconds, distanceAndBearing } from '../../../Web/vault/records.js';

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

test('a record’s JSON: keys in the Swift library’s order, unknown values null, datum EPSG:4326', () => {
  assert.deepEqual(RECORD_KEYS, ['timestamp', 'latitude', 'longitude', 'altitude', 'accuracy', 'speed', 'heading', 'datum']);
  assert.equal(
    recordJSON({ heading: 90, speed: 1.5, datum: 'WGS84', accuracy: 20, altitude: 1.34, longitude: 15.4288967, latitude: 47.0700467, timestamp: '2017-12-28T00:49:22Z' }),
    '{"timestamp":"2017-12-28T00:49:22Z","latitude":47.0700467,"longitude":15.4288967,"altitude":1.34,"accuracy":20,"speed":1.5,"heading":90,"datum":"EPSG:4326"}');
  assert.equal(
    recordJSON({ timestamp: '2017-12-28T16:49:22Z', latitude: 40.75846, longitude: 73.92248, altitude: NaN }),
    '{"timestamp":"2017-12-28T16:49:22Z","latitude":40.75846,"longitude":73.92248,"altitude":null,"accuracy":null,"speed":null,"heading":null,"datum":"EPSG:4326"}');
  assert.equal(JSON.parse(recordJSON({ timestamp: 'x"y', latitude: 0, longitude: -0.0001 })).timestamp, 'x"y');
});

test('timestamps are ISO 8601 UTC in whole seconds', () => {
  assert.equal(isoSeconds(1514479762.9), '2017-12-28T16:49:22Z');
  assert.equal(isoSeconds(0), '1970-01-01T00:00:00Z');
});

test('a route’s fixes: speed and heading from the neighbouring fix, none for a lone fix', () => {
  // 0.001° of latitude north in 10 s: 111.2 m, 11.12 m/s, heading 0; then east.
  const track = [
    { latitude: 45, longitude: 13, altitude: 100, accuracy: 5, time: 1000 },
    { latitude: 45.001, longitude: 13, altitude: null, accuracy: null, time: 1010 },
    { latitude: 45.001, longitude: 13.001, altitude: 101, accuracy: 3, time: 1020 },
  ];
  const records = recordsFromTrack(track);
  assert.equal(records.length, 3);
  assert.deepEqual(records.map((record) => record.speed), [11.12, 11.12, 7.86]);
  assert.deepEqual(records.map((record) => record.heading), [0, 0, 90]);
  assert.deepEqual(records[1], {
    timestamp: '1970-01-01T00:16:50Z', latitude: 45.001, longitude: 13, altitude: null, accuracy: null, speed: 11.12, heading: 0, datum: 'EPSG:4326',
  });
  const lone = recordsFromTrack([track[0]]);
  assert.equal(lone[0].speed, null);
  assert.equal(lone[0].heading, null);
  // Standing still: speed 0, no heading.
  const still = recordsFromTrack([track[0], { ...track[0], time: 1005 }]);
  assert.equal(still[1].speed, 0);
  assert.equal(still[1].heading, null);
  // A source's own speed and heading are kept.
  assert.deepEqual(recordsFromTrack([{ ...track[0], speed: 3, heading: 270 }, track[1]]).map((r) => [r.speed, r.heading]), [[3, 270], [11.12, 0]]);
  const { distance, bearing } = distanceAndBearing({ latitude: 0, longitude: 179.9995 }, { latitude: 0, longitude: -179.9995 });
  assert.ok(Math.abs(distance - 111.2) < 0.1, `across the antimeridian: ${distance}`);
  assert.ok(Math.abs(bearing - 90) < 1e-6);
});

test('one position read now becomes one record with the browser’s speed and heading', () => {
  const record = recordFromPosition({ timestamp: 1764018000123, coords: { latitude: 45.2, longitude: 13.9, altitude: null, accuracy: 12, speed: null, heading: -90 } });
  assert.equal(recordJSON(record), '{"timestamp":"2025-11-24T21:00:00Z","latitude":45.2,"longitude":13.9,"altitude":null,"accuracy":12,"speed":null,"heading":270,"datum":"EPSG:4326"}');
});
