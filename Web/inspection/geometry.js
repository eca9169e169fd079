// Field geometry on the WGS-84 ellipsoid for inspection paths and evidence photos, the same as
// WaymarkCore's Geodesy+PolygonArea.swift and Geodesy+Centroid.swift (their `///` comments
// explain the method); both are checked against GeographicLib through the shared table
// Tests/Conformance/geometry/*.json.
//
// - polygonMeasure(points): the area (m²) and perimeter (m) of the geodesic polygon through the
//   points, after Karney, "Algorithms for geodesics" (J. Geodesy 87, 2013), §6: each edge adds
//   the area S12 between it and the equator, S12 = c²·α12 + e²a²·cos α0·sin α0·(I4(σ2) − I4(σ1)).
//   The inverse problem of each edge is solved by iterating the exact longitude equation
//   λ12 = ω12 − f·sin α0·∫(2 − f)/(1 + (1 − f)√(1 + k²sin²σ)) dσ, and the integrals of λ, s and
//   I4 are evaluated by 20-point Gauss–Legendre quadrature instead of Karney's truncated series,
//   so the result agrees with GeographicLib to rounding: about 1e-4 m² for a walked field of
//   hundreds of points, 1e-14 relative for a continent.
// - hullCentroid(points): the area-weighted centroid of the convex hull of the points on the
//   local tangent plane (east, north) at their mean position, back to latitude and longitude.
//
// Both return typed outcomes ({ok: true, …} or {ok: false, error}) for input they cannot use; an
// edge between nearly antipodal points (from about 179.3° of arc on) is refused as unresolvedEdge.

const A = 6378137;
const F = 1 / 298.257223563;
const B = A * (1 - F);
const E2 = F * (2 - F);
const EP2 = E2 / ((1 - F) * (1 - F));
const RAD = Math.PI / 180;
/** The authalic radius squared, c² = a²/2 + b²/2 · atanh(e)/e. */
const C2 = (A * A + B * B * (Math.atanh(Math.sqrt(E2)) / Math.sqrt(E2))) / 2;
/** The ellipsoid's whole surface, 4πc². */
const AREA0 = 4 * Math.PI * C2;

/** Gauss–Legendre nodes and weights on [−1, 1], from Newton's method on the Legendre polynomial. */
const GAUSS = (() => {
  const n = 20;
  /** @type {number[]} */ const nodes = [];
  /** @type {number[]} */ const weights = [];
  for (let i = 1; i <= n; i++) {
    let x = Math.cos((Math.PI * (i - 0.25)) / (n + 0.5));
    let derivative = 1;
    for (let step = 0; step < 100; step++) {
      let p0 = 1, p1 = x;
      for (let k = 2; k <= n; k++) {
        const p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1; p1 = p2;
      }
      derivative = (n * (x * p1 - p0)) / (x * x - 1);
      const dx = p1 / derivative;
      x -= dx;
      if (Math.abs(dx) < 1e-16) break;
    }
    nodes.push(x);
    weights.push(2 / ((1 - x * x) * derivative * derivative));
  }
  return { nodes, weights };
})();

/**
 * ∫ of g from `start` over `span` (start + span is never formed, which would round the span away
 * on a short edge), by Gauss–Legendre quadrature.
 * @param {(x: number) => number} g
 * @param {number} start
 * @param {number} span
 */
function integrate(g, start, span) {
  const half = span / 2, middle = start + half;
  let sum = 0;
  for (let i = 0; i < GAUSS.nodes.length; i++) sum += GAUSS.weights[i] * g(middle + half * GAUSS.nodes[i]);
  return sum * half;
}

/**
 * Karney's t(x) = x + √(1/x + 1)·asinh(√x), with t(0) = 1.
 * @param {number} x ≥ 0
 */
function karneyT(x) {
  const y = Math.sqrt(x);
  const ratio = y < 1e-8 ? 1 - (y * y) / 6 : Math.asinh(y) / y;
  return x + Math.sqrt(1 + x) * ratio;
}

const T_EP2 = karneyT(EP2);

/**
 * The integrand of I4: −(t(e′²) − t(k²sin²σ)) / (e′² − k²sin²σ) · sin σ / 2.
 * @param {number} sigma
 * @param {number} k2
 */
function i4Integrand(sigma, k2) {
  const s = Math.sin(sigma);
  const x = k2 * s * s;
  const gap = EP2 - x;
  // Where k²sin²σ reaches e′² (only on a meridian at the equator, whose sin α0 = 0) the quotient
  // is t′(e′²); a one-sided difference is plenty there.
  const quotient = Math.abs(gap) < 1e-10 * EP2
    ? (T_EP2 - karneyT(EP2 * (1 - 1e-6))) / (EP2 * 1e-6)
    : (T_EP2 - karneyT(x)) / gap;
  return (-quotient * s) / 2;
}

