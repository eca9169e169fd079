// The route envelope of DESIGN §3.2, made in the browser with WebCrypto alone: WebCrypto has no
// scrypt, so the master key is PBKDF2-HMAC-SHA256 (the envelope says so, and records its
// iterations and salt; every Waymark reader opens both kinds). Then HKDF-SHA256 → encKey,
// AES-256-GCM bound to the route's QR nonce, the lookup key and the delete token, exactly as
// Sources/WaymarkCore/Envelope does; the same envelope seals an OwnTracks device's key (DESIGN
// §3.13) under other associated data. Also the passphrase verifier the recorder keeps (SCO-09…12).
// Nothing here touches the DOM, so node's test runner imports it as it is.

/**
 * @typedef {{latitude: number, longitude: number, altitude: number | null, accuracy: number | null, time: number}} Fix
 * @typedef {{nonce: string, qrPeriod: number, tracks: Fix[][]}} Route
 * @typedef {{alg: 'pbkdf2-sha256', iterations: number, salt: string} | {alg: 'scrypt', n: number, r: number, p: number, salt: string}} EnvelopeKDF
 * @typedef {{v: 1, kdf: EnvelopeKDF, aead: 'aes-256-gcm', iv: string, ct: string}} Envelope
 * @typedef {{alg: 'pbkdf2-sha256', iterations: number, salt: string, hash: string}} Verifier
 * @typedef {'emptyPassphrase' | 'cannotOpen' | 'malformed' | 'unsupportedKDF' | 'malformedPlaintext'} EnvelopeErrorCode
 */

/** The iterations a browser writes (DESIGN §3.2). */
export const PBKDF2_ITERATIONS = 600000;

/** Why an envelope could not be made or opened; `field` names the place at fault. */
export class EnvelopeError extends Error {
  /**
   * @param {EnvelopeErrorCode} code
   * @param {string} [field]
   * @param {string} [reason]
   */
  constructor(code, field = '', reason = '') {
    super(field ? `${code}: ${field} ${reason}` : code);
    this.name = 'EnvelopeError';
    this.code = code;
    this.field = field;
    this.reason = reason;
  }
}

const encoder = new TextEncoder();

/** @param {ArrayBuffer | Uint8Array} bytes */
export function toHex(bytes) {
  return Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** @param {Uint8Array} bytes standard Base64 with padding */
export function toBase64(bytes) {
  let text = '';
  for (let index = 0; index < bytes.length; index += 0x8000) text += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(text);
}

/**
 * @param {unknown} text
 * @param {string} field
 */
function fromBase64(text, field) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw new EnvelopeError('malformed', field, 'must be standard Base64 with padding');
  }
  const binary = atob(text);
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/**
 * The UTF-8 bytes that are hashed: the NFC form of the passphrase (DESIGN §3.2).
 * @param {string} passphrase
 */
function secretBytes(passphrase) {
  // No passphrase kept (null) is no passphrase, never the text "null".
  if (typeof passphrase !== 'string') throw new EnvelopeError('emptyPassphrase');
  const bytes = encoder.encode(passphrase.normalize('NFC'));
  if (bytes.length === 0) throw new EnvelopeError('emptyPassphrase');
  return bytes;
}

/**
 * The plaintext JSON of a route, keys in the order of DESIGN §3.2; a missing altitude or
 * accuracy (or a number that is not finite) is null.
 * @param {Route} route
 * @returns {string}
 */
export function routePlaintext(route) {
  /** @param {unknown} value */
  const number = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const tracks = route.tracks.map((track) => track.map((fix) => [
    number(fix.latitude), number(fix.longitude), number(fix.altitude), number(fix.accuracy), number(fix.time),
  ]));
  return JSON.stringify({ v: 1, nonce: route.nonce, qrPeriod: route.qrPeriod, tracks });
}

/**
 * Reads either plaintext form (the object, or the bare array of tracks).
 * @param {string} text
 * @param {string} nonce used when the plaintext names none
 * @returns {Route}
 */
