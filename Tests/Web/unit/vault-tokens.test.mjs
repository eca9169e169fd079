// The vault's token on the phone (seed 002 "Login": `expires_in` 7200): the browser's client signs
// in, the token is used until a minute before its 7,200 s run out, then the kept credentials sign
// in again and the new token is kept; callers at the same moment share one sign-in; a kept login
// the vault no longer accepts is `unauthorized`, and a vault that does not answer stays
// `unreachable`. A clock the test sets, a fake vault that counts sign-ins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './helpers.mjs';
import { createVaultClient, VaultError } from '../../../Web/vault/client.js';
import { createTokenSource, RENEWAL_MARGIN } from '../../../Web/vault/tokens.js';

const START = 1_764_000_000_000;

/** A vault that issues token-1, token-2, … living `lifetime` s; `password` is the one it takes now. */
function fakeVault({ lifetime = 7200 } = {}) {
  const state = { signIns: 0, password: 'user_a', down: false };
  const fetch = async (url, init) => {
    if (state.down) throw new TypeError('Failed to fetch');
    assert.equal(new URL(url).pathname, '/oauth/token');
    state.signIns += 1;
    const form = new URLSearchParams(String(init.body));
    if (form.get('password') !== state.password) return new Response('{"error":"invalid_grant"}', { status: 401 });
    return new Response(JSON.stringify({ access_token: `token-${state.signIns}`, token_type: 'bearer', expires_in: lifetime, username: 'User A' }));
  };
  return { fetch, state };
}

function setUp(vault) {
  const clock = { now: START };
  const client = createVaultClient({ vault: 'https://vault.example', fetch: vault.fetch, now: () => clock.now });
  const session = { credentials: { kind: 'password', email: 'user_a@ownyourdata.eu', password: 'user_a' }, token: null };
  const saved = [];
  const tokens = createTokenSource({ session, client, save: async () => { saved.push(session.token?.accessToken); }, now: () => clock.now });
  return { clock, session, saved, tokens };
}

test('a 7,200 s token is used until a minute before it runs out, then a new sign-in is made and kept', async () => {
  const vault = fakeVault();
  const { clock, session, saved, tokens } = setUp(vault);
  const first = await tokens.token();
  assert.equal(first.accessToken, 'token-1');
  assert.equal(first.expires, START + 7_200_000);
  assert.deepEqual(saved, ['token-1']);

  clock.now = START + 7_200_000 - RENEWAL_MARGIN - 1000; // 61 s left
  assert.equal((await tokens.token()).accessToken, 'token-1');
  assert.equal(vault.state.signIns, 1);

  clock.now = START + 7_200_000 - RENEWAL_MARGIN + 1000; // 59 s left
  const second = await tokens.token();
  assert.equal(second.accessToken, 'token-2');
  assert.equal(second.expires, clock.now + 7_200_000);
  assert.equal(session.token, second, 'the session holds the new token');
  assert.deepEqual(saved, ['token-1', 'token-2'], 'and it is kept');

  // A token kept from yesterday is not used at all.
  clock.now = START + 86_400_000;
  assert.equal((await tokens.token()).accessToken, 'token-3');
});

test('callers asking at the same moment share one sign-in; renew() always signs in', async () => {
  const vault = fakeVault();
  const { tokens } = setUp(vault);
  const all = await Promise.all([tokens.token(), tokens.token(), tokens.token()]);
  assert.deepEqual(all.map((token) => token.accessToken), ['token-1', 'token-1', 'token-1']);
  assert.equal(vault.state.signIns, 1);
  assert.equal((await tokens.renew()).accessToken, 'token-2');
  assert.equal((await tokens.token()).accessToken, 'token-2');
});

test('a kept login the vault no longer accepts is unauthorized; no answer stays unreachable; the old token stays', async () => {
  const vault = fakeVault();
  const { clock, session, saved, tokens } = setUp(vault);
  await tokens.token();
  vault.state.password = 'changed in the vault';
  clock.now = START + 7_200_000;
  await assert.rejects(tokens.token(), (error) => error instanceof VaultError && error.kind === 'unauthorized' && error.status === 401);
  assert.equal(session.token?.accessToken, 'token-1');
  assert.deepEqual(saved, ['token-1']);

  vault.state.down = true;
  await assert.rejects(tokens.renew(), (error) => error instanceof VaultError && error.kind === 'unreachable');
  // After a failure the next call tries again (nothing stays stuck on the failed sign-in).
  vault.state.down = false;
  vault.state.password = 'user_a';
  assert.match((await tokens.token()).accessToken, /^token-\d+$/);
  assert.equal(saved.length, 2);
});
