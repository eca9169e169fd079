// The browser recorder's routes and upload queue (Web/recorder/route-queue.js) with storage in
// memory and a fake route API that checks signature v2 and honours Idempotency-Key like the
// real one: fixes kept as they arrive, a stopped route sealed and queued, retries that never
// duplicate a route, offline and Wi-Fi-only waits, one grouped notice, refusals kept visible,
// remote deletes; and the keeper (Web/recorder/keeper.js): passphrase, settings, device key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { webModule } from './helpers.mjs';

const { createRouteBook, createRouteSync, memoryRouteStorage, retryCeiling, networkAllows } = await webModule('/recorder/route-queue.js');
const { openEnvelope } = await webModule('/recorder/envelope.js');
const { createKeeper, deviceName, validSettings, SettingsError } = await webModule('/recorder/keeper.js');

const KEYS = { 'wmk_one': 'secret-one', 'wmk_two': 'secret-two' };
const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/**
 * A route API in memory. `script` answers attempts in turn: 'ok' (the server's answer),
 * 'lost' (stored, but the answer never arrives), 'offline', or an HTTP status.
 */
function fakeServer(script = []) {
  const requests = [];
  const routes = new Map();
  const idempotency = new Map();
  const seenNonces = new Set();
  const knownKeys = new Set(Object.keys(KEYS));
  let next = 1;
  const answer = (status, body, headers = {}) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
  async function fetch(url, init) {
    const target = url.replace(/^http:\/\/fake/, '');
    const headers = Object.fromEntries(Object.entries(init.headers).map(([name, value]) => [name.toLowerCase(), value]));
    const body = init.body ?? '';
    const request = { method: init.method, target, headers, body: body ? JSON.parse(body) : null };
    requests.push(request);
    const step = script.length ? script.shift() : 'ok';
    if (step === 'offline') throw new TypeError('fetch failed');
    if (typeof step === 'number') return answer(step, { error: `status_${step}`, reason: 'scripted' }, step === 429 ? { 'Retry-After': '120' } : {});
    // Signature v2, as the server checks it.
    const key = headers['x-api-key'];
    if (!knownKeys.has(key)) return answer(401, { error: 'unknown_key', reason: 'The API key is unknown or has been revoked.' });
    assert.ok(!seenNonces.has(headers['x-api-nonce']), 'every request has a fresh nonce');
    seenNonces.add(headers['x-api-nonce']);
    const signed = headers['x-api-signed-headers'] ? headers['x-api-signed-headers'].split(';') : [];
    for (const name of ['content-type', 'idempotency-key', 'x-delete-token']) {
      if (headers[name] !== undefined) assert.ok(signed.includes(name), `${name} is signed`);
    }
    let text = `waymark-sig-v2\n${init.method}\n${target}\n${headers['x-api-timestamp']}\n${headers['x-api-nonce']}\n${sha256(body)}\n`;
    for (const name of signed) text += `${name}:${headers[name]}\n`;
    assert.equal(headers['x-api-sig'], createHmac('sha256', KEYS[key]).update(text).digest('hex'), 'signature v2 matches');
    request.signedHeaders = signed;
    if (init.method === 'POST' && target === '/api/v1/routes') {
      const earlier = idempotency.get(headers['idempotency-key']);
      let created = earlier;
      if (!created) {
        created = { route_id: `route-${next++}`, creation_time: 1764000000 };
        routes.set(created.route_id, { ...request.body, id: created.route_id });
        idempotency.set(headers['idempotency-key'], created);
      }
      if (step === 'lost') throw new TypeError('the connection dropped after the server stored it');
      return answer(201, created);
    }
    const lookup = target.match(/^\/api\/v1\/routes\?lookup=([0-9a-f]{64})$/);
    if (init.method === 'GET' && lookup) {
      const found = [...routes.values()].find((route) => route.lookup === lookup[1]);
      return found ? answer(200, { route_id: found.id, creation_time: 1, envelope: found.envelope }) : answer(404, { error: 'not_found', reason: '' });
    }
    const one = target.match(/^\/api\/v1\/routes\/([^/?]+)$/);
    if (init.method === 'DELETE' && one) {
      const route = routes.get(one[1]);
      if (!route) return answer(404, { error: 'not_found', reason: '' });
      const token = Buffer.from(headers['x-delete-token'], 'hex');
      if (sha256(token) !== route.deleteTokenHash) return answer(403, { error: 'wrong_delete_token', reason: '' });
      routes.delete(one[1]);
      return new Response(null, { status: 204 });
    }
    return answer(404, { error: 'not_found', reason: '' });
  }
  return { fetch, requests, routes, knownKeys };
}

