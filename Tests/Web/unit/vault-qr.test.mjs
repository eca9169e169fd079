// The vault's login QR code (seed 002): both payload forms, incomplete codes giving the fields
// read, and broken or hostile text that never becomes a login.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLoginPayload, bestLoginPayload, decodePhoto, DecodeError } from '../../../Web/vault/qr.js';

test('the seed’s payload (PIA_URL, email, password) is a password login', () => {
  const text = '{\n  "PIA_URL": "https://mobile.data-vault.eu",\n  "email": "user_a@ownyourdata.eu",\n  "password": "user_a"\n}';
  assert.deepEqual(parseLoginPayload(text), { kind: 'password', vault: 'https://mobile.data-vault.eu', email: 'user_a@ownyourdata.eu', password: 'user_a' });
});

test('PIA_URL, APP_KEY and APP_SECRET are an app login; a trailing slash of the vault is dropped', () => {
  assert.deepEqual(parseLoginPayload('{"PIA_URL":"https://vault.example/","APP_KEY":"eu.ownyourdata.waymark","APP_SECRET":"s3cr3t"}'),
    { kind: 'app', vault: 'https://vault.example', key: 'eu.ownyourdata.waymark', secret: 's3cr3t' });
});

test('a code with both forms complete signs in with e-mail and password, as `waymark vault login --qr` does', () => {
  assert.deepEqual(parseLoginPayload('{"PIA_URL":"https://v.example","email":"a@b.c","password":"p","APP_KEY":"k","APP_SECRET":"s"}'),
    { kind: 'password', vault: 'https://v.example', email: 'a@b.c', password: 'p' });
  // One form complete, the other partial: the complete one.
  assert.equal(parseLoginPayload('{"PIA_URL":"https://v.example","email":"a@b.c","APP_KEY":"k","APP_SECRET":"s"}').kind, 'app');
});

test('an incomplete code gives the fields it has, for the form', () => {
  assert.deepEqual(parseLoginPayload('{"PIA_URL":"https://mobile.data-vault.eu","email":"max25"}'),
    { kind: 'incomplete', fields: { vault: 'https://mobile.data-vault.eu', email: 'max25' } });
  assert.deepEqual(parseLoginPayload('{"email":"a@b.c","password":"pw"}'), { kind: 'incomplete', fields: { email: 'a@b.c', password: 'pw' } });
  assert.deepEqual(parseLoginPayload('{"PIA_URL":"https://v.example","APP_KEY":"k"}'), { kind: 'incomplete', fields: { vault: 'https://v.example', key: 'k' } });
  // A password is kept as it is (spaces are part of it); an email loses surrounding spaces.
  assert.deepEqual(parseLoginPayload('{"email":" a@b.c ","password":" pw "}'), { kind: 'incomplete', fields: { email: 'a@b.c', password: ' pw ' } });
});

test('broken and hostile text never becomes a login', () => {
  const invalid = { kind: 'invalid' };
  for (const text of [
    '', 'hello', 'https://data-vault.eu', '{', '{"PIA_URL":', 'null', '42', '"text"', '[]', '[{"PIA_URL":"https://a.b","email":"e","password":"p"}]',
    '{}', '{"unrelated":"x"}', null, undefined, 42, {},
    `{"PIA_URL":"https://a.b","email":"e","password":"${'p'.repeat(5000)}"}`,
  ]) {
    assert.deepEqual(parseLoginPayload(text), invalid, `text ${String(text).slice(0, 40)}`);
  }
  // Values of the wrong type, empty, too long, with control characters, or a vault that is not http(s): not read.
  const fields = (text) => { const payload = parseLoginPayload(text); return payload.kind === 'incomplete' ? payload.fields : payload; };
  assert.deepEqual(fields('{"PIA_URL":"javascript:alert(1)","email":"e"}'), { email: 'e' });
  assert.deepEqual(fields('{"PIA_URL":"file:///etc/passwd","email":"e"}'), { email: 'e' });
  assert.deepEqual(fields('{"PIA_URL":"https://user:pw@evil.example","email":"e"}'), { email: 'e' });
  assert.deepEqual(fields('{"PIA_URL":"https://a.example/?next=x","email":"e"}'), { email: 'e' });
  assert.deepEqual(fields('{"PIA_URL":["https://a.example"],"email":{"x":1},"password":7}'), invalid);
  assert.deepEqual(fields('{"PIA_URL":"https://a.example","email":"","password":"p"}'), { vault: 'https://a.example', password: 'p' });
  assert.deepEqual(fields('{"PIA_URL":"https://a.example","email":"e\\u0000x","password":"p\\nq"}'), { vault: 'https://a.example' });
  assert.deepEqual(fields(`{"PIA_URL":"https://a.example","email":"${'e'.repeat(2000)}"}`), { vault: 'https://a.example' });
  // __proto__ and friends are plain keys, never the login.
  assert.deepEqual(parseLoginPayload('{"__proto__":{"PIA_URL":"https://a.b","email":"e","password":"p"}}'), invalid);
  assert.equal(/** @type {any} */ ({}).PIA_URL, undefined);
});

test('of several codes read, a complete login wins, then an incomplete one', () => {
  const complete = '{"PIA_URL":"https://a.example","email":"e","password":"p"}';
  assert.equal(bestLoginPayload(['junk', '{"email":"x"}', complete]).kind, 'password');
  assert.deepEqual(bestLoginPayload(['junk', '{"email":"x"}']), { kind: 'incomplete', fields: { email: 'x' } });
  assert.deepEqual(bestLoginPayload([]), { kind: 'invalid' });
  assert.deepEqual(bestLoginPayload(['junk', 7]), { kind: 'invalid' });
});

test('a photo goes to POST /api/v1/qr/decode with its image type; the texts come back', async () => {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    return new Response(JSON.stringify({ texts: ['a', 7, 'b'] }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  const photo = new Blob([new Uint8Array([0xff, 0xd8])], { type: 'image/jpeg' });
  assert.deepEqual(await decodePhoto(photo, { fetch }), ['a', 'b']);
  assert.equal(calls[0].url, '/api/v1/qr/decode');
  assert.equal(calls[0].init.method, 'POST');
  assert.equal(calls[0].init.headers['Content-Type'], 'image/jpeg');
  assert.equal(calls[0].init.body, photo);
  await decodePhoto(new Blob([new Uint8Array([1])]), { fetch });
  assert.equal(calls[1].init.headers['Content-Type'], 'application/octet-stream');
});

test('a photo the server refuses, an answer that is not JSON, and no answer are typed errors', async () => {
  const photo = new Blob([new Uint8Array([1])], { type: 'image/png' });
  await assert.rejects(decodePhoto(photo, { fetch: async () => new Response('{"error":"not_an_image"}', { status: 415 }) }),
    (error) => error instanceof DecodeError && error.code === 'refused' && error.status === 415);
  await assert.rejects(decodePhoto(photo, { fetch: async () => new Response('<html>', { status: 200 }) }),
    (error) => error instanceof DecodeError && error.code === 'refused');
  await assert.rejects(decodePhoto(photo, { fetch: async () => { throw new TypeError('Failed to fetch'); } }),
    (error) => error instanceof DecodeError && error.code === 'offline');
  assert.deepEqual(await decodePhoto(photo, { fetch: async () => new Response('{"texts":"nope"}', { status: 200 }) }), []);
});
