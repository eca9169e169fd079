// Web/scenes/compare.js: the navigation rectangle sits in the middle when the phone is held as
// for the reference and moves by eq. 4.17's amount when it is not; the comparison slider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webModule } from './helpers.mjs';

const { rectangleOnView, sliderFraction, comparisonLayers, MATCH_FRACTION } = await webModule('/scenes/compare.js');
const { fromDeviceOrientation } = await webModule('/scenes/attitude.js');

test('the rectangle is centred when the attitude is the reference\'s', () => {
  const reference = fromDeviceOrientation(300, 95, 4, 0);
  const on = rectangleOnView(reference, fromDeviceOrientation(300, 95, 4, 0), 390, 520);
  assert.ok(Math.abs(on.x - 195) < 1e-6 && Math.abs(on.y - 260) < 1e-6, JSON.stringify(on));
  assert.equal(on.matched, true);
});

test('turning the upright phone 18° moves the rectangle by 18/360 of the width', () => {
  // Upright (beta 90), turning about the world's vertical is the device's y axis: eq. 4.17's ROLL.
  const reference = fromDeviceOrientation(300, 90, 0, 0);
  const turned = fromDeviceOrientation(282, 90, 0, 0);
  const on = rectangleOnView(reference, turned, 360, 480);
  assert.ok(Math.abs(Math.abs(on.dx) - 18) < 1e-6, `dx ${on.dx}`);
  assert.ok(Math.abs(on.dy) < 1e-6, `dy ${on.dy}`);
  assert.equal(on.matched, false);
});

test('tilting 9° up or down moves it by 9/180 of the height', () => {
  const reference = fromDeviceOrientation(10, 80, 0, 0);
  const on = rectangleOnView(reference, fromDeviceOrientation(10, 89, 0, 0), 360, 720);
  assert.ok(Math.abs(Math.abs(on.dy) - 36) < 1e-6, `dy ${on.dy}`);
  assert.ok(Math.abs(on.dx) < 1e-6, `dx ${on.dx}`);
});

test('a small difference still counts as matching, a larger one not', () => {
  const reference = fromDeviceOrientation(0, 90, 0, 0);
  const limit = MATCH_FRACTION * 360; // px on a 360 × 640 view, i.e. 7.2 px = 7.2° of turn
  assert.equal(rectangleOnView(reference, fromDeviceOrientation(limit - 0.5, 90, 0, 0), 360, 640).matched, true);
  assert.equal(rectangleOnView(reference, fromDeviceOrientation(limit + 0.5, 90, 0, 0), 360, 640).matched, false);
});

test('the slider gives an opacity or a split, clamped', () => {
  assert.equal(sliderFraction('25'), 0.25);
  assert.equal(sliderFraction(140), 1);
  assert.equal(sliderFraction(''), 0.5);
  assert.deepEqual(comparisonLayers('overlay', '30'), { opacity: 0.3, split: 0 });
  assert.deepEqual(comparisonLayers('wipe', '30'), { opacity: 1, split: 0.3 });
});
