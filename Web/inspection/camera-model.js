// The evidence camera's rules (issue #15 point 2, DESIGN §3.10, seed 003's Camera mode), apart
// from the DOM so that node tests check them: where the back camera looks (azimuth from north
// and tilt above the horizon, from the device orientation), whether the phone is still
// (device motion under a threshold for 2 s), the centroid of the last N fixes, which conditions
// keep the shutter from being enabled — always named in the same order, as message keys —, the
// 5-second countdown that rejects the photo when a condition fails during it, and the upload
// fields of a photo taken, with the centroid written exactly as the server's pattern wants it.
// Web/app/pages/camera.js wires these to the camera, the sensors and the outboxes.
//
// cameraDirection's north is the north of the browser's absolute orientation: phones take it
// from their magnetometer (Android's rotation vector, Safari's webkitCompassHeading), so it is
// magnetic north. trueDirection adds the magnetic declination of the World Magnetic Model at the
// fix's place and the moment (declination.js), so the readout and the stored azimuth are true
// north, as issue #15 point 2 asks; without a fix the azimuth is not known yet.
import { fromDeviceOrientation, rotationMatrix } from '../scenes/attitude.js';
import { hullCentroid } from './geometry.js';
import { magneticDeclination, trueFromMagnetic } from './declination.js';

/** Standard gravity, m/s²: what a phone at rest measures when the browser only gives acceleration with gravity. */
export const GRAVITY = 9.80665;
/** How long the phone must stay under the motion threshold before the shutter is enabled, ms. */
export const STILL_MS = 2000;
/** The longest gap between motion samples that still counts as an unbroken record, ms. */
export const MOTION_GAP_MS = 500;
/** A position older than this is no position for a photo, ms. */
export const FIX_MAX_AGE_MS = 30000;
/** The auto shutter's countdown, ms. */
export const COUNTDOWN_MS = 5000;

const RADIANS = Math.PI / 180;
/** Below this, the camera's horizontal direction counts as zero: it looks straight up or down. */
const VERTICAL = 1e-9;

/**
 * Where the back camera looks.
 * @typedef {object} Direction
 * @property {number} azimuth degrees clockwise from north, 0 ≤ azimuth < 360 (cameraDirection:
 *   the north of the absolute orientation, magnetic; trueDirection: true north)
 * @property {number} tilt degrees above the horizon, −90 (straight down) … 90 (straight up)
 * @property {boolean} vertical the camera looks straight up or down: the azimuth is then that
 *   of the top of the screen (what a compass app shows for a phone lying flat)
 */

/**
 * The direction of the back camera — the device's −z axis — from the W3C deviceorientation
 * angles (absolute: alpha from north) and the screen's angle, through attitude.js' rotation
 * matrix, whose third column is the device's z axis in east-north-up coordinates. The screen's
 * rotation turns the picture, not the camera: it matters only for a camera looking straight up
 * or down, whose azimuth is then that of the top of the screen as the user sees it.
 * Null when an angle is missing (a browser without the sensor sends null).
 * @param {number | null | undefined} alpha @param {number | null | undefined} beta
 * @param {number | null | undefined} gamma @param {number} [screenAngle] screen.orientation.angle
 * @returns {Direction | null}
 */
export function cameraDirection(alpha, beta, gamma, screenAngle = 0) {
  const q = fromDeviceOrientation(alpha ?? null, beta ?? null, gamma ?? null, Number.isFinite(screenAngle) ? screenAngle : 0);
  if (!q) return null;
  const m = rotationMatrix(q);
  const east = -m[0][2], north = -m[1][2], up = -m[2][2];
  const tilt = Math.asin(Math.max(-1, Math.min(1, up))) / RADIANS;
  const vertical = Math.hypot(east, north) <= VERTICAL;
  // Looking straight down or up, the top of the screen (the device's y axis after the screen's
  // rotation) gives the direction; it is horizontal then.
  const azimuth = vertical ? heading(m[0][1], m[1][1]) : heading(east, north);
  return { azimuth, tilt, vertical };
}

