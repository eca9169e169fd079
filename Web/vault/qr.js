// The vault's login QR code (seed 002, Login screen 2 and Test Environment): a JSON object with
// PIA_URL and either email/password or APP_KEY/APP_SECRET. parseLoginPayload reads what a
// camera or a photo gave, whatever it is (any text can be in a QR code): a complete login, the
// fields it could read, or nothing. decodePhoto asks Waymark's server to read the codes in a
// photo (POST /api/v1/qr/decode, zxing) where the browser has no BarcodeDetector; the photo
// goes only to this server, which keeps and logs nothing. No DOM here.
import { normalizeVaultURL } from './client.js';
import { target } from '../app/api.js';
import { operations } from '../app/contract.js';

/**
 * @typedef {{vault?: string, email?: string, password?: string, key?: string, secret?: string}} PayloadFields
 * @typedef {{kind: 'password', vault: string, email: string, password: string}
 *   | {kind: 'app', vault: string, key: string, secret: string}
 *   | {kind: 'incomplete', fields: PayloadFields}
 *   | {kind: 'invalid'}} LoginPayload
 *   incomplete: some fields were read (fill them in the form); invalid: no login data at all
 */

/** Longer than any real login code (a version-40 QR code holds at most 2,953 bytes). */
const MAX_PAYLOAD = 4096;
const MAX_FIELD = 1024;

/**
 * One credential field, or undefined when absent or unusable (not a string, empty, too long,
 * or holding control characters).
 * @param {unknown} value
 */
function field(value) {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_FIELD) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\u2028\u2029]/.test(value)) return undefined;
  return value;
}

/**
 * @param {unknown} text what the QR code holds
 * @returns {LoginPayload}
 */
export function parseLoginPayload(text) {
  if (typeof text !== 'string' || text.length > MAX_PAYLOAD) return { kind: 'invalid' };
  /** @type {any} */
  let body;
  try { body = JSON.parse(text.trim()); } catch { return { kind: 'invalid' }; }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { kind: 'invalid' };
  const own = /** @param {string} name */ (name) => (Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined);
  /** @type {PayloadFields} */
  const fields = {};
  const vault = normalizeVaultURL(field(own('PIA_URL')));
  if (vault) fields.vault = vault;
  const email = field(own('email'))?.trim();
  if (email) fields.email = email;
  const password = field(own('password'));
  if (password) fields.password = password;
  const key = field(own('APP_KEY'))?.trim();
  if (key) fields.key = key;
  const secret = field(own('APP_SECRET'));
  if (secret) fields.secret = secret;
  // Both forms complete: the e-mail and password, as the Swift library's VaultLoginPayload reads it.
  if (fields.vault && fields.email && fields.password) return { kind: 'password', vault: fields.vault, email: fields.email, password: fields.password };
  if (fields.vault && fields.key && fields.secret) return { kind: 'app', vault: fields.vault, key: fields.key, secret: fields.secret };
  return Object.keys(fields).length > 0 ? { kind: 'incomplete', fields } : { kind: 'invalid' };
}

/**
 * The best login among the texts of the codes read: a complete one first, else the first
 * incomplete one, else invalid.
 * @param {readonly unknown[]} texts
 * @returns {LoginPayload}
 */
export function bestLoginPayload(texts) {
  const payloads = texts.map(parseLoginPayload);
  return payloads.find((payload) => payload.kind === 'app' || payload.kind === 'password')
    ?? payloads.find((payload) => payload.kind === 'incomplete')
    ?? { kind: 'invalid' };
}

/** Why a photo could not be read: no answer from Waymark's server, or it refused the photo. */
export class DecodeError extends Error {
  /** @param {'offline' | 'refused'} code @param {number} status */
  constructor(code, status) {
    super(`${code} (${status})`);
    this.name = 'DecodeError';
    this.code = code;
    this.status = status;
  }
}

/**
 * The texts of the QR codes in a photo, read by Waymark's server.
 * @param {Blob} photo
 * @param {{fetch?: typeof fetch}} options
 * @returns {Promise<string[]>} maybe empty
 * @throws {DecodeError}
 */
export async function decodePhoto(photo, { fetch: send = (input, init) => fetch(input, init) } = {}) {
  let response;
  try {
    response = await send(target('decodeQRCodes'), {
      method: operations.decodeQRCodes.method, body: photo, credentials: 'same-origin', cache: 'no-store',
      headers: { 'Content-Type': photo.type && photo.type.startsWith('image/') ? photo.type : 'application/octet-stream', Accept: 'application/json' },
    });
  } catch {
    throw new DecodeError('offline', 0);
  }
  if (!response.ok) throw new DecodeError('refused', response.status);
  let body;
  try { body = await response.json(); } catch { throw new DecodeError('refused', response.status); }
  const texts = body && Array.isArray(body.texts) ? body.texts : [];
  return texts.filter((/** @type {unknown} */ text) => typeof text === 'string');
}
