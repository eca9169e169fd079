// The field paths' model (Web/paths/model.js): a point about every second from the position
// fixes, the closed polygon's area as the server measures it, the body of POST /api/v1/paths,
// and the queue that keeps a path on the phone until the server has it — one Idempotency-Key per
// path for every attempt, offline waits, a refusal waits for the person.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  POINT_INTERVAL_MS, createPathQueue, formatArea, measurePath, memoryPathStorage, pathBody, pointFromFix,
} from '../../../Web/paths/model.js';

const T0 = 1_750_000_000_000;

/** The corners of GeographicLib's 100 m square in Vienna (field_path_reference.py, Direct 100 m N, E, S). */
const SQUARE = [[48.2082, 16.3738], [48.209099326028486, 16.3738], [48.209099325989904, 16.375145473169333], [48.20819999212709, 16.375145473169333]];

test('a fix becomes a point only about a second after the last one; times never go backwards', () => {
  const points = [];
  const take = (ms, lat = 48.2, lon = 16.3) => {
    const point = pointFromFix(points, { latitude: lat, longitude: lon, altitude: null, timestamp: T0 + ms });
    if (point) points.push(point);
    return point;
  };
  assert.ok(take(0));
  assert.equal(take(POINT_INTERVAL_MS - 1), null, 'too soon');
  assert.ok(take(1000));
  assert.equal(points[1].time, (T0 + 1000) / 1000, 'Unix seconds');
  assert.equal(take(2000, NaN), null, 'not a fix');
  assert.equal(take(2000, 91), null, 'beyond ±90°');
  const altitude = pointFromFix(points, { latitude: 1, longitude: 2, altitude: 171.5, timestamp: T0 + 5000 });
  assert.equal(altitude?.altitude, 171.5);
});

test('the closed square measures 10,000 m² (GeographicLib: 10,000.1311 m², 400.0026 m) and its walk its length', () => {
  const points = SQUARE.map(([latitude, longitude], index) => ({ latitude, longitude, altitude: null, time: 1_750_000_000 + index }));
  const measure = measurePath(points);
  assert.ok(measure.area !== null && Math.abs(measure.area - 10000.131098031998) < 1e-6, `area ${measure.area}`);
  assert.ok(measure.perimeter !== null && Math.abs(measure.perimeter - 400.0026219551872) < 1e-6, `perimeter ${measure.perimeter}`);
  assert.ok(Math.abs(measure.length - 300.0008711224169) < 1e-6, `length ${measure.length}: three sides walked, the fourth closes`);
  const line = measurePath(points.slice(0, 2));
  assert.equal(line.area, null, 'two places enclose nothing');
  assert.equal(line.perimeter, null);
});

test('the body is {name?, points: [[lat, lon, alt, t]]}; a blank name is left out', () => {
  const points = [{ latitude: 48.2, longitude: 16.3, altitude: null, time: 1_750_000_000.5 }];
  assert.deepEqual(pathBody({ name: '  Nordacker ', points }), { name: 'Nordacker', points: [[48.2, 16.3, null, 1_750_000_000.5]] });
  assert.deepEqual(pathBody({ name: '   ', points }), { points: [[48.2, 16.3, null, 1_750_000_000.5]] });
});

test('areas are written in m² and ha in each language', () => {
  assert.deepEqual(formatArea(10000.0876, 'en'), { squareMetres: '10,000 m²', hectares: '1.0000 ha' });
  assert.deepEqual(formatArea(12345.6, 'de'), { squareMetres: '12.346 m²', hectares: '1,2346 ha' });
});

class Refusal extends Error {
  constructor(status, code) { super(code); this.status = status; this.code = code; this.reason = `refused: ${code}`; }
}

function setup(answers) {
  const storage = memoryPathStorage();
  const attempts = [];
  let ids = 0;
  const queue = createPathQueue({
    storage, newId: () => `id-${++ids}`, now: () => 1000 + ids,
    send: async (path) => {
      attempts.push({ id: path.id, key: path.key, points: path.points.length });
      return answers[Math.min(attempts.length - 1, answers.length - 1)](path);
    },
  });
  return { queue, storage, attempts };
}

