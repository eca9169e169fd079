// The tasks' pure logic (Web/tasks/model.js): how each status reads (an icon and a word, never
// colour alone, every word in both languages), which photos may still be deleted, and the outbox
// of notes and photos made on the phone: kept until the server has them, each sent with its own
// Idempotency-Key on every attempt, and nothing sent twice.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { STATUSES, statusView, isEditable, unsentPhotoIds, formatDue, newTaskBody, createTaskOutbox, memoryOutboxStorage } from '../../../Web/tasks/model.js';
import { isTransient } from '../../../Web/photos/upload-queue.js';

const en = JSON.parse(readFileSync(new URL('../../../Web/i18n/en.json', import.meta.url), 'utf8'));
const de = JSON.parse(readFileSync(new URL('../../../Web/i18n/de.json', import.meta.url), 'utf8'));

test('every status has its own icon, word and colour class, in both languages', () => {
  const views = STATUSES.map(statusView);
  assert.deepEqual(views.map((view) => view.status), ['new', 'open', 'data_provided', 'returned']);
  assert.equal(new Set(views.map((view) => view.icon)).size, 4, 'four different icons');
  assert.equal(new Set(views.map((view) => view.className)).size, 4);
  assert.equal(en[statusView('data_provided').key], 'Data provided');
  assert.equal(de[statusView('returned').key], 'Zurückgegeben');
  for (const view of views) {
    assert.ok(view.icon.trim().length > 0);
    assert.ok(en[view.key] && de[view.key], view.key);
  }
  assert.equal(statusView('nonsense').status, 'new');
});

test('a task is editable while new, open or returned', () => {
  assert.deepEqual(STATUSES.filter(isEditable), ['new', 'open', 'returned']);
});

test('only photos added since the last return may be deleted; none once sent', () => {
  const at = (seconds) => new Date(seconds * 1000).toISOString();
  const photos = [{ id: 'a', uploadedAt: at(100) }, { id: 'b', uploadedAt: at(150) }, { id: 'c', uploadedAt: at(300) }, { id: 'd', uploadedAt: at(400) }];
  const history = [{ to: 'new', at: at(50) }, { to: 'open', at: at(60) }, { to: 'data_provided', at: at(200) }, { to: 'returned', at: at(300.7) }];
  assert.deepEqual([...unsentPhotoIds({ status: 'open', photos }, history.slice(0, 2))].sort(), ['a', 'b', 'c', 'd']);
  assert.deepEqual([...unsentPhotoIds({ status: 'returned', photos }, history)].sort(), ['c', 'd']);
  assert.equal(unsentPhotoIds({ status: 'data_provided', photos }, history).size, 0);
  // The server's own list wins over times: all four in one second, two of them sent.
  const sameSecond = photos.map((photo) => ({ ...photo, uploadedAt: at(5000) }));
  const returnedAtOnce = [{ to: 'new', at: at(5000) }, { to: 'data_provided', at: at(5000) }, { to: 'returned', at: at(5000.4) }];
  assert.deepEqual([...unsentPhotoIds({ status: 'returned', photos: sameSecond, sentPhotoIds: ['a', 'b'] }, returnedAtOnce)].sort(), ['c', 'd']);
  assert.deepEqual([...unsentPhotoIds({ status: 'returned', photos: sameSecond, sentPhotoIds: ['a', 'b', 'c', 'd'] }, returnedAtOnce)], []);
  assert.equal(unsentPhotoIds({ status: 'data_provided', photos: sameSecond, sentPhotoIds: [] }, returnedAtOnce).size, 0);
});

