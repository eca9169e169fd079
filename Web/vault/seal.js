// A location record as the data vault receives it (DESIGN §3.11, seed 002 "Data Structure") and
// its sealed form: NaCl's box (TweetNaCl, the same bytes as libsodium's crypto_box_easy) to the
// repo's public key, from the fixed sender key SHA-256("auth"), a fresh 24-byte nonce per record,
// value and nonce in lowercase hex, "version": "0.4". TweetNaCl is passed in: the page loads
// Debian's node-tweetnacl from /vendor/, node's tests require it from /usr/share/nodejs.
// Nothing here touches the DOM.

/**
 * @typedef {{timestamp: string, latitude: number, longitude: number, altitude: number | null,
 *   accuracy: number | null, speed: number | null, heading: number | null, datum: string}} VaultRecord
 * @typedef {{value: string, nonce: string, version: string}} SealedItem
 * @typedef {{box: (message: Uint8Array, nonce: Uint8Array, publicKey: Uint8Array, secretKey: Uint8Array) => Uint8Array,
 *   randomBytes: (count: number) => Uint8Array}} Nacl  the parts of TweetNaCl used here
 */

export const SEAL_VERSION = '0.4';
export const DATUM = 'EPSG:4326';
/** The order of a record's keys in its JSON, as the Swift library writes them (contract B). */
export const RECORD_KEYS = Object.freeze(['timestamp', 'latitude', 'longitude', 'altitude', 'accuracy', 'speed', 'heading', 'datum']);

/** Thrown for a repo key or nonce that is not what NaCl needs. */
export class SealError extends Error {
  /** @param {'invalidKey' | 'invalidNonce'} code @param {string} detail */
  constructor(code, detail) {
    super(`${code}: ${detail}`);
    this.name = 'SealError';
    this.code = code;
  }
}

/**
 * The JSON of a record, byte for byte as the Swift library's VaultRecord.json() writes it: keys
 * in RECORD_KEYS order, an unknown (or non-finite) value as null, numbers as Swift prints a
 * Double (swiftNumber), datum always EPSG:4326.
 * @param {Partial<VaultRecord> & {timestamp: string, latitude: number, longitude: number}} record
 */
export function recordJSON(record) {
  const parts = RECORD_KEYS.map((key) => {
    const value = key === 'datum' ? DATUM : /** @type {any} */ (record)[key];
    return `${JSON.stringify(key)}:${typeof value === 'number' ? swiftNumber(value) : JSON.stringify(value ?? null)}`;
  });
  return `{${parts.join(',')}}`;
}

/**
 * A number as Swift's description of a Double writes it: the shortest digits that read back
 * the same (as JavaScript's), an integral value with ".0" (160.0, -12.0, 0.0), and exponent
 * notation below 1e-4 and above 2^53, with at least two exponent digits (1e-05, 1e+16).
 * @param {number} value
 */
export function swiftNumber(value) {
  if (!Number.isFinite(value)) return 'null';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(value);
  if (magnitude < 1e-4 || magnitude > 2 ** 53) return value.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  const text = String(value);
  return text.includes('.') ? text : `${text}.0`;
}

/** @param {Uint8Array} bytes */
export function toHex(bytes) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * @param {string} text
 * @param {number} length bytes wanted
 * @returns {Uint8Array | null} null unless `text` is exactly 2·length hex digits
 */
export function fromHex(text, length) {
  if (typeof text !== 'string' || text.length !== length * 2 || !/^[0-9a-fA-F]*$/.test(text)) return null;
  const bytes = new Uint8Array(length);
  for (let index = 0; index < length; index++) bytes[index] = parseInt(text.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/** @type {Promise<Uint8Array> | null} */
let senderKey = null;

/** The sender's secret key: SHA-256 of the four bytes "auth" (the seed's authentication_key). */
export function senderSecretKey() {
  if (!senderKey) {
    senderKey = crypto.subtle.digest('SHA-256', new TextEncoder().encode('auth')).then((digest) => new Uint8Array(digest));
  }
  return senderKey;
}

/**
 * Seals one record's JSON to the repo's public key.
 * @param {Nacl} nacl
 * @param {string} plaintext the record's JSON (recordJSON)
 * @param {string} repoKeyHex the repo's public key: 64 hex digits
 * @param {Uint8Array} [nonce] 24 bytes; a fresh random one when not given (tests pass the seed's)
 * @returns {Promise<SealedItem>}
 * @throws {SealError}
 */
export async function sealRecord(nacl, plaintext, repoKeyHex, nonce) {
  const publicKey = fromHex(repoKeyHex, 32);
  if (!publicKey) throw new SealError('invalidKey', 'a repo key is 64 hex digits');
  const used = nonce ?? nacl.randomBytes(24);
  if (!(used instanceof Uint8Array) || used.length !== 24) throw new SealError('invalidNonce', 'a nonce is 24 bytes');
  const box = nacl.box(new TextEncoder().encode(plaintext), used, publicKey, await senderSecretKey());
  return { value: toHex(box), nonce: toHex(used), version: SEAL_VERSION };
}
