// The browser's vault client (seed 002 "APIs") against a fake fetch: the form-encoded grants,
// the typed outcomes (invalid credentials, unreachable, blocked by CORS, 401, 403, a broken
// answer), the module list read defensively, the repo key's two field names, and the module
// link encoded as the seed's example.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createVaultClient, moduleLink, normalizeVaultURL, parseModule, VaultError, encodeValue } from '../../../Web/vault/client.js';

const json = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const token = { accessToken: 'a'.repeat(64), expires: Date.now() + 7_200_000, username: 'User A' };
/** @param {string} kind */
const kindIs = (kind) => (error) => error instanceof VaultError && error.kind === kind;

test('the module link is the seed’s example, byte for byte', () => {
  assert.equal(
    moduleLink({ url: 'https://kontoentwicklung.oydapp.eu/', uid: 'eu.ownyourdata.bank', secret: 'fZTpuPtU6XEAVIJCcl5y' }, 'https://demo.datentresor.org'),
    'https://kontoentwicklung.oydapp.eu/?PIA_URL=https%3A%2F%2Fdemo.datentresor.org&APP_KEY=eu.ownyourdata.bank&APP_SECRET=fZTpuPtU6XEAVIJCcl5y');
  assert.equal(
    moduleLink({ url: 'https://location.oydapp.eu/', uid: '8ac6377e5697123aa18f8bca860f3bd2d8db6ec54002cc3becbdce9b1ac97943', secret: '95f1ea7336476d2d6c9b352c75d7bad1d2de0d3c456b973d3e9ffae4e00a1694' }, 'https://mobile.data-vault.eu'),
    'https://location.oydapp.eu/?PIA_URL=https%3A%2F%2Fmobile.data-vault.eu&APP_KEY=8ac6377e5697123aa18f8bca860f3bd2d8db6ec54002cc3becbdce9b1ac97943&APP_SECRET=95f1ea7336476d2d6c9b352c75d7bad1d2de0d3c456b973d3e9ffae4e00a1694');
  // Everything but RFC 3986's unreserved characters is encoded, also what encodeURIComponent leaves.
  assert.equal(encodeValue("a b&c=d/e?f#g!'()*~-._"), 'a%20b%26c%3Dd%2Fe%3Ff%23g%21%27%28%29%2A~-._');
  assert.equal(moduleLink({ url: 'https://m.example/app?lang=de', uid: 'k', secret: 's' }, 'https://v.example'),
    'https://m.example/app?lang=de&PIA_URL=https%3A%2F%2Fv.example&APP_KEY=k&APP_SECRET=s');
});

test('a vault address is an http(s) URL without credentials, query or fragment; the trailing slash goes', () => {
  assert.equal(normalizeVaultURL(' https://data-vault.eu/ '), 'https://data-vault.eu');
  assert.equal(normalizeVaultURL('http://127.0.0.1:8123'), 'http://127.0.0.1:8123');
  assert.equal(normalizeVaultURL('https://example.org/vault//'), 'https://example.org/vault');
  for (const bad of ['', 'data-vault.eu', 'javascript:alert(1)', 'ftp://x.example', 'https://u:p@x.example', 'https://x.example/?a=1', 'https://x.example/#x', null, 7]) {
    assert.equal(normalizeVaultURL(bad), null, String(bad));
  }
});

test('sign-in sends the password grant form-encoded and reads the token and username', async () => {
  const calls = [];
  const client = createVaultClient({
    vault: 'https://vault.example/', now: () => 1_000_000,
    fetch: async (url, init) => { calls.push({ url, init }); return json({ access_token: 'f'.repeat(64), token_type: 'bearer', expires_in: 7200, created_at: 1514391263, username: 'User A' }); },
  });
  const got = await client.signIn({ kind: 'password', email: 'user_a@ownyourdata.eu', password: 'Q/wd fbv&67' });
  assert.deepEqual(got, { accessToken: 'f'.repeat(64), expires: 1_000_000 + 7_200_000, username: 'User A' });
  assert.equal(calls[0].url, 'https://vault.example/oauth/token');
  assert.equal(calls[0].init.method, 'POST');
  assert.equal(calls[0].init.headers['Content-Type'], 'application/x-www-form-urlencoded');
  assert.equal(calls[0].init.credentials, 'omit');
  assert.deepEqual(Object.fromEntries(new URLSearchParams(calls[0].init.body)), { grant_type: 'password', email: 'user_a@ownyourdata.eu', password: 'Q/wd fbv&67' });
  await client.signIn({ kind: 'app', key: 'eu.ownyourdata.waymark', secret: 'sec' });
  assert.deepEqual(Object.fromEntries(new URLSearchParams(calls[1].init.body)), { grant_type: 'client_credentials', client_id: 'eu.ownyourdata.waymark', client_secret: 'sec' });
});

