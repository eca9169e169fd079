// The inspection settings as the settings page reads them (Web/inspection/settings.js): a
// number written with a comma or a point is kept; anything out of range or not a number is
// refused with the message for that field, and nothing is kept; a damaged stored entry falls back
// to the defaults the seed's SET DEFAULT VALUES restores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSettingsForm, normalizeSettings, DEFAULTS, SAMPLES_RANGE } from '../../../Web/inspection/settings.js';

const GOOD = { centroid: true, samples: '25', accuracy: '7,5', stillness: '0.4' };

test('a filled-in form is read as the settings, a decimal comma as a point', () => {
  assert.deepEqual(readSettingsForm(GOOD), { settings: { centroid: true, samples: 25, accuracy: 7.5, stillness: 0.4 } });
  assert.deepEqual(readSettingsForm({ ...GOOD, centroid: false, samples: ' 2 ', accuracy: '1000', stillness: '20' }),
    { settings: { centroid: false, samples: 2, accuracy: 1000, stillness: 20 } });
  assert.equal(/** @type {any} */ (readSettingsForm({ ...GOOD, samples: '100' })).settings.samples, SAMPLES_RANGE.max);
});

test('wrong numbers are refused field by field with their own message', () => {
  for (const samples of ['1', '101', '10.5', '', 'ten', '0x10', '1e1', '-5']) {
    assert.deepEqual(readSettingsForm({ ...GOOD, samples }), { errors: { samples: 'inspection.settings.samples.invalid' } }, `samples ${samples}`);
  }
  for (const accuracy of ['0', '-1', '1000.5', 'Infinity', '', '5 m']) {
    assert.deepEqual(readSettingsForm({ ...GOOD, accuracy }), { errors: { accuracy: 'inspection.settings.accuracy.invalid' } }, `accuracy ${accuracy}`);
  }
  for (const stillness of ['0', '20.1', 'NaN', ',']) {
    assert.deepEqual(readSettingsForm({ ...GOOD, stillness }), { errors: { stillness: 'inspection.settings.stillness.invalid' } }, `stillness ${stillness}`);
  }
  assert.deepEqual(Object.keys(/** @type {any} */ (readSettingsForm({ centroid: true, samples: '0', accuracy: '0', stillness: '0' })).errors).sort(),
    ['accuracy', 'samples', 'stillness']);
});

test('the defaults are the seed app\'s: centroid off, 10 samples; a damaged entry gives them back', () => {
  assert.deepEqual({ ...DEFAULTS }, { centroid: false, samples: 10, accuracy: 10, stillness: 0.6 });
  assert.deepEqual(normalizeSettings(null), { ...DEFAULTS });
  assert.deepEqual(normalizeSettings({ centroid: 'yes', samples: 1000, accuracy: -3, stillness: 'still' }), { ...DEFAULTS });
  assert.deepEqual(normalizeSettings({ centroid: true, samples: 12, accuracy: 4, stillness: 1 }), { centroid: true, samples: 12, accuracy: 4, stillness: 1 });
});
