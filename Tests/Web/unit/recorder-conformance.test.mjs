// The recorder's rule book (Tests/Conformance/recorder/*.json) run against the browser's engine
// (Web/recorder/engine.js, Web/recorder/passphrase-rules.js). RecorderConformanceTests.swift runs
// the same files against WaymarkCore; a scenario that only one side passes fails the build.
// Strict on purpose: a missing or empty rule book, an unknown key or step fails, never passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './helpers.mjs';
import {
  RecorderEngine, defaultSettings, formatDistance, formatDuration, geodesicDistance, qrPayloadText,
} from '../../../Web/recorder/engine.js';
import { isUsablePassphrase, normalizePassphrase } from '../../../Web/recorder/passphrase-rules.js';

const BOOK = join(REPO, 'Tests', 'Conformance', 'recorder');

/** The numbered rules the Swift unit tests covered when the rule book was written; the book must cover them all. */
const REQUIRED_RULES = ['SCO-07', 'SCO-08', 'SCO-10', 'SRR-01',
  ...Array.from({ length: 14 }, (_, i) => `SRR-${String(i + 4).padStart(2, '0')}`)];

/** Default tolerances: metres for distances, seconds for times. */
const DISTANCE_WITHIN = 0.01;
const SECONDS_WITHIN = 1e-6;

class ScenarioError extends Error {}

/** @param {boolean} condition @param {string} message */
function need(condition, message) {
  if (!condition) throw new ScenarioError(message);
}

/** Fails on any key of `object` outside `allowed`, and on a missing required one. */
function keys(object, required, optional, where) {
  need(object !== null && typeof object === 'object' && !Array.isArray(object), `${where}: expected an object`);
  for (const key of Object.keys(object)) {
    need(required.includes(key) || optional.includes(key), `${where}: unknown key "${key}"`);
  }
  for (const key of required) need(key in object, `${where}: missing key "${key}"`);
}

/** A number, or one JSON cannot write: "NaN", "Infinity", "-Infinity". */
function number(value, where) {
  if (typeof value === 'number') return value;
  if (value === 'NaN') return NaN;
  if (value === 'Infinity') return Infinity;
  if (value === '-Infinity') return -Infinity;
  throw new ScenarioError(`${where}: expected a number, found ${JSON.stringify(value)}`);
}

function string(value, where) {
  need(typeof value === 'string', `${where}: expected a string`);
  return value;
}

function bool(value, where) {
  need(typeof value === 'boolean', `${where}: expected true or false`);
  return value;
}

function list(value, where) {
  need(Array.isArray(value), `${where}: expected a list`);
  return value;
}

function fix(value, where) {
  keys(value, ['latitude', 'longitude', 'time'], ['altitude', 'accuracy'], where);
  const orNull = (v, key) => (v === undefined || v === null ? null : number(v, `${where}.${key}`));
  return {
    latitude: number(value.latitude, `${where}.latitude`), longitude: number(value.longitude, `${where}.longitude`),
    altitude: orNull(value.altitude, 'altitude'), accuracy: orNull(value.accuracy, 'accuracy'),
    time: number(value.time, `${where}.time`),
  };
}

function instant(start, at, where) {
  if (typeof at === 'number') return { uptime: start.uptime + at, wall: start.wall + at };
  keys(at, ['uptime', 'wall'], [], where);
  return { uptime: start.uptime + number(at.uptime, where), wall: start.wall + number(at.wall, where) };
}

function ignored(value, where) {
  keys(value, ['reason'], ['accuracy'], where);
  const result = { reason: string(value.reason, `${where}.reason`) };
  if ('accuracy' in value) result.accuracy = number(value.accuracy, `${where}.accuracy`);
  return result;
}

function close(actual, expected, within, where) {
  need(actual === expected || Math.abs(actual - expected) <= within,
    `${where}: expected ${expected} (±${within}), got ${actual}`);
}

