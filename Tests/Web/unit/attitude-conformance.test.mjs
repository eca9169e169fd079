// The attitude cases (Tests/Conformance/attitude/*.json, written by Tests/Reference/attitude_reference.py
// from scipy's rotation matrices) run against the browser's Web/scenes/attitude.js.
// AttitudeConformanceTests.swift runs the same files against WaymarkCore.
// Strict on purpose: a missing or empty folder, an unknown or missing key fails, never passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './helpers.mjs';
import {
  fromDeviceOrientation, quaternion, delta, roll, pitch, yaw, levelTilt, compassHeading, rectangleCentre,
  navigationRectangleCentre, negate, multiply, inverse, IDENTITY,
} from '../../../Web/scenes/attitude.js';

const FOLDER = join(REPO, 'Tests', 'Conformance', 'attitude');

class CaseError extends Error {}

/** @param {boolean} condition @param {string} message */
function need(condition, message) {
  if (!condition) throw new CaseError(message);
}

function keys(object, required, optional, where) {
  need(object !== null && typeof object === 'object' && !Array.isArray(object), `${where}: expected an object`);
  for (const key of Object.keys(object)) need(required.includes(key) || optional.includes(key), `${where}: unknown key "${key}"`);
  for (const key of required) need(key in object, `${where}: missing key "${key}"`);
}

function number(value, where) {
  need(typeof value === 'number' && Number.isFinite(value), `${where}: expected a number, found ${JSON.stringify(value)}`);
  return value;
}

function numberOrNull(value, where) {
  return value === null ? null : number(value, where);
}

/** The difference of two angles on the circle of `turn`. */
function circular(a, b, turn) {
  const d = Math.abs(a - b) % turn;
  return Math.min(d, turn - d);
}

function tolerance(file) {
  keys(file.tolerance, ['quaternion', 'radians', 'degrees', 'pixels'], [], 'tolerance');
  const t = {};
  for (const key of Object.keys(file.tolerance)) {
    t[key] = number(file.tolerance[key], `tolerance.${key}`);
    need(t[key] > 0 && t[key] <= 1e-3, `tolerance.${key}: a tolerance is small and positive`);
  }
  return t;
}

function readQuaternion(value, where) {
  keys(value, ['w', 'x', 'y', 'z'], [], where);
  const q = quaternion(number(value.w, `${where}.w`), number(value.x, `${where}.x`), number(value.y, `${where}.y`), number(value.z, `${where}.z`));
  need(q !== null, `${where}: not a rotation`);
  return /** @type {NonNullable<typeof q>} */ (q);
}

function readAngles(value, where) {
  keys(value, ['alpha', 'beta', 'gamma', 'screen'], [], where);
  return {
    alpha: number(value.alpha, `${where}.alpha`), beta: number(value.beta, `${where}.beta`),
    gamma: number(value.gamma, `${where}.gamma`), screen: number(value.screen, `${where}.screen`),
  };
}

function readAttitude(value, where) {
  need(value !== null && typeof value === 'object', `${where}: expected an object`);
  if ('angles' in value) {
    keys(value, ['angles'], [], where);
    const a = readAngles(value.angles, `${where}.angles`);
    const q = fromDeviceOrientation(a.alpha, a.beta, a.gamma, a.screen);
    need(q !== null, `${where}: no quaternion from ${JSON.stringify(a)}`);
    return /** @type {NonNullable<typeof q>} */ (q);
  }
  keys(value, ['quaternion'], [], where);
  return readQuaternion(value.quaternion, `${where}.quaternion`);
}

function sameRotation(q, expected, within, where) {
  const plus = Math.max(Math.abs(q.w - expected.w), Math.abs(q.x - expected.x), Math.abs(q.y - expected.y), Math.abs(q.z - expected.z));
  const minus = Math.max(Math.abs(q.w + expected.w), Math.abs(q.x + expected.x), Math.abs(q.y + expected.y), Math.abs(q.z + expected.z));
  need(Math.min(plus, minus) <= within, `${where}: ${JSON.stringify(q)}, expected ±${JSON.stringify(expected)}`);
}

/** An angle, or null: undefined there (gimbal lock), where any finite angle in [-π, π] is right. */
function sameAngle(found, expected, within, turn, where) {
  if (expected === null) {
    need(found === null || (Number.isFinite(found) && Math.abs(found) <= turn / 2 + 1e-12), `${where}: ${found} is not an angle`);
    return;
  }
  need(found !== null && Number.isFinite(found), `${where}: ${found}, expected ${expected}`);
  need(circular(found, expected, turn) <= within, `${where}: ${found}, expected ${expected} (within ${within})`);
}

