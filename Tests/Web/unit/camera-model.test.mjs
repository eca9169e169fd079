// The evidence camera's rules (Web/inspection/camera-model.js): where the back camera looks for
// orientations one can picture (upright facing north or east, lying flat, tilted up 30°, held in
// landscape, at the Euler angles' gimbal lock), when the phone counts as still, the centroid
// window, which conditions keep the shutter off and in which order, the 5-second countdown, and
// the upload fields with the centroid exactly as the server's pattern accepts it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  trueDirection,
  cameraDirection, absoluteAlpha, motionMagnitude, addMotionSample, stillness, centroidWindow, readiness,
  countdownStep, plainDecimal, centroidField, uploadFields, GRAVITY, STILL_MS, COUNTDOWN_MS, FIX_MAX_AGE_MS,
} from '../../../Web/inspection/camera-model.js';
import { hullCentroid } from '../../../Web/inspection/geometry.js';
import { compassHeading } from '../../../Web/scenes/attitude.js';

const en = JSON.parse(readFileSync(new URL('../../../Web/i18n/en.json', import.meta.url), 'utf8'));
const de = JSON.parse(readFileSync(new URL('../../../Web/i18n/de.json', import.meta.url), 'utf8'));

/** Angles agree within 1e-9° (modulo 360 for an azimuth). */
function near(actual, expected, message, modulo = 0) {
  let difference = actual - expected;
  if (modulo) difference = ((difference % modulo) + modulo + modulo / 2) % modulo - modulo / 2;
  assert.ok(Math.abs(difference) < 1e-9, `${message}: ${actual} is not ${expected}`);
}

function direction(alpha, beta, gamma, screen = 0) {
  const found = cameraDirection(alpha, beta, gamma, screen);
  assert.ok(found, `a direction for ${alpha}, ${beta}, ${gamma}`);
  return found;
}

test('a phone held upright looks along the horizon, where alpha turns it (anticlockwise from north)', () => {
  const north = direction(0, 90, 0);
  near(north.azimuth, 0, 'facing north', 360);
  near(north.tilt, 0, 'level');
  assert.equal(north.vertical, false);
  near(direction(270, 90, 0).azimuth, 90, 'facing east');
  near(direction(90, 90, 0).azimuth, 270, 'facing west');
  near(direction(180, 90, 0).azimuth, 180, 'facing south');
  near(direction(315, 90, 0).azimuth, 45, 'facing north-east');
});

test('tilting the top of the phone back raises the camera: beta 120° looks 30° up, beta 60° 30° down', () => {
  const up = direction(0, 120, 0);
  near(up.tilt, 30, 'tilted up 30°');
  near(up.azimuth, 0, 'still north', 360);
  const down = direction(270, 60, 0);
  near(down.tilt, -30, 'tilted down 30°');
  near(down.azimuth, 90, 'still east');
});

test('lying flat, screen up, the camera looks straight down; the azimuth is where the top of the screen points', () => {
  const flat = direction(0, 0, 0);
  near(flat.tilt, -90, 'straight down');
  assert.equal(flat.vertical, true);
  near(flat.azimuth, 0, 'top to the north', 360);
  near(direction(90, 0, 0).azimuth, 270, 'top to the west');
  // Screen down (beta 180°): the camera looks straight up.
  near(direction(0, 180, 0).tilt, 90, 'straight up');
});

test('held in landscape (gamma −90°, screen turned 90°) the camera looks where it looks; the screen angle changes nothing', () => {
  const landscape = direction(90, 0, -90, 90);
  near(landscape.tilt, 0, 'level');
  near(landscape.azimuth, 0, 'north', 360);
  for (const [alpha, beta, gamma] of [[10, 80, 20], [200, 100, -30], [33, 45, 60]]) {
    const portrait = direction(alpha, beta, gamma, 0);
    for (const screen of [90, 180, 270, -90]) {
      const turned = direction(alpha, beta, gamma, screen);
      near(turned.azimuth, portrait.azimuth, `azimuth with the screen at ${screen}°`, 360);
      near(turned.tilt, portrait.tilt, `tilt with the screen at ${screen}°`);
    }
  }
  // Looking straight down, the top of what the user sees gives the azimuth: a quarter turn of the screen.
  near(direction(0, 0, 0, 90).azimuth, 90, 'flat with its top to the north and the screen turned 90°: the top of the picture (the phone’s right side) points east', 360);
});

