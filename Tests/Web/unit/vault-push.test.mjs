// Uploading the cached records (seed 002 "Write Data") against a fake vault that decrypts what
// it is sent: batches of 100, sealed to the repo's key or plain for a keyless repo, exactly the
// refused records kept, one renewal on a 401, everything kept on 403, no answer, or an answer
// with the wrong number of per-item results; and a route's fixes imported once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import './helpers.mjs';
import { createVaultClient } from '../../../Web/vault/client.js';
import { createVaultCache, memoryVaultStorage, isRepositoryName } from '../../../Web/vault/cache.js';
import { pushRecords, importRoutes, refusedCount } from '../../../Web/vault/push.js';
import { recordJSON, senderSecretKey, toHex, fromHex } from '../../../Web/vault/seal.js';

const nacl = createRequire(import.meta.url)('/usr/share/nodejs/tweetnacl/nacl-fast.js');

/** A record a minute apart from the last. */
const record = (index) => ({
  timestamp: new Date(Date.UTC(2026, 10, 24, 10, 0, 0) + index * 60_000).toISOString().replace('.000Z', 'Z'),
  latitude: 45 + index / 1000, longitude: 13.5, altitude: 10 + index, accuracy: 5, speed: null, heading: null, datum: 'EPSG:4326',
});

/**
 * A vault in memory: repo `keyed` has a key pair, `plain` none, `closed` answers 403. `write`
 * may replace the items endpoint's behaviour for one call (return a Response) or pass (undefined).
 */
function fakeVault({ write } = {}) {
  const repoKeys = nacl.box.keyPair();
  const state = { tokens: 0, items: [], writes: [], bodies: [], refuse: new Set(), signIns: 0, expired: new Set() };
  const json = (body, status = 200) => new Response(JSON.stringify(body), { status });
  const fetch = async (url, init) => {
    const path = new URL(url).pathname;
    if (path === '/oauth/token') {
      state.signIns += 1;
      return json({ access_token: `token-${++state.tokens}`, token_type: 'bearer', expires_in: 7200, username: 'User A' });
    }
    const bearer = init.headers.Authorization?.replace('Bearer ', '');
    if (!bearer || state.expired.has(bearer)) return json({ error: 'invalid_token' }, 401);
    const repo = path.split('/')[3];
    if (repo === 'closed') return json({ error: 'forbidden' }, 403);
    if (path.endsWith('/pub_key')) return repo === 'keyed' ? json({ id: 1, identifier: repo, pub_key: toHex(repoKeys.publicKey) }) : json({ error: 'not_found' }, 404);
    const items = JSON.parse(init.body);
    state.writes.push(items.length);
    state.bodies.push(init.body);
    const replaced = await write?.(items, state);
    if (replaced) return replaced;
    const sender = nacl.box.keyPair.fromSecretKey(await senderSecretKey()).publicKey;
    const responses = items.map((item) => {
      let plaintext;
      if (repo === 'keyed') {
        if (item.version !== '0.4') return { error: 'plain item in a keyed repo' };
        const opened = nacl.box.open(fromHex(item.value, item.value.length / 2), fromHex(item.nonce, 24), sender, repoKeys.secretKey);
        if (!opened) return { error: 'does not decrypt' };
        plaintext = new TextDecoder().decode(opened);
      } else {
        plaintext = JSON.stringify(item);
      }
      const parsed = JSON.parse(plaintext);
      if (state.refuse.has(parsed.timestamp)) return { error: 'refused by the fake vault' };
      state.items.push({ repo, plaintext, sealed: repo === 'keyed' });
      return { id: state.items.length, status: 200 };
    });
    const refused = responses.some((answer) => answer.error);
    return json({ processed: items.length, responses }, refused ? 400 : 200);
  };
  return { fetch, state };
}

/** A cache with `count` records, a client and tokens on `vault`. */
async function setUp(vault, count) {
  const cache = createVaultCache(memoryVaultStorage());
  await cache.add(Array.from({ length: count }, (_, index) => record(index)));
  const client = createVaultClient({ vault: 'https://vault.example', fetch: vault.fetch });
  let kept = null;
  const renewals = { count: 0 };
  const tokens = {
    token: async () => (kept ??= await client.signIn({ kind: 'password', email: 'user_a@ownyourdata.eu', password: 'user_a' })),
    renew: async () => { renewals.count += 1; kept = await client.signIn({ kind: 'password', email: 'user_a@ownyourdata.eu', password: 'user_a' }); return kept; },
  };
  return { cache, client, tokens, renewals, push: (repository, more = {}) => pushRecords({ client, tokens, cache, nacl, repository, now: () => 1_764_000_000_000, ...more }) };
}

