// What the scene pages compute (Web/scenes/format.js): the searches, a scene's title and
// distance, the address line, the Navigate link of each phone, who may delete what, the
// timeline's order and the first-run explanation's memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  nearbyScenesQuery, myScenesQuery, sceneTitle, distanceTo, distanceText, formatCoordinates, addressLine, addressDistance, streetLine,
  mapPlatform, directionsLink, isCreator, mayRemoveRephotograph, oldestFirst, introShown, dismissIntro, INTRO_STORAGE_KEY,
} from '../../../Web/scenes/format.js';
import { target } from '../../../Web/app/api.js';

const plain = (text) => text.replace(/[\u00a0\u202f]/g, ' ');

const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

test('the nearby search asks the place to six decimals, the radius, a page size and the cursor', () => {
  const first = new URL(target('scenesNearby', { query: nearbyScenesQuery({ latitude: 49.1952234, longitude: -16.6079612 }) }), 'http://x');
  assert.equal(first.pathname, '/api/v1/scenes');
  assert.equal(first.searchParams.get('latitude'), '49.195223');
  assert.equal(first.searchParams.get('longitude'), '-16.607961');
  assert.equal(first.searchParams.get('radius'), '2500', 'the seed’s default radius');
  assert.equal(first.searchParams.get('limit'), '20');
  assert.equal(first.searchParams.has('cursor'), false);
  const next = new URL(target('scenesNearby', { query: nearbyScenesQuery({ latitude: 1, longitude: 2, radius: 800, limit: 4, cursor: 'a+b/c=' }) }), 'http://x');
  assert.equal(next.searchParams.get('cursor'), 'a+b/c=', 'the opaque cursor survives encoding');
  assert.equal(next.searchParams.get('radius'), '800');
  assert.equal(next.searchParams.get('limit'), '4');
});

test('a page of my scenes', () => {
  assert.equal(target('myScenes', { query: myScenesQuery() }), '/api/v1/me/scenes?limit=20');
  assert.equal(target('myScenes', { query: myScenesQuery({ limit: 3, cursor: 'x y' }) }), '/api/v1/me/scenes?limit=3&cursor=x+y');
});

test('a scene is called by its name, else by the day it was taken', () => {
  const may = '2020-05-01T08:00:00.000Z';
  assert.equal(sceneTitle({ name: '  Old mill ', capturedAt: may }, 'en', 'UTC'), 'Old mill');
  assert.equal(sceneTitle({ name: null, capturedAt: may }, 'en', 'UTC'), 'May 1, 2020');
  assert.equal(sceneTitle({ name: '   ', capturedAt: may }, 'de', 'UTC'), '01.05.2020');
});

test('the distance is the server’s when given, else measured from the phone, else unknown', () => {
  const scene = { latitude: 52.5163, longitude: 13.3777 };
  assert.equal(distanceTo({ ...scene, distance: 12.5 }, null), 12.5);
  const measured = distanceTo(scene, { latitude: 52.5163, longitude: 13.3777 + 0.001 });
  assert.ok(Math.abs(measured - 67.9) < 0.5, `0.001° of longitude at 52.5° N is about 68 m, got ${measured}`);
  assert.equal(distanceTo(scene, null), null);
  assert.equal(distanceText(null, 'en', 'metric'), null);
  assert.equal(plain(distanceText(420, 'de', 'metric') ?? ''), '420 m');
  assert.equal(plain(distanceText(1609.344 * 0.3, 'en', 'imperial') ?? ''), '0.3 mi');
});

test('coordinates read with hemispheres and the language’s decimal sign', () => {
  assert.equal(formatCoordinates(49.19522, 16.60796, 'en'), '49.19522° N, 16.60796° E');
  assert.equal(formatCoordinates(-33.8568, -151.2153, 'de'), '33,85680° S, 151,21530° W');
});

const EN_WORDS = { near: '{distance} {direction} of {place}', remote: 'No town within {maximum} — {distance} {direction} of {place}',
  compass: ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] };
const DE_WORDS = { near: '{distance} {direction} von {place}', remote: 'Kein Ort im Umkreis von {maximum} — {distance} {direction} von {place}',
  compass: ['N', 'NO', 'O', 'SO', 'S', 'SW', 'W', 'NW'] };
const BRNO = { line: '1.2 km NE of Brno, South Moravian, Czechia', place: 'Brno', region: 'South Moravian', country: 'Czechia',
  countryCode: 'CZ', distance: 1234.5, bearing: 44.9, attribution: 'Place names: GeoNames (geonames.org), CC BY 4.0' };