async function recorded(queue, name = 'Acker') {
  const path = await queue.start(name);
  for (const [index, [latitude, longitude]] of SQUARE.entries()) {
    path.points.push({ latitude, longitude, altitude: null, time: 1_750_000_000 + index });
    await queue.save(path);
  }
  return queue.stop(path);
}

test('a recording is kept after every point, closed and measured at Stop; a recording without points is dropped', async () => {
  const { queue, storage } = setup([() => ({})]);
  const path = await queue.start('Acker');
  path.points.push({ latitude: 1, longitude: 2, altitude: null, time: 1_750_000_000 });
  await queue.save(path);
  const kept = await storage.all();
  assert.equal(kept[0].state, 'recording');
  assert.equal(kept[0].points.length, 1, 'a closed tab keeps the point');
  await queue.remove(path.id);
  const closed = await recorded(queue);
  assert.equal(closed?.state, 'unsent');
  assert.ok(closed && closed.measure.area !== null && Math.abs(closed.measure.area - 10000.131098031998) < 1e-6);
  const nothing = await queue.start('');
  assert.equal(await queue.stop(nothing), null);
  assert.deepEqual((await storage.all()).map((item) => item.id), [closed?.id]);
});

test('offline the path waits; every attempt carries the same Idempotency-Key; sent, it keeps the server id and measures', async () => {
  const { queue, storage, attempts } = setup([
    () => { throw new Refusal(0, 'offline'); },
    () => { throw new Refusal(503, 'http_503'); },
    (path) => ({ id: 'server-1', area: 10000.08, perimeter: 400.0, length: 300.0, points: path.points.length }),
  ]);
  const path = await recorded(queue);
  assert.deepEqual(await queue.drain(), { sent: 0, unsent: 1, failed: 0 });
  assert.equal((await storage.all())[0].state, 'unsent');
  assert.equal(await queue.sendNow(path.id), 'unsent');
  assert.deepEqual(await queue.drain(), { sent: 1, unsent: 0, failed: 0 });
  const sent = (await storage.all())[0];
  assert.equal(sent.state, 'sent');
  assert.equal(sent.serverId, 'server-1');
  assert.deepEqual(sent.measure, { area: 10000.08, perimeter: 400.0, length: 300.0 }, "the server's measures");
  assert.equal(new Set(attempts.map((attempt) => attempt.key)).size, 1, 'one key for every attempt');
  assert.equal(attempts.length, 3);
  assert.deepEqual(await queue.drain(), { sent: 0, unsent: 0, failed: 0 }, 'a sent path is not sent again');
  assert.equal(await queue.sendNow(path.id), null);
});

test('a path the server refuses waits for the person, with the reason', async () => {
  const { queue, storage } = setup([() => { throw new Refusal(400, 'invalid_path'); }, () => ({ id: 'server-2', area: 1, perimeter: 4, length: 3 })]);
  const path = await recorded(queue);
  assert.deepEqual(await queue.drain(), { sent: 0, unsent: 0, failed: 1 });
  const failed = (await storage.all())[0];
  assert.equal(failed.state, 'failed');
  assert.deepEqual(failed.error, { status: 400, code: 'invalid_path', reason: 'refused: invalid_path' });
  assert.deepEqual(await queue.drain(), { sent: 0, unsent: 0, failed: 0 }, 'not resent by itself');
  assert.equal(await queue.sendNow(path.id), 'sent', 'Send tries again');
});

test('the network coming back during a round that found none sends the path in a round after it (drainAfter)', async () => {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const { queue, storage } = setup([
    async () => { await gate; throw new Refusal(0, 'offline'); },
    (path) => ({ id: 'server-3', area: 1, perimeter: 4, length: 3, points: path.points.length }),
  ]);
  await recorded(queue);
  const first = queue.drain();
  await new Promise((resolve) => setTimeout(resolve, 0));
  const again = queue.drainAfter();
  release();
  assert.deepEqual(await first, { sent: 0, unsent: 1, failed: 0 }, 'the running round found no network');
  assert.deepEqual(await again, { sent: 1, unsent: 0, failed: 0 }, 'not answered by the round that was ending');
  assert.equal((await storage.all())[0].state, 'sent');
});
