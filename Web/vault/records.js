// Location records (DESIGN §3.11) from what the phone knows: the fixes of a recorded route, or
// one position read now. Speed (m/s) and heading (degrees from true north, 0 ≤ h < 360) come
// from the source when it gives them; a route's fixes carry neither, so they are derived as the
// Swift library's VaultRecord.records(track:) does: from the next fix (the start azimuth), the
// track's last fix from the one before (the end azimuth, the direction of arrival), on the
// WGS-84 ellipsoid with Vincenty's inverse formula (WaymarkCore's Geodesy.distance and
// WaymarkVault's Motion, ported). A lone fix, or a neighbour at the same instant or earlier,
// gives none; the same place gives speed 0 and no heading. Nothing here touches the DOM.
import { DATUM } from './seal.js';

/** @typedef {import('./seal.js').VaultRecord} VaultRecord */
/** @typedef {import('../recorder/envelope.js').Fix} Fix */

const SEMI_MAJOR = 6378137;
const FLATTENING = 1 / 298.257223563;
const RADIANS = Math.PI / 180;

/**
 * ISO 8601 UTC in whole seconds (fractions dropped): 2017-12-28T16:49:22Z.
 * @param {number} seconds since 1970
 */
export function isoSeconds(seconds) {
  return new Date(Math.floor(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * C's remainder(x, 360): x minus the nearest multiple of 360 (ties to even).
 * @param {number} x
 */
function remainder360(x) {
  const quotient = x / 360;
  let n = Math.round(quotient);
  if (Math.abs(quotient - Math.trunc(quotient)) === 0.5 && n % 2 !== 0) n -= 1;
  return x - n * 360;
}

/**
 * Radians to degrees in 0 ≤ d < 360.
 * @param {number} angle
 */
function degrees(angle) {
  let value = ((angle * 180) / Math.PI) % 360;
  if (value < 0) value += 360;
  if (value >= 360) value -= 360;
  return value;
}

/**
 * The geodesic between two places on the WGS-84 ellipsoid (Vincenty 1975, inverse): its length
 * in metres and its azimuths at both ends (degrees), null azimuths for the same place.
 * @param {{latitude: number, longitude: number}} a
 * @param {{latitude: number, longitude: number}} b
 * @returns {{distance: number, start: number | null, end: number | null}}
 */
export function geodesic(a, b) {
  const f = FLATTENING;
  const semiMinor = SEMI_MAJOR * (1 - f);
  const longitudeDifference = remainder360(b.longitude - a.longitude) * RADIANS;
  const u1 = Math.atan((1 - f) * Math.tan(a.latitude * RADIANS));
  const u2 = Math.atan((1 - f) * Math.tan(b.latitude * RADIANS));
  const sinU1 = Math.sin(u1), cosU1 = Math.cos(u1);
  const sinU2 = Math.sin(u2), cosU2 = Math.cos(u2);
  let lambda = longitudeDifference;
  let sinSigma = 0, cosSigma = 0, sigma = 0, cosSqAlpha = 0, cos2SigmaM = 0;
  for (let iteration = 0; iteration < 1000; iteration++) {
    const sinLambda = Math.sin(lambda), cosLambda = Math.cos(lambda);
    const t1 = cosU2 * sinLambda;
    const t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda;
    sinSigma = Math.sqrt(t1 * t1 + t2 * t2);
    if (sinSigma === 0) return { distance: 0, start: null, end: null };
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinLambda) / sinSigma;
    cosSqAlpha = 1 - sinAlpha * sinAlpha;
    cos2SigmaM = cosSqAlpha === 0 ? 0 : cosSigma - (2 * sinU1 * sinU2) / cosSqAlpha;
    const c = (f / 16) * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha));
    const previous = lambda;
    lambda = longitudeDifference + (1 - c) * f * sinAlpha
      * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
    if (Math.abs(lambda - previous) < 1e-12) break;
  }
  const uSq = (cosSqAlpha * (SEMI_MAJOR * SEMI_MAJOR - semiMinor * semiMinor)) / (semiMinor * semiMinor);
  const bigA = 1 + (uSq / 16384) * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)));
  const bigB = (uSq / 1024) * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)));
  const deltaSigma = bigB * sinSigma * (cos2SigmaM + (bigB / 4) * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
    - (bigB / 6) * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)));
  const sinLambda = Math.sin(lambda), cosLambda = Math.cos(lambda);
  return {
    distance: semiMinor * bigA * (sigma - deltaSigma),
    start: degrees(Math.atan2(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda)),
    end: degrees(Math.atan2(cosU1 * sinLambda, -sinU1 * cosU2 + cosU1 * sinU2 * cosLambda)),
  };
}

/**
 * Speed from `a` to `b` and the heading at `a` (or, with `atEnd`, at `b`); null when `b` is not later.
 * @param {Fix} a
 * @param {Fix} b
 * @param {boolean} atEnd
 * @returns {{speed: number, heading: number | null} | null}
 */
function motion(a, b, atEnd) {
  const seconds = b.time - a.time;
  if (!(seconds > 0) || ![a.latitude, a.longitude, b.latitude, b.longitude].every(Number.isFinite)) return null;
  const { distance, start, end } = geodesic(a, b);
  if (!(distance > 0)) return { speed: 0, heading: null };
  return { speed: distance / seconds, heading: atEnd ? end : start };
}

/** @param {number | null | undefined} value @returns {number | null} */
const known = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * The records of one track's fixes, in their order.
 * @param {Array<Fix & {speed?: number | null, heading?: number | null}>} track
 * @returns {VaultRecord[]}
 */
export function recordsFromTrack(track) {
  return track.map((fix, index) => {
    let speed = known(fix.speed);
    let heading = known(fix.heading);
    if (speed === null && heading === null) {
      const moved = index + 1 < track.length ? motion(fix, track[index + 1], false) : index > 0 ? motion(track[index - 1], fix, true) : null;
      speed = moved?.speed ?? null;
      heading = moved?.heading ?? null;
    }
    return {
      timestamp: isoSeconds(fix.time), latitude: fix.latitude, longitude: fix.longitude,
      altitude: known(fix.altitude), accuracy: known(fix.accuracy), speed, heading, datum: DATUM,
    };
  });
}

/**
 * The record of one position the browser gave (navigator.geolocation).
 * @param {{timestamp: number, coords: {latitude: number, longitude: number, altitude: number | null,
 *   accuracy: number, speed: number | null, heading: number | null}}} position
 * @returns {VaultRecord}
 */
export function recordFromPosition(position) {
  const { coords } = position;
  const heading = known(coords.heading);
  return {
    timestamp: isoSeconds(position.timestamp / 1000), latitude: coords.latitude, longitude: coords.longitude,
    altitude: known(coords.altitude), accuracy: known(coords.accuracy), speed: known(coords.speed),
    heading: heading === null ? null : ((heading % 360) + 360) % 360, datum: DATUM,
  };
}