test('agrees with the W3C spec’s compass heading everywhere it is defined, and stays finite at gimbal lock', () => {
  for (let alpha = 0; alpha < 360; alpha += 37) {
    for (let beta = -180; beta < 180; beta += 23) {
      for (let gamma = -90; gamma < 90; gamma += 19) {
        const found = direction(alpha, beta, gamma);
        const expected = compassHeading(alpha, beta, gamma);
        if (!found.vertical && expected !== null) near(found.azimuth, expected, `azimuth at ${alpha}, ${beta}, ${gamma}`, 360);
        assert.ok(found.azimuth >= 0 && found.azimuth < 360 && found.tilt >= -90 && found.tilt <= 90);
      }
    }
  }
  // beta = 90° is the gimbal lock of the Z-X'-Y'' angles (alpha and gamma turn about the same
  // axis); the camera's direction is still well defined: alpha + gamma decides it.
  const locked = direction(40, 90, 25);
  near(locked.tilt, 0, 'level at gimbal lock');
  near(locked.azimuth, 360 - 40 - 25, 'alpha + gamma at gimbal lock', 360);
  const nearly = direction(40, 90 - 1e-7, 25);
  near(nearly.azimuth, locked.azimuth, 'continuous next to gimbal lock', 360);
  // Next to straight down the azimuth is still read from the camera's own tiny horizontal part.
  const almostDown = direction(0, 1e-4, 0);
  assert.equal(almostDown.vertical, false);
  near(almostDown.azimuth, 0, 'just off straight down, looking north', 360);
  assert.equal(cameraDirection(null, 90, 0), null);
  assert.equal(cameraDirection(0, Number.NaN, 0), null);
});

test('only an absolute alpha is used: deviceorientationabsolute’s, or 360° − Safari’s compass heading', () => {
  assert.equal(absoluteAlpha({ alpha: 12, absolute: true }), 12);
  assert.equal(absoluteAlpha({ alpha: 12, absolute: false }), null);
  assert.equal(absoluteAlpha({ alpha: 12, absolute: false, webkitCompassHeading: 90 }), 270);
  assert.equal(absoluteAlpha({ alpha: 12, webkitCompassHeading: 0 }), 0);
  assert.equal(absoluteAlpha({ alpha: null, absolute: true }), null);
});

test('motion: acceleration without gravity as it is, with gravity its distance from 9.80665 m/s²', () => {
  assert.equal(motionMagnitude({ acceleration: { x: 3, y: 4, z: 0 } }), 5);
  assert.equal(motionMagnitude({ acceleration: { x: null, y: null, z: null }, accelerationIncludingGravity: { x: 0, y: 0, z: GRAVITY + 0.5 } }), 0.5);
  assert.ok(Math.abs(motionMagnitude({ accelerationIncludingGravity: { x: 0, y: GRAVITY, z: 0 } })) < 1e-12);
  assert.equal(motionMagnitude({}), null);
  assert.equal(motionMagnitude({ acceleration: null, accelerationIncludingGravity: null }), null);
});

/** Samples every `step` ms from `from` to `to` with `magnitude` (a function of time or a number). */
function record(samples, from, to, step, magnitude) {
  let kept = samples;
  for (let time = from; time <= to; time += step) {
    kept = addMotionSample(kept, { time, magnitude: typeof magnitude === 'function' ? magnitude(time) : magnitude });
  }
  return kept;
}

