// The scene outbox (Web/scenes/outbox.js) with a storage in memory and a fake server: a new scene
// (metadata, reference, feet shot) or a rephotograph is kept before it is sent, keeps one
// Idempotency-Key for every attempt (the page's own when it gave one), waits without a network,
// and waits for the person when refused — a rephotograph of a deleted scene saying so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './helpers.mjs';
import { target } from '../../../Web/app/api.js';
import { createSceneOutbox, memorySceneStorage, destinationOf, SCENE_GONE, OTHER_ACCOUNT } from '../../../Web/scenes/outbox.js';

class Refusal extends Error {
  constructor(status, code) { super(code); this.status = status; this.code = code; this.reason = `refused: ${code}`; }
}

/** An outbox whose server answers with the functions in `answers`, one per attempt (the last repeats). */
function setup(answers) {
  const storage = memorySceneStorage();
  const attempts = [];
  const events = [];
  let ids = 0;
  let clock = 1000;
  const outbox = createSceneOutbox({
    storage,
    newId: () => `id-${++ids}`,
    now: () => ++clock,
    send: async (item, progress) => {
      attempts.push({ id: item.id, key: item.key, to: target(destinationOf(item).id, destinationOf(item)), metadata: JSON.parse(item.metadata),
        parts: item.parts.map((part) => `${part.field}:${part.name}:${part.data.byteLength}`) });
      progress(0.5);
      const answer = answers[Math.min(attempts.length - 1, answers.length - 1)];
      return answer(item);
    },
    onEvent: (event) => events.push(`${event.type}:${event.item.id}`),
  });
  return { outbox, storage, attempts, events };
}

const jpeg = (name, size = 6) => ({ data: new Uint8Array(size).fill(0xff).buffer, name, type: 'image/jpeg' });
const metadata = (name) => ({ capturedAt: '2026-06-01T10:00:00.250+02:00', attitude: { w: 1, x: 0, y: 0, z: 0 }, heading: 12, latitude: 49.2, longitude: 16.6, ...(name ? { name } : {}) });
const scene = (name, key) => ({ kind: 'scene', key, metadata: metadata(name), image: jpeg('reference.jpg', 8), feetShot: jpeg('feet.jpg', 5) });
const retake = (sceneId, sceneName) => ({ kind: 'rephotograph', sceneId, sceneName, metadata: metadata(), image: jpeg('rephotograph.jpg', 7) });

const created = (item) => ({ id: `scene-of-${item.id}` });
const offline = () => { throw new Refusal(0, 'offline'); };
const down = () => { throw new Refusal(503, 'unavailable'); };

test('a new scene is kept before it is sent, goes with its metadata and both photos, and is gone once the server has it', async () => {
  const { outbox, attempts, events } = setup([created]);
  const item = await outbox.add(scene('Red house'));
  assert.equal(item.state, 'waiting');
  assert.equal(item.name, 'Red house');
  assert.equal(item.capturedAt, '2026-06-01T10:00:00.250+02:00');
  assert.equal((await outbox.list()).length, 1, 'stored before any sending');
  assert.deepEqual(await outbox.drain(), { sent: 1, waiting: 0, failed: 0 });
  assert.deepEqual(await outbox.list(), []);
  assert.equal(attempts.length, 1);
  assert.equal(attempts[0].to, '/api/v1/scenes');
  assert.deepEqual(attempts[0].metadata, metadata('Red house'));
  assert.deepEqual(attempts[0].parts, ['image:reference.jpg:8', 'feetShot:feet.jpg:5']);
  assert.deepEqual(events, [`queued:${item.id}`, `sending:${item.id}`, `progress:${item.id}`, `sent:${item.id}`]);
});

test('a rephotograph goes to its scene\'s photos, with its one photo', async () => {
  const { outbox, attempts } = setup([created]);
  const item = await outbox.add(retake('scene/7', 'Market square'));
  assert.equal(item.name, 'Market square');
  assert.equal(item.sceneId, 'scene/7');
  await outbox.drain();
  assert.equal(attempts[0].to, '/api/v1/scenes/scene%2F7/photos');
  assert.deepEqual(attempts[0].parts, ['image:rephotograph.jpg:7']);
});

