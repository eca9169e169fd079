// Location records (DESIGN §3.11) from what the phone knows: the fixes of a recorded route, or
// one position read now. Speed (m/s) and heading (degrees from true north, 0 ≤ h < 360) come
// from the source when it gives them; a route's fixes carry neither, so they are derived from
// the neighbouring fix (the fix before; the first fix of a track from the one after) on the
// sphere of the Earth's mean radius. A lone fix has none. Nothing here touches the DOM.
import { DATUM } from './seal.js';

/** @typedef {import('./seal.js').VaultRecord} VaultRecord */
/** @typedef {import('../recorder/envelope.js').Fix} Fix */

/** The Earth's mean radius (IUGG), metres. */
const EARTH_RADIUS = 6371008.8;

/**
 * ISO 8601 UTC in whole seconds: 2017-12-28T16:49:22Z.
 * @param {number} seconds since 1970
 */
export function isoSeconds(seconds) {
  return new Date(Math.floor(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** @param {number} degrees */
const radians = (degrees) => (degrees * Math.PI) / 180;

/**
 * The distance (m) and initial bearing (degrees, 0 ≤ b < 360) from one place to another.
 * @param {{latitude: number, longitude: number}} from
 * @param {{latitude: number, longitude: number}} to
 */
export function distanceAndBearing(from, to) {
  const lat1 = radians(from.latitude);
  const lat2 = radians(to.latitude);
  const dLat = lat2 - lat1;
  const dLon = radians(to.longitude - from.longitude);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin(dLon / 2) ** 2;
  const distance = 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
  const y = Math.sin(dLon) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLon);
  const bearing = (((Math.atan2(y, x) * 180) / Math.PI) + 360) % 360;
  return { distance, bearing };
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
    const neighbour = index > 0 ? track[index - 1] : track[index + 1];
    if ((speed === null || heading === null) && neighbour) {
      const [from, to] = index > 0 ? [neighbour, fix] : [fix, neighbour];
      const { distance, bearing } = distanceAndBearing(from, to);
      const seconds = Math.abs(to.time - from.time);
      if (speed === null && seconds > 0) speed = round(distance / seconds, 2);
      if (heading === null && distance > 0) heading = round(bearing, 1) % 360;
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

/** @param {number} value @param {number} digits */
function round(value, digits) {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
