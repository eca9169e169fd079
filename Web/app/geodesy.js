// Geodesy on the WGS-84 ellipsoid, shared by the recorder (distances) and the vault (speed and
// heading of a route's records): Vincenty's inverse formula (1975), step for step as WaymarkCore's
// Geodesy.swift (`Geodesy.inverse`), so both sides of a conformance case get the same numbers.
// Nearly antipodal points, where the iteration does not converge, give the last iterate.

const SEMI_MAJOR = 6378137;
const FLATTENING = 1 / 298.257223563;
const RADIANS = Math.PI / 180;

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
 * The geodesic distance in metres between two points on the WGS-84 ellipsoid.
 * @param {{latitude: number, longitude: number}} a degrees
 * @param {{latitude: number, longitude: number}} b degrees
 */
export function geodesicDistance(a, b) {
  return geodesic(a, b).distance;
}