test('no network: the scene waits and goes later with the same Idempotency-Key; so does a server down for a moment', async () => {
  const { outbox, attempts } = setup([offline, down, created]);
  const item = await outbox.add(scene('Tunnel'));
  assert.deepEqual(await outbox.drain(), { sent: 0, waiting: 1, failed: 0 });
  let [kept] = await outbox.list();
  assert.equal(kept.state, 'waiting');
  assert.equal(kept.error.code, 'offline');
  assert.deepEqual(await outbox.drain(), { sent: 0, waiting: 1, failed: 0 });
  [kept] = await outbox.list();
  assert.equal(kept.error.status, 503);
  assert.equal(kept.attempts, 2);
  assert.deepEqual(await outbox.drain(), { sent: 1, waiting: 0, failed: 0 });
  assert.deepEqual(await outbox.list(), []);
  assert.equal(attempts.length, 3);
  assert.ok(attempts.every((attempt) => attempt.key === item.key), 'one key for every attempt');
  assert.notEqual(item.key, item.id);
});

test('each item has its own key, unless the page gives its own; a drain stops at the first that finds no network', async () => {
  const { outbox, attempts } = setup([offline]);
  const first = await outbox.add(scene('one'));
  const second = await outbox.add(retake('s1', 'two'));
  const third = await outbox.add(scene('three', 'page-key-3'));
  assert.notEqual(first.key, second.key);
  assert.equal(third.key, 'page-key-3', 'the key the page already sent with');
  assert.deepEqual(await outbox.drain(), { sent: 0, waiting: 3, failed: 0 });
  assert.equal(attempts.length, 1, 'the others were not tried: they would fail the same way');
  assert.deepEqual((await outbox.list()).map((item) => item.name), ['one', 'two', 'three'], 'oldest first');
});

test('kept again with the same key (the page tries again, the name changed): still one item, one key, the new content', async () => {
  const { outbox, attempts } = setup([offline, created]);
  const first = await outbox.add(scene('Old name', 'page-key'));
  await outbox.drain();
  const again = await outbox.add(scene('New name', 'page-key'));
  assert.equal(again.id, first.id);
  assert.equal(again.attempts, 1, 'the attempts so far are kept');
  const listed = await outbox.list();
  assert.equal(listed.length, 1);
  assert.equal(listed[0].name, 'New name');
  assert.deepEqual(await outbox.drain(), { sent: 1, waiting: 0, failed: 0 });
  assert.deepEqual(attempts.map((attempt) => attempt.key), ['page-key', 'page-key']);
  assert.equal(attempts[1].metadata.name, 'New name');
});

test('a refusal waits for the person; drains go past it; Try again uses the same key; Discard removes it', async () => {
  const { outbox, attempts, events } = setup([() => { throw new Refusal(422, 'broken_image'); }, created, created]);
  const bad = await outbox.add(scene('Broken'));
  const good = await outbox.add(scene('Fine'));
  assert.deepEqual(await outbox.drain(), { sent: 1, waiting: 0, failed: 1 }, 'the refusal did not stop the next');
  let [kept] = await outbox.list();
  assert.equal(kept.id, bad.id);
  assert.equal(kept.state, 'failed');
  assert.deepEqual(kept.error, { status: 422, code: 'broken_image', reason: 'refused: broken_image' });
  assert.deepEqual(await outbox.drain(), { sent: 0, waiting: 0, failed: 1 }, 'a refused item is not sent by a drain');
  assert.equal(attempts.length, 2);
  assert.equal(await outbox.retry(bad.id), 'sent');
  assert.equal(attempts[2].key, bad.key, 'Try again sends the same key');
  assert.equal(attempts[1].key, good.key);
  assert.deepEqual(await outbox.list(), []);

  const { outbox: other, events: otherEvents } = setup([() => { throw new Refusal(413, 'payload_too_large'); }]);
  const big = await other.add(scene('Huge'));
  await other.drain();
  assert.equal(await other.discard(big.id), true);
  assert.deepEqual(await other.list(), []);
  assert.equal(otherEvents.at(-1), `discarded:${big.id}`);
  assert.equal(await other.discard(big.id), false, 'nothing left to discard');
  assert.ok(events.includes(`failed:${bad.id}`));
});