export function parsePlaintext(text, nonce) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new EnvelopeError('malformedPlaintext', '(top level)', 'is not valid JSON');
  }
  /** @type {unknown} */
  let tracks = value;
  let qrPeriod = null;
  let named = nonce;
  if (!Array.isArray(value)) {
    if (!value || typeof value !== 'object' || value.v !== 1) throw new EnvelopeError('malformedPlaintext', 'v', 'must be 1');
    tracks = value.tracks;
    if (typeof value.nonce === 'string') named = value.nonce;
    if (typeof value.qrPeriod === 'number') qrPeriod = value.qrPeriod;
  }
  if (!Array.isArray(tracks)) throw new EnvelopeError('malformedPlaintext', 'tracks', 'must be an array of tracks');
  const read = tracks.map((track, trackIndex) => {
    if (!Array.isArray(track)) throw new EnvelopeError('malformedPlaintext', `tracks.[${trackIndex}]`, 'must be an array of fixes');
    return track.map((row, fixIndex) => {
      const ok = Array.isArray(row) && row.length === 5 && typeof row[0] === 'number' && typeof row[1] === 'number' && typeof row[4] === 'number'
        && (row[2] === null || typeof row[2] === 'number') && (row[3] === null || typeof row[3] === 'number')
        && Math.abs(row[0]) <= 90 && Math.abs(row[1]) <= 180;
      if (!ok) throw new EnvelopeError('malformedPlaintext', `tracks.[${trackIndex}].[${fixIndex}]`, 'must be [lat, lon, alt, accuracy, fixTime]');
      return { latitude: row[0], longitude: row[1], altitude: row[2], accuracy: row[3], time: row[4] };
    });
  });
  return { nonce: named, qrPeriod: /** @type {number} */ (qrPeriod), tracks: read };
}

/**
 * `master`: PBKDF2-HMAC-SHA256 over the NFC passphrase, 32 bytes, as raw bytes.
 * @param {string} passphrase
 * @param {Uint8Array} salt
 * @param {number} iterations
 */
async function pbkdf2(passphrase, salt, iterations) {
  const base = await crypto.subtle.importKey('raw', secretBytes(passphrase), 'PBKDF2', false, ['deriveBits']);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, base, 256));
}

/**
 * HKDF-SHA256(ikm master, empty salt, info, 32 bytes).
 * @param {Uint8Array} master
 * @param {string} info
 */
async function hkdf(master, info) {
  const base = await crypto.subtle.importKey('raw', master, 'HKDF', false, ['deriveBits']);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode(info) }, base, 256));
}

/** @param {Uint8Array} master */
async function encryptionKey(master, usage = /** @type {KeyUsage[]} */ (['encrypt', 'decrypt'])) {
  return crypto.subtle.importKey('raw', await hkdf(master, 'waymark-route-enc-v1'), 'AES-GCM', false, usage);
}

/** @param {string} nonce */
const associatedData = (nonce) => encoder.encode(`waymark-route-v1:${nonce}`);

/**
 * An OwnTracks key's associated data (DESIGN §3.13): never a route's.
 * @param {string} nonce
 */
const ownTracksAssociatedData = (nonce) => encoder.encode(`waymark-owntracks-key-v1:${nonce}`);

/**
 * The server's lookup key for a QR nonce: lowercase hex SHA-256 of `waymark-route-lookup-v1:` + nonce.
 * @param {string} nonce
 */
export async function lookupKey(nonce) {
  return toHex(await crypto.subtle.digest('SHA-256', encoder.encode(`waymark-route-lookup-v1:${nonce}`)));
}

/**
 * What the server keeps of a delete token: lowercase hex SHA-256 of its 32 bytes.
 * @param {string} token 64 hex digits
 */
export async function deleteTokenHash(token) {
  if (!/^[0-9a-fA-F]{64}$/.test(token)) throw new EnvelopeError('malformed', 'deleteToken', 'must be 64 hexadecimal digits');
  const bytes = Uint8Array.from(token.match(/../g) ?? [], (pair) => parseInt(pair, 16));
  return toHex(await crypto.subtle.digest('SHA-256', bytes));
}

/**
 * Seals a route (DESIGN §3.2, the browser's PBKDF2 form). `salt` (16 bytes) and `iv` (12 bytes)
 * are fresh random bytes unless a test gives them.
 * @param {Route} route
 * @param {string} passphrase
 * @param {{iterations?: number, salt?: Uint8Array, iv?: Uint8Array}} options
 * @returns {Promise<{envelope: Envelope, lookupKey: string, deleteToken: string, deleteTokenHash: string}>}
 */