test('still means every sample of the last 2 s under the threshold, with samples covering those 2 s', () => {
  const threshold = 0.6;
  assert.equal(stillness([], 1000, threshold), 'none');
  let samples = record([], 0, 1500, 20, 0.1);
  assert.equal(stillness(samples, 1500, threshold), 'settling', 'only 1.5 s of data');
  samples = record(samples, 1520, 2100, 20, 0.1);
  assert.equal(stillness(samples, 2100, threshold), 'still');
  // A jolt makes it moving for the next 2 s, then still again.
  samples = record(samples, 2120, 2120, 20, 1.2);
  samples = record(samples, 2140, 4100, 20, 0.1);
  assert.equal(stillness(samples, 2200, threshold), 'moving');
  assert.equal(stillness(samples, 4100, threshold), 'moving', '1.98 s after the jolt');
  samples = record(samples, 4120, 4200, 20, 0.1);
  assert.equal(stillness(samples, 4200, threshold), 'still', 'over 2 s after the jolt');
  assert.equal(stillness(samples, 4200, 0.1), 'moving', 'at the threshold is not under it');
  // The sensor stops: no motion data; a gap inside the 2 s is not still either.
  assert.equal(stillness(samples, 4800, threshold), 'none');
  const gapped = record(record([], 0, 1000, 20, 0.1), 1700, 3800, 20, 0.1);
  assert.equal(stillness(gapped, 2500, threshold), 'settling', 'a 0.7 s gap inside the last 2 s');
  assert.equal(stillness(gapped, 3600, threshold), 'settling', 'the gap still reaches into the last 2 s');
  assert.equal(stillness(gapped, 3700, threshold), 'still', 'the gap is over 2 s ago');
  // Only what is needed is kept.
  assert.ok(samples.every((sample) => sample.time >= 4200 - STILL_MS - 500));
});

const BASE = { latitude: 46.05, longitude: 14.5 };
/** The i-th of n fixes spread round BASE (a few metres), one second apart. */
function fixes(n, accuracy = 4) {
  return Array.from({ length: n }, (_, i) => ({
    latitude: BASE.latitude + 0.00003 * Math.cos(i * 2.1), longitude: BASE.longitude + 0.00004 * Math.sin(i * 1.3),
    altitude: 300 + i, accuracy, time: 1_700_000_000_000 + i * 1000, source: /** @type {'device'} */ ('device'),
  }));
}

test('the centroid window: samples n/N, and the hull centroid of the last N fixes once n = N', () => {
  const all = fixes(14);
  const partial = centroidWindow(all.slice(0, 7), 10);
  assert.deepEqual(partial, { samples: 7, total: 10, complete: false, centroid: null });
  const full = centroidWindow(all, 10);
  assert.equal(full.samples, 10);
  assert.equal(full.complete, true);
  const expected = hullCentroid(all.slice(4));
  assert.ok(expected.ok);
  assert.equal(full.centroid?.latitude, expected.latitude);
  assert.equal(full.centroid?.longitude, expected.longitude);
  assert.equal(full.centroid?.samples, 10);
  const lats = all.slice(4).map((f) => f.latitude), lons = all.slice(4).map((f) => f.longitude);
  assert.ok(full.centroid.latitude > Math.min(...lats) && full.centroid.latitude < Math.max(...lats));
  assert.ok(full.centroid.longitude > Math.min(...lons) && full.centroid.longitude < Math.max(...lons));
});