test('a due date reads as a date in each language; the new-task body is trimmed', () => {
  assert.equal(formatDue('2026-07-01', 'en-US'), 'Jul 1, 2026');
  assert.equal(formatDue('2026-07-01', 'de'), '01.07.2026');
  assert.deepEqual(newTaskBody({ assignee: ' ulla ', name: ' Field 7 ', instructions: '  ', dueDate: '2026-07-01' }),
    { assignee: 'ulla', name: 'Field 7', dueDate: '2026-07-01' });
  assert.equal(newTaskBody({ assignee: 'u', name: 'n', instructions: 'Look north', dueDate: '2026-07-01' }).instructions, 'Look north');
});

test('which failures are simply repeated later', () => {
  assert.ok(isTransient({ status: 0 }) && isTransient({ status: 503 }) && isTransient({}));
  assert.ok(!isTransient({ status: 409 }) && !isTransient({ status: 400 }));
});

function counter() {
  let n = 0;
  return () => `id-${++n}`;
}

test('the outbox keeps photos and a note through failures and sends each once, with the same key', async () => {
  const storage = memoryOutboxStorage();
  /** @type {{kind: string, key: string, taskId: string}[]} */
  const attempts = [];
  let online = false;
  const send = async (item) => {
    attempts.push({ kind: item.kind, key: item.key, taskId: item.taskId });
    if (!online) throw Object.assign(new Error('offline'), { status: 0, code: 'offline' });
    return { id: `server-${item.key}` };
  };
  let clock = 1000;
  const outbox = createTaskOutbox({ storage, send, newId: counter(), now: () => clock++ });
  const first = await outbox.addPhoto('t1', { data: new Uint8Array([1, 2, 3]).buffer, name: 'a.jpg', type: 'image/jpeg', fields: { latitude: '48.2' } });
  await outbox.setNote('t1', 'first words');
  await outbox.setNote('t1', 'better words');
  const second = await outbox.addPhoto('t1', { data: new Uint8Array([4]).buffer, name: 'b.jpg', type: 'image/jpeg' });
  assert.notEqual(first.key, second.key, 'every photo has its own key');

  // Offline: the first attempt fails, the rest wait without being tried; all is kept.
  assert.deepEqual(await outbox.drain(), { sent: 0, waiting: 3, failed: 0 });
  assert.equal(attempts.length, 1);
  const kept = await outbox.list('t1');
  assert.deepEqual(kept.map((item) => item.kind), ['photo', 'note', 'photo'], 'oldest first; only the last note');
  assert.equal(kept[1].note, 'better words');
  assert.equal(kept[0].fields?.latitude, '48.2');

  // A new outbox on the same storage (the tab was closed and opened again) finds them.
  online = true;
  const reopened = createTaskOutbox({ storage, send, newId: counter(), now: () => clock++ });
  const [a, b] = await Promise.all([reopened.drain(), reopened.drain()]);
  assert.deepEqual(a, { sent: 3, waiting: 0, failed: 0 });
  assert.strictEqual(a, b, 'two drains at once share one run');
  assert.deepEqual(await reopened.list(), []);
  const sentKeys = attempts.slice(1).map((attempt) => attempt.key);
  assert.deepEqual(sentKeys, [first.key, kept[1].key, second.key], 'each once, the photo with its first key');
  assert.equal(attempts.filter((attempt) => attempt.key === first.key).length, 2, 'the failed photo was tried again with the same key');

  // Nothing more is sent.
  assert.deepEqual(await reopened.drain(), { sent: 0, waiting: 0, failed: 0 });
  assert.equal(attempts.length, 4);
});

test('a change the server refuses is kept with its reason, not retried, until discarded', async () => {
  const storage = memoryOutboxStorage();
  let tries = 0;
  const send = async () => { tries += 1; throw Object.assign(new Error('no'), { status: 409, code: 'task_not_editable', reason: 'The task was sent; it can no longer be changed.' }); };
  const outbox = createTaskOutbox({ storage, send, newId: counter() });
  const item = await outbox.addPhoto('t2', { data: new ArrayBuffer(1), name: 'x.jpg', type: 'image/jpeg' });
  assert.deepEqual(await outbox.drain(), { sent: 0, waiting: 0, failed: 1 });
  const [kept] = await outbox.list('t2');
  assert.equal(kept.state, 'failed');
  assert.equal(kept.error?.reason, 'The task was sent; it can no longer be changed.');
  assert.deepEqual(await outbox.drain(), { sent: 0, waiting: 0, failed: 1 });
  assert.equal(tries, 1, 'not sent again by itself');
  await outbox.discard(item.id);
  assert.deepEqual(await outbox.list(), []);
});

