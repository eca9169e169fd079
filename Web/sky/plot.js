// The sky map's arithmetic and words-free parts (#15 point 6), pure so node tests them as they are:
// where a satellite's azimuth and elevation fall on the polar plot (north up, east right, the
// zenith at the centre, the horizon on the outer ring), its short label from the CelesTrak name,
// the counts per constellation, how old the orbit data is, and the page's address read and the
// API's address written.

/** @typedef {'gps' | 'galileo' | 'glonass' | 'beidou'} Constellation */
/** @typedef {Constellation | 'all'} Choice */
/**
 * The answer of GET /api/v1/sky, and one satellite of it (Web/app/contract.js).
 * @typedef {import('../app/contract.js').Operations['sky']['answer']} Sky
 * @typedef {Sky['satellites'][number]} Satellite
 */

/** @type {readonly Constellation[]} */
export const CONSTELLATIONS = Object.freeze(['gps', 'galileo', 'glonass', 'beidou']);
/** @type {readonly Choice[]} */
export const CHOICES = Object.freeze(['all', ...CONSTELLATIONS]);

/** The rings drawn: elevation 0° (the horizon), 30° and 60°. */
export const RINGS = Object.freeze([0, 30, 60]);

/** Elements older than this (days between their epoch and the time shown) draw satellites where they may not be. */
export const OLD_ELEMENTS_DAYS = 14;

/** How often the page asks again while it shows "now". */
export const REFRESH_MS = 30_000;

/**
 * The distance from the plot's centre of an elevation: 0 at the zenith, `radius` at the horizon,
 * proportional to 90° − elevation. Elevations below the horizon are drawn on it.
 * @param {number} elevation degrees
 * @param {number} radius the horizon ring's radius
 */
export function ringRadius(elevation, radius) {
  const clamped = Math.min(90, Math.max(0, elevation));
  return (radius * (90 - clamped)) / 90;
}

/**
 * Where a direction falls on the plot: north up (−y in SVG), east right (+x).
 * @param {number} azimuth degrees clockwise from true north
 * @param {number} elevation degrees above the horizon
 * @param {{cx: number, cy: number, radius: number}} plot the centre and the horizon ring's radius
 * @returns {{x: number, y: number}}
 */
export function plotPoint(azimuth, elevation, { cx, cy, radius }) {
  const r = ringRadius(elevation, radius);
  const angle = (azimuth * Math.PI) / 180;
  return { x: cx + r * Math.sin(angle), y: cy - r * Math.cos(angle) };
}

/** The label's font size in plot units, and the width of one of its characters (bold capitals and digits, about 0.74 em). */
export const LABEL_SIZE = 8;
const CHAR_WIDTH = 0.74 * LABEL_SIZE;
const DOT_BOX = 5;

/**
 * @typedef {{left: number, top: number, right: number, bottom: number}} Box
 * @typedef {{x: number, y: number, anchor: 'start' | 'middle' | 'end', box: Box}} LabelPlace
 */

/** @param {Box} a @param {Box} b */
function overlap(a, b) {
  const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return width > 0 && height > 0 ? width * height : 0;
}

/**
 * Where each dot's label goes: right of the dot if there is room, else left, above, below or at a corner,
 * whichever covers the fewest labels already placed and dots (in the order given, so the first
 * satellites, the highest, get the best places) and stays inside `bounds`.
 * `x`, `y` are the text's anchor point (SVG `text-anchor`, baseline); `box` the room it takes.
 * @param {ReadonlyArray<{x: number, y: number, label: string}>} dots
 * @param {Box} bounds the plot's drawing area
 * @param {readonly Box[]} [obstacles] what else is drawn there (the compass letters)
 * @returns {LabelPlace[]}
 */