function setup({ script, online = true, type = null, wifiOnly = false, key = 'wmk_one' } = {}) {
  const server = fakeServer(script);
  const storage = memoryRouteStorage();
  const clock = { ms: 1_764_000_000_000 };
  const state = { online, type, wifiOnly, key, renewals: 0 };
  let ids = 0;
  const options = {
    storage,
    fetch: server.fetch,
    baseURL: 'http://fake',
    deviceKey: async () => (state.key ? { key: state.key, secret: KEYS[state.key] } : null),
    renewDeviceKey: async () => { state.renewals += 1; state.key = 'wmk_two'; return { key: 'wmk_two', secret: KEYS.wmk_two }; },
    wifiOnly: async () => state.wifiOnly,
    connection: () => ({ online: state.online, type: state.type }),
    now: () => clock.ms,
    random: () => 0.5,
    newId: () => `id-${++ids}`,
    iterations: 1000,
  };
  const book = createRouteBook(options);
  return { book, server, storage, clock, state, reopen: () => createRouteBook(options) };
}

const fix = (index, track = 0) => ({ latitude: 52.5 + index / 1e4, longitude: 13.4, altitude: index % 2 ? null : 30, accuracy: 5, time: 1764000000 + index + track * 100 });
const PASS = 'Caf\u00e9 am Meer';

/** A route recorded with `count` fixes (two tracks) and stopped. */
async function recorded(book, nonce = 'NONCE0000001', count = 3) {
  const route = await book.beginRoute({ nonce, settings: { qrPeriod: 5 }, startedAt: 1764000000 + Number(nonce.slice(-2)) });
  const tracks = [[], []];
  for (let index = 0; index < count; index += 1) {
    const track = index === count - 1 ? 1 : 0;
    const made = fix(index, track);
    tracks[track].push(made);
    await book.saveFix(route.id, track, made);
  }
  return { route, tracks };
}

test('every fix is kept as it arrives; after a reload the unfinished route and its tracks are there', async () => {
  const { book, reopen } = setup();
  const { route, tracks } = await recorded(book);
  await book.saveProgress(route.id, { engine: { phase: 'recording' }, distance: 12.5, elapsed: 3, trackCount: 2, fixCount: 3, gaps: [{ from: 1, to: 2 }] });
  const again = reopen();
  const unfinished = await again.unfinishedRoute();
  assert.equal(unfinished.id, route.id);
  assert.equal(unfinished.status, 'recording');
  assert.deepEqual(unfinished.engine, { phase: 'recording' });
  assert.equal(unfinished.distance, 12.5);
  assert.deepEqual((await again.getRoute(route.id)).tracks, tracks);
  assert.equal(await again.getRoute('nope'), null);
});

