// Distances, radii, days and searches of the photo pages, in English and German, metric and
// imperial (Web/photos/format.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  unitSystem, formatDistance, radiusChoices, formatRadius, formatDay, timeRange, nearbyQuery,
  neighbours, swipeDirection, isoWithOffset, captureTime, JUST_TAKEN, MILE, DEFAULT_RADIUS, MAX_RADIUS,
} from '../../../Web/photos/format.js';
import { target } from '../../../Web/app/api.js';

// Intl writes a narrow no-break space in some units and dates; compare with plain spaces.
const plain = (text) => text.replace(/[\u00a0\u202f]/g, ' ');

test('the unit system follows the browser’s region', () => {
  assert.equal(unitSystem('en-US'), 'imperial');
  assert.equal(unitSystem('en'), 'imperial', 'a bare en is US English');
  assert.equal(unitSystem('en-GB'), 'imperial', 'British distances are in miles');
  assert.equal(unitSystem('de-DE'), 'metric');
  assert.equal(unitSystem('de'), 'metric');
  assert.equal(unitSystem('en-DE'), 'metric', 'English spoken in Germany: metric');
  assert.equal(unitSystem('de-US'), 'imperial');
  assert.equal(unitSystem('fr-FR'), 'metric');
  assert.equal(unitSystem(''), 'imperial');
  assert.equal(unitSystem('not a locale!'), 'metric');
});

test('metric distances: metres to the metre, then tens; kilometres with one decimal below 10', () => {
  const cases = [[0, '0 m', '0 m'], [4.4, '4 m', '4 m'], [57.6, '58 m', '58 m'], [403, '400 m', '400 m'], [994, '990 m', '990 m'],
    [996, '1 km', '1 km'], [1609.344, '1.6 km', '1,6 km'], [2449, '2.4 km', '2,4 km'], [12345, '12 km', '12 km'], [50000, '50 km', '50 km']];
  for (const [meters, en, de] of cases) {
    assert.equal(plain(formatDistance(meters, 'en', 'metric')), en, `${meters} m in English`);
    assert.equal(plain(formatDistance(meters, 'de', 'metric')), de, `${meters} m in German`);
  }
  assert.equal(plain(formatDistance(-3, 'en', 'metric')), '0 m', 'never negative');
});

test('imperial distances: feet in tens below a tenth of a mile, then miles', () => {
  const cases = [[0, '0 ft', '0 ft'], [29.8, '100 ft', '100 ft'], [44.8, '150 ft', '150 ft'], [150, '490 ft', '490 ft'], [170, '0.1 mi', '0,1 mi'],
    [403, '0.3 mi', '0,3 mi'], [MILE, '1 mi', '1 mi'], [2500, '1.6 mi', '1,6 mi'], [50000, '31 mi', '31 mi']];
  for (const [meters, en, de] of cases) {
    assert.equal(plain(formatDistance(meters, 'en', 'imperial')), en, `${meters} m in English`);
    assert.equal(plain(formatDistance(meters, 'de', 'imperial')), de, `${meters} m in German`);
  }
});

test('the radius choices start at one mile (seed 004) and stay within the server’s 50 km', () => {
  for (const system of ['metric', 'imperial']) {
    const choices = radiusChoices(system);
    assert.equal(choices[0], DEFAULT_RADIUS);
    assert.equal(DEFAULT_RADIUS, 1609.344);
    assert.ok(choices.every((meters, index) => index === 0 || meters > choices[index - 1]), 'ascending');
    assert.ok(choices.every((meters) => meters <= MAX_RADIUS));
  }
  assert.deepEqual(radiusChoices('metric').map((m) => plain(formatRadius(m, 'de', 'metric'))), ['1,6 km', '2,5 km', '10 km', '50 km']);
  assert.deepEqual(radiusChoices('metric').map((m) => plain(formatRadius(m, 'en', 'metric'))), ['1.6 km', '2.5 km', '10 km', '50 km']);
  assert.deepEqual(radiusChoices('imperial').map((m) => plain(formatRadius(m, 'en', 'imperial'))), ['1 mi', '5 mi', '10 mi', '30 mi']);
});

test('a photo’s day as each language writes it', () => {
  const instant = '2026-11-24T23:30:00.000Z';
  assert.equal(plain(formatDay(instant, 'en', 'UTC')), 'Nov 24, 2026');
  assert.equal(plain(formatDay(instant, 'de', 'UTC')), '24.11.2026');
  assert.equal(plain(formatDay(instant, 'de', 'Europe/Berlin')), '25.11.2026', 'in the viewer’s time zone');
});

