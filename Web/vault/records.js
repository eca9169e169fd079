// Location records (DESIGN §3.11) from what the phone knows: the fixes of a recorded route, an
// OwnTracks device's fixes, or one position read now. Speed (m/s) and heading (degrees from true north, 0 ≤ h < 360) come
// from the source when it gives them; a route's fixes carry neither, so they are derived as the
// Swift library's VaultRecord.records(track:) does: from the next fix (the start azimuth), the
// track's last fix from the one before (the end azimuth, the direction of arrival), on the
// WGS-84 ellipsoid with Vincenty's inverse formula (../app/geodesy.js, WaymarkCore's Geodesy.inverse
// ported). A lone fix, or a neighbour at the same instant or earlier,
// gives none; the same place gives speed 0 and no heading. Nothing here touches the DOM.
import { geodesic } from '../app/geodesy.js';
import { DATUM } from './seal.js';

/** @typedef {import('./seal.js').VaultRecord} VaultRecord */
/** @typedef {import('../recorder/envelope.js').Fix} Fix */

/**
 * ISO 8601 UTC in whole seconds (fractions dropped): 2017-12-28T16:49:22Z.
 * @param {number} seconds since 1970
 */
export function isoSeconds(seconds) {
  return new Date(Math.floor(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
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

/**
 * The record of one fix that tells its own speed and heading (an OwnTracks fix: speed in m/s,
 * heading in degrees); what it does not tell stays null.
 * @param {Fix & {speed: number | null, heading: number | null}} fix
 * @returns {VaultRecord}
 */
export function recordFromFix(fix) {
  const heading = known(fix.heading);
  return {
    timestamp: isoSeconds(fix.time), latitude: fix.latitude, longitude: fix.longitude,
    altitude: known(fix.altitude), accuracy: known(fix.accuracy), speed: known(fix.speed),
    heading: heading === null ? null : ((heading % 360) + 360) % 360, datum: DATUM,
  };
}