test('Stop seals the route in the browser and queues it with its envelope, lookup key, delete-token hash and one Idempotency-Key', async () => {
  const { book } = setup({ online: false });
  const { route, tracks } = await recorded(book);
  const queued = await book.finishRoute(route.id, { nonce: route.nonce, qrPeriod: 5, tracks }, PASS);
  assert.equal(queued.status, 'queued');
  assert.equal(queued.fixCount, 3);
  assert.equal(queued.trackCount, 2);
  assert.equal(queued.engine, null);
  assert.match(queued.upload.lookup, /^[0-9a-f]{64}$/);
  assert.match(queued.upload.deleteTokenHash, /^[0-9a-f]{64}$/);
  assert.equal(sha256(Buffer.from(queued.deleteToken, 'hex')), queued.upload.deleteTokenHash);
  assert.ok(queued.upload.idempotencyKey);
  const opened = await openEnvelope(queued.upload.envelope, PASS, route.nonce);
  assert.deepEqual(opened.tracks, tracks);
  assert.equal(await book.unfinishedRoute(), null);
  // Finishing again (a second Stop tap, a reload mid-way) changes nothing.
  const again = await book.finishRoute(route.id, null, PASS);
  assert.equal(again.upload.idempotencyKey, queued.upload.idempotencyKey);
  // Without tracks from the engine, the fixes stored one by one are sealed.
  const other = await recorded(book, 'NONCE0000002', 4);
  const fromFixes = await book.finishRoute(other.route.id, null, PASS);
  assert.deepEqual((await openEnvelope(fromFixes.upload.envelope, PASS, 'NONCE0000002')).tracks, other.tracks);
  await assert.rejects(book.finishRoute('missing', null, PASS), { code: 'noSuchRoute' });
});

test('an empty passphrase seals nothing and the route stays recording', async () => {
  const { book } = setup();
  const { route } = await recorded(book);
  await assert.rejects(book.finishRoute(route.id, null, ''), { code: 'emptyPassphrase' });
  assert.equal((await book.unfinishedRoute()).id, route.id);
});

test('after a 503 and a network error it is sent again with the same Idempotency-Key, a fresh signature nonce, and stored once', async () => {
  const { book, server, clock } = setup({ script: [503, 'offline', 'ok'] });
  const { route } = await recorded(book);
  await book.finishRoute(route.id, null, PASS);

  let result = await book.drain();
  assert.deepEqual({ stored: result.stored.length, waiting: result.waiting, failed: result.failed }, { stored: 0, waiting: 1, failed: 0 });
  let kept = await book.getRoute(route.id);
  assert.equal(kept.status, 'queued');
  assert.equal(kept.lastError.status, 503);
  assert.equal(kept.lastError.permanent, false);
  // Backoff with jitter: not again before the wait is over (5 s ceiling × 0.5 here).
  assert.equal(kept.upload.nextAttemptAt, clock.ms / 1000 + 2.5);
  await book.drain();
  assert.equal(server.requests.length, 1, 'no attempt before the backoff is over');

  clock.ms += 3000;
  result = await book.drain();
  assert.equal(result.blocked, 'offline');
  kept = await book.getRoute(route.id);
  assert.equal(kept.lastError.code, 'offline');
  assert.equal(kept.upload.nextAttemptAt, clock.ms / 1000 + 5, 'the second wait doubles (10 s ceiling × 0.5)');

  clock.ms += 6000;
  result = await book.drain();
  assert.equal(result.stored.length, 1);
  kept = await book.getRoute(route.id);
  assert.equal(kept.status, 'stored');
  assert.equal(kept.serverRouteId, 'route-1');
  assert.equal(kept.lastError, null);
  assert.equal(server.requests.length, 3);
  assert.equal(new Set(server.requests.map((request) => request.headers['idempotency-key'])).size, 1, 'one Idempotency-Key for every attempt');
  assert.equal(new Set(server.requests.map((request) => request.headers['x-api-nonce'])).size, 3, 'a fresh nonce for every attempt');
  assert.deepEqual(server.requests[2].signedHeaders, ['content-type', 'idempotency-key']);
  assert.deepEqual(Object.keys(server.requests[2].body).sort(), ['deleteTokenHash', 'envelope', 'lookup']);
  assert.equal(server.routes.size, 1);
  assert.deepEqual(await book.drain(), { stored: [], deleted: 0, waiting: 0, failed: 0, blocked: null }, 'nothing left to send');
});

