// The geometry table (Tests/Conformance/geometry/*.json, written from GeographicLib and an
// independent numpy/scipy centroid by Tests/Reference/geodesic_reference.py) run against the
// browser's Web/inspection/geometry.js. GeodesicAreaTests.swift and CentroidTests.swift run the
// same files against WaymarkCore. Strict: a missing file, an unknown key or an empty list fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './helpers.mjs';
import { polygonMeasure, hullCentroid } from '../../../Web/inspection/geometry.js';

const TABLE = join(REPO, 'Tests', 'Conformance', 'geometry');

/** Reads one file of the table and checks its outline. */
function book(name, listKey) {
  const path = join(TABLE, name);
  assert.ok(existsSync(path), `${path} is missing`);
  const data = JSON.parse(readFileSync(path, 'utf8'));
  strictKeys(data, ['title', 'note', listKey, 'refused'], [], name);
  assert.ok(Array.isArray(data[listKey]) && data[listKey].length > 0, `${name}: no ${listKey}`);
  assert.ok(Array.isArray(data.refused) && data.refused.length > 0, `${name}: no refused cases`);
  return data;
}

function strictKeys(object, required, optional, where) {
  assert.ok(object && typeof object === 'object' && !Array.isArray(object), `${where}: expected an object`);
  for (const key of Object.keys(object)) assert.ok(required.includes(key) || optional.includes(key), `${where}: unknown key "${key}"`);
  for (const key of required) assert.ok(key in object, `${where}: missing key "${key}"`);
}

/** A number, or one JSON cannot write: "NaN", "Infinity", "-Infinity". */
function number(value, where) {
  if (typeof value === 'number') return value;
  const named = { NaN, Infinity, '-Infinity': -Infinity }[value];
  assert.ok(named !== undefined, `${where}: expected a number, found ${JSON.stringify(value)}`);
  return named;
}

function points(list, where) {
  assert.ok(Array.isArray(list), `${where}: points must be a list`);
  return list.map((p, i) => {
    assert.ok(Array.isArray(p) && p.length === 2, `${where}: point ${i} must be [latitude, longitude]`);
    return { latitude: number(p[0], where), longitude: number(p[1], where) };
  });
}

/** Metres between two nearby places (a local flat approximation is plenty for millimetres). */
function metresApart(a, b) {
  const dLat = (a.latitude - b.latitude) * 111_320;
  let dLon = (a.longitude - b.longitude) % 360;
  if (dLon > 180) dLon -= 360;
  if (dLon < -180) dLon += 360;
  return Math.hypot(dLat, dLon * 111_320 * Math.cos((a.latitude * Math.PI) / 180));
}

test('every polygon of the table: area, perimeter and orientation as GeographicLib', () => {
  const data = book('polygons.json', 'polygons');
  for (const c of data.polygons) {
    strictKeys(c, ['name', 'points', 'area', 'perimeter', 'orientation', 'areaWithin', 'perimeterWithin'], ['published', 'note'], c.name);
    const result = polygonMeasure(points(c.points, c.name));
    assert.ok(result.ok, `${c.name}: refused ${JSON.stringify(result)}`);
    if (!result.ok) continue;
    assert.ok(Math.abs(result.area - c.area) <= c.areaWithin, `${c.name}: area ${result.area} m², GeographicLib ${c.area} m²`);
    assert.ok(Math.abs(result.perimeter - c.perimeter) <= c.perimeterWithin, `${c.name}: perimeter ${result.perimeter} m, GeographicLib ${c.perimeter} m`);
    assert.equal(result.orientation, c.orientation, c.name);
    if (c.published) {
      strictKeys(c.published, ['area', 'areaWithin', 'perimeter', 'perimeterWithin', 'source'], [], `${c.name} published`);
      assert.ok(Math.abs(result.area - c.published.area) <= c.published.areaWithin, `${c.name}: area ${result.area}, published ${c.published.area}`);
      assert.ok(Math.abs(result.perimeter - c.published.perimeter) <= c.published.perimeterWithin, `${c.name}: perimeter ${result.perimeter}, published ${c.published.perimeter}`);
    }
  }
});

