// Web/scenes/capture.js' pure parts: the capture time with the phone's zone, and the metadata
// of a scene or rephotograph as the server's SceneMetadata reads it (the moved pin wins over
// the fix; a moment without an attitude cannot be a scene photo).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webModule } from './helpers.mjs';

const { capturedAtText, metadataOf, exifFieldsOf } = await webModule('/scenes/capture.js');

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
