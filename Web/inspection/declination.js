// The magnetic declination — the angle from true north to magnetic north, east positive — from
// the World Magnetic Model (WMM2025, Web/inspection/wmm2025.js), so that the cameras can turn the
// phone's compass (which points to magnetic north: Android's rotation vector, Safari's
// webkitCompassHeading) into the true-north azimuth and heading that issue #15 point 2 and
// DESIGN §3.9 ask for. Pure, no DOM: Tests/Web/unit/declination.test.mjs checks it against the
// PyPI package pygeomag (Tests/Conformance/declination/, written by
// Tests/Reference/declination_reference.py).
//
// The algorithm is the WMM technical report's (NOAA NCEI / BGS, "The US/UK World Magnetic Model
// for 2025-2030", section 1.2): the coefficients moved to the date by their secular variation,
// the place turned from geodetic (WGS-84) into geocentric spherical coordinates, the field's
// north, east and down components synthesised from Schmidt semi-normalised associated Legendre
// functions of degree 1…12, the north component rotated back into the geodetic frame, and
// D = atan2(east, north).
import { WMM_COEFFICIENTS, WMM_EPOCH, WMM_VALID_UNTIL, WMM_MODEL } from './wmm2025.js';

/** WGS-84 semi-major axis, km. */
const WGS84_A = 6378.137;
/** WGS-84 flattening. */
const WGS84_F = 1 / 298.257223563;
/** The square of WGS-84's first eccentricity. */
const WGS84_E2 = WGS84_F * (2 - WGS84_F);
/** The geomagnetic reference radius of the model, km. */
const REFERENCE_RADIUS = 6371.2;
/** The model's degree. */
const DEGREE = 12;
const RADIANS = Math.PI / 180;
/** Below this cosine of the geocentric latitude the place counts as a pole, where north has no direction. */
const POLE = 1e-10;

/**
 * Why a declination could not be computed: a coordinate or the date is missing or not a
 * number, a latitude or longitude out of range, or a geographic pole (every direction is south
 * or north there, so there is no declination).
 * @typedef {{kind: 'invalidLatitude'} | {kind: 'invalidLongitude'} | {kind: 'invalidAltitude'}
 *   | {kind: 'invalidDate'} | {kind: 'pole'}} DeclinationError
 */

/**
 * The declination at a place and time.
 * @typedef {object} Declination
 * @property {number} declination degrees, east positive: true azimuth = magnetic azimuth + declination
 * @property {number} year the decimal year it was computed for
 * @property {boolean} outsideModel the date lies outside the model's years (WMM2025: 2025.0–2030.0):
 *   the value is extrapolated from the secular variation and less accurate than the model promises
 * @property {string} model the model's name (e.g. "WMM-2025")
 */

/**
 * The decimal year of a moment, UTC: 2025.0 is the start of 1 January 2025, and the fraction
 * counts milliseconds of that year (366 days in a leap year).
 * @param {Date | number} date a Date or milliseconds since 1970
 * @returns {number} NaN for an invalid date
 */
export function decimalYear(date) {
  const ms = date instanceof Date ? date.getTime() : date;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return NaN;
  const year = new Date(ms).getUTCFullYear();
  const start = Date.UTC(year, 0, 1), end = Date.UTC(year + 1, 0, 1);
  return year + (ms - start) / (end - start);
}

/**
 * The magnetic declination from the WMM at a geodetic place and a moment.
 * @param {number} latitude degrees, −90…90 (WGS-84)
 * @param {number} longitude degrees, −180…180 (a longitude beyond ±180 is refused, not wrapped)
 * @param {number} altitude metres above the WGS-84 ellipsoid (a phone's altitude; the difference
 *   from mean sea level changes the declination by far less than the model's own error)
 * @param {Date | number} date a Date, or a decimal year (2026.5) when it is a number below 10000
 * @returns {{ok: true, value: Declination} | {ok: false, error: DeclinationError}}
 */
