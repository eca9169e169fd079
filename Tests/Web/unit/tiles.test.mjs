// The map's arithmetic (Web/photos/tiles.js): which XYZ tiles a view covers and the clusters
// endpoint's GeoJSON as markers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tileOf, tilesInView, markersOf, isPointLike, clusterSize, formatCount, mergeOverlapping } from '../../../Web/photos/tiles.js';

test('a point’s tile agrees with the OpenStreetMap wiki’s formula', () => {
  assert.deepEqual(tileOf(0, 0, 0), { x: 0.5, y: 0.5 });
  const berlin = tileOf(13.377704, 52.516275, 12);
  assert.equal(Math.floor(berlin.x), 2200);
  assert.equal(Math.floor(berlin.y), 1343);
  const clamped = tileOf(0, 89.9, 3);
  assert.ok(Math.abs(clamped.y) < 1e-9, 'latitudes beyond Web Mercator’s are clamped');
});

test('a city view needs a few tiles, each once', () => {
  const tiles = tilesInView({ west: 13.30, south: 52.45, east: 13.45, north: 52.55 }, 12);
  assert.ok(tiles.length >= 4 && tiles.length <= 12, String(tiles.length));
  assert.equal(new Set(tiles.map((t) => `${t.z}/${t.x}/${t.y}`)).size, tiles.length);
  assert.ok(tiles.every((t) => t.z === 12));
  assert.ok(tiles.some((t) => t.x === 2200 && t.y === 1343), 'the tile under the Brandenburg Gate');
});

test('the world at zoom 0 and 1; y is clamped, x wraps around the antimeridian', () => {
  assert.deepEqual(tilesInView({ west: -180, south: -85, east: 180, north: 85 }, 0), [{ z: 0, x: 0, y: 0 }]);
  assert.equal(tilesInView({ west: -180, south: -90, east: 180, north: 90 }, 1).length, 4);
  const across = tilesInView({ west: 170, south: -10, east: 190, north: 10 }, 3);
  assert.deepEqual([...new Set(across.map((t) => t.x))].sort((a, b) => a - b), [0, 7], 'east of 180° is the first column again');
  assert.ok(across.every((t) => t.y >= 0 && t.y < 8));
  const wide = tilesInView({ west: -540, south: -10, east: 540, north: 10 }, 2);
  assert.equal(new Set(wide.map((t) => `${t.x}/${t.y}`)).size, wide.length, 'a view wider than the world asks each tile once');
});

test('zoom is rounded and kept within 0–20; a view of too many tiles asks none', () => {
  assert.ok(tilesInView({ west: 13.37, south: 52.51, east: 13.38, north: 52.52 }, 25).every((t) => t.z === 20));
  assert.ok(tilesInView({ west: 13.37, south: 52.51, east: 13.38, north: 52.52 }, 14.6).every((t) => t.z === 15));
  assert.deepEqual(tilesInView({ west: -180, south: -85, east: 180, north: 85 }, 10), []);
});

test('clusters and single photos from the clusters GeoJSON', () => {
  const markers = markersOf({
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', geometry: { type: 'Point', coordinates: [13.3777, 52.5163] }, properties: { cluster: true, count: 3, photo: 'P1', bbox: [13.377, 52.516, 13.3782, 52.5164] } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [13.3777, 52.5199] }, properties: { cluster: false, photo: 'AbC', title: 'Reichstag lawn' } },
      { type: 'Feature', geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] }, properties: { photo: 'x' } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: {} },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [5, 6] }, properties: { cluster: true, count: 2, photo: 'P2' } },
    ],
  });
  assert.equal(markers.length, 3);
  assert.deepEqual(markers[0], { kind: 'cluster', key: 'c:13.3777,52.5163,3', latitude: 52.5163, longitude: 13.3777, count: 3, photo: 'P1', bbox: { west: 13.377, south: 52.516, east: 13.3782, north: 52.5164 } });
  assert.deepEqual(markers[1], { kind: 'photo', key: 'p:abc', latitude: 52.5199, longitude: 13.3777, photo: 'AbC', title: 'Reichstag lawn' });
  assert.deepEqual(markers[2].bbox, { west: 5, south: 6, east: 5, north: 6 }, 'a cluster without a bbox is its point');
  assert.equal(isPointLike(markers[2].bbox), true);
  assert.equal(isPointLike(markers[0].bbox), false);
  assert.deepEqual(markersOf(null), []);
  assert.deepEqual(markersOf({ features: 'nope' }), []);
});

test('cluster sizes and counts', () => {
  assert.deepEqual([2, 9, 10, 999, 1000, 1000000].map(clusterSize), ['small', 'small', 'medium', 'medium', 'large', 'large']);
  assert.equal(formatCount(7, 'en'), '7');
  assert.equal(formatCount(1234, 'en'), '1.2K');
  assert.equal(formatCount(1250000, 'en'), '1.3M');
  assert.equal(formatCount(1250000, 'de').replace(/[\u00a0\u202f]/g, ' '), '1,3 Mio.');
});

test('markers that would cover each other on screen become one cluster; apart ones stay as they are', () => {
  // A plain projection for the test: one degree is 1000 px both ways.
  const project = (latitude, longitude) => ({ x: longitude * 1000, y: -latitude * 1000 });
  const photo = (id, latitude, longitude) => ({ kind: 'photo', key: `p:${id}`, latitude, longitude, photo: id, title: id });
  const cluster = (id, latitude, longitude, count, bbox) => ({ kind: 'cluster', key: `c:${id}`, latitude, longitude, count, photo: id, bbox });
  const markers = [
    photo('lone', 1, 1),
    cluster('big', 0, 0, 5, { west: -0.01, south: -0.01, east: 0.01, north: 0.01 }),
    photo('beside', 0, 0.03),            // 30 px from the big cluster: joins it
    cluster('edge', 0.02, -0.02, 2, { west: -0.025, south: 0.015, east: -0.015, north: 0.025 }), // 28 px: joins
    photo('apart', 0, 0.05),             // 50 px: stays
  ];
  const merged = mergeOverlapping(markers, project, 44);
  assert.equal(merged.length, 3);
  const joined = merged.find((marker) => marker.kind === 'cluster');
  assert.equal(joined.count, 8);
  assert.equal(joined.photo, 'big', 'the biggest one’s photo and place');
  assert.equal(joined.latitude, 0);
  assert.deepEqual(joined.bbox, { west: -0.025, south: -0.01, east: 0.03, north: 0.025 });
  assert.equal(joined.key, 'm:c:big|c:edge|p:beside');
  assert.deepEqual(merged.filter((marker) => marker.kind === 'photo').map((marker) => marker.photo).sort(), ['apart', 'lone']);
  assert.deepEqual(mergeOverlapping([], project, 44), []);
  const same = mergeOverlapping(markers, project, 44).map((marker) => marker.key);
  assert.deepEqual(mergeOverlapping([...markers].reverse(), project, 44).map((marker) => marker.key).sort(), [...same].sort(), 'the same whatever order the tiles answered in');
  assert.equal(mergeOverlapping(markers, project, 10).length, 5, 'nothing close enough: all stay');
});