/**
 * The longitude difference `to − from` in degrees, in (−180, 180].
 * @param {number} from
 * @param {number} to
 */
function longitudeDifference(from, to) {
  let d = (to - from) % 360;
  if (d > 180) d -= 360;
  else if (d <= -180) d += 360;
  return d;
}

/**
 * One edge of a polygon: the geodesic from p to q, its length and its area S12 against the equator.
 * Returns null when the iteration does not converge (nearly antipodal points).
 * @param {{latitude: number, longitude: number}} p
 * @param {{latitude: number, longitude: number}} q
 * @returns {{length: number, s12: number, lon12: number} | null}
 */
export function geodesicEdge(p, q) {
  const lon12 = longitudeDifference(p.longitude, q.longitude);
  const lambda12 = lon12 * RAD;
  const beta1 = Math.atan((1 - F) * Math.tan(p.latitude * RAD));
  const beta2 = Math.atan((1 - F) * Math.tan(q.latitude * RAD));
  // tan on ±90° is huge but finite; pin the poles exactly.
  const b1 = Math.abs(p.latitude) === 90 ? Math.sign(p.latitude) * Math.PI / 2 : beta1;
  const b2 = Math.abs(q.latitude) === 90 ? Math.sign(q.latitude) * Math.PI / 2 : beta2;
  const sb1 = Math.sin(b1), cb1 = Math.cos(b1), sb2 = Math.sin(b2), cb2 = Math.cos(b2);
  let omega = lambda12;
  let sigma1 = 0, sigma12 = 0, salp0 = 0, calp0 = 1, k2 = EP2;
  let converged = false, change = Infinity;
  for (let iteration = 0; iteration < 200; iteration++) {
    const so = Math.sin(omega), co = Math.cos(omega);
    const x = cb2 * so;
    const y = cb1 * sb2 - sb1 * cb2 * co;
    const ss = Math.hypot(x, y);
    const cs = sb1 * sb2 + cb1 * cb2 * co;
    sigma12 = Math.atan2(ss, cs);
    if (ss === 0 && cs > 0) return { length: 0, s12: 0, lon12 };  // the same point
    const alpha1 = Math.atan2(x, y);
    const salp1 = Math.sin(alpha1), calp1 = Math.cos(alpha1);
    salp0 = salp1 * cb1;
    calp0 = Math.hypot(calp1, salp1 * sb1);
    sigma1 = Math.atan2(sb1, calp1 * cb1);
    k2 = EP2 * calp0 * calp0;
    const k = k2;
    const integral = integrate((s) => {
      const sn = Math.sin(s);
      return (2 - F) / (1 + (1 - F) * Math.sqrt(1 + k * sn * sn));
    }, sigma1, sigma12);
    const next = lambda12 + F * salp0 * integral;
    change = Math.abs(next - omega);
    omega = next;
    if (change <= 1e-15 * Math.max(1, Math.abs(omega))) { converged = true; break; }
  }
  // Rounding can keep the last steps a few units apart; 1e-12 rad is 6 µm on the ground.
  if (!converged && !(change <= 1e-12)) return null;
  // Final geometry at the converged ω12 (the loop's last values are one step behind by ≤ 1e-15).
  const k = k2;
  const length = B * integrate((s) => { const sn = Math.sin(s); return Math.sqrt(1 + k * sn * sn); }, sigma1, sigma12);
  // α12 = α2 − α1, the spherical excess of the quadrilateral between the edge and the equator on
  // the auxiliary sphere: tan(α12/2) = tan(ω12/2)·sin((β1 + β2)/2) / cos((β2 − β1)/2).
  const alpha12 = 2 * Math.atan2(Math.sin(omega / 2) * Math.sin((b1 + b2) / 2), Math.cos(omega / 2) * Math.cos((b2 - b1) / 2));
  const i4 = salp0 === 0 || calp0 === 0 ? 0 : integrate((s) => i4Integrand(s, k), sigma1, sigma12);
  const s12 = C2 * alpha12 + E2 * A * A * calp0 * salp0 * i4;
  return { length, s12, lon12 };
}

/**
 * Why a list of points has no area or centroid.
 * @typedef {{kind: 'invalidPoint', index: number}
 *   | {kind: 'tooFewPoints', distinct: number}
 *   | {kind: 'noPoints'}
 *   | {kind: 'unresolvedEdge', index: number}} GeometryError
 */