test('the time filter: the last day, week and year before now, or whole local days', () => {
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);
  const s = now / 1000;
  assert.deepEqual(timeRange('any', { now }), {});
  assert.deepEqual(timeRange('day', { now }), { from: s - 86400 });
  assert.deepEqual(timeRange('week', { now }), { from: s - 7 * 86400 });
  assert.deepEqual(timeRange('year', { now }), { from: s - 365 * 86400 });
  const local = (y, m, d) => new Date(y, m - 1, d).getTime() / 1000;
  assert.deepEqual(timeRange('custom', { now, from: '2026-01-01', to: '2026-01-31' }), { from: local(2026, 1, 1), to: local(2026, 2, 1) - 1 });
  assert.deepEqual(timeRange('custom', { now, from: '2026-03-05' }), { from: local(2026, 3, 5) });
  assert.deepEqual(timeRange('custom', { now, to: '2026-03-05' }), { to: local(2026, 3, 6) - 1 });
  assert.deepEqual(timeRange('custom', { now, from: 'garbage', to: '' }), {});
  const swapped = timeRange('custom', { now, from: '2026-02-10', to: '2026-02-01' });
  assert.ok(swapped.from !== undefined && swapped.to !== undefined && swapped.from < swapped.to, 'from after to is read the other way round');
});

test('the nearby query: six decimals, the radius capped at 50 km, from/to and the cursor only when given', () => {
  const path = target('photosNearby', { query: nearbyQuery({ latitude: 52.5162751234, longitude: 13.3777041, radius: MILE }) });
  const url = new URL(path, 'http://x');
  assert.equal(url.pathname, '/api/v1/photos/nearby');
  assert.equal(url.searchParams.get('latitude'), '52.516275');
  assert.equal(url.searchParams.get('longitude'), '13.377704');
  assert.equal(url.searchParams.get('radius'), '1609.344');
  assert.equal(url.searchParams.get('sort'), 'distance');
  assert.equal(url.searchParams.get('limit'), '24');
  for (const name of ['from', 'to', 'cursor']) assert.equal(url.searchParams.has(name), false, name);
  const more = new URL(target('photosNearby', { query: nearbyQuery({ latitude: -33.9, longitude: 151.2, radius: 80000, from: 10, to: 20, cursor: 'abc+/=', sort: 'recent', limit: 5 }) }), 'http://x');
  assert.equal(more.searchParams.get('radius'), '50000');
  assert.equal(more.searchParams.get('from'), '1970-01-01T00:00:10Z', 'times go as ISO 8601 in UTC');
  assert.equal(more.searchParams.get('to'), '1970-01-01T00:00:20Z');
  assert.equal(more.searchParams.get('cursor'), 'abc+/=', 'the cursor survives encoding');
  assert.equal(more.searchParams.get('sort'), 'recent');
});

test('the next and previous photo of a search, ids compared without case', () => {
  const ids = ['A', 'b', 'C'];
  assert.deepEqual(neighbours(ids, 'a'), { previous: null, next: 'b', index: 0 });
  assert.deepEqual(neighbours(ids, 'B'), { previous: 'A', next: 'C', index: 1 });
  assert.deepEqual(neighbours(ids, 'c'), { previous: 'b', next: null, index: 2 });
  assert.deepEqual(neighbours(ids, 'z'), { previous: null, next: null, index: -1 });
  assert.deepEqual(neighbours([], 'a'), { previous: null, next: null, index: -1 });
});

test('a swipe is a mostly horizontal move of at least 50 px; right to left goes to the next photo', () => {
  assert.equal(swipeDirection(-120, 10), 'next');
  assert.equal(swipeDirection(120, -10), 'previous');
  assert.equal(swipeDirection(-30, 0), null, 'too short');
  assert.equal(swipeDirection(-120, 90), null, 'too diagonal: a scroll');
  assert.equal(swipeDirection(0, 300), null);
});

test('capture times are ISO 8601 with the local offset of their moment', () => {
  const moment = Date.UTC(2026, 10, 24, 8, 30, 0, 999);
  assert.equal(isoWithOffset(moment, 60), '2026-11-24T09:30:00+01:00');
  assert.equal(isoWithOffset(moment, 0), '2026-11-24T08:30:00+00:00');
  assert.equal(isoWithOffset(moment, -330), '2026-11-24T03:00:00-05:30');
  assert.equal(isoWithOffset(Date.UTC(2026, 11, 31, 23, 30), 120), '2027-01-01T01:30:00+02:00', 'across the new year');
  const text = isoWithOffset(moment);
  assert.match(text, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
  assert.equal(Date.parse(text), Math.floor(moment / 1000) * 1000, 'the browser’s own offset names the same moment');
});

test('a file just taken with the camera sends its time; an older one leaves it to the photo’s EXIF', () => {
  const now = Date.UTC(2026, 10, 24, 12, 0);
  assert.equal(Date.parse(captureTime(now - 5000, now)), Math.floor((now - 5000) / 1000) * 1000);
  assert.notEqual(captureTime(now - JUST_TAKEN + 1000, now), null);
  assert.equal(captureTime(now - JUST_TAKEN - 1000, now), null, 'from the library: taken earlier');
  assert.equal(captureTime(now + 3600000, now), null, 'a clock far ahead is not believed');
  assert.equal(captureTime(0, now), null);
  assert.equal(captureTime(Number.NaN, now), null);
});
