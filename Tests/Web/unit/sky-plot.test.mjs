// The sky map's pure parts (Web/sky/plot.js): where a satellite is drawn on the polar plot, the
// short labels of the real CelesTrak names in ../shared/fixtures/tle/, counts, the "old
// elements" rule, and the page's and the API's addresses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './helpers.mjs';
import {
  plotPoint, ringRadius, RINGS, shortLabel, placeLabels, countByConstellation, elementsAge, elementsOld, readAddress, skyQuery, CHOICES,
} from '../../../Web/sky/plot.js';
import { target } from '../../../Web/app/api.js';

const PLOT = { cx: 120, cy: 110, radius: 100 };
const close = (actual, expected, what) => assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);

test('north is up, east right, south down, west left; the horizon on the outer ring, the zenith at the centre', () => {
  const at = (azimuth, elevation) => plotPoint(azimuth, elevation, PLOT);
  const expectations = [
    [0, 0, 120, 10], [90, 0, 220, 110], [180, 0, 120, 210], [270, 0, 20, 110], [360, 0, 120, 10],
    [0, 90, 120, 110], [123, 90, 120, 110],
    [0, 30, 120, 110 - 200 / 3], [90, 60, 120 + 100 / 3, 110],
  ];
  for (const [azimuth, elevation, x, y] of expectations) {
    const point = at(azimuth, elevation);
    close(point.x, x, `x of az ${azimuth} el ${elevation}`);
    close(point.y, y, `y of az ${azimuth} el ${elevation}`);
  }
  // North-east at 45° elevation: halfway out, on the diagonal up and right.
  const ne = at(45, 45);
  close(ne.x - 120, 50 * Math.SQRT1_2, 'x of NE');
  close(110 - ne.y, 50 * Math.SQRT1_2, 'y of NE');
});

test('a dot read back from the plot gives the azimuth and elevation it was drawn for (seeded sample)', () => {
  let seed = 0x5eed;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
  for (let index = 0; index < 2000; index++) {
    const azimuth = random() * 360;
    const elevation = 0.01 + random() * 89.9;
    const { x, y } = plotPoint(azimuth, elevation, PLOT);
    const dx = x - PLOT.cx;
    const dy = PLOT.cy - y;
    const back = (Math.atan2(dx, dy) * 180) / Math.PI;
    assert.ok(Math.abs(((back - azimuth + 540) % 360) - 180) < 1e-9, `azimuth ${azimuth} came back as ${back}`);
    close(90 - (Math.hypot(dx, dy) / PLOT.radius) * 90, elevation, 'elevation');
  }
});

test('the rings are at 0°, 30° and 60° elevation; elevations outside 0…90° stay on the plot', () => {
  assert.deepEqual([...RINGS], [0, 30, 60]);
  assert.deepEqual(RINGS.map((elevation) => ringRadius(elevation, 90)), [90, 60, 30]);
  assert.equal(ringRadius(-5, 90), 90, 'below the horizon: on it, not outside the plot');
  assert.equal(ringRadius(95, 90), 0);
});

/** Every (name, constellation) of the fixture TLE files. */
function fixtureNames() {
  const folder = join(FIXTURES, 'tle');
  const files = { gps: 'gps-ops.txt', galileo: 'galileo.txt', glonass: 'glo-ops.txt', beidou: 'beidou.txt' };
  const names = [];
  for (const [constellation, file] of Object.entries(files)) {
    const lines = readFileSync(join(folder, file), 'utf8').split(/\r?\n/);
    for (let index = 0; index + 2 < lines.length; index += 3) names.push({ name: lines[index].trim(), constellation });
  }
  return names;
}

test('labels: the PRN or the code in the name', () => {
  assert.equal(shortLabel('GPS BIIR-2  (PRN 13)', 'gps'), 'G13');
  assert.equal(shortLabel('GPS BIIF-2  (PRN 01)    ', 'gps'), 'G01');
  assert.equal(shortLabel('GPS BIII-5 (PRN 11)', 'gps'), 'G11');
  assert.equal(shortLabel('GSAT0101 (PRN E11)', 'galileo'), 'E11');
  assert.equal(shortLabel('GSAT0210 (PRN E01)', 'galileo'), 'E01');
  assert.equal(shortLabel('BEIDOU 3 (C01)', 'beidou'), 'C01');
  assert.equal(shortLabel('BEIDOU-3 M23 (C45)', 'beidou'), 'C45');
  assert.equal(shortLabel('COSMOS 2433 (720)', 'glonass'), '720');
  assert.equal(shortLabel('COSMOS 2547 (705K)', 'glonass'), '705K');
});

