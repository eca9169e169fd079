// What only the browser's recorder engine does (Web/recorder/engine.js): carrying a recording over
// a page reload (toState/fromState) and making nonces. Everything both engines do is in the rule
// book (Tests/Conformance/recorder, run by recorder-conformance.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './helpers.mjs';
import { RecorderEngine, makeNonce } from '../../../Web/recorder/engine.js';

const WALL = 1748772000; // 2025-06-01T10:00:00Z
/** The old page's instant `s` seconds after the start. */
const before = (s) => ({ uptime: 5000 + s, wall: WALL + s });
/** The reloaded page's instant `s` seconds after the start: its monotonic clock began at 0 when it reloaded at 100 s. */
const after = (s) => ({ uptime: s - 100, wall: WALL + s });
const fix = (s, latitude = 48.85, accuracy = 5) => ({ latitude, longitude: 2.35, altitude: 35, accuracy, time: WALL + s });

/**
 * What a page keeps of `engine` (its state, through JSON: IndexedDB's structured clone is no
 * looser) and the fixes it saved one by one, continued by a reloaded page at `instant`.
 */
function reload(engine, instant, tracks = engine.tracks) {
  return RecorderEngine.fromState(JSON.parse(JSON.stringify(engine.toState())), instant, structuredClone(tracks));
}

/** A live recording: two fixes 100 m apart, a clock 2 s slow, shown on screen until 90 s. */
function recordingAt90(settings = {}) {
  const engine = new RecorderEngine({ settings, nonce: '2OANEZK7Q1XD', sourceIsLive: true, start: before(0) });
  engine.handle({ fix: fix(10) }, { uptime: 5010, wall: WALL + 8 });
  engine.handle({ fix: fix(11, 48.8509) }, { uptime: 5011, wall: WALL + 9 });
  engine.toggleUnits();
  engine.snapshot(before(90));
  return engine;
}

test('a reload continues the recording: tracks, distance, units, nonce and clock correction are kept', () => {
  const engine = reload(recordingAt90(), after(100));
  const shown = engine.snapshot(after(100));
  assert.equal(engine.nonce, '2OANEZK7Q1XD');
  assert.equal(engine.settings.units, 'imperial');
  assert.deepEqual(engine.tracks, [[fix(10), fix(11, 48.8509)]]);
  assert.equal(shown.distanceText, '109 yd');
  assert.equal(shown.clockCorrection, 2);
  assert.equal(shown.qr.text, `${WALL + 100}-2OANEZK7Q1XD`, 'the QR code shows the GPS time, as before the reload');
  assert.equal(shown.trackCount, 1);
  assert.equal(shown.fixCount, 2);
});

test('after a reload the elapsed time runs on from what was recorded; the seconds the page was closed are not counted', () => {
  const engine = reload(recordingAt90(), after(100));
  assert.equal(engine.elapsed(after(100)), 90);
  assert.equal(engine.snapshot(after(165)).elapsedText, '2 min 35 s');
});

test('after a reload the next fix starts a new track, and no distance bridges the time the page was closed', () => {
  const engine = reload(recordingAt90(), after(100));
  engine.toggleUnits(); // back to metres
  const shown = engine.snapshot(after(100));
  assert.equal(shown.phase, 'waitingForFix');
  assert.equal(shown.status, 'none', 'what the receiver said before the reload says nothing about now');
  assert.deepEqual(engine.handle({ fix: fix(101, 48.86) }, after(101)), { accepted: { track: 1, startsTrack: true } });
  assert.deepEqual(engine.handle({ fix: fix(102, 48.8609) }, after(102)), { accepted: { track: 1, startsTrack: false } });
  assert.equal(engine.snapshot(after(102)).distanceText, '200 m', '100 m before the reload and 100 m after, not the 1 km between');
});

test('after a reload the fix checks still know the last fix: a repeat is a duplicate, an hour ahead is a jump', () => {
  const engine = reload(recordingAt90(), after(100));
  assert.deepEqual(engine.handle({ fix: fix(11, 48.8509) }, after(100)), { ignored: { reason: 'duplicate' } });
  assert.deepEqual(engine.handle({ fix: fix(9) }, after(100)), { ignored: { reason: 'outOfOrder' } });
  assert.deepEqual(engine.handle({ fix: fix(100 + 3700) }, after(101)), { ignored: { reason: 'timeJump' } });
  assert.deepEqual(engine.handle({ fix: fix(101) }, after(101)), { accepted: { track: 1, startsTrack: true } });
});

test('after a reload the alert keeps its rhythm, the time the page was closed not counted', () => {
  // The last acceptable fix was at 11 s, the page last seen at 20 s and reloaded at 30 s: the
  // alert, due 30 s after the fix, comes at 51 s, then every 30 s.
  const engine = new RecorderEngine({ nonce: 'N', sourceIsLive: true, start: before(0) });
  engine.handle({ fix: fix(11) }, before(11));
  engine.snapshot(before(20));
  const reloaded = reload(engine, after(30));
  assert.equal(reloaded.alertDue(after(50.9)), false);
  assert.equal(reloaded.alertDue(after(51)), true);
  assert.equal(reloaded.alertDue(after(80)), false);
  assert.equal(reloaded.alertDue(after(81)), true);
});