test('an answer lost after the server stored the route: the retry gets the same route, never a second one', async () => {
  const { book, server, clock } = setup({ script: ['lost', 'ok'] });
  const { route } = await recorded(book);
  await book.finishRoute(route.id, null, PASS);
  await book.drain();
  assert.equal(server.routes.size, 1);
  assert.equal((await book.getRoute(route.id)).status, 'queued');
  clock.ms += 10_000;
  await book.drain();
  assert.equal(server.routes.size, 1, 'still one route on the server');
  assert.equal((await book.getRoute(route.id)).serverRouteId, 'route-1');
});

test('offline, nothing is sent and the route waits; Wi-Fi only holds it on a cellular connection where the browser tells', async () => {
  const { book, server, state } = setup({ online: false, wifiOnly: true });
  const { route } = await recorded(book);
  await book.finishRoute(route.id, null, PASS);
  assert.equal((await book.drain()).blocked, 'offline');
  state.online = true;
  state.type = 'cellular';
  assert.equal((await book.drain()).blocked, 'wifiOnly');
  assert.equal(server.requests.length, 0);
  state.type = null; // the browser does not tell: the setting cannot be honoured
  assert.equal((await book.drain()).stored.length, 1);
  assert.equal(networkAllows(true, { online: true, type: 'wifi' }), true);
  assert.equal(networkAllows(true, { online: true, type: 'ethernet' }), false);
  assert.equal(networkAllows(false, { online: true, type: 'cellular' }), true);
  assert.equal(networkAllows(false, { online: false, type: 'wifi' }), false);
});

test('not signed in and no key kept: the routes wait for one', async () => {
  const { book, server, state } = setup({ key: null });
  const { route } = await recorded(book);
  await book.finishRoute(route.id, null, PASS);
  assert.equal((await book.drain()).blocked, 'noDeviceKey');
  assert.equal(server.requests.length, 0);
  state.key = 'wmk_one';
  assert.equal((await book.drain()).stored.length, 1);
});

test('held back offline, the sync announces nothing and looks again after its period', async () => {
  const { book } = setup({ online: false });
  for (const nonce of ['NONCE0000011', 'NONCE0000012', 'NONCE0000013']) {
    const { route } = await recorded(book, nonce);
    await book.finishRoute(route.id, null, PASS);
  }
  const notices = [];
  const timers = [];
  const sync = createRouteSync({ book, onStored: (routes) => notices.push(routes.map((route) => route.nonce)), setTimer: (run, ms) => { timers.push(ms); return timers.length; }, clearTimer: () => {} });
  await sync.syncNow();
  assert.deepEqual(notices, [], 'offline: nothing stored yet');
  assert.equal(timers.at(-1), 60_050, 'held back: looks again after the period');
  sync.stop();
});

test('three queued routes go out in one drain and are announced together', async () => {
  const { book } = setup();
  for (const nonce of ['NONCE0000011', 'NONCE0000012', 'NONCE0000013']) {
    const { route } = await recorded(book, nonce);
    await book.finishRoute(route.id, null, PASS);
  }
  const notices = [];
  const sync = createRouteSync({ book, onStored: (routes) => notices.push(routes.map((route) => route.nonce).sort()), setTimer: () => 1, clearTimer: () => {} });
  await sync.syncNow();
  await sync.syncNow();
  assert.deepEqual(notices, [['NONCE0000011', 'NONCE0000012', 'NONCE0000013']]);
  assert.deepEqual((await book.listRoutes()).map((route) => route.status), ['stored', 'stored', 'stored']);
  assert.deepEqual((await book.listRoutes()).map((route) => route.nonce), ['NONCE0000013', 'NONCE0000012', 'NONCE0000011'], 'newest first');
  sync.stop();
});

test('a refusal (400) stays on the route as its last error, queued, never dropped, and is not retried by itself', async () => {
  const { book, server, clock } = setup({ script: [400, 'ok'] });
  const { route } = await recorded(book);
  await book.finishRoute(route.id, null, PASS);
  const result = await book.drain();
  assert.equal(result.failed, 1);
  let kept = await book.getRoute(route.id);
  assert.equal(kept.status, 'queued');
  assert.deepEqual(kept.lastError, { status: 400, code: 'status_400', reason: 'scripted', permanent: true });
  clock.ms += 3_600_000;
  await book.drain();
  assert.equal(server.requests.length, 1, 'not sent again by itself');
  assert.equal(await book.retryRoute(route.id), true);
  await book.drain();
  kept = await book.getRoute(route.id);
  assert.equal(kept.status, 'stored');
});