export function placeLabels(dots, bounds, obstacles = []) {
  const half = LABEL_SIZE / 2;
  const dotBoxes = dots.map(({ x, y }) => ({ left: x - DOT_BOX, top: y - DOT_BOX, right: x + DOT_BOX, bottom: y + DOT_BOX }));
  /** @type {Box[]} */
  const placed = [...obstacles];
  return dots.map(({ x, y, label }, index) => {
    const width = label.length * CHAR_WIDTH;
    const baseline = 0.35 * LABEL_SIZE;
    /** @type {LabelPlace[]} */
    const candidates = [
      { x: x + 6, y: y + baseline, anchor: 'start', box: { left: x + 6, top: y - half, right: x + 6 + width, bottom: y + half } },
      { x: x - 6, y: y + baseline, anchor: 'end', box: { left: x - 6 - width, top: y - half, right: x - 6, bottom: y + half } },
      { x, y: y - 5 - half + baseline, anchor: 'middle', box: { left: x - width / 2, top: y - 5 - 2 * half, right: x + width / 2, bottom: y - 5 } },
      { x, y: y + 5 + half + baseline, anchor: 'middle', box: { left: x - width / 2, top: y + 5, right: x + width / 2, bottom: y + 5 + 2 * half } },
      // The corners: up or down by a label's height, beside the dot.
      ...[-1, 1].flatMap((up) => [
        { x: x + 4, y: y + up * 2 * half + baseline, anchor: /** @type {const} */ ('start'), box: { left: x + 4, top: y + up * 2 * half - half, right: x + 4 + width, bottom: y + up * 2 * half + half } },
        { x: x - 4, y: y + up * 2 * half + baseline, anchor: /** @type {const} */ ('end'), box: { left: x - 4 - width, top: y + up * 2 * half - half, right: x - 4, bottom: y + up * 2 * half + half } },
      ]),
    ];
    let best = candidates[0];
    let bestCost = Infinity;
    for (const candidate of candidates) {
      const { box } = candidate;
      const outside = box.left < bounds.left || box.right > bounds.right || box.top < bounds.top || box.bottom > bounds.bottom;
      let cost = outside ? 1e6 : 0;
      for (const other of placed) cost += overlap(box, other);
      dotBoxes.forEach((other, at) => { if (at !== index) cost += overlap(box, other); });
      if (cost < bestCost) { best = candidate; bestCost = cost; }
    }
    placed.push(best.box);
    return best;
  });
}

const LETTER = /** @type {Record<string, string>} */ ({ gps: 'G', galileo: 'E', glonass: 'R', beidou: 'C' });

/**
 * The short label drawn beside a satellite's dot, from its CelesTrak name:
 * - the PRN when the name holds one: `GPS BIIR-2  (PRN 13)` → `G13`, `GSAT0101 (PRN E11)` → `E11`
 *   (a bare number gets the constellation's RINEX letter: G, E, R, C);
 * - a code in the closing brackets: `BEIDOU 3 (C01)` → `C01`, `COSMOS 2433 (720)` → `720`
 *   (GLONASS names hold the satellite's GLONASS number, not its slot, so it is shown as it is);
 * - else the last word of the name, at most 8 characters: `BEIDOU-3 M19` → `M19`, `GSAT0223` → `GSAT0223`.
 * @param {string} name
 * @param {string} constellation
 */
export function shortLabel(name, constellation) {
  const clean = String(name).replace(/\s+/g, ' ').trim();
  const bracket = /\(([^()]*)\)\s*$/.exec(clean);
  if (bracket) {
    const inner = bracket[1].trim();
    const prn = /^PRN\s*([A-Z]?)\s*0*(\d{1,3})$/i.exec(inner);
    if (prn) {
      const letter = prn[1] ? prn[1].toUpperCase() : (LETTER[constellation] ?? '');
      return letter + prn[2].padStart(2, '0');
    }
    if (/^[A-Z0-9-]{1,6}$/i.test(inner)) return inner.toUpperCase();
  }
  const words = clean.replace(/\([^()]*\)\s*$/, '').trim().split(' ');
  const last = words[words.length - 1] ?? '';
  return (last === '' ? '?' : last).slice(0, 8);
}