/**
 * The camera's direction against true north: the magnetic azimuth plus the WMM's declination at
 * the fix's place (its altitude, or the ellipsoid when it has none) at the given moment. Null
 * when there is no direction, no fix yet, or the declination cannot be had there (a pole): the
 * azimuth is then not known, rather than magnetic.
 * @param {Direction | null} direction from cameraDirection (magnetic north)
 * @param {{latitude: number, longitude: number, altitude: number | null} | null} fix
 * @param {number} at ms since 1970: the photo's time
 * @returns {Direction | null}
 */
export function trueDirection(direction, fix, at) {
  if (!direction || !fix) return null;
  const declination = magneticDeclination(fix.latitude, fix.longitude, fix.altitude ?? 0, new Date(at));
  if (!declination.ok) return null;
  return { ...direction, azimuth: trueFromMagnetic(direction.azimuth, declination.value.declination) };
}

/**
 * Degrees clockwise from north of a horizontal direction, 0 ≤ result < 360.
 * @param {number} east @param {number} north
 */
function heading(east, north) {
  let degrees = Math.atan2(east, north) / RADIANS;
  if (degrees < 0) degrees += 360;
  if (degrees >= 360) degrees -= 360;
  return degrees;
}

/**
 * The alpha angle measured from north, if the event has one: `deviceorientationabsolute` (and a
 * `deviceorientation` that says it is absolute) gives it; Safari gives webkitCompassHeading
 * (clockwise from north, the direction of the top of a flat phone), whose alpha is 360 − it.
 * Null when the event's alpha is relative to wherever the phone was when the page opened.
 * @param {{alpha?: number | null, absolute?: boolean, webkitCompassHeading?: number | null}} event
 * @returns {number | null}
 */
export function absoluteAlpha(event) {
  const compass = event.webkitCompassHeading;
  if (typeof compass === 'number' && Number.isFinite(compass) && compass >= 0) return (360 - compass) % 360;
  if (event.absolute && typeof event.alpha === 'number' && Number.isFinite(event.alpha)) return event.alpha;
  return null;
}

/**
 * @typedef {{x?: number | null, y?: number | null, z?: number | null} | null | undefined} Vector
 */

/**
 * How hard the phone is being moved, m/s², from one devicemotion event: the length of the
 * acceleration without gravity, or — when the browser gives only the acceleration including
 * gravity — how far that length is from standard gravity. Null when the event has neither.
 * @param {{acceleration?: Vector, accelerationIncludingGravity?: Vector}} event
 * @returns {number | null}
 */
export function motionMagnitude(event) {
  const length = (/** @type {Vector} */ v) => {
    if (!v || typeof v.x !== 'number' || typeof v.y !== 'number' || typeof v.z !== 'number') return null;
    const size = Math.hypot(v.x, v.y, v.z);
    return Number.isFinite(size) ? size : null;
  };
  const plain = length(event.acceleration);
  if (plain !== null) return plain;
  const withGravity = length(event.accelerationIncludingGravity);
  return withGravity === null ? null : Math.abs(withGravity - GRAVITY);
}

/** @typedef {{time: number, magnitude: number}} MotionSample */

/**
 * The samples still needed at `now` (those of the last STILL_MS + MOTION_GAP_MS) with `sample`
 * added; the array passed in is not changed.
 * @param {readonly MotionSample[]} samples in time order
 * @param {MotionSample} sample
 * @returns {MotionSample[]}
 */
export function addMotionSample(samples, sample) {
  const from = sample.time - STILL_MS - MOTION_GAP_MS;
  return [...samples.filter((kept) => kept.time >= from && kept.time <= sample.time), sample];
}

