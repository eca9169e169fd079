// Web/scenes/capture.js' pure parts: the capture time with the phone's zone, and the metadata
// of a scene or rephotograph as the server's SceneMetadata reads it (the moved pin wins over
// the fix; a moment without an attitude cannot be a scene photo).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webModule } from './helpers.mjs';

const { capturedAtText, metadataOf, exifFieldsOf, trueHeading } = await webModule('/scenes/capture.js');

const attitude = { w: 0.5, x: 0.5, y: 0.5, z: 0.5 };
const fix = { latitude: 49.2, longitude: 16.6, altitude: 230, accuracy: 6, time: 0, source: 'device' };
const moment = { takenAt: Date.UTC(2026, 10, 25, 6, 30, 0, 125), zoneOffsetMinutes: 60, fix, attitude, heading: 271.5 };

test('the capture time keeps the phone\'s zone', () => {
  assert.equal(capturedAtText(moment.takenAt, 60), '2026-11-25T07:30:00.125+01:00');
  assert.equal(capturedAtText(moment.takenAt, -210), '2026-11-25T03:00:00.125-03:30');
  assert.equal(capturedAtText(moment.takenAt, 0), '2026-11-25T06:30:00.125+00:00');
});

test('a scene\'s metadata has the moved pin, the name and the moment\'s attitude and heading', () => {
  const metadata = metadataOf(moment, { name: '  Old mill  ', place: { latitude: 49.21, longitude: 16.62 } });
  assert.deepEqual(metadata, {
    capturedAt: '2026-11-25T07:30:00.125+01:00', attitude, heading: 271.5,
    latitude: 49.21, longitude: 16.62, name: 'Old mill',
  });
});

test('a rephotograph\'s metadata has the fix and its accuracy; without a fix no place', () => {
  assert.deepEqual(metadataOf(moment), { capturedAt: '2026-11-25T07:30:00.125+01:00', attitude, heading: 271.5, latitude: 49.2, longitude: 16.6, accuracy: 6 });
  const bare = metadataOf({ ...moment, fix: null, heading: null });
  assert.equal('latitude' in bare, false);
  assert.equal(bare.heading, null);
  assert.throws(() => metadataOf({ ...moment, attitude: null }), /attitude/);
});

test('the Exif fields follow the pin when it was moved, the altitude stays the fix\'s', () => {
  const moved = exifFieldsOf(moment, { latitude: 49.21, longitude: 16.62 });
  assert.equal(moved.latitude, 49.21);
  assert.equal(moved.altitude, 230);
  assert.equal(moved.accuracy, null);
  assert.equal(exifFieldsOf(moment).accuracy, 6);
});

test('the heading is against true north: the compass plus the WMM declination at the fix (pygeomag\'s values)', async () => {
  const { readFileSync } = await import('node:fs');
  const table = JSON.parse(readFileSync(new URL('../../Conformance/declination/declination.json', import.meta.url), 'utf8'));
  // A sample of pygeomag's table, at its own date.
  const c = table.samples.find((s) => Math.abs(s.declination) > 5 && Math.abs(s.latitude) < 60);
  const year = Math.floor(c.year), start = Date.UTC(year, 0, 1), end = Date.UTC(year + 1, 0, 1);
  const at = start + (c.year - year) * (end - start);
  const place = { latitude: c.latitude, longitude: c.longitude, altitude: c.altitude };
  const heading = trueHeading(100, place, at);
  assert.ok(heading !== null && Math.abs(heading - (100 + c.declination)) < 1e-6, `${heading} for ${100 + c.declination}`);
  assert.equal(trueHeading(100, null, at), null, 'no fix: not known, rather than magnetic');
  assert.equal(trueHeading(null, place, at), null);
  assert.equal(trueHeading(100, { latitude: -90, longitude: 0, altitude: null }, at), null, 'no declination at the pole');
});
