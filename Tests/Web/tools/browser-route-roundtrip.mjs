// The browser recorder's data layer against a real `waymark serve` (run by
// Tests/WaymarkCLITests/BrowserRouteTests.swift, or by hand:
//   WAYMARK_SERVER=http://127.0.0.1:8765 node Tests/Web/tools/browser-route-roundtrip.mjs):
// makes an account, lets the keeper make its device key with POST /api/v1/keys, records a route
// with Web/recorder/route-queue.js, seals it with the real 600 000 PBKDF2 iterations, uploads it
// signed (v2) with its Idempotency-Key, reads it back and opens it; uploads a second one and
// deletes it through the queued remote delete. Prints one JSON object for the Swift side, which
// then opens the first route with `waymark routes export` and `waymark tag --server`.
// Exits non-zero with the reason on the first thing that is not as it should be.
import { webcrypto, randomBytes } from 'node:crypto';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

if (!globalThis.crypto) globalThis.crypto = /** @type {any} */ (webcrypto);
const web = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'Web');
const { createRouteBook, memoryRouteStorage } = await import(join(web, 'recorder', 'route-queue.js'));
const { createKeeper } = await import(join(web, 'recorder', 'keeper.js'));
const { openEnvelope } = await import(join(web, 'recorder', 'envelope.js'));
const { signRequest } = await import(join(web, 'app', 'api.js'));

const server = (process.env.WAYMARK_SERVER ?? '').replace(/\/$/, '');
if (!server) { console.error('WAYMARK_SERVER is not set'); process.exit(2); }
const passphrase = process.env.WAYMARK_TEST_PASSPHRASE ?? 'Caf\u00e9 passphrase from the browser';
const start = Number(process.env.WAYMARK_TEST_START ?? 1717236000);

/** @param {boolean} condition @param {string} what */
function check(condition, what) {
  if (!condition) { console.error(`FAILED: ${what}`); process.exit(1); }
}