test('250 records go in batches of 100, 100 and 50, sealed; the vault decrypts each to the record’s JSON', async () => {
  const vault = fakeVault();
  const { cache, push } = await setUp(vault, 250);
  const report = await push('keyed');
  assert.deepEqual(report, { written: 250, refused: {}, kept: 0, encrypted: true, failure: null });
  assert.deepEqual(vault.state.writes, [100, 100, 50]);
  assert.deepEqual(vault.state.items.map((item) => item.plaintext), Array.from({ length: 250 }, (_, index) => recordJSON(record(index))));
  assert.equal(await cache.count(), 0);
  assert.equal(await cache.lastUpload(), 1_764_000_000_000);
});

test('a repo without a key receives plain records', async () => {
  const vault = fakeVault();
  const { push } = await setUp(vault, 3);
  const report = await push('plain');
  assert.equal(report.encrypted, false);
  assert.equal(report.written, 3);
  assert.deepEqual(vault.state.items.map((item) => JSON.parse(item.plaintext)), [record(0), record(1), record(2)]);
  // The bytes the Swift library would send: each record's JSON as recordJSON writes it (10.0, not 10).
  assert.equal(vault.state.bodies[0], `[${[0, 1, 2].map((index) => recordJSON(record(index))).join(',')}]`);
  assert.match(vault.state.bodies[0], /"altitude":10\.0,"accuracy":5\.0,/);
});

test('a 400 with mixed results keeps exactly the refused records; the next push sends only those', async () => {
  const vault = fakeVault();
  const { cache, push } = await setUp(vault, 200);
  for (const index of [3, 99, 100, 150, 199]) vault.state.refuse.add(record(index).timestamp);
  const report = await push('keyed');
  assert.equal(report.written, 195);
  assert.deepEqual(report.refused, { 'refused by the fake vault': 5 });
  assert.equal(refusedCount(report), 5);
  assert.equal(report.kept, 5);
  assert.deepEqual((await cache.pending()).map(({ record: kept }) => kept.timestamp), [3, 99, 100, 150, 199].map((index) => record(index).timestamp));
  vault.state.refuse.clear();
  const again = await push('keyed');
  assert.equal(again.written, 5);
  assert.deepEqual(vault.state.writes, [100, 100, 5]);
  assert.equal(await cache.count(), 0);
  assert.equal(new Set(vault.state.items.map((item) => item.plaintext)).size, 200);
});

test('a 401 signs in again once and sends the batch again; a second 401 stops and keeps everything', async () => {
  const vault = fakeVault();
  const { cache, tokens, renewals, push } = await setUp(vault, 120);
  vault.state.expired.add((await tokens.token()).accessToken);
  const report = await push('keyed');
  assert.equal(renewals.count, 1);
  assert.equal(report.written, 120);
  assert.equal(report.failure, null);

  const refusing = fakeVault({ write: async () => new Response('{"error":"invalid_token"}', { status: 401 }) });
  const second = await setUp(refusing, 120);
  const stopped = await second.push('keyed');
  assert.equal(second.renewals.count, 1, 'one renewal, not a loop');
  assert.equal(stopped.failure?.kind, 'unauthorized');
  assert.equal(stopped.written, 0);
  assert.equal(await second.cache.count(), 120);
  assert.equal(await second.cache.lastUpload(), null);
});

test('a 403, no answer, or an answer the browser may not read keep every record', async () => {
  const forbidden = await setUp(fakeVault(), 7);
  const closed = await forbidden.push('closed');
  assert.equal(closed.failure?.kind, 'forbidden');
  assert.equal(closed.kept, 7);

  let calls = 0;
  const flaky = fakeVault();
  const down = { fetch: async (url, init) => { if (++calls > 3) throw new TypeError('Failed to fetch'); return flaky.fetch(url, init); } };
  const offline = await setUp(down, 150);
  const report = await offline.push('keyed');
  // sign-in, key, first batch answered; the second batch and its probe fail.
  assert.equal(report.failure?.kind, 'unreachable');
  assert.equal(report.written, 100);
  assert.equal(report.kept, 50);
  assert.equal(await offline.cache.lastUpload(), 1_764_000_000_000, 'the batch that was written counts as an upload');

  const blocked = await setUp({ fetch: async (url, init) => { if (init.mode === 'no-cors') return { type: 'opaque', status: 0 }; throw new TypeError('Failed to fetch'); } }, 4);
  const refused = await blocked.push('keyed');
  assert.equal(refused.failure?.kind, 'blocked');
  assert.equal(refused.kept, 4);
});