function same(actual, expected, where) {
  try {
    assert.deepStrictEqual(actual, expected);
  } catch {
    throw new ScenarioError(`${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

function fixes(tracks, where) {
  return list(tracks, where).map((track, t) => list(track, `${where}[${t}]`).map((f, i) => fix(f, `${where}[${t}][${i}]`)));
}

function check(engine, at, expected, where) {
  keys(expected, [], ['phase', 'status', 'lastAccuracy', 'distance', 'elapsed', 'distanceText', 'elapsedText', 'qr',
    'trackCount', 'fixCount', 'trackSizes', 'tracks', 'clockCorrection', 'lastIgnored', 'units'], where);
  need(Object.keys(expected).length > 0, `${where}: a check that checks nothing`);
  const snapshot = engine.snapshot(at);
  for (const [key, value] of Object.entries(expected)) {
    const here = `${where}.${key}`;
    switch (key) {
      case 'phase': case 'status': case 'distanceText': case 'elapsedText':
        same(snapshot[key], string(value, here), here); break;
      case 'units': same(engine.settings.units, string(value, here), here); break;
      case 'trackCount': case 'fixCount': same(snapshot[key], number(value, here), here); break;
      case 'lastAccuracy': same(snapshot.lastAccuracy, value === null ? null : number(value, here), here); break;
      case 'distance':
        if (typeof value === 'object' && value !== null) {
          keys(value, ['value', 'within'], [], here);
          close(snapshot.distance, number(value.value, here), number(value.within, here), here);
        } else {
          close(snapshot.distance, number(value, here), DISTANCE_WITHIN, here);
        }
        break;
      case 'elapsed': close(snapshot.elapsed, number(value, here), SECONDS_WITHIN, here); break;
      case 'clockCorrection':
        if (value === null) same(snapshot.clockCorrection, null, here);
        else {
          need(snapshot.clockCorrection !== null, `${here}: expected ${value}, got null`);
          close(/** @type {number} */ (snapshot.clockCorrection), number(value, here), SECONDS_WITHIN, here);
        }
        break;
      case 'lastIgnored': same(snapshot.lastIgnored, value === null ? null : ignored(value, here), here); break;
      case 'trackSizes': same(engine.tracks.map((t) => t.length), list(value, here), here); break;
      case 'tracks': same(engine.tracks, fixes(value, here), here); break;
      case 'qr': {
        keys(value, [], ['time', 'nonce', 'text', 'secondsLeft', 'period'], here);
        need(Object.keys(value).length > 0, `${here}: a check that checks nothing`);
        for (const [part, v] of Object.entries(value)) {
          if (part === 'secondsLeft') close(snapshot.qr.secondsLeft, number(v, `${here}.${part}`), SECONDS_WITHIN, `${here}.${part}`);
          else same(snapshot.qr[part], v, `${here}.${part}`);
        }
        break;
      }
    }
  }
}

function checkRoute(route, expected, where) {
  keys(expected, [], ['nonce', 'qrPeriod', 'tracks', 'trackSizes'], where);
  for (const [key, value] of Object.entries(expected)) {
    const here = `${where}.${key}`;
    if (key === 'tracks') same(route.tracks, fixes(value, here), here);
    else if (key === 'trackSizes') same(route.tracks.map((t) => t.length), value, here);
    else same(route[key], value, here);
  }
}

function runSteps(scenario, where) {
  keys(scenario, ['name', 'rules', 'start', 'sourceIsLive', 'nonce', 'steps'], ['note', 'settings'], where);
  const settings = { ...defaultSettings };
  if (scenario.settings !== undefined) {
    const given = scenario.settings;
    const here = `${where}.settings`;
    keys(given, [], Object.keys(defaultSettings), here);
    if ('accuracyThreshold' in given) settings.accuracyThreshold = number(given.accuracyThreshold, here);
    if ('alertDelay' in given) settings.alertDelay = number(given.alertDelay, here);
    if ('qrPeriod' in given) settings.qrPeriod = number(given.qrPeriod, here);
    if ('wifiOnly' in given) settings.wifiOnly = bool(given.wifiOnly, here);
    if ('units' in given) {
      need(given.units === 'metric' || given.units === 'imperial', `${here}: unknown units`);
      settings.units = given.units;
    }
  }
  keys(scenario.start, ['uptime', 'wall'], [], `${where}.start`);
  const start = { uptime: number(scenario.start.uptime, `${where}.start`), wall: number(scenario.start.wall, `${where}.start`) };
  const engine = new RecorderEngine({
    settings, nonce: string(scenario.nonce, `${where}.nonce`),
    sourceIsLive: bool(scenario.sourceIsLive, `${where}.sourceIsLive`), start,
  });
  const steps = list(scenario.steps, `${where}.steps`);
  need(steps.length > 0, `${where}: no steps`);
  steps.forEach((step, index) => {
    const here = `${where} › step ${index + 1}`;
    need(step !== null && typeof step === 'object', `${here}: expected an object`);
    if ('fix' in step || 'noFix' in step) {
      keys(step, ['at', 'expect', 'fix' in step ? 'fix' : 'noFix'], ['note'], here);
      if ('noFix' in step) need(step.noFix === true, `${here}: noFix must be true`);
      const event = 'fix' in step ? { fix: fix(step.fix, `${here}.fix`) } : { noFix: /** @type {true} */ (true) };
      const verdict = engine.handle(event, instant(start, step.at, `${here}.at`));
      const expected = step.expect;
      need(expected !== null && typeof expected === 'object', `${here}.expect: expected an object`);
      if ('accepted' in expected) {
        keys(expected, ['accepted'], [], `${here}.expect`);
        keys(expected.accepted, ['track', 'startsTrack'], [], `${here}.expect.accepted`);
        same(verdict, { accepted: { track: expected.accepted.track, startsTrack: expected.accepted.startsTrack } }, `${here}.expect`);
      } else {
        keys(expected, ['ignored'], [], `${here}.expect`);
        same(verdict, { ignored: ignored(expected.ignored, `${here}.expect.ignored`) }, `${here}.expect`);
      }
    } else if ('action' in step) {
      const action = string(step.action, `${here}.action`);
      if (action === 'units') {
        keys(step, ['action'], ['note'], here);
        engine.toggleUnits();
        return;
      }
      keys(step, ['action', 'at'], action === 'stop' ? ['note', 'route'] : ['note'], here);
      const at = instant(start, step.at, `${here}.at`);
      switch (action) {
        case 'pause': engine.pause(at); break;
        case 'resume': engine.resume(at); break;
        case 'gap': engine.breakTrack(at); break;
        case 'stop': {
          const route = engine.stop(at);
          if (step.route !== undefined) checkRoute(route, step.route, `${here}.route`);
          break;
        }
        default: throw new ScenarioError(`${here}: unknown action "${action}"`);
      }
    } else if ('check' in step) {
      keys(step, ['at', 'check'], ['note'], here);
      check(engine, instant(start, step.at, `${here}.at`), step.check, `${here}.check`);
    } else if ('alertDue' in step) {
      keys(step, ['at', 'alertDue'], ['note'], here);
      same(engine.alertDue(instant(start, step.at, `${here}.at`)), bool(step.alertDue, `${here}.alertDue`), `${here}.alertDue`);
    } else {
      throw new ScenarioError(`${here}: unknown step ${JSON.stringify(Object.keys(step))}`);
    }
  });
}

/** The pure cases: each kind, the keys of one case, and how to run it. */
const PURE = {
  distanceTexts: [['metres', 'units', 'language', 'text'],
    (c, w) => same(formatDistance(number(c.metres, w), c.units, string(c.language, w)), string(c.text, w), w)],
  durationTexts: [['seconds', 'text'], (c, w) => same(formatDuration(number(c.seconds, w)), string(c.text, w), w)],
  qrTexts: [['time', 'nonce', 'text'], (c, w) => same(qrPayloadText(number(c.time, w), string(c.nonce, w)), string(c.text, w), w)],
  passphrases: [['text', 'usable'], (c, w) => same(isUsablePassphrase(string(c.text, w)), bool(c.usable, w), w)],
  passphraseForms: [['typed', 'kept', 'same'],
    (c, w) => same(normalizePassphrase(string(c.typed, w)) === normalizePassphrase(string(c.kept, w)), bool(c.same, w), w)],
  geodesicDistances: [['from', 'to', 'metres', 'within'], (c, w) => {
    keys(c.from, ['latitude', 'longitude'], [], `${w}.from`);
    keys(c.to, ['latitude', 'longitude'], [], `${w}.to`);
    close(geodesicDistance(c.from, c.to), number(c.metres, w), number(c.within, w), w);
  }],
};

function runPure(scenario, kind, where) {
  keys(scenario, ['name', 'rules', kind], ['note'], where);
  const [caseKeys, run] = PURE[kind];
  const cases = list(scenario[kind], `${where}.${kind}`);
  need(cases.length > 0, `${where}: no cases`);
  cases.forEach((c, index) => {
    const here = `${where} › ${kind}[${index}]`;
    keys(c, caseKeys, ['note'], here);
    run(c, here);
  });
}

function runScenario(scenario, where) {
  need(scenario !== null && typeof scenario === 'object', `${where}: expected an object`);
  string(scenario.name, `${where}.name`);
  const rules = list(scenario.rules, `${where}.rules`);
  need(rules.length > 0 && rules.every((r) => typeof r === 'string' && /^S[A-Z]{2}-\d\d$/.test(r)),
    `${where}.rules: name one or more rule ids such as "SRR-06"`);
  if ('steps' in scenario) return runSteps(scenario, where);
  const kinds = Object.keys(PURE).filter((kind) => kind in scenario);
  need(kinds.length === 1, `${where}: a scenario has "steps" or exactly one of ${Object.keys(PURE).join(', ')}`);
  runPure(scenario, kinds[0], where);
}

const files = existsSync(BOOK) ? readdirSync(BOOK).filter((name) => name.endsWith('.json')).sort() : [];
/** @type {Set<string>} */
const covered = new Set();

test('the rule book exists and is not empty', () => {
  assert.ok(existsSync(BOOK), `no rule book at ${BOOK}`);
  assert.ok(files.length > 0, `no scenario file in ${BOOK}`);
});

for (const file of files) {
  let book;
  try {
    book = JSON.parse(readFileSync(join(BOOK, file), 'utf8'));
    keys(book, ['title', 'scenarios'], ['note'], file);
    list(book.scenarios, `${file}.scenarios`);
    need(book.scenarios.length > 0, `${file}: no scenarios`);
  } catch (error) {
    test(`${file}: readable`, () => { throw error; });
    continue;
  }
  for (const [index, scenario] of book.scenarios.entries()) {
    for (const rule of Array.isArray(scenario?.rules) ? scenario.rules : []) covered.add(rule);
    const name = `${file} › ${scenario?.name ?? `scenario ${index + 1}`}`;
    test(name, () => runScenario(scenario, name));
  }
}

test('the runner refuses what it does not know: a scenario never passes by being misread', () => {
  const base = { name: 'x', rules: ['SRR-05'], start: { uptime: 0, wall: 1748772000 }, sourceIsLive: true, nonce: 'N' };
  const refused = [
    { ...base, steps: [{ at: 1, jump: true }] },
    { ...base, steps: [{ at: 1, action: 'teleport' }] },
    { ...base, steps: [{ at: 1, check: { colour: 'green' } }] },
    { ...base, steps: [{ at: 1, check: {} }] },
    { ...base, steps: [{ at: 1, noFix: true, expect: { ignored: { reason: 'noFix' } }, extra: 1 }] },
    { ...base, steps: [] },
    { ...base, rules: [], steps: [{ at: 1, check: { phase: 'waitingForFix' } }] },
    { name: 'x', rules: ['SRR-01'], durationTexts: [{ seconds: 1, text: '1 s', unit: 's' }] },
    { name: 'x', rules: ['SRR-01'], speedTexts: [] },
  ];
  for (const scenario of refused) {
    assert.throws(() => runScenario(scenario, 'self-test'), ScenarioError, JSON.stringify(scenario));
  }
  runScenario({ ...base, steps: [{ at: 1, check: { phase: 'waitingForFix' } }] }, 'self-test');
});

test('the rule book covers every rule the Swift unit tests cover', () => {
  const missing = REQUIRED_RULES.filter((rule) => !covered.has(rule));
  assert.deepEqual(missing, [], `rules without a scenario: ${missing.join(', ')}`);
});