/**
 * A point as `{latitude, longitude}` or `[latitude, longitude, …]` (a path's `[lat, lon, alt, time]`).
 * @typedef {{latitude: number, longitude: number} | number[]} PointInput
 */

/**
 * Checks and normalises the points; the index of the first unusable one otherwise.
 * @param {readonly PointInput[]} points
 * @returns {{ok: true, points: {latitude: number, longitude: number}[]} | {ok: false, error: GeometryError}}
 */
function readPoints(points) {
  if (!Array.isArray(points)) return { ok: false, error: { kind: 'noPoints' } };
  /** @type {{latitude: number, longitude: number}[]} */
  const read = [];
  for (let index = 0; index < points.length; index++) {
    const point = points[index];
    const latitude = Array.isArray(point) ? point[0] : point?.latitude;
    const longitude = Array.isArray(point) ? point[1] : point?.longitude;
    if (typeof latitude !== 'number' || typeof longitude !== 'number' || !Number.isFinite(latitude)
      || !Number.isFinite(longitude) || Math.abs(latitude) > 90) {
      return { ok: false, error: { kind: 'invalidPoint', index } };
    }
    read.push({ latitude, longitude });
  }
  return { ok: true, points: read };
}

/**
 * Whether two points are the same place (longitudes equal modulo 360°; every longitude at a pole).
 * @param {{latitude: number, longitude: number}} p
 * @param {{latitude: number, longitude: number}} q
 */
function samePlace(p, q) {
  return p.latitude === q.latitude && (Math.abs(p.latitude) === 90 || longitudeDifference(p.longitude, q.longitude) === 0);
}

/**
 * The area and perimeter of the geodesic polygon through the points (closed from the last back to
 * the first; a repeated closing point is dropped). The area is positive; `orientation` says which
 * way the points go round (counter-clockwise seen from above is `counterclockwise`). Of the two
 * regions a polygon divides the ellipsoid into, the area is that of the smaller one.
 * @param {readonly PointInput[]} points
 * @returns {{ok: true, area: number, perimeter: number, orientation: 'counterclockwise' | 'clockwise' | 'flat', vertices: number}
 *   | {ok: false, error: GeometryError}}
 */
export function polygonMeasure(points) {
  const read = readPoints(points);
  if (!read.ok) return read;
  const vertices = read.points.slice();
  while (vertices.length > 1 && samePlace(vertices[0], vertices[vertices.length - 1])) vertices.pop();
  /** @type {{latitude: number, longitude: number}[]} */
  const distinct = [];
  for (const point of vertices) if (!distinct.some((seen) => samePlace(seen, point))) distinct.push(point);
  if (distinct.length < 3) return { ok: false, error: { kind: 'tooFewPoints', distinct: distinct.length } };
  let sum = 0, perimeter = 0, turns = 0;
  for (let index = 0; index < vertices.length; index++) {
    const edge = geodesicEdge(vertices[index], vertices[(index + 1) % vertices.length]);
    if (!edge) return { ok: false, error: { kind: 'unresolvedEdge', index } };
    sum += edge.s12;
    perimeter += edge.length;
    turns += edge.lon12;
  }
  // Σ S12 is the area between the polygon and the equator, clockwise positive; a polygon that
  // goes round a pole (its longitudes turn through ±360°) is a hemisphere away from it.
  let area = -sum;
  if (Math.abs(Math.round(turns / 360)) % 2 === 1) area += (area < 0 ? 1 : -1) * (AREA0 / 2);
  area %= AREA0;
  if (area > AREA0 / 2) area -= AREA0;
  else if (area <= -AREA0 / 2) area += AREA0;
  const orientation = area > 0 ? 'counterclockwise' : area < 0 ? 'clockwise' : 'flat';
  return { ok: true, area: Math.abs(area), perimeter, orientation, vertices: vertices.length };
}

/**
 * Geodetic latitude/longitude (degrees, on the ellipsoid) to Earth-centred Cartesian metres.
 * @param {number} latitude
 * @param {number} longitude
 * @returns {[number, number, number]}
 */
function toECEF(latitude, longitude) {
  const phi = latitude * RAD, lambda = longitude * RAD;
  const n = A / Math.sqrt(1 - E2 * Math.sin(phi) ** 2);
  return [n * Math.cos(phi) * Math.cos(lambda), n * Math.cos(phi) * Math.sin(lambda), n * (1 - E2) * Math.sin(phi)];
}

