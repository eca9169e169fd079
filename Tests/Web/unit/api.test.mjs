// api.js: the route-API request signature agrees with scripts/api/sign_requests.py (an
// implementation nobody in the browser wrote), and API errors turn into the right ApiError
// and the right words in each language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, WEB } from './helpers.mjs';
import { call, callSigned, target, ApiError, errorFromResponse, signRequest, stringToSign, newNonce } from '../../../Web/app/api.js';
import { describeError, KNOWN_ERRORS } from '../../../Web/app/errors.js';
import { t, useMessages } from '../../../Web/app/i18n.js';

/** What the Python reference says about one request. */
function python(vector) {
  const out = execFileSync('python3', [join(REPO, 'scripts/api/sign_requests.py'), '--vector', JSON.stringify(vector)], { encoding: 'utf8' });
  return JSON.parse(out);
}

const secret = 'c2VjcmV0LXNlY3JldC1zZWNyZXQ';
const vectors = [
  { name: 'GET, empty body, no signed headers', method: 'GET', target: '/api/v1/routes/6f1c', body: '', headers: [] },
  { name: 'lower-case method, a query string', method: 'get', target: '/api/v1/routes?lookup=ab12cd&limit=5', body: '', headers: [] },
  { name: 'POST with a JSON body and content-type signed', method: 'POST', target: '/api/v1/routes',
    body: '{"envelope":"AAEC","lookup":"ff00"}', headers: [['content-type', 'application/json']] },
  { name: 'several signed headers, values padded with spaces and tabs, names in capitals', method: 'DELETE',
    target: '/api/v1/routes/r1?force=true', body: '',
    headers: [['X-Delete-Token', '  tok-123\t'], ['Idempotency-Key', '\t9b2f-44 '], ['X-Route-Lookup', 'abc']] },
  { name: 'a body with non-ASCII text and a secret with non-ASCII characters', method: 'PUT', target: '/route',
    body: '{"title":"Grüße aus Köln — 東京"}', headers: [['content-type', 'application/json; charset=utf-8']], secret: 'sécret-ключ' },
  { name: 'binary body', method: 'POST', target: '/route', body: new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]),
    headers: [['content-type', 'application/octet-stream'], ['idempotency-key', 'k']] },
];

for (const vector of vectors) {
  test(`signature matches sign_requests.py: ${vector.name}`, async () => {
    const timestamp = 1700000000 + vectors.indexOf(vector);
    const nonce = `nonce_${vectors.indexOf(vector)}-AbCdEfGhIjKlMnOp`;
    const bytes = typeof vector.body === 'string' ? Buffer.from(vector.body, 'utf8') : Buffer.from(vector.body);
    const expected = python({
      secret: vector.secret ?? secret, method: vector.method, target: vector.target, timestamp, nonce,
      body_base64: bytes.toString('base64'),
      // The Python reference takes the names as signed: lower-case, the order kept.
      headers: vector.headers.map(([name, value]) => [name.toLowerCase(), value]),
    });
    const headers = await signRequest({
      secret: vector.secret ?? secret, key: 'wmk_test', method: vector.method, target: vector.target,
      body: vector.body, headers: vector.headers, now: timestamp * 1000 + 999, nonce,
    });
    assert.equal(await stringToSign({ method: vector.method, target: vector.target, timestamp, nonce, body: vector.body, headers: vector.headers }), expected.string_to_sign);
    assert.equal(headers['X-API-Sig'], expected.signature);
    assert.match(headers['X-API-Sig'], /^[0-9a-f]{64}$/);
    assert.deepEqual(Object.keys(headers).sort(), ['X-API-Key', 'X-API-Nonce', 'X-API-Sig', 'X-API-Signed-Headers', 'X-API-Timestamp']);
    assert.equal(headers['X-API-Key'], 'wmk_test');
    assert.equal(headers['X-API-Timestamp'], String(timestamp), 'whole seconds, rounded down');
    assert.equal(headers['X-API-Nonce'], nonce);
    assert.equal(headers['X-API-Signed-Headers'], vector.headers.map(([name]) => name.toLowerCase()).join(';'));
  });
}

test('a changed body, target or signed header changes the signature', async () => {
  const base = { secret, key: 'k', method: 'POST', target: '/route', body: 'a', headers: [['content-type', 'text/plain']], now: 0, nonce: 'n'.repeat(22) };
  const sig = async (change) => (await signRequest({ ...base, ...change }))['X-API-Sig'];
  const original = await sig({});
  assert.notEqual(await sig({ body: 'b' }), original);
  assert.notEqual(await sig({ target: '/route?x=1' }), original);
  assert.notEqual(await sig({ headers: [['content-type', 'text/html']] }), original);
  assert.notEqual(await sig({ nonce: 'm'.repeat(22) }), original);
  assert.notEqual(await sig({ secret: 'other' }), original);
});