function sameOptional(found, expected, within, turn, where) {
  if (expected === null) {
    need(found === null, `${where}: ${found}, expected none`);
    return;
  }
  sameAngle(found, expected, within, turn, where);
}

function runAttitudeCase(value, t, where) {
  keys(value, ['name', 'angles', 'expect'], ['note'], where);
  const a = readAngles(value.angles, `${where}.angles`);
  keys(value.expect, ['quaternion', 'roll', 'pitch', 'yaw', 'levelTilt', 'compassHeading'], [], `${where}.expect`);
  const e = value.expect;
  const q = fromDeviceOrientation(a.alpha, a.beta, a.gamma, a.screen);
  need(q !== null, `${where}: no quaternion`);
  const found = /** @type {NonNullable<typeof q>} */ (q);
  sameRotation(found, readQuaternion(e.quaternion, `${where}.expect.quaternion`), t.quaternion, `${where} quaternion`);
  sameAngle(roll(found), numberOrNull(e.roll, `${where}.expect.roll`), t.radians, 2 * Math.PI, `${where} roll`);
  const expectedPitch = number(e.pitch, `${where}.expect.pitch`);
  need(Math.abs(pitch(found) - expectedPitch) <= t.radians, `${where} pitch: ${pitch(found)}, expected ${expectedPitch}`);
  sameAngle(yaw(found), numberOrNull(e.yaw, `${where}.expect.yaw`), t.radians, 2 * Math.PI, `${where} yaw`);
  sameOptional(levelTilt(found), numberOrNull(e.levelTilt, `${where}.expect.levelTilt`), t.radians, 2 * Math.PI, `${where} levelTilt`);
  sameOptional(compassHeading(a.alpha, a.beta, a.gamma), numberOrNull(e.compassHeading, `${where}.expect.compassHeading`),
    t.degrees, 360, `${where} compassHeading`);
}

function runNavigationCase(value, t, where) {
  keys(value, ['name', 'reference', 'current', 'view', 'expect'], ['note'], where);
  const q0 = readAttitude(value.reference, `${where}.reference`);
  const q1 = readAttitude(value.current, `${where}.current`);
  keys(value.view, ['width', 'height'], [], `${where}.view`);
  const width = number(value.view.width, `${where}.view.width`);
  const height = number(value.view.height, `${where}.view.height`);
  need(width > 0 && height > 0, `${where}.view: a view has a size`);
  keys(value.expect, ['delta', 'roll', 'pitch', 'centre'], [], `${where}.expect`);
  const e = value.expect;
  keys(e.centre, ['x', 'y'], [], `${where}.expect.centre`);
  const d = delta(q0, q1);
  sameRotation(d, readQuaternion(e.delta, `${where}.expect.delta`), t.quaternion, `${where} qΔ`);
  const expectedRoll = numberOrNull(e.roll, `${where}.expect.roll`);
  sameAngle(roll(d), expectedRoll, t.radians, 2 * Math.PI, `${where} ROLL`);
  const expectedPitch = number(e.pitch, `${where}.expect.pitch`);
  need(Math.abs(pitch(d) - expectedPitch) <= t.radians, `${where} PITCH: ${pitch(d)}, expected ${expectedPitch}`);
  const centre = navigationRectangleCentre(q0, q1, width, height);
  const same = rectangleCentre(d, width, height);
  need(centre.x === same.x && centre.y === same.y, `${where}: the two ways to the centre differ`);
  const expectedX = numberOrNull(e.centre.x, `${where}.expect.centre.x`);
  need(expectedX === null || expectedRoll !== null, `${where}: x is null exactly where ROLL is`);
  if (expectedX === null) need(centre.x >= 0 && centre.x <= width, `${where}: x ${centre.x} outside the view`);
  // x = 0 and x = width are the same place (ROLL = ±π).
  else need(circular(centre.x, expectedX, width) <= t.pixels, `${where} x: ${centre.x}, expected ${expectedX}`);
  const expectedY = number(e.centre.y, `${where}.expect.centre.y`);
  need(Math.abs(centre.y - expectedY) <= t.pixels, `${where} y: ${centre.y}, expected ${expectedY}`);
}