export async function sealRoute(route, passphrase, options = {}) {
  if (typeof route?.nonce !== 'string' || route.nonce === '') throw new EnvelopeError('malformed', 'nonce', 'is missing');
  const { envelope, master } = await seal(encoder.encode(routePlaintext(route)), passphrase, associatedData(route.nonce), options);
  const deleteToken = toHex(await hkdf(master, 'waymark-route-delete-v1'));
  return { envelope, lookupKey: await lookupKey(route.nonce), deleteToken, deleteTokenHash: await deleteTokenHash(deleteToken) };
}

/**
 * Seals an OwnTracks device's encryption key as a route envelope (DESIGN §3.13): the same
 * format and keys, the plaintext the UTF-8 of the key, bound by the associated data
 * `waymark-owntracks-key-v1:` + the device's nonce, so it opens with that nonce alone and never
 * as a route.
 * @param {string} key the OwnTracks encryption key
 * @param {string} passphrase
 * @param {string} nonce the device's nonce (12 characters of 0-9A-Z)
 * @param {{iterations?: number, salt?: Uint8Array, iv?: Uint8Array}} [options]
 * @returns {Promise<Envelope>}
 */
export async function sealOwnTracksKey(key, passphrase, nonce, options = {}) {
  if (typeof key !== 'string' || key === '') throw new EnvelopeError('malformedPlaintext', 'key', 'is missing');
  if (typeof nonce !== 'string' || nonce === '') throw new EnvelopeError('malformed', 'nonce', 'is missing');
  return (await seal(encoder.encode(key), passphrase, ownTracksAssociatedData(nonce), options)).envelope;
}

/**
 * Opens an OwnTracks device's sealed key with the passphrase and the device's nonce.
 * @param {Envelope} envelope
 * @param {string} passphrase
 * @param {string} nonce
 * @returns {Promise<string>} the key
 * @throws {EnvelopeError} `cannotOpen` when the passphrase or nonce do not belong to it
 */
export async function openOwnTracksKey(envelope, passphrase, nonce) {
  const { opened } = await open(envelope, passphrase, ownTracksAssociatedData(nonce));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(opened);
  } catch {
    throw new EnvelopeError('malformedPlaintext', 'key', 'is not UTF-8');
  }
}

/**
 * The envelope of `plaintext` bound to `aad`, and its master key (for the route's delete token).
 * @param {Uint8Array} plaintext
 * @param {string} passphrase
 * @param {Uint8Array} aad
 * @param {{iterations?: number, salt?: Uint8Array, iv?: Uint8Array}} options
 * @returns {Promise<{envelope: Envelope, master: Uint8Array}>}
 */
async function seal(plaintext, passphrase, aad, { iterations = PBKDF2_ITERATIONS, salt, iv }) {
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > 100000000) throw new EnvelopeError('unsupportedKDF', 'kdf.iterations', 'must be 1 to 100000000');
  const saltBytes = salt ?? crypto.getRandomValues(new Uint8Array(16));
  const ivBytes = iv ?? crypto.getRandomValues(new Uint8Array(12));
  if (saltBytes.length < 8 || saltBytes.length > 1024) throw new EnvelopeError('malformed', 'kdf.salt', 'must hold 8 to 1024 bytes');
  if (ivBytes.length !== 12) throw new EnvelopeError('malformed', 'iv', 'must hold 12 bytes');
  const master = await pbkdf2(passphrase, saltBytes, iterations);
  const key = await encryptionKey(master, ['encrypt']);
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: ivBytes, additionalData: aad, tagLength: 128 }, key, plaintext);
  return {
    envelope: { v: 1, kdf: { alg: 'pbkdf2-sha256', iterations, salt: toBase64(saltBytes) }, aead: 'aes-256-gcm', iv: toBase64(ivBytes), ct: toBase64(new Uint8Array(sealed)) },
    master,
  };
}

/**
 * The master key of an envelope from a passphrase (PBKDF2 only: a browser cannot do scrypt).
 * @param {Envelope} envelope
 * @param {string} passphrase
 */
async function masterKey(envelope, passphrase) {
  const kdf = envelope?.kdf;
  if (!kdf || typeof kdf !== 'object') throw new EnvelopeError('malformed', 'kdf', 'is missing');
  if (kdf.alg !== 'pbkdf2-sha256') throw new EnvelopeError('unsupportedKDF', 'kdf.alg', `is "${String(kdf.alg)}"; the browser opens pbkdf2-sha256 envelopes only`);
  if (!Number.isInteger(kdf.iterations) || kdf.iterations < 1 || kdf.iterations > 100000000) throw new EnvelopeError('unsupportedKDF', 'kdf.iterations', 'must be 1 to 100000000');
  const salt = fromBase64(kdf.salt, 'kdf.salt');
  if (salt.length < 8 || salt.length > 1024) throw new EnvelopeError('malformed', 'kdf.salt', 'must hold 8 to 1024 bytes');
  return pbkdf2(passphrase, salt, kdf.iterations);
}

