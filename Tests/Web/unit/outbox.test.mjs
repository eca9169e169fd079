// The send loop and failure rules the phone's three outboxes share (Web/app/outbox.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { createDrain, failureOf, isTransient } from '../../../Web/app/outbox.js';

test('the loop goes oldest first, skips refused items, and stops at the first that finds no network', async () => {
  const tried = [];
  const answers = { a: 'sent', b: 'waiting', c: 'sent' };
  const items = [{ id: 'x', failed: true }, { id: 'a' }, { id: 'b' }, { id: 'c' }];
  const { drain } = createDrain({
    pending: async () => items,
    attempt: async (item) => { tried.push(item.id); return answers[item.id]; },
    isFailed: (item) => item.failed === true,
  });
  assert.deepEqual(await drain(), { sent: 1, waiting: 2, failed: 1 });
  assert.deepEqual(tried, ['a', 'b'], 'c is not tried once b found no network');
});

test('a drain called while one runs answers the same round; settled waits for it', async () => {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  let rounds = 0;
  const { drain, settled } = createDrain({ pending: async () => { rounds += 1; await gate; return [1]; }, attempt: async () => 'sent' });
  const first = drain();
  const second = drain();
  assert.strictEqual(first, second);
  let done = false;
  const waiting = settled().then(() => { done = true; });
  await Promise.resolve();
  assert.equal(done, false, 'settled waits for the running round');
  release();
  assert.deepEqual(await first, { sent: 1, waiting: 0, failed: 0 });
  await waiting;
  assert.equal(rounds, 1);
  await drain();
  assert.equal(rounds, 2, 'a new call after the round starts a new one');
});

test('failures: no answer, timeouts, 429 and a gateway down are tried again; refusals are kept with their reason', () => {
  for (const status of [0, 408, 429, 502, 503, 504]) assert.equal(isTransient({ status }), true, String(status));
  for (const status of [400, 401, 404, 409, 413, 415, 422, 500]) assert.equal(isTransient({ status }), false, String(status));
  assert.equal(isTransient({}), true, 'no status: no network');
  assert.deepEqual(failureOf(Object.assign(new Error('no'), { status: 409, code: 'task_not_editable', reason: 'The task was sent.' })),
    { status: 409, code: 'task_not_editable', reason: 'The task was sent.' });
  assert.deepEqual(failureOf(new TypeError('Failed to fetch')), { status: 0, code: 'offline', reason: 'Failed to fetch' });
  assert.deepEqual(failureOf(undefined), { status: 0, code: 'offline', reason: '' });
});

test('drainAfter starts a round after the running one (the network came back while it found none), one for several calls', async () => {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  let rounds = 0;
  const { drain, drainAfter } = createDrain({
    pending: async () => { rounds += 1; if (rounds === 1) await gate; return [1]; },
    // The first round finds no network; the network is back for the later ones.
    attempt: async () => (rounds === 1 ? 'waiting' : 'sent'),
  });
  const first = drain();
  const again = drainAfter();
  assert.strictEqual(drainAfter(), again, 'several calls during one round share the next round');
  release();
  assert.deepEqual(await first, { sent: 0, waiting: 1, failed: 0 }, 'the running round had found no network');
  assert.deepEqual(await again, { sent: 1, waiting: 0, failed: 0 });
  assert.equal(rounds, 2);
  assert.deepEqual(await drainAfter(), { sent: 1, waiting: 0, failed: 0 }, 'with no round running it is a drain');
  assert.equal(rounds, 3);
});