/** Runs one case file; returns how many cases it checked. */
function runFile(file, name) {
  keys(file, ['title', 'tolerance', 'cases'], ['note'], name);
  need(typeof file.title === 'string', `${name}.title: expected a string`);
  const t = tolerance(file);
  need(Array.isArray(file.cases) && file.cases.length > 0, `${name}.cases: expected a list of cases`);
  file.cases.forEach((value, index) => {
    const where = `${name} › ${value?.name ?? `case ${index + 1}`}`;
    need(typeof value?.name === 'string', `${where}: every case has a name`);
    if ('angles' in value) runAttitudeCase(value, t, where);
    else runNavigationCase(value, t, where);
  });
  return file.cases.length;
}

const files = existsSync(FOLDER) ? readdirSync(FOLDER).filter((name) => name.endsWith('.json')).sort() : [];

test('the attitude cases exist', () => {
  assert.ok(existsSync(FOLDER), `no cases at ${FOLDER}`);
  assert.ok(files.length > 0, `no case file in ${FOLDER}`);
});

for (const name of files) {
  test(`attitude cases: ${name}`, () => {
    const file = JSON.parse(readFileSync(join(FOLDER, name), 'utf8'));
    try {
      assert.ok(runFile(file, name) > 0);
    } catch (error) {
      if (error instanceof CaseError) assert.fail(error.message);
      throw error;
    }
  });
}

test('the runner refuses what it does not know: a case never passes by being misread', () => {
  const tol = { quaternion: 1e-12, radians: 1e-9, degrees: 1e-7, pixels: 1e-6 };
  const flat = {
    name: 'flat', angles: { alpha: 0, beta: 0, gamma: 0, screen: 0 },
    expect: { quaternion: { w: 1, x: 0, y: 0, z: 0 }, roll: 0, pitch: 0, yaw: 0, levelTilt: null, compassHeading: null },
  };
  assert.equal(runFile({ title: 't', tolerance: tol, cases: [flat] }, 'self-test'), 1);
  const refused = [
    { title: 't', tolerance: tol, cases: [] },
    { title: 't', tolerance: tol, cases: [{ ...flat, colour: 'green' }] },
    { title: 't', tolerance: { ...tol, pixels: 5 }, cases: [flat] },
    { title: 't', tolerance: tol, cases: [{ ...flat, expect: { ...flat.expect, heading: 0 } }] },
    { title: 't', tolerance: tol, cases: [{ ...flat, expect: { quaternion: flat.expect.quaternion } }] },
    { title: 't', tolerance: tol, cases: [{ ...flat, angles: { alpha: 0, beta: 0, gamma: 0 } }] },
    { title: 't', tolerance: tol, cases: [{ ...flat, expect: { ...flat.expect, pitch: 0.1 } }] },
    { title: 't', tolerance: tol, cases: [{ ...flat, expect: { ...flat.expect, levelTilt: 0 } }] },
    { title: 't', tolerance: tol, cases: [{ name: 'n', reference: { angles: flat.angles }, current: { quaternion: { w: 0, x: 0, y: 0, z: 0 } },
      view: { width: 10, height: 10 }, expect: { delta: flat.expect.quaternion, roll: 0, pitch: 0, centre: { x: 5, y: 5 } } }] },
  ];
  for (const file of refused) assert.throws(() => runFile(file, 'self-test'), CaseError, JSON.stringify(file));
});

test('the quaternion algebra: q·q⁻¹ is no rotation, and a product turns as its factors', () => {
  const q = fromDeviceOrientation(40, 25, -15, 90);
  assert.ok(q);
  const identity = multiply(q, inverse(q));
  assert.ok(Math.abs(identity.w - 1) < 1e-15 && Math.abs(identity.x) < 1e-15, JSON.stringify(identity));
  assert.deepEqual(delta(IDENTITY, q), multiply(IDENTITY, q));
  // Turning 10° and then 20° about the world's vertical is turning 30°.
  const turned = multiply(fromDeviceOrientation(20, 0, 0), fromDeviceOrientation(10, 0, 0) ?? IDENTITY);
  assert.ok(Math.abs(yaw(turned) - (30 * Math.PI) / 180) < 1e-12);
  assert.equal(quaternion(0, 0, 0, 0), null);
  assert.equal(quaternion(Infinity, 0, 0, 0), null);
  assert.equal(fromDeviceOrientation(null, 0, 0), null);
  assert.equal(fromDeviceOrientation(0, NaN, 0), null);
  assert.equal(compassHeading(0, null, 0), null);
  // A negated quaternion is the same attitude.
  const centre = rectangleCentre(delta(q, negate(q)), 100, 100);
  assert.ok(Math.abs(centre.x - 50) < 1e-9 && Math.abs(centre.y - 50) < 1e-9, JSON.stringify(centre));
});