/**
 * Opens an envelope with the passphrase and the route's QR nonce.
 * @param {Envelope} envelope
 * @param {string} passphrase
 * @param {string} nonce
 * @returns {Promise<Route>}
 * @throws {EnvelopeError} `cannotOpen` when the passphrase or nonce do not belong to it
 */
export async function openEnvelope(envelope, passphrase, nonce) {
  return (await openEnvelopeWithToken(envelope, passphrase, nonce)).route;
}

/**
 * Opens an envelope and also derives its delete token (one PBKDF2 for both).
 * @param {Envelope} envelope
 * @param {string} passphrase
 * @param {string} nonce
 * @returns {Promise<{route: Route, plaintext: string, deleteToken: string}>}
 */
export async function openEnvelopeWithToken(envelope, passphrase, nonce) {
  const { opened, master } = await open(envelope, passphrase, associatedData(nonce));
  const plaintext = new TextDecoder('utf-8', { fatal: true }).decode(opened);
  return { route: parsePlaintext(plaintext, nonce), plaintext, deleteToken: toHex(await hkdf(master, 'waymark-route-delete-v1')) };
}

/**
 * The plaintext bytes of an envelope bound to `aad`, and its master key.
 * @param {Envelope} envelope
 * @param {string} passphrase
 * @param {Uint8Array} aad
 * @returns {Promise<{opened: ArrayBuffer, master: Uint8Array}>}
 */
async function open(envelope, passphrase, aad) {
  if (!envelope || typeof envelope !== 'object') throw new EnvelopeError('malformed', '(top level)', 'is not an envelope');
  if (envelope.v !== 1) throw new EnvelopeError('malformed', 'v', 'must be 1');
  if (envelope.aead !== 'aes-256-gcm') throw new EnvelopeError('malformed', 'aead', 'must be "aes-256-gcm"');
  const iv = fromBase64(envelope.iv, 'iv');
  if (iv.length !== 12) throw new EnvelopeError('malformed', 'iv', 'must hold 12 bytes');
  const ct = fromBase64(envelope.ct, 'ct');
  if (ct.length < 16) throw new EnvelopeError('malformed', 'ct', 'must hold at least the 16-byte tag');
  const master = await masterKey(envelope, passphrase);
  try {
    return { opened: await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 }, await encryptionKey(master, ['decrypt']), ct), master };
  } catch {
    throw new EnvelopeError('cannotOpen');
  }
}

/**
 * A verifier of the kept passphrase (SCO-09…12): PBKDF2-SHA256 with its own random salt, as
 * DESIGN §3.2 allows a browser; it tells whether a later passphrase matches.
 * @param {string} passphrase
 * @param {{iterations?: number, salt?: Uint8Array}} options
 * @returns {Promise<Verifier>}
 */
export async function makeVerifier(passphrase, { iterations = PBKDF2_ITERATIONS, salt } = {}) {
  const saltBytes = salt ?? crypto.getRandomValues(new Uint8Array(16));
  return { alg: 'pbkdf2-sha256', iterations, salt: toBase64(saltBytes), hash: toBase64(await pbkdf2(passphrase, saltBytes, iterations)) };
}

/**
 * Whether `passphrase` is the one the verifier was made from (an empty one never is).
 * @param {Verifier} verifier
 * @param {string} passphrase
 */
export async function checkVerifier(verifier, passphrase) {
  if (!verifier || verifier.alg !== 'pbkdf2-sha256' || !Number.isInteger(verifier.iterations) || verifier.iterations < 1) return false;
  if (typeof passphrase !== 'string' || passphrase.normalize('NFC') === '') return false;
  const expected = fromBase64(verifier.hash, 'hash');
  const actual = await pbkdf2(passphrase, fromBase64(verifier.salt, 'salt'), verifier.iterations);
  if (expected.length !== actual.length) return false;
  let difference = 0;
  for (let index = 0; index < actual.length; index += 1) difference |= actual[index] ^ expected[index];
  return difference === 0;
}