test('labels: names without a code give their last word, never more than 8 characters', () => {
  assert.equal(shortLabel('GSAT0223', 'galileo'), 'GSAT0223');
  assert.equal(shortLabel('BEIDOU-3 M19', 'beidou'), 'M19');
  assert.equal(shortLabel('BEIDOU-3 IGSO-3', 'beidou'), 'IGSO-3');
  assert.equal(shortLabel('A VERY LONG SATELLITENAME', 'gps'), 'SATELLIT');
  assert.equal(shortLabel('SOMETHING (with a long remark)', 'gps'), 'SOMETHIN');
  assert.equal(shortLabel('', 'gps'), '?');
  assert.equal(shortLabel('   ', 'glonass'), '?');
  assert.equal(shortLabel('(PRN 7)', 'unknown'), '07', 'an unknown constellation has no letter');
});

test('every satellite of the fixture files gets a short label of its own within its constellation', () => {
  const names = fixtureNames();
  assert.ok(names.length > 120, `only ${names.length} names: are the fixtures there?`);
  const seen = new Map();
  for (const { name, constellation } of names) {
    const label = shortLabel(name, constellation);
    assert.ok(label.length >= 2 && label.length <= 8, `${name}: ${label}`);
    const key = `${constellation}/${label}`;
    assert.ok(!seen.has(key), `${name} and ${seen.get(key)} both read ${label}`);
    seen.set(key, name);
  }
  const gps = names.filter((entry) => entry.constellation === 'gps').map((entry) => shortLabel(entry.name, 'gps'));
  assert.ok(gps.every((label) => /^G\d\d$/.test(label)), gps.join(' '));
});

const satellite = (constellation, epochAgeDays = 1) => ({ name: 'X', catalogNumber: 1, constellation, azimuth: 0, elevation: 10, epochAgeDays });

test('counts per constellation; an unknown one is not counted', () => {
  const list = ['gps', 'gps', 'beidou', 'glonass', 'gps', 'other'].map((c) => satellite(c));
  assert.deepEqual(countByConstellation(list), { gps: 3, galileo: 0, glonass: 1, beidou: 1 });
  assert.deepEqual(countByConstellation([]), { gps: 0, galileo: 0, glonass: 0, beidou: 0 });
  assert.deepEqual(countByConstellation([satellite('__proto__'), satellite('toString')]), { gps: 0, galileo: 0, glonass: 0, beidou: 0 });
});

test('elements older than 14 days at the time shown are old', () => {
  const sky = (ages, time = '2022-02-03T12:00:00Z', oldest = '2022-02-02T00:00:00Z', newest = '2022-02-05T00:00:00Z') =>
    ({ time, elements: { satellites: 3, oldestEpoch: oldest, newestEpoch: newest }, satellites: ages.map((age) => satellite('gps', age)) });
  assert.equal(elementsOld(sky([1.2, 2.5])), false);
  assert.equal(elementsOld(sky([1, 14])), false, 'exactly 14 days is still fine');
  assert.equal(elementsOld(sky([1, 14.01])), true, 'the oldest one counts');
  assert.equal(elementsAge(sky([3, 1700.4, 2])), 1700.4);
  // With nothing above the horizon, the catalogue's epochs say how old the data is.
  assert.equal(elementsOld(sky([])), false);
  assert.ok(Math.abs(elementsAge(sky([])) - 1.5) < 1e-9);
  assert.equal(elementsOld(sky([], '2026-11-25T00:00:00Z')), true);
  assert.equal(elementsOld(sky([], '2021-12-01T00:00:00Z')), true, 'long before the epochs is as bad as long after');
  assert.equal(elementsAge(sky([], 'garbage')), null);
});

