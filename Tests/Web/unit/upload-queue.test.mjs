// The upload queue (Web/photos/upload-queue.js) with a storage in memory and a fake server:
// kept until sent, one Idempotency-Key per photo for every attempt, transient failures wait,
// refusals wait for the person (Try again or Discard).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createUploadQueue, memoryStorage, isTransient } from '../../../Web/photos/upload-queue.js';

class Refusal extends Error {
  constructor(status, code) { super(code); this.status = status; this.code = code; this.reason = `refused: ${code}`; }
}

/** A queue whose server answers with the functions in `answers`, one per attempt (the last repeats). */
function setup(answers) {
  const storage = memoryStorage();
  const attempts = [];
  const events = [];
  let ids = 0;
  const queue = createUploadQueue({
    storage,
    newId: () => `id-${++ids}`,
    now: () => 1000 + ids,
    send: async (item, progress) => {
      attempts.push({ id: item.id, key: item.key, fields: { ...item.fields }, bytes: item.data.byteLength });
      progress(0.5);
      const answer = answers[Math.min(attempts.length - 1, answers.length - 1)];
      return answer(item);
    },
    onEvent: (event) => events.push(`${event.type}:${event.item.id}`),
  });
  return { queue, storage, attempts, events };
}

const ok = (item) => ({ id: `photo-of-${item.id}`, title: item.fields.title ?? 'PShare' });
const offline = () => { throw new Refusal(0, 'offline'); };
const photo = (title) => ({ data: new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]).buffer, name: 'camera.jpg', type: 'image/jpeg', fields: title ? { title } : {} });

test('an upload is stored before it is sent, and removed once the server has it', async () => {
  const { queue, attempts, events } = setup([ok]);
  const item = await queue.add(photo('Gate'));
  assert.equal(item.state, 'waiting');
  assert.equal((await queue.list()).length, 1, 'stored before any sending');
  const counts = await queue.drain();
  assert.deepEqual(counts, { sent: 1, waiting: 0, failed: 0 });
  assert.deepEqual(await queue.list(), []);
  assert.equal(attempts.length, 1);
  assert.equal(attempts[0].bytes, 6);
  assert.deepEqual(attempts[0].fields, { title: 'Gate' });
  assert.deepEqual(events, [`queued:${item.id}`, `sending:${item.id}`, `progress:${item.id}`, `sent:${item.id}`]);
});

test('no network: the upload stays, waiting, and goes with the same Idempotency-Key later', async () => {
  const { queue, attempts } = setup([offline, offline, ok]);
  const item = await queue.add(photo('Tunnel'));
  assert.deepEqual(await queue.drain(), { sent: 0, waiting: 1, failed: 0 });
  let [kept] = await queue.list();
  assert.equal(kept.state, 'waiting');
  assert.equal(kept.attempts, 1);
  assert.equal(kept.error.code, 'offline');
  assert.deepEqual(await queue.drain(), { sent: 0, waiting: 1, failed: 0 });
  assert.deepEqual(await queue.drain(), { sent: 1, waiting: 0, failed: 0 });
  assert.deepEqual(await queue.list(), []);
  assert.equal(attempts.length, 3);
  assert.ok(attempts.every((attempt) => attempt.key === item.key), 'one key for every attempt');
  assert.notEqual(item.key, item.id, 'the key is its own random value');
});

test('each photo has its own key; a drain stops at the first that finds no network', async () => {
  const { queue, attempts } = setup([offline]);
  const first = await queue.add(photo('one'));
  const second = await queue.add(photo('two'));
  assert.notEqual(first.key, second.key);
  assert.deepEqual(await queue.drain(), { sent: 0, waiting: 2, failed: 0 });
  assert.equal(attempts.length, 1, 'the second was not tried: it would fail the same way');
  assert.deepEqual((await queue.list()).map((item) => item.fields.title), ['one', 'two'], 'oldest first');
});

test('a refusal (4xx) marks the upload failed and drains go past it; Try again uses the same key', async () => {
  const { queue, attempts } = setup([() => { throw new Refusal(415, 'not_an_image'); }, ok, ok]);
  const bad = await queue.add(photo('notes'));
  const good = await queue.add(photo('gate'));
  assert.deepEqual(await queue.drain(), { sent: 1, waiting: 0, failed: 1 });
  const [failed] = await queue.list();
  assert.equal(failed.id, bad.id);
  assert.equal(failed.state, 'failed');
  assert.deepEqual(failed.error, { status: 415, code: 'not_an_image', reason: 'refused: not_an_image' });
  assert.deepEqual(await queue.drain(), { sent: 0, waiting: 0, failed: 1 }, 'a failed upload is not sent again by itself');
  assert.equal(attempts.length, 2);
  assert.equal(await queue.retry(bad.id), 'sent');
  assert.equal(attempts.length, 3);
  assert.equal(attempts[2].key, bad.key, 'Try again: the same Idempotency-Key');
  assert.notEqual(attempts[1].key, bad.key);
  assert.equal(attempts[1].id, good.id);
  assert.deepEqual(await queue.list(), []);
});

test('Discard removes a failed upload; retrying or discarding an unknown one does nothing', async () => {
  const { queue, events } = setup([() => { throw new Refusal(422, 'broken_image'); }]);
  const item = await queue.add(photo());
  await queue.drain();
  assert.equal((await queue.list())[0].state, 'failed');
  assert.equal(await queue.discard(item.id), true);
  assert.deepEqual(await queue.list(), []);
  assert.ok(events.includes(`discarded:${item.id}`));
  assert.equal(await queue.discard(item.id), false);
  assert.equal(await queue.retry(item.id), null);
});

test('which failures are only transient', () => {
  for (const status of [0, 408, 429, 502, 503, 504]) assert.equal(isTransient({ status }), true, String(status));
  for (const status of [400, 401, 403, 413, 415, 422, 500]) assert.equal(isTransient({ status }), false, String(status));
  assert.equal(isTransient(new TypeError('Failed to fetch')), true, 'a thrown network error has no status');
  const { queue } = setup([() => { throw new Refusal(503, 'http_503'); }]);
  return queue.add(photo()).then(() => queue.drain()).then((counts) => assert.deepEqual(counts, { sent: 0, waiting: 1, failed: 0 }));
});

test('drains at the same time share one run: nothing is sent twice', async () => {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const { queue, attempts } = setup([async (item) => { await gate; return ok(item); }]);
  await queue.add(photo('once'));
  const a = queue.drain();
  const b = queue.drain();
  assert.equal(a, b);
  release();
  assert.deepEqual(await a, { sent: 1, waiting: 0, failed: 0 });
  assert.equal(attempts.length, 1);
});

test('an upload left "sending" by a closed page waits again after recover', async () => {
  const storage = memoryStorage();
  await storage.put({ id: 'x', key: 'k', createdAt: 1, attempts: 1, state: 'sending', fields: {}, name: 'a.jpg', type: 'image/jpeg', data: new ArrayBuffer(1), error: null, photo: null });
  const sent = [];
  const queue = createUploadQueue({ storage, send: async (item) => { sent.push(item.key); return { id: 'p' }; } });
  await queue.recover();
  assert.equal((await queue.list())[0].state, 'waiting');
  assert.deepEqual(await queue.drain(), { sent: 1, waiting: 0, failed: 0 });
  assert.deepEqual(sent, ['k']);
});