/**
 * Earth-centred Cartesian metres to geodetic latitude/longitude in degrees (the foot of the
 * normal on the ellipsoid), by fixed-point iteration of tan φ = (z + e²N sin φ) / p.
 * @param {[number, number, number]} xyz
 */
function fromECEF([x, y, z]) {
  const p = Math.hypot(x, y);
  let phi = Math.atan2(z, p * (1 - E2));
  for (let i = 0; i < 10; i++) {
    const n = A / Math.sqrt(1 - E2 * Math.sin(phi) ** 2);
    const next = Math.atan2(z + E2 * n * Math.sin(phi), p);
    const done = Math.abs(next - phi) < 1e-15;
    phi = next;
    if (done) break;
  }
  return { latitude: phi / RAD, longitude: p === 0 ? 0 : Math.atan2(y, x) / RAD };
}

/**
 * The centroid of the convex hull of the points on the local tangent plane (east, north) at their
 * mean position: 1 point gives itself, 2 their midpoint, collinear ones the middle of their
 * segment, otherwise the area-weighted centroid of the hull polygon. `samples` is the number of
 * points used.
 * @param {readonly PointInput[]} points
 * @returns {{ok: true, latitude: number, longitude: number, samples: number} | {ok: false, error: GeometryError}}
 */
export function hullCentroid(points) {
  const read = readPoints(points);
  if (!read.ok) return read;
  if (read.points.length === 0) return { ok: false, error: { kind: 'noPoints' } };
  const xyz = read.points.map((p) => toECEF(p.latitude, p.longitude));
  const mean = [0, 1, 2].map((axis) => xyz.reduce((sum, v) => sum + v[axis], 0) / xyz.length);
  const origin = fromECEF(/** @type {[number, number, number]} */ (mean));
  const o = toECEF(origin.latitude, origin.longitude);
  const phi = origin.latitude * RAD, lambda = origin.longitude * RAD;
  const east = [-Math.sin(lambda), Math.cos(lambda), 0];
  const north = [-Math.sin(phi) * Math.cos(lambda), -Math.sin(phi) * Math.sin(lambda), Math.cos(phi)];
  const plane = xyz.map((v) => {
    const d = [v[0] - o[0], v[1] - o[1], v[2] - o[2]];
    return [d[0] * east[0] + d[1] * east[1] + d[2] * east[2], d[0] * north[0] + d[1] * north[1] + d[2] * north[2]];
  });
  const [ce, cn] = planarHullCentroid(plane);
  const back = fromECEF([o[0] + ce * east[0] + cn * north[0], o[1] + ce * east[1] + cn * north[1], o[2] + ce * east[2] + cn * north[2]]);
  let longitude = back.longitude;
  if (longitude > 180) longitude -= 360;
  return { ok: true, latitude: back.latitude, longitude, samples: read.points.length };
}

/**
 * The area-weighted centroid of the convex hull of plane points (Andrew's monotone chain); the
 * middle of the extreme points when the hull has no area.
 * @param {number[][]} points
 * @returns {[number, number]}
 */
export function planarHullCentroid(points) {
  const sorted = points.map((p) => [p[0], p[1]]).sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const first = sorted[0], last = sorted[sorted.length - 1];
  const segmentMiddle = /** @type {[number, number]} */ ([(first[0] + last[0]) / 2, (first[1] + last[1]) / 2]);
  if (sorted.length < 3) return segmentMiddle;
  /** @param {number[]} o @param {number[]} a @param {number[]} b */
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  /** @type {number[][]} */ const lower = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  /** @type {number[][]} */ const upper = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const p = sorted[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  const hull = lower.slice(0, -1).concat(upper.slice(0, -1));
  if (hull.length < 3) return segmentMiddle;
  // Shoelace about the first hull vertex, which keeps the products small.
  const [x0, y0] = hull[0];
  let twiceArea = 0, cx = 0, cy = 0;
  for (let i = 1; i + 1 < hull.length; i++) {
    const ax = hull[i][0] - x0, ay = hull[i][1] - y0, bx = hull[i + 1][0] - x0, by = hull[i + 1][1] - y0;
    const w = ax * by - ay * bx;
    twiceArea += w;
    cx += w * (ax + bx);
    cy += w * (ay + by);
  }
  const xs = hull.map((p) => p[0]), ys = hull.map((p) => p[1]);
  const extent = Math.hypot(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  if (!(twiceArea > 1e-12 * extent * extent)) return segmentMiddle;
  return [x0 + cx / (3 * twiceArea), y0 + cy / (3 * twiceArea)];
}