test('a send queued offline goes once, after the note and photos queued before it', async () => {
  const storage = memoryOutboxStorage();
  /** @type {string[]} */
  const sent = [];
  let online = false;
  let answerLost = false;
  const send = async (item) => {
    if (!online) throw Object.assign(new Error('offline'), { status: 0, code: 'offline' });
    if (item.kind === 'send' && sent.includes('send')) throw Object.assign(new Error('again'), { status: 409, code: 'task_already_sent', reason: 'This task was sent already.' });
    sent.push(item.kind);
    if (item.kind === 'send' && answerLost) { answerLost = false; throw Object.assign(new Error('reset'), { status: 0, code: 'offline' }); }
    return {};
  };
  let clock = 1;
  const outbox = createTaskOutbox({ storage, send, newId: counter(), now: () => clock++ });
  await outbox.addPhoto('t3', { data: new ArrayBuffer(2), name: 'a.jpg', type: 'image/jpeg' });
  await outbox.setNote('t3', 'done');
  const first = await outbox.queueSend('t3');
  const again = await outbox.queueSend('t3');
  assert.equal(again.id, first.id, 'pressing Send twice queues one send');
  assert.deepEqual((await outbox.list('t3')).map((item) => item.kind), ['photo', 'note', 'send']);
  // A note changed and a photo taken while the send waits go before it.
  await outbox.setNote('t3', 'done, really');
  await outbox.addPhoto('t3', { data: new ArrayBuffer(3), name: 'b.jpg', type: 'image/jpeg' });
  assert.deepEqual((await outbox.list('t3')).map((item) => item.kind), ['photo', 'note', 'photo', 'send']);
  assert.equal((await outbox.list('t3'))[3].key, first.key, 'the same send, with its key');
  assert.deepEqual(await outbox.drain(), { sent: 0, waiting: 4, failed: 0 });

  // Back online, the send's answer is lost on the way: the send stays queued, and its retry,
  // which the server answers with task_already_sent, counts as sent.
  online = true;
  answerLost = true;
  assert.deepEqual(await outbox.drain(), { sent: 3, waiting: 1, failed: 0 });
  assert.deepEqual(sent, ['photo', 'note', 'photo', 'send']);
  assert.deepEqual(await outbox.drain(), { sent: 1, waiting: 0, failed: 0 });
  assert.deepEqual(await outbox.list(), []);
  assert.deepEqual(sent, ['photo', 'note', 'photo', 'send'], 'the server saw one send');
});

test('the network coming back during a round that found none sends the item in a round after it (drainAfter)', async () => {
  const storage = memoryOutboxStorage();
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  let online = false;
  const send = async (item) => {
    if (!online) { await gate; throw Object.assign(new Error('offline'), { status: 0, code: 'offline' }); }
    return { id: `server-${item.key}` };
  };
  const outbox = createTaskOutbox({ storage, send, newId: counter() });
  await outbox.setNote('t1', 'words');
  const first = outbox.drain();
  await new Promise((resolve) => setTimeout(resolve, 0));
  online = true;
  const again = outbox.drainAfter();
  release();
  assert.deepEqual(await first, { sent: 0, waiting: 1, failed: 0 }, 'the running round found no network');
  assert.deepEqual(await again, { sent: 1, waiting: 0, failed: 0 }, 'not answered by the round that was ending');
  assert.deepEqual(await outbox.list(), []);
});