/**
 * Whether the phone is still at `now`:
 * - `none`: no motion data (none yet, or none for MOTION_GAP_MS — the sensor stopped or is missing);
 * - `moving`: a sample of the last STILL_MS is over the threshold;
 * - `settling`: under it so far, but the samples do not yet cover the last STILL_MS without a gap;
 * - `still`: every sample of the last STILL_MS under the threshold, and they cover it (one at or
 *   before its start, no gap longer than MOTION_GAP_MS since).
 * @param {readonly MotionSample[]} samples in time order
 * @param {number} now the same clock as the samples' times (ms)
 * @param {number} threshold m/s²
 * @returns {'none' | 'moving' | 'settling' | 'still'}
 */
export function stillness(samples, now, threshold) {
  const known = samples.filter((sample) => sample.time <= now);
  const last = known[known.length - 1];
  if (!last || now - last.time > MOTION_GAP_MS) return 'none';
  const start = now - STILL_MS;
  if (known.some((sample) => sample.time >= start && !(sample.magnitude < threshold))) return 'moving';
  // Covered: a sample at or before the start of the 2 s, and none of the gaps from there on too long.
  let first = -1;
  for (let index = 0; index < known.length; index++) if (known[index].time <= start) first = index;
  if (first < 0) return 'settling';
  for (let index = first + 1; index < known.length; index++) {
    if (known[index].time - known[index - 1].time > MOTION_GAP_MS) return 'settling';
  }
  return 'still';
}

/** @typedef {import('./fixes.js').Fix} Fix */

/**
 * @typedef {object} CentroidWindow
 * @property {number} samples how many fixes the window has (n of "samples n/N")
 * @property {number} total N
 * @property {boolean} complete n = N
 * @property {{latitude: number, longitude: number, samples: number} | null} centroid the hull
 *   centroid of the window once it is complete, else null
 */

/**
 * The centroid window: the last `total` fixes and, once there are that many, the centroid of
 * their convex hull (Web/inspection/geometry.js' hullCentroid).
 * @param {readonly {latitude: number, longitude: number}[]} fixes oldest first
 * @param {number} total N, the centroid sampling number
 * @returns {CentroidWindow}
 */
export function centroidWindow(fixes, total) {
  const last = fixes.slice(-total);
  const complete = last.length === total && total > 0;
  let centroid = null;
  if (complete) {
    const found = hullCentroid(last.map((fix) => ({ latitude: fix.latitude, longitude: fix.longitude })));
    if (found.ok) centroid = { latitude: found.latitude, longitude: found.longitude, samples: found.samples };
  }
  return { samples: last.length, total, complete: centroid !== null, centroid };
}

/**
 * A condition that keeps the shutter from being enabled: a message key and its parameters.
 * @typedef {{key: string, params?: Record<string, number>}} Missing
 */

/**
 * What the shutter waits for, in a fixed order: the camera, a position (one younger than
 * FIX_MAX_AGE_MS), its accuracy, a still phone, motion data, and — with the centroid on — a
 * complete centroid window. Empty when the photo may be taken.
 * @param {object} state
 * @param {boolean} state.camera the camera shows a picture
 * @param {Fix | null} state.fix the last position
 * @param {number} state.now ms since 1970 (the fixes' clock)
 * @param {{centroid: boolean, accuracy: number}} state.settings
 * @param {'none' | 'moving' | 'settling' | 'still'} state.motion stillness()'s answer
 * @param {CentroidWindow | null} state.collected centroidWindow()'s answer (with the centroid on)
 * @returns {Missing[]}
 */