test('polygons that have no area are refused with the reason', () => {
  const data = book('polygons.json', 'polygons');
  for (const c of data.refused) {
    strictKeys(c, ['name', 'points', 'error'], ['index', 'distinct', 'note'], c.name);
    assert.ok(c.error !== 'invalidPoint' || 'index' in c, `${c.name}: invalidPoint needs its index`);
    assert.ok(c.error !== 'tooFewPoints' || 'distinct' in c, `${c.name}: tooFewPoints needs its distinct count`);
    const result = polygonMeasure(points(c.points, c.name));
    assert.equal(result.ok, false, `${c.name}: accepted`);
    if (result.ok) continue;
    assert.equal(result.error.kind, c.error, c.name);
    if ('index' in c) assert.equal(/** @type {any} */ (result.error).index, c.index, c.name);
    if ('distinct' in c) assert.equal(/** @type {any} */ (result.error).distinct, c.distinct, c.name);
  }
});

test('every hull of the table: centroid and sample count as the numpy/scipy reference', () => {
  const data = book('centroids.json', 'centroids');
  for (const c of data.centroids) {
    strictKeys(c, ['name', 'points', 'latitude', 'longitude', 'samples', 'withinMetres'], ['note'], c.name);
    const result = hullCentroid(points(c.points, c.name));
    assert.ok(result.ok, `${c.name}: refused ${JSON.stringify(result)}`);
    if (!result.ok) continue;
    const off = metresApart(result, c);
    assert.ok(off <= c.withinMetres, `${c.name}: ${result.latitude}, ${result.longitude} is ${off} m from the reference ${c.latitude}, ${c.longitude}`);
    assert.equal(result.samples, c.samples, c.name);
  }
});

test('hulls without a usable fix are refused with the reason', () => {
  const data = book('centroids.json', 'centroids');
  for (const c of data.refused) {
    strictKeys(c, ['name', 'points', 'error'], ['index', 'note'], c.name);
    const result = hullCentroid(points(c.points, c.name));
    assert.equal(result.ok, false, `${c.name}: accepted`);
    if (result.ok) continue;
    assert.equal(result.error.kind, c.error, c.name);
    if ('index' in c) assert.equal(/** @type {any} */ (result.error).index, c.index, c.name);
  }
});

test('hostile shapes of input are refused, not thrown or counted', () => {
  for (const hostile of [[null, [1, 2], [3, 4]], [{ latitude: '49', longitude: 16 }, [1, 2], [3, 4]], [[49], [1, 2], [3, 4]]]) {
    const polygon = polygonMeasure(/** @type {any} */ (hostile));
    assert.deepEqual(polygon, { ok: false, error: { kind: 'invalidPoint', index: 0 } });
    const centroid = hullCentroid(/** @type {any} */ (hostile));
    assert.deepEqual(centroid, { ok: false, error: { kind: 'invalidPoint', index: 0 } });
  }
  for (const notAList of [null, undefined, 'points', { length: 3 }]) {
    assert.deepEqual(polygonMeasure(/** @type {any} */ (notAList)), { ok: false, error: { kind: 'noPoints' } });
    assert.deepEqual(hullCentroid(/** @type {any} */ (notAList)), { ok: false, error: { kind: 'noPoints' } });
  }
  // A path's points as the API sends them, [lat, lon, alt, unixTime], are read as they come.
  const walked = polygonMeasure([[49.19, 16.6, 230, 1], [49.19, 16.601, 231, 2], [49.191, 16.601, 229, 3], [49.191, 16.6, 230, 4]]);
  assert.ok(walked.ok && walked.area > 8000 && walked.area < 8200);
});