test('the page’s address: place, time with a zone, constellation; problems named', () => {
  assert.deepEqual(readAddress(''), { place: null, time: null, constellation: 'all', problems: [] });
  assert.deepEqual(readAddress('?latitude=52.52&longitude=13.405&time=2022-02-03T12:00:00Z&constellation=GPS'),
    { place: { latitude: 52.52, longitude: 13.405 }, time: '2022-02-03T12:00:00.000Z', constellation: 'gps', problems: [] });
  assert.equal(readAddress('?time=2022-02-03T13:00:00%2B01:00').time, '2022-02-03T12:00:00.000Z');
  assert.equal(readAddress('?time=2022-02-03T12:00:00.250Z').time, '2022-02-03T12:00:00.250Z');
  assert.deepEqual(readAddress('?time=2022-02-03T12:00:00').problems, ['time'], 'no zone: which noon?');
  assert.deepEqual(readAddress('?time=yesterday').problems, ['time']);
  assert.deepEqual(readAddress('?time=2022-13-45T12:00:00Z').problems, ['time']);
  assert.deepEqual(readAddress('?latitude=91&longitude=0').problems, ['place']);
  assert.deepEqual(readAddress('?latitude=10').problems, ['place'], 'a latitude alone is not a place');
  assert.deepEqual(readAddress('?latitude=&longitude=').problems, ['place']);
  assert.deepEqual(readAddress('?latitude=1e400&longitude=0').problems, ['place']);
  assert.deepEqual(readAddress('?latitude=-90&longitude=180').place, { latitude: -90, longitude: 180 });
  assert.equal(readAddress('?constellation=starlink').constellation, 'all');
  assert.deepEqual([...CHOICES], ['all', 'gps', 'galileo', 'glonass', 'beidou']);
});

test('the API’s address carries place, time and constellation; an altitude only when the API takes it', () => {
  const parse = (path) => {
    const url = new URL(path, 'http://x');
    assert.equal(url.pathname, '/api/v1/sky');
    return Object.fromEntries(url.searchParams);
  };
  assert.deepEqual(parse(target('sky', { query: skyQuery({ latitude: 52.52, longitude: 13.405, time: '2022-02-03T12:00:00.000Z', constellation: 'gps' }) })),
    { latitude: '52.52', longitude: '13.405', time: '2022-02-03T12:00:00.000Z', constellation: 'gps' });
  assert.deepEqual(parse(target('sky', { query: skyQuery({ latitude: -33.9, longitude: 151.2, altitude: 48.6, time: null, constellation: 'all' }) })),
    { latitude: '-33.9', longitude: '151.2', altitude: '49', constellation: 'all' }, 'now: no time, the server’s clock');
  assert.equal(parse(target('sky', { query: skyQuery({ latitude: 0, longitude: 0, altitude: 12000, time: null, constellation: 'all' }) })).altitude, undefined);
  assert.equal(parse(target('sky', { query: skyQuery({ latitude: 0, longitude: 0, altitude: NaN, time: null, constellation: 'all' }) })).altitude, undefined);
  assert.ok(target('sky', { query: skyQuery({ latitude: 0, longitude: 0, time: '2022-02-03T12:00:00+01:00', constellation: 'all' }) }).includes('time=2022-02-03T12%3A00%3A00%2B01%3A00'),
    'a + in the time is escaped, not read as a space');
});

test('labels go right of their dot, elsewhere when that covers another label, a dot or leaves the plot', () => {
  const bounds = { left: -114, top: -114, right: 114, bottom: 114 };
  const overlaps = (a, b) => Math.min(a.right, b.right) > Math.max(a.left, b.left) && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);
  const [alone] = placeLabels([{ x: 0, y: 0, label: 'G13' }], bounds);
  assert.equal(alone.anchor, 'start');
  assert.ok(alone.x > 0 && alone.box.left > 4, 'right of the dot, clear of it');
  // Near the east edge the label would leave the plot: it goes left.
  const [east] = placeLabels([{ x: 105, y: 0, label: 'GSAT0224' }], bounds);
  assert.equal(east.anchor, 'end');
  assert.ok(east.box.right < 105 && east.box.left >= bounds.left);
  // A row of dots close together: no label covers another label or another dot.
  const row = [0, 1, 2, 3].map((index) => ({ x: index * 14, y: 0, label: `C${index}0` }));
  const places = placeLabels(row, bounds);
  for (let a = 0; a < places.length; a++) {
    for (let b = 0; b < places.length; b++) {
      if (a === b) continue;
      assert.ok(!overlaps(places[a].box, places[b].box), `labels ${a} and ${b} overlap`);
      const dot = { left: row[b].x - 4, top: -4, right: row[b].x + 4, bottom: 4 };
      assert.ok(!overlaps(places[a].box, dot), `label ${a} covers dot ${b}`);
    }
  }
  // Something else drawn there (a compass letter) is kept clear as well.
  const [beside] = placeLabels([{ x: -90, y: 0, label: '758' }], bounds, [{ left: -115, top: -7, right: -99, bottom: 7 }]);
  assert.notEqual(beside.anchor, 'end', 'not onto the W');
});