test('a paused recording stays paused after a reload, with its elapsed time frozen; resume starts a new track', () => {
  const engine = new RecorderEngine({ nonce: 'N', sourceIsLive: false, start: before(0) });
  engine.handle({ fix: fix(1) }, before(1));
  engine.pause(before(40));
  const reloaded = reload(engine, after(300));
  assert.equal(reloaded.phase, 'paused');
  assert.equal(reloaded.elapsed(after(400)), 40);
  assert.deepEqual(reloaded.handle({ fix: fix(401) }, after(401)), { ignored: { reason: 'paused' } });
  assert.equal(reloaded.alertDue(after(500)), false);
  reloaded.resume(after(500));
  assert.equal(reloaded.elapsed(after(510)), 50);
  assert.deepEqual(reloaded.handle({ fix: fix(511) }, after(511)), { accepted: { track: 1, startsTrack: true } });
});

test('a stopped recording stays stopped after a reload and gives the same route', () => {
  const engine = new RecorderEngine({ settings: { qrPeriod: 10 }, nonce: 'N', sourceIsLive: false, start: before(0) });
  engine.handle({ fix: fix(1) }, before(1));
  const route = engine.stop(before(5));
  const reloaded = reload(engine, after(200));
  assert.equal(reloaded.phase, 'stopped');
  assert.deepEqual(reloaded.stop(after(201)), route);
  assert.equal(reloaded.elapsed(after(300)), 5);
});

test('a reload before any fix waits for the first one, with the clock running', () => {
  const engine = new RecorderEngine({ nonce: 'N', sourceIsLive: true, start: before(0) });
  engine.snapshot(before(30));
  const reloaded = reload(engine, after(100));
  assert.equal(reloaded.phase, 'waitingForFix');
  assert.equal(reloaded.elapsed(after(110)), 40);
  assert.deepEqual(reloaded.handle({ fix: fix(111) }, after(111)), { accepted: { track: 0, startsTrack: true } });
});

test('the state is plain data without the tracks, and the saved engine is not changed by the one that continues it', () => {
  const engine = recordingAt90();
  const state = engine.toState();
  assert.equal('tracks' in state, false, 'the fixes are saved one by one, not again every second');
  const copy = structuredClone(state);
  const tracks = structuredClone(engine.tracks);
  const continued = RecorderEngine.fromState(state, after(100), tracks);
  continued.handle({ fix: fix(101, 48.86) }, after(101));
  assert.deepEqual(state, copy);
  assert.deepEqual(tracks, [[fix(10), fix(11, 48.8509)]]);
  assert.deepEqual(Object.keys(state).sort(), Object.keys(continued.toState()).sort());
});

test('a fix saved after the last state (the page closed within the second) is kept: distance and fix checks go on from it', () => {
  const engine = recordingAt90();
  const state = JSON.parse(JSON.stringify(engine.toState()));
  const saved = [[fix(10), fix(11, 48.8509), fix(12, 48.8518)]];
  const continued = RecorderEngine.fromState(state, after(100), saved);
  assert.equal(continued.snapshot(after(100)).fixCount, 3);
  assert.equal(continued.snapshot(after(100)).distanceText, '219 yd');
  assert.deepEqual(continued.handle({ fix: fix(12, 48.8518) }, after(100)), { ignored: { reason: 'duplicate' } });
});

test('a state that is not an engine\'s is refused by name', () => {
  for (const bad of [null, {}, { version: 1 }, 'state']) {
    assert.throws(() => RecorderEngine.fromState(/** @type {any} */ (bad), after(0), []), TypeError);
  }
  const state = recordingAt90().toState();
  for (const tracks of [undefined, null, [[]], [null], 'tracks']) {
    assert.throws(() => RecorderEngine.fromState(state, after(0), /** @type {any} */ (tracks)), TypeError);
  }
});

test('nonces are 12 characters of 0-9A-Z and differ every time', () => {
  const seen = new Set();
  for (let i = 0; i < 500; i++) {
    const nonce = makeNonce();
    assert.match(nonce, /^[0-9A-Z]{12}$/);
    seen.add(nonce);
  }
  assert.equal(seen.size, 500);
});

test('nonces are unbiased: the bytes 252 to 255, beyond the last whole multiple of 36, are drawn again', (t) => {
  let call = 0;
  t.mock.method(globalThis.crypto, 'getRandomValues', (array) => {
    const bytes = call++ === 0 ? [252, 253, 254, 255, 251, 0, 35, 36, 71, 72, 255, 107, 108, 215, 216, 250] : [1, 2, 3, 4];
    array.set(bytes.slice(0, array.length));
    return array;
  });
  // 251 → Z (251 = 6·36 + 35), 0 → 0, 35 → Z, 36 → 0, 71 → Z, 72 → 0, 107 → Z, 108 → 0, 215 → Z, 216 → 0,
  // 250 → Y; then the second draw: 1 → 1.
  assert.equal(makeNonce(), 'Z0Z0Z0Z0Z0Y1');
  assert.equal(call, 2);
});

test('a fix whose page left out altitude and accuracy counts as one without them, as null says', () => {
  const engine = new RecorderEngine({ nonce: 'N', sourceIsLive: true, start: before(0) });
  const bare = /** @type {any} */ ({ latitude: 48.85, longitude: 2.35, time: WALL + 1 });
  assert.deepEqual(engine.handle({ fix: bare }, before(1)), { accepted: { track: 0, startsTrack: true } });
  const shown = engine.snapshot(before(1));
  assert.equal(shown.status, 'orange');
  assert.equal(shown.lastAccuracy, null);
});
