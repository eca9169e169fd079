// Attitude math for rephotography (DESIGN §3.9, seed 001 §4.3): quaternions from the browser's
// deviceorientation angles and the screen orientation, qΔ = q0⁻¹·q1, the thesis' eq. 4.17
// roll/pitch/yaw, the navigation rectangle's centre, the level tilt and the compass heading.
// Step for step as WaymarkCore's Sources/WaymarkCore/Attitude/, so both give the same numbers;
// both are checked against Tests/Conformance/attitude/*.json.
//
// A quaternion {w, x, y, z} (Hamilton's convention) turns device coordinates into world
// coordinates east-north-up; the device axes are the W3C Device Orientation spec's (x to the
// right of the screen, y to its top, z out of the screen). q and -q are the same attitude.
// Every quaternion these functions return is of unit length.

const RADIANS = Math.PI / 180;

/** Below this, both components of a direction count as zero: the direction is undefined. */
const DEGENERATE = 1e-12;

/**
 * @typedef {{readonly w: number, readonly x: number, readonly y: number, readonly z: number}} Quaternion
 */

/** No rotation. @type {Quaternion} */
export const IDENTITY = Object.freeze({ w: 1, x: 0, y: 0, z: 0 });

/**
 * @param {number} w @param {number} x @param {number} y @param {number} z
 * @returns {Quaternion}
 */
function unchecked(w, x, y, z) {
  return Object.freeze({ w, x, y, z });
}

/**
 * The unit quaternion in the direction of (w, x, y, z); null when its norm, computed plainly as
 * √(w² + x² + y² + z²), is zero or not finite (all zero, NaN or infinite, or squares that
 * overflow or all underflow), as WaymarkCore's Quaternion(w:x:y:z:).
 * @param {number} w @param {number} x @param {number} y @param {number} z
 * @returns {Quaternion | null}
 */
export function quaternion(w, x, y, z) {
  const norm = Math.sqrt(w * w + x * x + y * y + z * z);
  if (!Number.isFinite(norm) || !(norm > 0)) return null;
  return unchecked(w / norm, x / norm, y / norm, z / norm);
}

/**
 * The rotation by `angle` radians about a unit coordinate axis.
 * @param {number} ax @param {number} ay @param {number} az @param {number} angle
 */
function axisAngle(ax, ay, az, angle) {
  const s = Math.sin(angle / 2);
  return unchecked(Math.cos(angle / 2), ax * s, ay * s, az * s);
}

/**
 * The inverse rotation of a unit quaternion: its conjugate.
 * @param {Quaternion} q
 * @returns {Quaternion}
 */
export function inverse(q) {
  return unchecked(q.w, -q.x, -q.y, -q.z);
}

/**
 * The same rotation with every sign flipped.
 * @param {Quaternion} q
 * @returns {Quaternion}
 */
export function negate(q) {
  return unchecked(-q.w, -q.x, -q.y, -q.z);
}

/**
 * Hamilton's product a·b, normalised: the rotation b followed by a, as M(a)·M(b).
 * @param {Quaternion} a @param {Quaternion} b
 * @returns {Quaternion}
 */
export function multiply(a, b) {
  const w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
  const x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
  const y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
  const z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
  const norm = Math.sqrt(w * w + x * x + y * y + z * z);
  return unchecked(w / norm, x / norm, y / norm, z / norm);
}

/**
 * The rotation matrix, row by row: its columns are the device's axes in world coordinates.
 * @param {Quaternion} q
 * @returns {number[][]}
 */
export function rotationMatrix(q) {
  const { w, x, y, z } = q;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
}

/**
 * The attitude of the camera frame from the deviceorientation angles (degrees; intrinsic
 * Z-X'-Y'': R = Rz(alpha)·Rx(beta)·Ry(gamma), east-north-up) followed by a rotation about the
 * device's z axis by -screenAngle (`screen.orientation.angle`: 0, 90, 180, 270 or -90), so that
 * x and y stay the right and top of what the user sees, as three.js' DeviceOrientationControls
 * does: q = q(alpha, beta, gamma)·q_z(-screenAngle). Null when an angle is not a finite number
 * (a browser without the sensor sends null).
 * @param {number | null} alpha @param {number | null} beta @param {number | null} gamma
 * @param {number} [screenAngle]
 * @returns {Quaternion | null}
 */