export function readiness({ camera, fix, now, settings, motion, collected }) {
  /** @type {Missing[]} */
  const missing = [];
  if (!camera) missing.push({ key: 'camera.missing.camera' });
  if (!fix || now - fix.time > FIX_MAX_AGE_MS) missing.push({ key: 'camera.missing.fix' });
  else if (!(fix.accuracy <= settings.accuracy)) {
    missing.push({ key: 'camera.missing.accuracy', params: { accuracy: Math.round(fix.accuracy * 10) / 10, limit: settings.accuracy } });
  }
  if (motion === 'moving') missing.push({ key: 'camera.missing.moving' });
  else if (motion === 'settling') missing.push({ key: 'camera.missing.settling', params: { seconds: STILL_MS / 1000 } });
  else if (motion === 'none') missing.push({ key: 'camera.missing.motion' });
  if (settings.centroid && !collected?.complete) {
    missing.push({ key: 'camera.missing.centroid', params: { samples: collected?.samples ?? 0, total: collected?.total ?? 0 } });
  }
  return missing;
}

/**
 * @typedef {{state: 'counting', secondsLeft: number}
 *   | {state: 'rejected', reason: Missing}
 *   | {state: 'take'}} CountdownStep
 */

/**
 * One tick of the auto shutter started at `startedAt`, with the conditions as they are now:
 * any condition failing rejects the photo (the first in readiness' order is the reason);
 * otherwise the seconds left, until COUNTDOWN_MS have passed and the photo is taken.
 * @param {number} startedAt @param {number} now the same clock (ms)
 * @param {readonly Missing[]} missing readiness() now
 * @returns {CountdownStep}
 */
export function countdownStep(startedAt, now, missing) {
  if (missing.length > 0) return { state: 'rejected', reason: missing[0] };
  const left = COUNTDOWN_MS - (now - startedAt);
  if (left <= 0) return { state: 'take' };
  return { state: 'counting', secondsLeft: Math.ceil(left / 1000) };
}

/**
 * A number as a plain decimal with at most `digits` decimals: no exponent, no trailing zeros,
 * never "-0" (what the server's patterns accept).
 * @param {number} value @param {number} digits
 */
export function plainDecimal(value, digits) {
  let text = value.toFixed(digits);
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  return text === '-0' ? '0' : text;
}

/**
 * The centroid as the upload's `centroid` field: JSON exactly as the server's pattern
 * `{"latitude":…,"longitude":…,"samples":N}` — plain decimals of nine places (0.1 mm), no spaces.
 * @param {{latitude: number, longitude: number, samples: number}} centroid
 */
export function centroidField(centroid) {
  return `{"latitude":${plainDecimal(centroid.latitude, 9)},"longitude":${plainDecimal(centroid.longitude, 9)},"samples":${Math.round(centroid.samples)}}`;
}

/**
 * The form fields of a photo taken (POST /api/v1/photos and /api/v1/tasks/{id}/photos): the
 * time, the last fix (the place it was taken from, its altitude when known and in the server's
 * range, its accuracy), the camera's azimuth and tilt when the orientation is known, private,
 * and the centroid when there is one.
 * @param {object} photo
 * @param {number} photo.takenAt ms since 1970
 * @param {Fix} photo.fix
 * @param {Direction | null} photo.direction against true north (trueDirection)
 * @param {{latitude: number, longitude: number, samples: number} | null} photo.centroid
 * @returns {Record<string, string>}
 */
export function uploadFields({ takenAt, fix, direction, centroid }) {
  /** @type {Record<string, string>} */
  const fields = {
    capturedAt: new Date(takenAt).toISOString(),
    latitude: plainDecimal(fix.latitude, 9),
    longitude: plainDecimal(fix.longitude, 9),
    accuracy: plainDecimal(fix.accuracy, 1),
    visibility: 'private',
  };
  if (typeof fix.altitude === 'number' && Number.isFinite(fix.altitude) && fix.altitude >= -1000 && fix.altitude <= 100000) {
    fields.altitude = plainDecimal(fix.altitude, 2);
  }
  if (direction) {
    const azimuth = Math.round(direction.azimuth * 100) / 100;
    fields.azimuth = plainDecimal(azimuth >= 360 ? 0 : azimuth, 2);
    fields.tilt = plainDecimal(Math.max(-90, Math.min(90, direction.tilt)), 2);
  }
  if (centroid) fields.centroid = centroidField(centroid);
  return fields;
}
