// OwnTracks' messages as Waymark keeps them (DESIGN §3.13): the `data` of `_type: encrypted`
// messages, a 24-byte nonce followed by libsodium's secretbox of the message JSON under the key
// (its UTF-8 padded with zero bytes to 32; owntracks.org/booklet/features/encrypt). Opened here
// with TweetNaCl (passed in: the page loads Debian's node-tweetnacl from /vendor/, node's tests
// require it), the location messages read as fixes, and one fix kept per interval of a time
// span. Nothing here touches the DOM.

/**
 * @typedef {{secretbox: {open: (box: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array | null}}} SecretboxNacl
 *   the part of TweetNaCl used here
 * @typedef {{latitude: number, longitude: number, time: number, altitude: number | null,
 *   accuracy: number | null, speed: number | null, heading: number | null}} OwnTracksFix
 *   `time` Unix seconds (the fix's `tst`), `speed` m/s, `heading` degrees from true north
 */

const NONCE_BYTES = 24;
const KEY_BYTES = 32;

/**
 * The secretbox key of an OwnTracks key: its UTF-8, padded with zero bytes to 32.
 * @param {string} key
 * @returns {Uint8Array}
 * @throws {RangeError} for a key longer than 32 bytes (OwnTracks would cut it; Waymark never makes one)
 */
export function secretboxKey(key) {
  const bytes = new TextEncoder().encode(key);
  if (bytes.length > KEY_BYTES) throw new RangeError(`an OwnTracks key holds at most ${KEY_BYTES} bytes, this one ${bytes.length}`);
  const padded = new Uint8Array(KEY_BYTES);
  padded.set(bytes);
  return padded;
}

/** @param {string} text standard Base64 @returns {Uint8Array | null} */
function fromBase64(text) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  return Uint8Array.from(atob(text), (character) => character.charCodeAt(0));
}

/**
 * Opens one message's `data`.
 * @param {SecretboxNacl} nacl
 * @param {string} data Base64 of the nonce and the box
 * @param {Uint8Array} key secretboxKey()
 * @returns {Record<string, unknown> | null} the message, or null when it does not open under the
 *   key or is not a JSON object
 */
export function openMessage(nacl, data, key) {
  const bytes = fromBase64(data);
  if (!bytes || bytes.length < NONCE_BYTES + 16) return null;
  const opened = nacl.secretbox.open(bytes.subarray(NONCE_BYTES), bytes.subarray(0, NONCE_BYTES), key);
  if (!opened) return null;
  try {
    const message = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(opened));
    return message && typeof message === 'object' && !Array.isArray(message) ? message : null;
  } catch {
    return null;
  }
}

/** @param {unknown} value @returns {number | null} */
const finite = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * The fix of a `_type: location` message (owntracks.org/booklet/tech/json): lat, lon, tst (Unix
 * seconds), and where sent acc (m), alt (m), vel (km/h) and cog (degrees); null for any other
 * message, or one without a position and a time.
 * @param {Record<string, unknown>} message
 * @returns {OwnTracksFix | null}
 */
export function locationFix(message) {
  if (message._type !== 'location') return null;
  const latitude = finite(message.lat);
  const longitude = finite(message.lon);
  const time = finite(message.tst);
  if (latitude === null || longitude === null || time === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  const velocity = finite(message.vel);
  const course = finite(message.cog);
  const accuracy = finite(message.acc);
  return {
    latitude, longitude, time,
    altitude: finite(message.alt),
    accuracy: accuracy !== null && accuracy >= 0 ? accuracy : null,
    speed: velocity !== null && velocity >= 0 ? velocity / 3.6 : null,
    heading: course !== null && course >= 0 ? course % 360 : null,
  };
}

/**
 * The fixes of stored messages, and how many did not open under the key.
 * @param {SecretboxNacl} nacl
 * @param {Array<{data: string}>} items
 * @param {string} key the OwnTracks key
 * @returns {{fixes: OwnTracksFix[], unreadable: number}}
 */
export function readFixes(nacl, items, key) {
  const secret = secretboxKey(key);
  /** @type {OwnTracksFix[]} */
  const fixes = [];
  let unreadable = 0;
  for (const item of items) {
    const message = openMessage(nacl, item.data, secret);
    if (!message) { unreadable += 1; continue; }
    const fix = locationFix(message);
    if (fix) fixes.push(fix);
  }
  return { fixes, unreadable };
}

/**
 * One fix per interval of the span [from, to): the fixes are put in intervals counted from the
 * Unix epoch, floor(time / interval), as `waymark vault push --every` does, so that pushing an
 * overlapping span again picks the same fixes; each interval keeps its earliest fix. Fixes outside
 * the span are left out (OwnTracks may send a fix long after it was taken, so a span's messages
 * hold others too).
 * @param {OwnTracksFix[]} fixes in any order
 * @param {{from: number, to: number, interval: number}} span Unix seconds; interval > 0 seconds
 * @returns {OwnTracksFix[]} oldest first
 */
export function oneFixPerInterval(fixes, { from, to, interval }) {
  if (!(interval > 0)) throw new RangeError('the interval must be a positive number of seconds');
  /** @type {Map<number, OwnTracksFix>} */
  const kept = new Map();
  for (const fix of fixes) {
    if (fix.time < from || fix.time >= to) continue;
    const bucket = Math.floor(fix.time / interval);
    const first = kept.get(bucket);
    if (!first || fix.time < first.time) kept.set(bucket, fix);
  }
  return [...kept.entries()].sort((a, b) => a[0] - b[0]).map(([, fix]) => fix);
}