test('a rephotograph whose scene was deleted is a refusal that says so; a missing new scene route is not called that', async () => {
  const gone = () => { throw new Refusal(404, 'not_found'); };
  const { outbox } = setup([gone]);
  const item = await outbox.add(retake('deleted-scene', 'Gone'));
  assert.deepEqual(await outbox.drain(), { sent: 0, waiting: 0, failed: 1 });
  const [kept] = await outbox.list();
  assert.equal(kept.id, item.id);
  assert.equal(kept.state, 'failed');
  assert.equal(kept.error.code, SCENE_GONE);
  assert.equal(kept.error.status, 404);

  const { outbox: scenes } = setup([gone]);
  await scenes.add(scene('New'));
  await scenes.drain();
  assert.equal((await scenes.list())[0].error.code, 'not_found');
});

test('an item left sending by a closed page waits again at start, and is sent once', async () => {
  const { outbox, storage, attempts } = setup([created]);
  const item = await outbox.add(scene('Half sent'));
  await storage.put({ ...item, state: 'sending', attempts: 1 });
  await outbox.recover();
  const [kept] = await outbox.list();
  assert.equal(kept.state, 'waiting');
  assert.deepEqual(await outbox.drain(), { sent: 1, waiting: 0, failed: 0 });
  assert.equal(attempts.length, 1);
  assert.equal(attempts[0].key, item.key);
});

test('the page\'s attempt and a drain at the same moment send an item once', async () => {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const { outbox, attempts } = setup([async (item) => { await gate; return created(item); }]);
  const item = await outbox.add(scene('Once'));
  const byPage = outbox.retry(item.id);
  await new Promise((resolve) => setTimeout(resolve, 0));
  const byDrain = outbox.drain();
  release();
  assert.equal(await byPage, 'sent');
  assert.deepEqual(await byDrain, { sent: 0, waiting: 0, failed: 0 }, 'the drain left the item being sent alone');
  assert.equal(attempts.length, 1);
  assert.equal(await outbox.retry(item.id), null, 'gone once sent');
});

test('what cannot be sent is not kept: no photo, no feet shot, no scene id', async () => {
  const { outbox } = setup([created]);
  await assert.rejects(outbox.add({ ...scene('x'), feetShot: jpeg('feet.jpg', 0) }), /feet shot/);
  await assert.rejects(outbox.add({ ...scene('x'), image: undefined }), /photo/);
  await assert.rejects(outbox.add({ ...retake('', 'x') }), /id of its scene/);
  await assert.rejects(outbox.add({ ...scene('x'), metadata: null }), /metadata/);
  assert.deepEqual(await outbox.list(), []);
});

test('an item made while another account was signed in is not sent as the one signed in now; as its own account it goes', async () => {
  const sent = [];
  let who = 'bert';
  const outbox = createSceneOutbox({
    storage: memorySceneStorage(),
    account: async () => who,
    send: async (item) => { sent.push(item.key); return { id: 'scene-1' }; },
  });
  const item = await outbox.add({ ...scene('Anna\'s well'), owner: 'anna' });
  assert.equal(item.owner, 'anna');
  assert.deepEqual(await outbox.drain(), { sent: 0, waiting: 0, failed: 1 });
  const [kept] = await outbox.list();
  assert.equal(kept.state, 'failed');
  assert.equal(kept.error.code, OTHER_ACCOUNT);
  assert.deepEqual(sent, [], 'nothing went to the server');
  who = null; // offline or signed out: not known here, the server judges
  assert.equal(await outbox.retry(item.id), 'sent');
  who = 'anna';
  const own = await outbox.add({ ...scene('Again'), owner: 'anna' });
  assert.equal(await outbox.retry(own.id), 'sent');
  assert.equal(sent.length, 2);
});