test('readiness names what is missing, always in the same order, as keys both languages have', () => {
  const last = fixes(10)[9];
  const settings = { centroid: true, accuracy: 10 };
  const keys = (state) => readiness(state).map((missing) => missing.key);
  const now = last.time + 1000;
  assert.deepEqual(keys({ camera: false, fix: null, now, settings, motion: 'none', collected: centroidWindow([], 10) }),
    ['camera.missing.camera', 'camera.missing.fix', 'camera.missing.motion', 'camera.missing.centroid']);
  const poor = readiness({ camera: true, fix: { ...last, accuracy: 25.04 }, now, settings, motion: 'moving', collected: centroidWindow(fixes(3), 10) });
  assert.deepEqual(poor, [
    { key: 'camera.missing.accuracy', params: { accuracy: 25, limit: 10 } },
    { key: 'camera.missing.moving' },
    { key: 'camera.missing.centroid', params: { samples: 3, total: 10 } }]);
  assert.deepEqual(keys({ camera: true, fix: last, now, settings, motion: 'settling', collected: centroidWindow(fixes(10), 10) }), ['camera.missing.settling']);
  assert.deepEqual(readiness({ camera: true, fix: last, now, settings, motion: 'still', collected: centroidWindow(fixes(10), 10) }), []);
  assert.deepEqual(readiness({ camera: true, fix: last, now, settings: { centroid: false, accuracy: 10 }, motion: 'still', collected: null }), [], 'the centroid off');
  assert.deepEqual(keys({ camera: true, fix: last, now: last.time + FIX_MAX_AGE_MS + 1, settings, motion: 'still', collected: centroidWindow(fixes(10), 10) }),
    ['camera.missing.fix'], 'a position over 30 s old is none');
  for (const key of ['camera.missing.camera', 'camera.missing.fix', 'camera.missing.accuracy', 'camera.missing.moving',
    'camera.missing.settling', 'camera.missing.motion', 'camera.missing.centroid']) {
    assert.ok(en[key] && de[key], `${key} in en.json and de.json`);
  }
});

test('the countdown: 5, 4, … 1 seconds left, then take; any failing condition rejects it with that reason', () => {
  const start = 10_000;
  assert.deepEqual(countdownStep(start, start, []), { state: 'counting', secondsLeft: 5 });
  assert.deepEqual(countdownStep(start, start + 999, []), { state: 'counting', secondsLeft: 5 });
  assert.deepEqual(countdownStep(start, start + 1000, []), { state: 'counting', secondsLeft: 4 });
  assert.deepEqual(countdownStep(start, start + 4999, []), { state: 'counting', secondsLeft: 1 });
  assert.deepEqual(countdownStep(start, start + COUNTDOWN_MS, []), { state: 'take' });
  const moving = { key: 'camera.missing.moving' };
  assert.deepEqual(countdownStep(start, start + 3000, [moving, { key: 'camera.missing.centroid' }]), { state: 'rejected', reason: moving });
  assert.deepEqual(countdownStep(start, start + 6000, [moving]), { state: 'rejected', reason: moving }, 'a failure at the last tick still rejects');
});

// The server's pattern for `centroid` (Sources/WaymarkServer/OpenAPI/OpenAPIDocument.swift).
const CENTROID = /^\{"latitude":-?(90(\.0+)?|[1-8]?[0-9](\.[0-9]+)?),"longitude":-?(180(\.0+)?|(1[0-7][0-9]|[1-9]?[0-9])(\.[0-9]+)?),"samples":([1-9][0-9]{0,2}|1000)\}$/;

test('plain decimals: no exponent, no trailing zeros, no −0', () => {
  assert.equal(plainDecimal(1e-7, 9), '0.0000001');
  assert.equal(plainDecimal(-1e-12, 9), '0');
  assert.equal(plainDecimal(46.5, 9), '46.5');
  assert.equal(plainDecimal(-180, 9), '-180');
  assert.equal(plainDecimal(12.3456789012, 9), '12.345678901');
});