test('a fresh nonce is 128 random bits in 22 base64url characters', async () => {
  const nonces = new Set(Array.from({ length: 50 }, newNonce));
  assert.equal(nonces.size, 50);
  for (const nonce of nonces) assert.match(nonce, /^[A-Za-z0-9_-]{22}$/);
  const headers = await signRequest({ secret, key: 'k', method: 'GET', target: '/' });
  assert.match(headers['X-API-Nonce'], /^[A-Za-z0-9_-]{22}$/);
  assert.ok(Math.abs(Number(headers['X-API-Timestamp']) - Date.now() / 1000) < 5);
});

test('an error answer becomes an ApiError with code, reason and Retry-After', () => {
  const e = errorFromResponse(429, '{"error":"too_many_attempts","reason":"Too many failed sign-ins."}', '900');
  assert.ok(e instanceof ApiError);
  assert.deepEqual([e.status, e.code, e.reason, e.retryAfter], [429, 'too_many_attempts', 'Too many failed sign-ins.', 900]);
  const date = errorFromResponse(503, '', 'Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:26:30 GMT'));
  assert.deepEqual([date.code, date.retryAfter], ['http_503', 90]);
  const html = errorFromResponse(502, '<html>Bad gateway</html>', null);
  assert.deepEqual([html.code, html.reason, html.retryAfter], ['http_502', '<html>Bad gateway</html>', null]);
  assert.equal(errorFromResponse(400, '{"error":"invalid_name"}', 'soon').retryAfter, null);
});

test('known codes get the app’s own words in each language; unknown ones the server’s reason', () => {
  const read = (language) => JSON.parse(readFileSync(join(WEB, 'i18n', `${language}.json`), 'utf8'));
  const de = read('de');
  const en = read('en');
  useMessages('de', de);
  assert.equal(describeError(new ApiError(401, 'wrong_credentials', 'Wrong username or password.'), t), 'Benutzername oder Passwort ist falsch.');
  assert.equal(describeError(new ApiError(429, 'too_many_attempts', 'x', 900), t),
    'Zu viele fehlgeschlagene Anmeldungen. Bitte warte 15 Min. und versuche es dann erneut.');
  assert.equal(describeError(new ApiError(0, 'offline', 'TypeError: Failed to fetch'), t), de['error.offline']);
  useMessages('en', en);
  assert.equal(describeError(new ApiError(429, 'too_many_attempts', 'x', 61), t), 'Too many failed sign-ins. Please wait 2 min and try again.', 'minutes round up');
  assert.equal(describeError(new ApiError(429, 'too_many_attempts', 'x', 0), t), 'Too many failed sign-ins. Please wait 1 min and try again.');
  assert.equal(describeError(new ApiError(429, 'too_many_attempts', 'x', null), t), 'Too many failed sign-ins. Please wait 15 min and try again.', 'no header: the 15-minute window');
  assert.equal(describeError(new ApiError(409, 'username_taken', 'Username taken'), t), en['error.username_taken']);
  assert.equal(describeError(new ApiError(422, 'photo_broken', 'The photo could not be read.'), t), 'Something went wrong (422).', 'an unknown code: never the English reason');
  assert.equal(describeError(new ApiError(409, 'task_busy', 'This task is being changed by another request right now; try again.'), t), en['error.task_busy']);
  useMessages('de', de);
  assert.equal(describeError(new ApiError(404, 'not_found', 'No such photo.'), t), de['error.not_found'], 'German words, not the English reason');
  useMessages('en', en);
  assert.equal(describeError(new ApiError(500, 'http_500', ''), t), 'The server had a problem (500). Please try again later.');
  assert.equal(describeError(new ApiError(418, 'http_418', ''), t), 'Something went wrong (418).');
  for (const code of KNOWN_ERRORS) assert.notEqual(describeError(new ApiError(400, code, 'English reason', 60), t), 'English reason', code);
});