/**
 * How many satellites of each constellation are in the list.
 * @param {readonly Satellite[]} satellites
 * @returns {Record<Constellation, number>}
 */
export function countByConstellation(satellites) {
  /** @type {Record<Constellation, number>} */
  const counts = { gps: 0, galileo: 0, glonass: 0, beidou: 0 };
  for (const satellite of satellites) {
    if (Object.hasOwn(counts, satellite.constellation)) counts[/** @type {Constellation} */ (satellite.constellation)] += 1;
  }
  return counts;
}

/**
 * How old, in days, the orbit data behind this answer is at the time it shows: the largest
 * `epochAgeDays` of its satellites; with none above the horizon, the farther of the catalogue's
 * oldest and newest epoch. Null when nothing says.
 * @param {Sky} sky
 * @returns {number | null}
 */
export function elementsAge(sky) {
  const ages = sky.satellites.map((satellite) => satellite.epochAgeDays).filter((age) => Number.isFinite(age));
  if (ages.length > 0) return Math.max(...ages);
  const time = Date.parse(sky.time);
  const epochs = [sky.elements?.oldestEpoch, sky.elements?.newestEpoch].map((epoch) => Date.parse(epoch ?? '')).filter((ms) => Number.isFinite(ms));
  if (!Number.isFinite(time) || epochs.length === 0) return null;
  return Math.max(...epochs.map((ms) => Math.abs(time - ms) / 86_400_000));
}

/**
 * Whether the page should warn that the positions may be off.
 * @param {Sky} sky
 */
export function elementsOld(sky) {
  const age = elementsAge(sky);
  return age !== null && age > OLD_ELEMENTS_DAYS;
}

/**
 * What the page's address asks for: `?latitude=&longitude=` (both, or neither), `?time=` (ISO 8601
 * with a zone) and `?constellation=`. Problems are named, not guessed around.
 * @param {string} search location.search
 * @returns {{place: {latitude: number, longitude: number} | null, time: string | null, constellation: Choice,
 *   problems: Array<'place' | 'time'>}} time as the ISO text the API is sent (null: now)
 */
export function readAddress(search) {
  const query = new URLSearchParams(search);
  /** @type {Array<'place' | 'time'>} */
  const problems = [];
  const number = /** @param {string | null} text */ (text) => (text === null || text.trim() === '' ? NaN : Number(text.trim()));
  let place = null;
  if (query.has('latitude') || query.has('longitude')) {
    const latitude = number(query.get('latitude'));
    const longitude = number(query.get('longitude'));
    if (Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180) place = { latitude, longitude };
    else problems.push('place');
  }
  let time = null;
  const asked = query.get('time');
  if (asked !== null && asked.trim() !== '') {
    const text = asked.trim();
    const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(text);
    const ms = Date.parse(text);
    if (zoned && Number.isFinite(ms)) time = new Date(ms).toISOString();
    else problems.push('time');
  }
  const wanted = (query.get('constellation') ?? 'all').toLowerCase();
  const constellation = CHOICES.find((choice) => choice === wanted) ?? 'all';
  return { place, time, constellation, problems };
}

/**
 * The query of GET /api/v1/sky (`sky`) for a place, a time (null: the server's now) and a choice.
 * An altitude outside what the API takes (−500…10,000 m) or unknown is left out (sea level).
 * @param {{latitude: number, longitude: number, altitude?: number | null, time: string | null, constellation: Choice}} request
 * @returns {import('../app/contract.js').Operations['sky']['query']}
 */
export function skyQuery({ latitude, longitude, altitude = null, time, constellation }) {
  const known = altitude !== null && Number.isFinite(altitude) && altitude >= -500 && altitude <= 10_000;
  return { latitude, longitude, altitude: known ? Math.round(/** @type {number} */ (altitude)) : undefined, time: time ?? undefined, constellation };
}