test('429 waits at least as long as Retry-After says; 401, 408 and 5xx are retried', async () => {
  const { book, clock } = setup({ script: [429] });
  const { route } = await recorded(book);
  await book.finishRoute(route.id, null, PASS);
  await book.drain();
  const kept = await book.getRoute(route.id);
  assert.equal(kept.lastError.permanent, false);
  assert.equal(kept.upload.nextAttemptAt, clock.ms / 1000 + 120);
  assert.equal(retryCeiling(1), 5);
  assert.equal(retryCeiling(2), 10);
  assert.equal(retryCeiling(30), 900, 'never more than 15 min');
});

test('the server no longer knows the device key: a new one is made and the route goes with it', async () => {
  const { book, server, state } = setup();
  server.knownKeys.delete('wmk_one');
  const { route } = await recorded(book);
  await book.finishRoute(route.id, null, PASS);
  const result = await book.drain();
  assert.equal(result.stored.length, 1);
  assert.equal(state.renewals, 1);
  assert.deepEqual(server.requests.map((request) => request.headers['x-api-key']), ['wmk_one', 'wmk_two']);
});

test('deleting a stored route deletes it here at once and on the server with its delete token, signed; offline it waits', async () => {
  const { book, server, state, clock } = setup();
  const { route } = await recorded(book);
  await book.finishRoute(route.id, null, PASS);
  await book.drain();
  assert.equal(server.routes.size, 1);
  state.online = false;
  assert.deepEqual(await book.deleteRoutes([route.id]), { deleted: 1, remote: 1 });
  assert.equal(await book.getRoute(route.id), null);
  assert.deepEqual(await book.listRoutes(), []);
  assert.equal((await book.drain()).waiting, 1);
  assert.equal((await book.pendingDeletes()).length, 1);
  state.online = true;
  clock.ms += 1000;
  const result = await book.drain();
  assert.equal(result.deleted, 1);
  assert.equal(server.routes.size, 0);
  const last = server.requests.at(-1);
  assert.equal(last.method, 'DELETE');
  assert.equal(last.target, '/api/v1/routes/route-1');
  assert.deepEqual(last.signedHeaders, ['x-delete-token']);
  assert.deepEqual(await book.pendingDeletes(), []);
});

test('a queued route that was sent but whose answer was lost is found by its lookup key and deleted; one never sent is only deleted here', async () => {
  const { book, server } = setup({ script: ['lost'] });
  const sent = await recorded(book, 'NONCE0000021');
  await book.finishRoute(sent.route.id, null, PASS);
  await book.drain();
  const never = await recorded(book, 'NONCE0000022');
  await book.finishRoute(never.route.id, null, PASS);
  const recording = await recorded(book, 'NONCE0000023');
  assert.deepEqual(await book.deleteRoutes([sent.route.id, never.route.id, recording.route.id]), { deleted: 3, remote: 1 });
  assert.equal(server.routes.size, 1);
  const result = await book.drain();
  assert.equal(result.deleted, 1);
  assert.equal(server.routes.size, 0);
  assert.deepEqual(server.requests.slice(-2).map((request) => `${request.method} ${request.target.split('?')[0]}`), ['GET /api/v1/routes', 'DELETE /api/v1/routes/route-1']);
  assert.deepEqual(await book.listRoutes(), []);
});

// ---- The keeper ----

function memoryKeeperStorage() {
  const rows = new Map();
  return {
    get: async (id) => (rows.has(id) ? structuredClone(rows.get(id)) : null),
    put: async (record) => { rows.set(record.id, structuredClone(record)); },
    delete: async (id) => { rows.delete(id); },
    rows,
  };
}