test('the address line: the server’s in English, the same words in German, the place alone at it', () => {
  assert.deepEqual(addressLine({ latitude: 49.2, longitude: 16.6, address: BRNO }, 'en-US', EN_WORDS),
    { line: '1.2 km NE of Brno, South Moravian, Czechia', source: 'GeoNames (geonames.org), CC BY 4.0' });
  assert.equal(addressLine({ latitude: 49.2, longitude: 16.6, address: BRNO }, 'de', DE_WORDS).line, '1,2 km NO von Brno, South Moravian, Tschechien');
  const west = { ...BRNO, line: '850 m W of Brno, South Moravian, Czechia', distance: 847, bearing: 268 };
  assert.equal(addressLine({ latitude: 49.2, longitude: 16.5, address: west }, 'de', DE_WORDS).line, '850 m W von Brno, South Moravian, Tschechien');
  const far = { ...BRNO, line: '12 km SE of Brno, South Moravian, Czechia', distance: 12499, bearing: 135 };
  assert.equal(addressLine({ latitude: 49.1, longitude: 16.7, address: far }, 'de', DE_WORDS).line, '12 km SO von Brno, South Moravian, Tschechien');
  const at = { ...BRNO, line: 'Brno, South Moravian, Czechia', distance: 120, bearing: 10 };
  assert.equal(addressLine({ latitude: 49.2, longitude: 16.6, address: at }, 'de', DE_WORDS).line, 'Brno, South Moravian, Tschechien');
  const city = { ...BRNO, line: 'Vienna, Austria', place: 'Vienna', region: 'Vienna', country: 'Austria', countryCode: 'AT', distance: 0, bearing: null };
  assert.equal(addressLine({ latitude: 48.2, longitude: 16.37, address: city }, 'de', DE_WORDS).line, 'Vienna, Österreich', 'a region named as its place is not repeated');
  const taiga = { line: 'No town within 20 km — 263 km N of Hearst, Ontario, Canada', place: 'Hearst', region: 'Ontario', country: 'Canada',
    countryCode: 'CA', distance: 262960, bearing: 2, attribution: 'Place names: GeoNames (geonames.org), CC BY 4.0' };
  assert.equal(addressLine({ latitude: 52, longitude: -83.7, address: taiga }, 'de', DE_WORDS).line,
    'Kein Ort im Umkreis von 20 km — 263 km N von Hearst, Ontario, Kanada');
  const sea = { ...taiga, line: 'No town within 1,500 km — 2,140 km S of Hearst, Ontario, Canada', distance: 2140000, bearing: 181 };
  assert.equal(addressLine({ latitude: 30, longitude: -83.7, address: sea }, 'de', DE_WORDS).line,
    'Kein Ort im Umkreis von 1.500 km — 2.140 km S von Hearst, Ontario, Kanada');
});

test('without a gazetteer the address line is the coordinates, with no source', () => {
  assert.deepEqual(addressLine({ latitude: 49.2, longitude: 16.6, address: null }, 'de', DE_WORDS), { line: '49,20000° N, 16,60000° E', source: null });
  assert.deepEqual(addressLine({ latitude: 49.2, longitude: 16.6, address: { ...BRNO, line: ' ' } }, 'en', EN_WORDS),
    { line: '49.20000° N, 16.60000° E', source: null });
});

test('address distances are rounded as WaymarkCore rounds them', () => {
  const cases = [[4, 'en', '0 m'], [847, 'en', '850 m'], [994, 'de', '990 m'], [996, 'en', '1.0 km'], [1234.5, 'de', '1,2 km'], [9949, 'en', '9.9 km'],
    [9951, 'en', '10 km'], [2140000, 'en', '2,140 km'], [2140000, 'de', '2.140 km']];
  for (const [meters, language, text] of cases) assert.equal(addressDistance(meters, language), text, `${meters} m in ${language}`);
});

test('the map app is chosen by the user agent: Android, iPhone and iPad, else the web', () => {
  assert.equal(mapPlatform(ANDROID), 'android');
  assert.equal(mapPlatform(IPHONE), 'ios');
  assert.equal(mapPlatform('Mozilla/5.0 (iPad; CPU OS 12_0 like Mac OS X)'), 'ios');
  assert.equal(mapPlatform(IPAD_DESKTOP, 5), 'ios', 'iPadOS asks for the desktop site but has a touch screen');
  assert.equal(mapPlatform(IPAD_DESKTOP, 0), 'other', 'a Mac');
  assert.equal(mapPlatform(LINUX), 'other');
  assert.equal(mapPlatform(''), 'other');
});