/** JSON to the server with a session token (the account API). */
async function call(method, path, body, token) {
  const response = await fetch(server + path, {
    method, body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const nonceAlphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const makeNonce = () => Array.from(randomBytes(12), (byte) => nonceAlphabet[byte % 36]).join('');

// 0. The server may still be starting: wait (at most 20 s) for any answer.
for (let tries = 0; ; tries += 1) {
  try {
    await fetch(`${server}/api/v1/me`);
    break;
  } catch (error) {
    check(tries < 200, `the server at ${server} answers (${error})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// 1. An account, signed in, and the keeper's device key made through POST /api/v1/keys.
const username = `rec_${randomBytes(4).toString('hex')}`;
const account = await call('POST', '/api/v1/accounts', { username, password: 'a long enough password', displayName: 'Recorder test' });
check(account.status === 201 && typeof account.body?.token === 'string', `account created (${account.status} ${JSON.stringify(account.body)})`);
const token = account.body.token;
const keptRows = new Map();
const keeper = createKeeper({
  storage: {
    get: async (id) => keptRows.get(id) ?? null,
    put: async (record) => { keptRows.set(record.id, record); },
    delete: async (id) => { keptRows.delete(id); },
  },
  signedInUser: async () => (await call('GET', '/api/v1/me', undefined, token)).body,
  createKey: async (name) => {
    const made = await call('POST', '/api/v1/keys', { name }, token);
    check(made.status === 201 || made.status === 200, `device key made (${made.status} ${JSON.stringify(made.body)})`);
    return made.body;
  },
  userAgent: 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
});
const key = await keeper.ensureDeviceKey();
check(key !== null, 'the keeper has a device key');
const devices = await call('GET', '/api/v1/keys', undefined, token);
check(devices.body?.items?.some((item) => item.key === key.key && item.name === 'Waymark web recorder (Chrome on Android)'), `the key is on the account's devices (${JSON.stringify(devices.body)})`);

// 2. A route recorded fix by fix, stopped, sealed and uploaded.
const book = createRouteBook({
  storage: memoryRouteStorage(), baseURL: server,
  deviceKey: () => keeper.ensureDeviceKey(), renewDeviceKey: () => keeper.renewDeviceKey(),
});
const nonce = makeNonce();
const route = await book.beginRoute({ nonce, settings: { qrPeriod: 1 }, startedAt: start - 30 });
/** @type {any[][]} */
const tracks = [[]];
for (let second = -30; second <= 300; second += 1) {
  const fix = { latitude: 46 + second / 100000, longitude: 14 + second / 50000, altitude: 300, accuracy: 5, time: start + second };
  tracks[0].push(fix);
  await book.saveFix(route.id, 0, fix);
}
const queued = await book.finishRoute(route.id, null, passphrase);
check(queued.status === 'queued' && queued.upload.envelope.kdf.iterations === 600000, 'sealed with 600000 PBKDF2 iterations and queued');
const drained = await book.drain();
check(drained.stored.length === 1 && drained.blocked === null, `uploaded (${JSON.stringify({ ...drained, stored: drained.stored.length })}; ${JSON.stringify((await book.getRoute(route.id))?.lastError)})`);
const stored = await book.getRoute(route.id);
check(stored.status === 'stored' && typeof stored.serverRouteId === 'string', 'stored with the server\'s route id');

/** A signed GET with the device key. */
async function signedGet(target) {
  const headers = await signRequest({ secret: key.secret, key: key.key, method: 'GET', target, body: '' });
  const response = await fetch(server + target, { headers: { Accept: 'application/json', ...headers } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

// 3. The same Idempotency-Key again (a retry after a lost answer) gives the same route, not a second one.
const body = JSON.stringify({ envelope: queued.upload.envelope, lookup: queued.upload.lookup, deleteTokenHash: queued.upload.deleteTokenHash });
const signed = [['content-type', 'application/json'], ['idempotency-key', queued.upload.idempotencyKey]];
const retryHeaders = await signRequest({ secret: key.secret, key: key.key, method: 'POST', target: '/api/v1/routes', body, headers: signed });
const retry = await fetch(`${server}/api/v1/routes`, { method: 'POST', body, headers: { ...Object.fromEntries(signed), ...retryHeaders } });
const retried = await retry.json();
check(retry.status === 201 && retried.route_id === stored.serverRouteId, `a retry with the same Idempotency-Key answers the same route (${retry.status} ${JSON.stringify(retried)})`);

// 4. Read back by the lookup key and opened in the browser.
const found = await signedGet(`/api/v1/routes?lookup=${queued.upload.lookup}`);
check(found.status === 200 && found.body.route_id === stored.serverRouteId, `found by its lookup key (${found.status})`);
const opened = await openEnvelope(found.body.envelope, passphrase, nonce);
check(JSON.stringify(opened.tracks) === JSON.stringify(tracks), 'the stored envelope opens in the browser to the same tracks');

// 5. A second route, uploaded and then deleted on the phone: the queued remote delete removes it.
const second = await book.beginRoute({ nonce: makeNonce(), settings: { qrPeriod: 5 } });
await book.saveFix(second.id, 0, { latitude: 1, longitude: 2, altitude: null, accuracy: 3, time: start });
await book.finishRoute(second.id, null, passphrase);
check((await book.drain()).stored.length === 1, 'the second route uploaded');
const secondId = (await book.getRoute(second.id)).serverRouteId;
const outcome = await book.deleteRoutes([second.id]);
check(outcome.remote === 1, 'its remote delete is queued');
const afterDelete = await book.drain();
check(afterDelete.deleted === 1 && afterDelete.failed === 0, `the remote delete went through (${JSON.stringify(afterDelete)})`);
check((await signedGet(`/api/v1/routes/${secondId}`)).status === 404, 'the deleted route is gone from the server');

console.log(JSON.stringify({ routeId: stored.serverRouteId, nonce, key: key.key, secret: key.secret, fixes: tracks[0].length, start }));