test('the first Continue keeps the passphrase, a later one must match, Reset clears it (SCO-09, SCO-10, SCO-12)', async () => {
  const keeper = createKeeper({ storage: memoryKeeperStorage(), verifierIterations: 1000, signedInUser: async () => null });
  assert.equal(await keeper.passphraseState(), 'none');
  assert.equal(await keeper.passphrase(), null);
  assert.equal(await keeper.adoptPassphrase('Cafe\u0301 am Meer'), 'saved');
  assert.equal(await keeper.passphraseState(), 'kept');
  assert.equal(await keeper.adoptPassphrase('Caf\u00e9 am Meer'), 'matched', 'the same passphrase in NFC matches');
  assert.equal(await keeper.adoptPassphrase('cafe am meer'), 'mismatch');
  assert.equal(await keeper.passphrase(), 'Caf\u00e9 am Meer');
  await keeper.resetPassphrase();
  assert.equal(await keeper.passphraseState(), 'none');
  assert.equal(await keeper.adoptPassphrase('another one'), 'saved');
});

test('settings: the defaults, kept values, and values out of range refused by name', async () => {
  const keeper = createKeeper({ storage: memoryKeeperStorage(), signedInUser: async () => null });
  assert.deepEqual(await keeper.loadSettings(), { accuracyThreshold: 100, alertDelay: 30, qrPeriod: 5, wifiOnly: false, units: 'metric' });
  assert.deepEqual(await keeper.saveSettings({ qrPeriod: 1, units: 'imperial' }), { accuracyThreshold: 100, alertDelay: 30, qrPeriod: 1, wifiOnly: false, units: 'imperial' });
  assert.equal((await keeper.loadSettings()).qrPeriod, 1);
  for (const [field, value] of [['qrPeriod', 3], ['qrPeriod', 31], ['qrPeriod', 5.5], ['accuracyThreshold', 0], ['alertDelay', -1], ['units', 'furlongs'], ['wifiOnly', 'yes']]) {
    await assert.rejects(keeper.saveSettings({ [field]: value }), (error) => error instanceof SettingsError && error.field === field, `${field} = ${value}`);
  }
  assert.equal((await keeper.loadSettings()).qrPeriod, 1, 'a refused value changes nothing');
  assert.equal(validSettings({ qrPeriod: 30 }).qrPeriod, 30);
});

test('the device key is made once when signed in, named after the browser, kept, and made again when the server lost it', async () => {
  const created = [];
  let user = null;
  const keeper = createKeeper({
    storage: memoryKeeperStorage(),
    signedInUser: async () => user,
    createKey: async (name) => { created.push(name); return { key: `wmk_${created.length}`, secret: `s${created.length}`, name, createdAt: 1 }; },
    userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
  });
  assert.equal(await keeper.ensureDeviceKey(), null, 'nobody signed in');
  assert.equal(created.length, 0);
  user = { id: 'u1' };
  const [first, second] = await Promise.all([keeper.ensureDeviceKey(), keeper.ensureDeviceKey()]);
  assert.deepEqual(first, { key: 'wmk_1', secret: 's1' });
  assert.deepEqual(second, first);
  assert.deepEqual(created, ['Waymark web recorder (Chrome on Android)'], 'one key, even when asked twice at once');
  user = null; // offline or signed out: the kept key still signs
  assert.deepEqual(await keeper.ensureDeviceKey(), first);
  user = { id: 'u1' };
  assert.deepEqual(await keeper.renewDeviceKey(), { key: 'wmk_2', secret: 's2' });
  assert.deepEqual(await keeper.deviceKey(), { key: 'wmk_2', secret: 's2' });
  user = { id: 'u2' };
  assert.deepEqual(await keeper.ensureDeviceKey(), { key: 'wmk_3', secret: 's3' }, 'another account signed in: its own key');
  assert.equal(deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'), 'Waymark web recorder (Safari on iOS)');
  assert.equal(deviceName('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'), 'Waymark web recorder (Firefox on Linux)');
});