test('Navigate opens geo: on Android, Apple Maps on iOS, OpenStreetMap’s walking directions elsewhere', () => {
  const scene = { latitude: 49.195224, longitude: 16.607961, label: 'Old mill (north)' };
  assert.equal(directionsLink(scene, 'android'), 'geo:49.195224,16.607961?q=49.195224%2C16.607961(Old%20mill%20north)');
  const apple = new URL(directionsLink(scene, 'ios'));
  assert.equal(apple.origin, 'https://maps.apple.com');
  assert.equal(apple.searchParams.get('daddr'), '49.195224,16.607961');
  assert.equal(apple.searchParams.get('dirflg'), 'w', 'walking');
  assert.equal(apple.searchParams.get('q'), 'Old mill north');
  const osm = new URL(directionsLink(scene, 'other', { latitude: 49.19, longitude: 16.6 }));
  assert.equal(osm.origin + osm.pathname, 'https://www.openstreetmap.org/directions');
  assert.equal(osm.searchParams.get('route'), '49.190000,16.600000;49.195224,16.607961');
  assert.equal(osm.searchParams.get('engine'), 'fossgis_osrm_foot');
  assert.equal(new URL(directionsLink(scene, 'other')).searchParams.get('route'), ';49.195224,16.607961', 'no start: the person fills it in');
  assert.equal(directionsLink({ latitude: -1, longitude: 2 }, 'android'), 'geo:-1.000000,2.000000?q=-1.000000%2C2.000000');
});

test('the creator deletes the scene; a rephotograph its author or the creator; nobody signed out', () => {
  const scene = { creator: { id: 'AAAA-1' } };
  const byBob = { photo: { owner: { id: 'bbbb-2' } } };
  assert.equal(isCreator({ id: 'aaaa-1' }, scene), true, 'ids compare without case');
  assert.equal(isCreator({ id: 'bbbb-2' }, scene), false);
  assert.equal(isCreator(null, scene), false);
  assert.equal(mayRemoveRephotograph({ id: 'BBBB-2' }, scene, byBob), true, 'its author');
  assert.equal(mayRemoveRephotograph({ id: 'aaaa-1' }, scene, byBob), true, 'the scene’s creator');
  assert.equal(mayRemoveRephotograph({ id: 'cccc-3' }, scene, byBob), false);
  assert.equal(mayRemoveRephotograph(null, scene, byBob), false);
});

test('the timeline reads oldest first, equal times in the order given', () => {
  const entry = (id, capturedAt) => ({ kind: 'rephotograph', photo: { id, capturedAt } });
  const sorted = oldestFirst([entry('c', 300), entry('a', 100), entry('b1', 200), entry('b2', 200)]);
  assert.deepEqual(sorted.map((item) => item.photo.id), ['a', 'b1', 'b2', 'c']);
});

test('the first-run explanation shows until dismissed, and every time when nothing is kept', () => {
  const kept = new Map();
  const storage = { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => { kept.set(key, value); } };
  assert.equal(introShown(storage), true);
  assert.equal(dismissIntro(storage), true);
  assert.equal(kept.get(INTRO_STORAGE_KEY), '1');
  assert.equal(introShown(storage), false);
  const refusing = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('QuotaExceededError'); } };
  assert.equal(introShown(refusing), true);
  assert.equal(dismissIntro(refusing), false);
  assert.equal(introShown(null), true);
  assert.equal(dismissIntro(null), false);
});

test('the street address is the geocoder\'s line with its credit, or nothing', () => {
  const street = { line: ' Náměstí Svobody 1, Brno ', attribution: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright' };
  assert.deepEqual(streetLine({ address: { ...BRNO, street } }),
    { line: 'Náměstí Svobody 1, Brno', source: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright' });
  assert.deepEqual(streetLine({ address: { ...BRNO, street: { line: 'Brno', attribution: ' ' } } }), { line: 'Brno', source: '© OpenStreetMap contributors' });
  for (const scene of [{}, { address: null }, { address: BRNO }, { address: { ...BRNO, street: null } }, { address: { ...BRNO, street: { line: '  ' } } },
    { address: { ...BRNO, street: { line: 7 } } }]) {
    assert.equal(streetLine(/** @type {any} */ (scene)), null, JSON.stringify(scene));
  }
});