test('the centroid field matches the server’s pattern exactly, for awkward values too', () => {
  const cases = [
    [{ latitude: 46.0512345678, longitude: 14.5098765432, samples: 10 }, '{"latitude":46.051234568,"longitude":14.509876543,"samples":10}'],
    [{ latitude: -0.00000001, longitude: 1e-7, samples: 2 }, '{"latitude":-0.00000001,"longitude":0.0000001,"samples":2}'],
    [{ latitude: -90, longitude: 180, samples: 1000 }, '{"latitude":-90,"longitude":180,"samples":1000}'],
    [{ latitude: 89.9999999999, longitude: -179.9999999999, samples: 100 }, '{"latitude":90,"longitude":-180,"samples":100}'],
    [{ latitude: 5e-13, longitude: -3e-10, samples: 7 }, '{"latitude":0,"longitude":0,"samples":7}'],
  ];
  for (const [centroid, text] of cases) {
    assert.equal(centroidField(centroid), text);
    assert.match(text, CENTROID);
    const read = JSON.parse(text);
    assert.ok(Math.abs(read.latitude - centroid.latitude) <= 5e-10 && Math.abs(read.longitude - centroid.longitude) <= 5e-10);
  }
});

test('the upload fields of a photo: time, place, accuracy, direction, private, centroid', () => {
  const fix = { latitude: 46.05, longitude: 14.5, altitude: 301.256, accuracy: 3.96, time: 0, source: /** @type {'device'} */ ('device') };
  const window = centroidWindow(fixes(10), 10);
  const fields = uploadFields({ takenAt: Date.UTC(2026, 10, 25, 7, 0, 0), fix, direction: { azimuth: 359.998, tilt: -12.3456, vertical: false }, centroid: window.centroid });
  assert.deepEqual(Object.keys(fields).sort(), ['accuracy', 'altitude', 'azimuth', 'capturedAt', 'centroid', 'latitude', 'longitude', 'tilt', 'visibility']);
  assert.equal(fields.capturedAt, '2026-11-25T07:00:00.000Z');
  assert.equal(fields.latitude, '46.05');
  assert.equal(fields.longitude, '14.5');
  assert.equal(fields.altitude, '301.26');
  assert.equal(fields.accuracy, '4');
  assert.equal(fields.azimuth, '0', '359.998° rounds to 360°, which is north');
  assert.equal(fields.tilt, '-12.35');
  assert.equal(fields.visibility, 'private');
  assert.match(fields.centroid, CENTROID);
  assert.equal(JSON.parse(fields.centroid).samples, 10);
  const bare = uploadFields({ takenAt: 0, fix: { ...fix, altitude: null }, direction: null, centroid: null });
  assert.deepEqual(Object.keys(bare).sort(), ['accuracy', 'capturedAt', 'latitude', 'longitude', 'visibility'], 'no altitude, direction or centroid when unknown');
  assert.equal(uploadFields({ takenAt: 0, fix: { ...fix, altitude: 200000 }, direction: null, centroid: null }).altitude, undefined, 'out of the server’s range');
});

test('the azimuth becomes true north: the magnetic one plus the WMM declination at the fix (pygeomag: 15.0656° at the Space Needle, 2025.25)', () => {
  const table = JSON.parse(readFileSync(new URL('../../Conformance/declination/declination.json', import.meta.url), 'utf8'));
  const needle = table.published[0];
  const at = Date.UTC(2025, 3, 2, 6); // 2025.25
  const magnetic = { azimuth: 350, tilt: 5, vertical: false };
  const fix = { latitude: needle.latitude, longitude: needle.longitude, altitude: null };
  const north = trueDirection(magnetic, fix, at);
  assert.ok(north);
  near(north.azimuth, (350 + needle.published) % 360, 'true azimuth', 360);
  assert.ok(Math.abs(north.azimuth - 5.0656) < 1e-3, `wrapped past north: ${north.azimuth}`);
  assert.equal(north.tilt, 5);
  assert.equal(uploadFields({ takenAt: at, fix: { ...fix, accuracy: 3, time: at, source: 'device' }, direction: north, centroid: null }).azimuth, '5.07');
  assert.equal(trueDirection(magnetic, null, at), null, 'no fix yet: not known, rather than magnetic');
  assert.equal(trueDirection(null, fix, at), null);
  assert.equal(trueDirection(magnetic, { latitude: 90, longitude: 0, altitude: 0 }, at), null, 'no declination at the pole');
});