export function fromDeviceOrientation(alpha, beta, gamma, screenAngle = 0) {
  if (typeof alpha !== 'number' || typeof beta !== 'number' || typeof gamma !== 'number') return null;
  if (!Number.isFinite(alpha) || !Number.isFinite(beta) || !Number.isFinite(gamma) || !Number.isFinite(screenAngle)) return null;
  const turn = axisAngle(0, 0, 1, alpha * RADIANS);
  const tilt = axisAngle(1, 0, 0, beta * RADIANS);
  const lean = axisAngle(0, 1, 0, gamma * RADIANS);
  const screen = axisAngle(0, 0, 1, -screenAngle * RADIANS);
  return multiply(multiply(multiply(turn, tilt), lean), screen);
}

/**
 * The compass heading of the back camera (the device's -z axis on the horizontal plane), degrees
 * clockwise from north, 0 ≤ heading < 360: the W3C spec's example compassHeading with atan2.
 * Null when the camera looks straight up or down or an angle is not a finite number.
 * @param {number | null} alpha @param {number | null} beta @param {number | null} gamma
 * @returns {number | null}
 */
export function compassHeading(alpha, beta, gamma) {
  if (typeof alpha !== 'number' || typeof beta !== 'number' || typeof gamma !== 'number') return null;
  if (!Number.isFinite(alpha) || !Number.isFinite(beta) || !Number.isFinite(gamma)) return null;
  const cX = Math.cos(beta * RADIANS), sX = Math.sin(beta * RADIANS);
  const cY = Math.cos(gamma * RADIANS), sY = Math.sin(gamma * RADIANS);
  const cZ = Math.cos(alpha * RADIANS), sZ = Math.sin(alpha * RADIANS);
  const east = -cZ * sY - sZ * sX * cY;
  const north = -sZ * sY + cZ * sX * cY;
  if (Math.abs(east) <= DEGENERATE && Math.abs(north) <= DEGENERATE) return null;
  let heading = Math.atan2(east, north) / RADIANS;
  if (heading < 0) heading += 360;
  if (heading >= 360) heading -= 360;
  return heading;
}

/**
 * Eq. 4.23: rotation about the device's y axis (turning left or right when upright), radians.
 * @param {Quaternion} q
 */
export function roll(q) {
  const { w, x, y, z } = q;
  return Math.atan2(-2 * x * z + 2 * w * y, z * z - y * y - x * x + w * w);
}

/**
 * Eq. 4.24: rotation about the device's x axis (tilting up or down), radians; asin's argument
 * clamped to [-1, 1] so that rounding near gimbal lock cannot give NaN.
 * @param {Quaternion} q
 */
export function pitch(q) {
  const { w, x, y, z } = q;
  return Math.asin(Math.min(1, Math.max(-1, 2 * y * z + 2 * w * x)));
}

/**
 * Eq. 4.17's third angle: the heading of the device's y axis, radians anticlockwise from north.
 * Undefined for a phone held upright (pitch ±π/2): the level rectangle uses levelTilt.
 * @param {Quaternion} q
 */
export function yaw(q) {
  const { w, x, y, z } = q;
  return Math.atan2(-2 * x * y + 2 * w * z, y * y - z * z + w * w - x * x);
}

/**
 * How far the screen is turned clockwise from level as the user looks at it, radians; the level
 * rectangle of a new scene is drawn turned by -levelTilt. Null when the screen lies flat.
 * @param {Quaternion} q
 * @returns {number | null}
 */
export function levelTilt(q) {
  const { w, x, y, z } = q;
  const upAlongX = 2 * (x * z - w * y);
  const upAlongY = 2 * (y * z + w * x);
  if (Math.abs(upAlongX) <= DEGENERATE && Math.abs(upAlongY) <= DEGENERATE) return null;
  return Math.atan2(-upAlongX, upAlongY);
}

/**
 * qΔ = q0⁻¹·q1 (eq. 4.22): from the reference attitude to the current one.
 * @param {Quaternion} reference @param {Quaternion} current
 * @returns {Quaternion}
 */
export function delta(reference, current) {
  return multiply(inverse(reference), current);
}

/**
 * The navigation rectangle's centre on a view width × height (y downwards) for qΔ:
 * x = (ROLL + π)/(2π)·width, y = (PITCH + π/2)/π·height — the middle when the attitudes match.
 * @param {Quaternion} relative @param {number} width @param {number} height
 * @returns {{x: number, y: number}}
 */
export function rectangleCentre(relative, width, height) {
  const x = ((roll(relative) + Math.PI) / (2 * Math.PI)) * width;
  const y = ((pitch(relative) + Math.PI / 2) / Math.PI) * height;
  return { x, y };
}

/**
 * The navigation rectangle's centre for the reference and the current attitude.
 * @param {Quaternion} reference @param {Quaternion} current @param {number} width @param {number} height
 */
export function navigationRectangleCentre(reference, current, width, height) {
  return rectangleCentre(delta(reference, current), width, height);
}