export function magneticDeclination(latitude, longitude, altitude, date) {
  if (!isNumber(latitude) || Math.abs(latitude) > 90) return { ok: false, error: { kind: 'invalidLatitude' } };
  if (!isNumber(longitude) || Math.abs(longitude) > 180) return { ok: false, error: { kind: 'invalidLongitude' } };
  if (!isNumber(altitude)) return { ok: false, error: { kind: 'invalidAltitude' } };
  const year = typeof date === 'number' && Math.abs(date) < 10000 ? date : decimalYear(date);
  if (!isNumber(year)) return { ok: false, error: { kind: 'invalidDate' } };

  // Geodetic → geocentric spherical (the report's eq. 7 and 8).
  const phi = latitude * RADIANS, lambda = longitude * RADIANS, h = altitude / 1000;
  const sinPhi = Math.sin(phi), cosPhi = Math.cos(phi);
  const rc = WGS84_A / Math.sqrt(1 - WGS84_E2 * sinPhi * sinPhi);
  const p = (rc + h) * cosPhi, z = (rc * (1 - WGS84_E2) + h) * sinPhi;
  const r = Math.hypot(p, z);
  const phiC = Math.asin(z / r);
  const x = Math.sin(phiC), s = Math.cos(phiC); // cos and sin of the geocentric colatitude
  if (s < POLE) return { ok: false, error: { kind: 'pole' } };

  const { P, dP } = legendre(x, s);
  const dt = year - WMM_EPOCH;
  let north = 0, east = 0, down = 0;
  for (const [n, m, g0, h0, gDot, hDot] of WMM_COEFFICIENTS) {
    const g = g0 + dt * gDot, hh = h0 + dt * hDot;
    const ratio = (REFERENCE_RADIUS / r) ** (n + 2);
    const cosM = Math.cos(m * lambda), sinM = Math.sin(m * lambda);
    const scale = schmidt(n, m);
    const pnm = P[n][m] * scale, dpnm = dP[n][m] * scale; // dP/dθ; d/dφ' = −d/dθ
    // The report's eq. 10–12 in the geocentric frame.
    north += ratio * (g * cosM + hh * sinM) * dpnm;
    east += ratio * m * (g * sinM - hh * cosM) * pnm;
    down -= (n + 1) * ratio * (g * cosM + hh * sinM) * pnm;
  }
  east /= s;
  // Back into the geodetic frame (eq. 17): only north and down mix; east stays.
  const psi = phiC - phi;
  const northGeodetic = north * Math.cos(psi) - down * Math.sin(psi);
  const declination = Math.atan2(east, northGeodetic) / RADIANS;
  return {
    ok: true,
    value: { declination, year, outsideModel: year < WMM_EPOCH || year > WMM_VALID_UNTIL, model: WMM_MODEL },
  };
}

/**
 * A compass reading against magnetic north turned into one against true north, 0 ≤ result < 360.
 * @param {number} magnetic degrees clockwise from magnetic north
 * @param {number} declination degrees, east positive (magneticDeclination's value)
 * @returns {number}
 */
export function trueFromMagnetic(magnetic, declination) {
  const t = (magnetic + declination) % 360;
  const wrapped = t < 0 ? t + 360 : t;
  return wrapped >= 360 ? 0 : wrapped;
}

/**
 * The associated Legendre functions P_n^m(cos θ) without normalisation or Condon–Shortley phase
 * and their derivatives by θ, for n ≤ 12, by the standard recursions (diagonal, sub-diagonal,
 * then upwards in n), differentiated term by term so that nothing divides by sin θ.
 * @param {number} x cos θ @param {number} s sin θ
 * @returns {{P: number[][], dP: number[][]}}
 */
function legendre(x, s) {
  /** @type {number[][]} */ const P = [];
  /** @type {number[][]} */ const dP = [];
  for (let n = 0; n <= DEGREE; n++) { P.push(new Array(DEGREE + 1).fill(0)); dP.push(new Array(DEGREE + 1).fill(0)); }
  P[0][0] = 1;
  for (let m = 0; m <= DEGREE; m++) {
    if (m > 0) {
      P[m][m] = (2 * m - 1) * s * P[m - 1][m - 1];
      dP[m][m] = (2 * m - 1) * (x * P[m - 1][m - 1] + s * dP[m - 1][m - 1]);
    }
    if (m + 1 <= DEGREE) {
      P[m + 1][m] = (2 * m + 1) * x * P[m][m];
      dP[m + 1][m] = (2 * m + 1) * (x * dP[m][m] - s * P[m][m]);
    }
    for (let n = m + 2; n <= DEGREE; n++) {
      P[n][m] = ((2 * n - 1) * x * P[n - 1][m] - (n + m - 1) * P[n - 2][m]) / (n - m);
      dP[n][m] = ((2 * n - 1) * (x * dP[n - 1][m] - s * P[n - 1][m]) - (n + m - 1) * dP[n - 2][m]) / (n - m);
    }
  }
  return { P, dP };
}

/** Schmidt's semi-normalisation: √((2 − δ_m0)·(n − m)!/(n + m)!). */
function schmidt(/** @type {number} */ n, /** @type {number} */ m) {
  let ratio = 1;
  for (let k = n - m + 1; k <= n + m; k++) ratio /= k;
  return Math.sqrt((m === 0 ? 1 : 2) * ratio);
}

/** @param {unknown} v @returns {v is number} */
function isNumber(v) {
  return typeof v === 'number' && Number.isFinite(v);
}
