// Web/inspection/declination.js (the WMM2025 magnetic declination that turns the cameras' magnetic
// compass into true north) against pygeomag, a port of NOAA's geomag program nobody here wrote:
// Tests/Conformance/declination/declination.json, written by
// Tests/Reference/declination_reference.py generate. Strict: a missing file, an unknown key or
// an empty list fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './helpers.mjs';
import { magneticDeclination, decimalYear, trueFromMagnetic } from '../../../Web/inspection/declination.js';
import { WMM_COEFFICIENTS, WMM_MODEL } from '../../../Web/inspection/wmm2025.js';

const TABLE = join(REPO, 'Tests', 'Conformance', 'declination', 'declination.json');
const CASE_KEYS = ['latitude', 'longitude', 'altitude', 'year', 'declination'];

function table() {
  assert.ok(existsSync(TABLE), `${TABLE} is missing`);
  const data = JSON.parse(readFileSync(TABLE, 'utf8'));
  strictKeys(data, ['title', 'note', 'model', 'within', 'samples', 'outside', 'published'], [], 'declination.json');
  for (const key of ['samples', 'outside', 'published']) assert.ok(Array.isArray(data[key]) && data[key].length > 0, `no ${key}`);
  return data;
}

function strictKeys(object, required, optional, where) {
  assert.ok(object && typeof object === 'object' && !Array.isArray(object), `${where}: expected an object`);
  for (const key of Object.keys(object)) assert.ok(required.includes(key) || optional.includes(key), `${where}: unknown key "${key}"`);
  for (const key of required) assert.ok(key in object, `${where}: missing key "${key}"`);
}

/** The smallest angle between two directions, degrees. */
function apart(a, b) {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

function check(c, within, outsideModel, where) {
  const result = magneticDeclination(c.latitude, c.longitude, c.altitude, c.year);
  assert.ok(result.ok, `${where}: refused ${JSON.stringify(result)}`);
  assert.ok(apart(result.value.declination, c.declination) <= within,
    `${where}: ${result.value.declination}° where pygeomag says ${c.declination}°`);
  assert.equal(result.value.outsideModel, outsideModel, `${where}: outsideModel`);
}

test('the table is the model the app ships', () => {
  const data = table();
  assert.equal(data.model, WMM_MODEL);
  assert.equal(WMM_COEFFICIENTS.length, 90, 'degree 12: 90 rows (n = 1…12, m = 0…n)');
  assert.ok(data.within <= 0.01);
});

test('at least 500 places and dates over the globe and the model\'s years agree with pygeomag within 0.01°', () => {
  const data = table();
  assert.ok(data.samples.length >= 500, `only ${data.samples.length} samples`);
  const hemispheres = new Set(), years = new Set();
  for (const [i, c] of data.samples.entries()) {
    strictKeys(c, CASE_KEYS, [], `samples[${i}]`);
    check(c, data.within, false, `samples[${i}]`);
    hemispheres.add(`${Math.sign(c.latitude)}${Math.sign(c.longitude)}`);
    years.add(Math.floor(c.year));
  }
  assert.equal(hemispheres.size, 4, 'samples in all four quarters of the globe');
  assert.deepEqual([...years].sort(), [2025, 2026, 2027, 2028, 2029], 'samples in every year of the model');
});

test('dates outside 2025.0–2030.0 are still computed, and flagged', () => {
  const data = table();
  for (const [i, c] of data.outside.entries()) {
    strictKeys(c, CASE_KEYS, [], `outside[${i}]`);
    check(c, data.within, true, `outside[${i}]`);
  }
});

test('pygeomag\'s documented example (the Space Needle, 2025.25)', () => {
  const data = table();
  for (const c of data.published) {
    strictKeys(c, [...CASE_KEYS, 'published'], [], 'published');
    check({ ...c, declination: c.published }, 1e-6, false, 'published');
  }
});

test('a Date is turned into its decimal year, UTC', () => {
  assert.equal(decimalYear(new Date(Date.UTC(2026, 0, 1))), 2026);
  assert.equal(decimalYear(Date.UTC(2028, 6, 2)), 2028 + 183 / 366, 'a leap year has 366 days');
  const fromDate = magneticDeclination(47.6205, -122.3493, 0, new Date(Date.UTC(2025, 3, 2, 6)));
  const fromYear = magneticDeclination(47.6205, -122.3493, 0, decimalYear(Date.UTC(2025, 3, 2, 6)));
  assert.ok(fromDate.ok && fromYear.ok);
  assert.equal(fromDate.value.declination, fromYear.value.declination);
  assert.ok(Number.isNaN(decimalYear(new Date('not a date'))));
});

test('what it cannot use is refused with the reason', () => {
  const when = 2026.5;
  assert.deepEqual(magneticDeclination(NaN, 8, 0, when), { ok: false, error: { kind: 'invalidLatitude' } });
  assert.deepEqual(magneticDeclination(91, 8, 0, when), { ok: false, error: { kind: 'invalidLatitude' } });
  assert.deepEqual(magneticDeclination(47, NaN, 0, when), { ok: false, error: { kind: 'invalidLongitude' } });
  assert.deepEqual(magneticDeclination(47, 181, 0, when), { ok: false, error: { kind: 'invalidLongitude' } });
  assert.deepEqual(magneticDeclination(47, 8, NaN, when), { ok: false, error: { kind: 'invalidAltitude' } });
  assert.deepEqual(magneticDeclination(47, 8, 0, NaN), { ok: false, error: { kind: 'invalidDate' } });
  assert.deepEqual(magneticDeclination(47, 8, 0, new Date('not a date')), { ok: false, error: { kind: 'invalidDate' } });
  assert.deepEqual(magneticDeclination(90, 8, 0, when), { ok: false, error: { kind: 'pole' } });
  assert.deepEqual(magneticDeclination(-90, 8, 0, when), { ok: false, error: { kind: 'pole' } });
});

test('a magnetic reading becomes a true one, wrapped into 0…360', () => {
  assert.equal(trueFromMagnetic(10, 3.5), 13.5);
  assert.equal(trueFromMagnetic(358, 15), 13);
  assert.equal(trueFromMagnetic(5, -15), 350);
  assert.equal(trueFromMagnetic(345, 15), 0);
});
