// The traffic lights of the inspection main screen (Web/inspection/status.js), as seed 003
// describes them: location green with fixes and red when refused or unavailable; the others green
// when the phone has the property, yellow when not or not yet known; each with its own sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lights, locationFromError, hasSensorData, cameraFromDevices } from '../../../Web/inspection/status.js';

/** @type {import('../../../Web/inspection/status.js').Observations} */
const START = { location: 'waiting', accuracy: null, threshold: 10, motion: 'waiting', camera: 'unknown', online: true, serviceWorker: 'installing' };

/** name → colour. @param {Partial<typeof START>} change */
const colours = (change = {}) => Object.fromEntries(lights({ ...START, ...change }).map((light) => [light.name, light.colour]));
/** @param {Partial<typeof START>} change @param {string} name */
const light = (change, name) => lights({ ...START, ...change }).find((l) => l.name === name);

test('before anything is known every light is yellow except online; six lights in the seed\'s order', () => {
  assert.deepEqual(lights(START).map((l) => l.name), ['location', 'accuracy', 'motion', 'camera', 'online', 'serviceWorker']);
  assert.deepEqual(colours(), { location: 'yellow', accuracy: 'yellow', motion: 'yellow', camera: 'yellow', online: 'green', serviceWorker: 'yellow' });
  assert.equal(light({}, 'location')?.key, 'inspection.light.location.waiting');
  assert.equal(light({}, 'accuracy')?.key, 'inspection.light.accuracy.unknown');
});

test('location: green with fixes, red when refused, unavailable or timed out (the geolocation error codes)', () => {
  assert.equal(colours({ location: 'fix' }).location, 'green');
  assert.equal(locationFromError(1), 'denied');
  assert.equal(locationFromError(2), 'unavailable');
  assert.equal(locationFromError(3), 'timeout');
  for (const code of [1, 2, 3]) assert.equal(colours({ location: locationFromError(code) }).location, 'red');
  assert.equal(light({ location: 'denied' }, 'location')?.key, 'inspection.light.location.denied');
  // Red is for the location only: nothing else can be red.
  const others = lights({ ...START, location: 'denied', online: false, motion: 'absent', camera: 'none', serviceWorker: 'unsupported' })
    .filter((l) => l.name !== 'location');
  assert.ok(others.every((l) => l.colour === 'yellow'), JSON.stringify(others));
});

test('accuracy: green within the threshold (inclusive), yellow above it, shown to a tenth rounded up', () => {
  assert.deepEqual(light({ accuracy: 10, threshold: 10 }, 'accuracy'), { name: 'accuracy', colour: 'green', key: 'inspection.light.accuracy.good', params: { accuracy: 10, threshold: 10 } });
  assert.deepEqual(light({ accuracy: 10.04, threshold: 10 }, 'accuracy'), { name: 'accuracy', colour: 'yellow', key: 'inspection.light.accuracy.poor', params: { accuracy: 10.1, threshold: 10 } });
  assert.equal(light({ accuracy: 2.8000000000000003, threshold: 5 }, 'accuracy')?.params.accuracy, 2.8);
  assert.equal(colours({ accuracy: 35, threshold: 50 }).accuracy, 'green');
  assert.equal(colours({ accuracy: Number.NaN }).accuracy, 'yellow');
});

test('motion, camera, online and the service worker: green when present, yellow otherwise, each with its words', () => {
  assert.equal(colours({ motion: 'seen' }).motion, 'green');
  assert.equal(light({ motion: 'absent' }, 'motion')?.key, 'inspection.light.motion.absent');
  assert.equal(colours({ camera: 'present' }).camera, 'green');
  assert.equal(light({ camera: 'none' }, 'camera')?.key, 'inspection.light.camera.none');
  assert.equal(colours({ online: false }).online, 'yellow');
  assert.equal(light({ online: false }, 'online')?.key, 'inspection.light.online.no');
  assert.equal(colours({ serviceWorker: 'ready' }).serviceWorker, 'green');
  assert.equal(light({ serviceWorker: 'unsupported' }, 'serviceWorker')?.key, 'inspection.light.serviceWorker.unsupported');
  const keys = new Set(lights({ ...START, location: 'fix', accuracy: 3, motion: 'seen', camera: 'present', serviceWorker: 'ready' }).map((l) => l.key));
  assert.equal(keys.size, 6);
  assert.ok([...lights(START)].every((l) => l.key.startsWith('inspection.light.')));
});

test('sensor events count only with a reading; a camera only as a video input', () => {
  assert.equal(hasSensorData({ acceleration: { x: null }, accelerationIncludingGravity: { x: null }, rotationRate: { alpha: null } }), false);
  assert.equal(hasSensorData({ alpha: null, beta: null }), false);
  assert.equal(hasSensorData({}), false);
  assert.equal(hasSensorData({ accelerationIncludingGravity: { x: 0.1 } }), true);
  assert.equal(hasSensorData({ alpha: 0, beta: 90 }), true);
  assert.equal(hasSensorData({ rotationRate: { alpha: 0 } }), true);
  assert.equal(cameraFromDevices(null), 'unknown');
  assert.equal(cameraFromDevices([]), 'none');
  assert.equal(cameraFromDevices([{ kind: 'audioinput' }, { kind: 'audiooutput' }]), 'none');
  assert.equal(cameraFromDevices([{ kind: 'audioinput' }, { kind: 'videoinput' }]), 'present');
});