test('any sign-in answer but 200 is invalid credentials; a 200 without a token is a bad answer', async () => {
  const login = { kind: 'password', email: 'e', password: 'p' };
  for (const status of [400, 401, 403, 404, 500]) {
    const client = createVaultClient({ vault: 'https://v.example', fetch: async () => json({ error: 'invalid_grant' }, status) });
    await assert.rejects(client.signIn(login), kindIs('invalidCredentials'), `status ${status}`);
  }
  for (const body of ['<html>', '{}', '{"access_token":""}', '{"access_token":7}', '{"access_token":"a b"}', '[]']) {
    const client = createVaultClient({ vault: 'https://v.example', fetch: async () => new Response(body, { status: 200 }) });
    await assert.rejects(client.signIn(login), kindIs('badAnswer'), body);
  }
  const lifetime = createVaultClient({ vault: 'https://v.example', now: () => 0, fetch: async () => json({ access_token: 'x', expires_in: 'soon' }) });
  assert.deepEqual(await lifetime.signIn(login), { accessToken: 'x', expires: 7_200_000, username: null });
});

test('no answer is unreachable; an answer the browser may not read (CORS) is blocked; a time-out is unreachable', async () => {
  const login = { kind: 'password', email: 'e', password: 'p' };
  const probes = [];
  const down = createVaultClient({ vault: 'https://v.example', fetch: async (url, init) => { probes.push(init); throw new TypeError('Failed to fetch'); } });
  await assert.rejects(down.signIn(login), kindIs('unreachable'));
  // The second try is a plain no-cors GET that carries no password.
  assert.equal(probes[1].mode, 'no-cors');
  assert.equal(probes[1].method, 'GET');
  assert.equal(probes[1].body, undefined);
  const cors = createVaultClient({
    vault: 'https://v.example',
    fetch: async (url, init) => { if (init.mode === 'no-cors') return { type: 'opaque', status: 0 }; throw new TypeError('Failed to fetch'); },
  });
  await assert.rejects(cors.signIn(login), kindIs('blocked'));
  await assert.rejects(cors.modules(token), kindIs('blocked'));
  const slow = createVaultClient({
    vault: 'https://v.example', timeout: 20,
    fetch: (url, init) => new Promise((resolve, reject) => init.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
  });
  await assert.rejects(slow.signIn(login), kindIs('unreachable'));
  await assert.rejects(createVaultClient({ vault: 'not a url', fetch: async () => json({}) }).signIn(login), kindIs('invalidURL'));
});

test('the module list: the Bearer token is sent, entries that cannot be shown safely are left out', async () => {
  let asked;
  const picture = 'data:image/png;base64,iVBORw0KGgo=';
  const client = createVaultClient({
    vault: 'https://v.example',
    fetch: async (url, init) => {
      asked = { url, init };
      return json([
        { id: 1, name: 'Annotate', url: 'https://location-annotate.oydapp.eu', description: 'add notes to places you visit', uid: 'u', secret: 's', picture },
        { id: 2, name: 'Evil', url: 'javascript:alert(1)', description: '', uid: 'u', secret: 's' },
        { id: 3, name: 7, url: 'https://x.example' },
        'nonsense', null,
        { name: 'No picture', url: 'http://m.example/', picture: 'https://tracker.example/p.png', description: 42 },
      ]);
    },
  });
  const modules = await client.modules(token);
  assert.equal(asked.url, 'https://v.example/api/modules/index');
  assert.equal(asked.init.headers.Authorization, `Bearer ${'a'.repeat(64)}`);
  assert.deepEqual(modules, [
    { id: 1, name: 'Annotate', description: 'add notes to places you visit', url: 'https://location-annotate.oydapp.eu', uid: 'u', secret: 's', picture },
    { id: null, name: 'No picture', description: '', url: 'http://m.example/', uid: '', secret: '', picture: null },
  ]);
  assert.equal(parseModule([]), null);
  for (const [status, kind] of [[401, 'unauthorized'], [403, 'forbidden'], [500, 'badAnswer']]) {
    await assert.rejects(createVaultClient({ vault: 'https://v.example', fetch: async () => json({}, status) }).modules(token), kindIs(kind));
  }
  await assert.rejects(createVaultClient({ vault: 'https://v.example', fetch: async () => json({ modules: [] }) }).modules(token), kindIs('badAnswer'));
});

test('the repo key: pub_key or public_key, none for 404 or an empty key, a bad key is a bad answer', async () => {
  const key = 'C2C45A740316583C8B1AF013E24C66711590F1F1921CBC8EE2C8BE9188B13731';
  const answer = (body, status = 200) => createVaultClient({ vault: 'https://v.example', fetch: async (url) => { assert.equal(url, 'https://v.example/api/repos/oyd.location/pub_key'); return json(body, status); } });
  assert.equal(await answer({ id: 1, identifier: 'oyd.location', public_key: key }).repositoryKey('oyd.location', token), key.toLowerCase());
  assert.equal(await answer({ pub_key: key }).repositoryKey('oyd.location', token), key.toLowerCase());
  assert.equal(await answer({ error: 'not_found' }, 404).repositoryKey('oyd.location', token), null);
  assert.equal(await answer({ pub_key: '' }).repositoryKey('oyd.location', token), null);
  assert.equal(await answer({ id: 1 }).repositoryKey('oyd.location', token), null);
  await assert.rejects(answer({ pub_key: 'abc' }).repositoryKey('oyd.location', token), kindIs('badAnswer'));
  await assert.rejects(answer({ pub_key: 7 }).repositoryKey('oyd.location', token), kindIs('badAnswer'));
  await assert.rejects(answer({}, 401).repositoryKey('oyd.location', token), kindIs('unauthorized'));
  await assert.rejects(answer({}, 403).repositoryKey('oyd.location', token), kindIs('forbidden'));
});

test('writing: 200 writes all, 400 lists each item, a wrong count or no per-item answer is a bad answer', async () => {
  const items = [{ a: 1 }, { a: 2 }, { a: 3 }];
  const writer = (body, status) => createVaultClient({ vault: 'https://v.example', fetch: async (url, init) => {
    assert.equal(url, 'https://v.example/api/repos/eu.ownyourdata.location/items');
    assert.equal(init.headers['Content-Type'], 'application/json');
    assert.deepEqual(JSON.parse(init.body), items.slice(0, JSON.parse(init.body).length));
    return typeof body === 'string' ? new Response(body, { status }) : json(body, status);
  } });
  const write = (body, status, list = items) => writer(body, status).write(list, 'eu.ownyourdata.location', token);
  assert.deepEqual(await write({ processed: 3, responses: [{ id: 1, status: 200 }, { id: 2, status: 200 }, { id: 3, status: 200 }] }, 200),
    [{ written: true, id: 1 }, { written: true, id: 2 }, { written: true, id: 3 }]);
  assert.deepEqual(await write({ processed: 3, responses: [{ id: 4, status: 200 }, { error: 'refused by the stand-in vault' }, { id: 5 }] }, 400),
    [{ written: true, id: 4 }, { written: false, reason: 'refused by the stand-in vault' }, { written: true, id: 5 }]);
  assert.deepEqual(await write({ responses: [{ id: 6, status: 500 }, 'x', { id: 7, status: 200, error: 'odd' }] }, 400),
    [{ written: false, reason: 'status 500' }, { written: false, reason: 'no answer for this item' }, { written: false, reason: 'odd' }]);
  await assert.rejects(write({ processed: 2, responses: [{ id: 1, status: 200 }, { id: 2, status: 200 }] }, 400), kindIs('badAnswer'));
  await assert.rejects(write({ processed: 4, responses: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] }, 200), kindIs('badAnswer'));
  await assert.rejects(write({ error: 'not JSON' }, 400), kindIs('badAnswer'));
  await assert.rejects(write('<html>', 200), kindIs('badAnswer'));
  assert.deepEqual(await write({ id: 9 }, 200, [items[0]]), [{ written: true, id: 9 }]);
  assert.deepEqual(await write({ error: 'no' }, 400, [items[0]]), [{ written: false, reason: 'no' }]);
  await assert.rejects(write({}, 401), kindIs('unauthorized'));
  await assert.rejects(write({}, 403), kindIs('forbidden'));
  await assert.rejects(write({}, 502), kindIs('badAnswer'));
});