test('a 400 with the wrong number of per-item answers removes nothing', async () => {
  const vault = fakeVault({ write: async (items) => new Response(JSON.stringify({ processed: items.length - 1, responses: items.slice(1).map((_, index) => ({ id: index, status: 200 })) }), { status: 400 }) });
  const { cache, push } = await setUp(vault, 30);
  const report = await push('keyed');
  assert.equal(report.failure?.kind, 'badAnswer');
  assert.equal(report.written, 0);
  assert.equal(await cache.count(), 30);
  const server = await setUp(fakeVault({ write: async () => new Response('oops', { status: 500 }) }), 2);
  assert.equal((await server.push('plain')).failure?.kind, 'badAnswer');
  assert.equal(await server.cache.count(), 2);
});

test('nothing cached: nothing is asked of the vault', async () => {
  const vault = fakeVault();
  const { push } = await setUp(vault, 0);
  assert.deepEqual(await push('keyed'), { written: 0, refused: {}, kept: 0, encrypted: false, failure: null });
  assert.equal(vault.state.signIns, 0);
});

test('the cache: the same place at the same time is kept once; a source is imported once; clear empties it', async () => {
  const cache = createVaultCache(memoryVaultStorage());
  assert.equal(await cache.add([record(1), record(1), record(2)]), 2);
  assert.equal(await cache.add([record(2), record(3)]), 1);
  assert.equal(await cache.count(), 3);
  assert.deepEqual((await cache.pending(2)).map(({ record: kept }) => kept.timestamp), [record(1).timestamp, record(2).timestamp]);
  assert.equal(await cache.repository(), 'eu.ownyourdata.location');
  await cache.setRepository('oyd.location');
  assert.equal(await cache.repository(), 'oyd.location');
  assert.equal(await cache.clear(), 3);
  assert.equal(await cache.count(), 0);
  assert.ok(isRepositoryName('eu.ownyourdata.location'));
  for (const bad of ['', '../x', 'a/b', 'a b', '.hidden', 'x'.repeat(201)]) assert.ok(!isRepositoryName(bad), bad);
});

test('a recorded route’s fixes become records once; a route still recording waits', async () => {
  const cache = createVaultCache(memoryVaultStorage());
  const tracks = {
    r1: [[{ latitude: 45, longitude: 13, altitude: 1, accuracy: 4, time: 1_764_000_000 }, { latitude: 45.001, longitude: 13, altitude: 2, accuracy: 4, time: 1_764_000_010 }],
      [{ latitude: 45.002, longitude: 13, altitude: null, accuracy: null, time: 1_764_000_100 }]],
    r2: [[{ latitude: 46, longitude: 14, altitude: null, accuracy: 3, time: 1_764_000_200 }]],
  };
  const asked = [];
  const tracksOf = async (id) => { asked.push(id); return tracks[id]; };
  const routes = [{ id: 'r1', status: 'stored' }, { id: 'r2', status: 'recording' }];
  assert.equal(await importRoutes(cache, routes, tracksOf), 3);
  assert.equal(await importRoutes(cache, routes, tracksOf), 0);
  assert.deepEqual(asked, ['r1']);
  const [first, second, lone] = (await cache.pending()).map(({ record: kept }) => kept);
  assert.match(recordJSON(first), /^\{"timestamp":"2025-11-24T16:00:00Z","latitude":45\.0,"longitude":13\.0,"altitude":1\.0,"accuracy":4\.0,"speed":11\.1\d+,"heading":0\.0,"datum":"EPSG:4326"\}$/);
  // 0.001° of latitude at 45° is 111.13 m on WGS-84; in 10 s.
  assert.ok(Math.abs(second.speed - 11.113) < 0.001, String(second.speed));
  assert.equal(lone.speed, null, 'a track of one fix has no neighbour');
  routes[1].status = 'queued';
  assert.equal(await importRoutes(cache, routes, tracksOf), 1);
  assert.equal(await cache.count(), 4);
});