/** Replaces fetch for one call and records what api.js asked for. */
function fakeFetch(answer) {
  const calls = [];
  globalThis.fetch = async (path, init) => {
    calls.push({ path, init });
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return calls;
}

test('call sends an operation of the contract as JSON with the cookie and returns the parsed answer', async () => {
  const calls = fakeFetch(new Response('{"key":"wmk_1","secret":"s"}', { status: 201, headers: { 'Content-Type': 'application/json' } }));
  assert.deepEqual(await call('createDeviceKey', { body: { name: 'Phone' } }), { key: 'wmk_1', secret: 's' });
  assert.equal(calls[0].path, '/api/v1/keys');
  assert.equal(calls[0].init.method, 'POST');
  assert.equal(calls[0].init.credentials, 'same-origin');
  assert.equal(calls[0].init.headers['Content-Type'], 'application/json');
  assert.equal(calls[0].init.body, '{"name":"Phone"}');
  fakeFetch(new Response(null, { status: 204 }));
  const gone = fakeFetch(new Response(null, { status: 204 }));
  assert.equal(await call('revokeDeviceKey', { path: { key: 'wmk 1/2' } }), null);
  assert.equal(gone[0].path, '/api/v1/keys/wmk%201%2F2', 'a path parameter is one percent-encoded segment');
  assert.equal(gone[0].init.method, 'DELETE');
  const get = fakeFetch(new Response('{"id":"1"}', { status: 200 }));
  await call('me');
  assert.equal(get[0].path, '/api/v1/me');
  assert.equal(get[0].init.body, undefined);
  assert.equal(get[0].init.method, 'GET');
});

test('target fills the path from the contract and adds only the query values given', () => {
  assert.equal(target('photoImage', { path: { photo_id: 'a b', size: 'thumb' } }), '/api/v1/photos/a%20b/image/thumb');
  assert.equal(target('listTasks', { query: { status: undefined } }), '/api/v1/tasks');
  assert.equal(target('photosNearby', { query: { latitude: 52.5, longitude: 13.25, cursor: 'a+b/=' } }), '/api/v1/photos/nearby?latitude=52.5&longitude=13.25&cursor=a%2Bb%2F%3D');
  assert.throws(() => target('getPhoto', { path: { photo_id: '' } }), /photo_id/, 'an empty path parameter would name another route');
  assert.throws(() => target(/** @type {any} */ ('noSuchOperation')), /noSuchOperation/);
});

test('api throws ApiError for an error answer and for no answer at all', async () => {
  fakeFetch(new Response('{"error":"too_many_attempts","reason":"Wait."}', { status: 429, headers: { 'Retry-After': '600' } }));
  await assert.rejects(call('signIn', { body: { username: 'a', password: 'b' } }), (e) => e instanceof ApiError && e.status === 429 && e.code === 'too_many_attempts' && e.retryAfter === 600);
  fakeFetch(new TypeError('Failed to fetch'));
  await assert.rejects(call('me'), (e) => e instanceof ApiError && e.status === 0 && e.code === 'offline');
});

test('callSigned asks with a device key’s signature (v2) over the target as sent, and no cookie', async () => {
  const { createHmac, createHash } = await import('node:crypto');
  const calls = fakeFetch(new Response('{"items":[],"next":null}', { status: 200 }));
  const lookup = 'a'.repeat(64);
  const answer = await callSigned('listOwnTracksMessages', { key: 'wmk_1', secret: 'sekrit' },
    { path: { lookup }, query: { from: '2026-06-01T10:00:00.000Z', limit: 1000 } });
  assert.deepEqual(answer, { items: [], next: null });
  const { path, init } = calls[0];
  assert.equal(path, `/api/v1/owntracks/lookup/${lookup}/messages?from=2026-06-01T10%3A00%3A00.000Z&limit=1000`);
  assert.equal(init.method, 'GET');
  assert.equal(init.credentials, 'omit');
  assert.equal(init.body, undefined);
  const headers = init.headers;
  assert.equal(headers['X-API-Key'], 'wmk_1');
  assert.equal(headers['X-API-Signed-Headers'], '');
  // The signature as DESIGN §3.3 writes it, computed here without api.js.
  const message = `waymark-sig-v2\nGET\n${path}\n${headers['X-API-Timestamp']}\n${headers['X-API-Nonce']}\n${createHash('sha256').update('').digest('hex')}\n`;
  assert.equal(headers['X-API-Sig'], createHmac('sha256', 'sekrit').update(message).digest('hex'));
  fakeFetch(new Response('{"error":"unknown_key","reason":"x"}', { status: 401 }));
  await assert.rejects(callSigned('findOwnTracksDevice', { key: 'k', secret: 's' }, { path: { lookup } }), (error) => error instanceof ApiError && error.code === 'unknown_key');
});
