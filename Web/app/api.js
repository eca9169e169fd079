// The one way pages talk to the server: JSON over fetch with the session cookie, errors as
// ApiError, and the route API's request signature (DESIGN §3.3, version 2) with WebCrypto.
// Nothing here touches the DOM, so node's test runner imports it as it is.

/** An answer that was not 2xx, or no answer at all (status 0, code `offline`). */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status, 0 when the request never reached the server
   * @param {string} code the `error` of the body (e.g. `wrong_credentials`), or a code made
   *   up here: `offline`, `http_<status>` when the body had none
   * @param {string} reason the server's English explanation (shown only for unknown codes)
   * @param {number | null} retryAfter seconds from `Retry-After`, if the server sent it
   */
  constructor(status, code, reason, retryAfter = null) {
    super(`${status} ${code}: ${reason}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.reason = reason;
    this.retryAfter = retryAfter;
  }
}

/**
 * The ApiError for a non-2xx answer.
 * @param {number} status
 * @param {string} bodyText the raw body (JSON `{"error", "reason"}` when the server wrote it)
 * @param {string | null} retryAfterHeader the `Retry-After` header: seconds or an HTTP date
 * @param {number} [now] milliseconds since 1970, for an HTTP-date Retry-After
 */
export function errorFromResponse(status, bodyText, retryAfterHeader, now = Date.now()) {
  let code = `http_${status}`;
  let reason = '';
  try {
    const body = JSON.parse(bodyText);
    if (body && typeof body.error === 'string') code = body.error;
    if (body && typeof body.reason === 'string') reason = body.reason;
  } catch {
    reason = bodyText.slice(0, 200);
  }
  return new ApiError(status, code, reason, parseRetryAfter(retryAfterHeader, now));
}

/**
 * @param {string | null} header
 * @param {number} now
 * @returns {number | null} whole seconds, never negative
 */
function parseRetryAfter(header, now) {
  if (header == null || header.trim() === '') return null;
  if (/^\s*\d+\s*$/.test(header)) return Number(header);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * @param {string} method
 * @param {string} path e.g. `/api/v1/me`
 * @param {unknown} [body] sent as JSON when given
 * @param {RequestCache} [cache] e.g. `no-cache`: always revalidate (with the ETag) instead of
 *   trusting a cached answer's max-age
 * @param {Record<string, string>} [extra] more headers, e.g. an Idempotency-Key
 * @returns {Promise<any>} the parsed JSON answer, or null for an empty one (204)
 */
async function request(method, path, body, cache, extra = {}) {
  /** @type {Record<string, string>} */
  const headers = { ...extra, Accept: 'application/json' };
  /** @type {RequestInit} */
  const init = { method, headers, credentials: 'same-origin' };
  if (cache) init.cache = cache;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, 'offline', String(error));
  }
  const text = await response.text();
  if (!response.ok) throw errorFromResponse(response.status, text, response.headers.get('Retry-After'));
  return text === '' ? null : JSON.parse(text);
}

export const api = {
  /** @param {string} path @param {{cache?: RequestCache, headers?: Record<string, string>}} [options] */
  get: (path, options = {}) => request('GET', path, undefined, options.cache, options.headers),
  /** @param {string} path @param {unknown} [body] @param {{headers?: Record<string, string>}} [options] */
  post: (path, body, options = {}) => request('POST', path, body ?? {}, undefined, options.headers),
  /** @param {string} path @param {unknown} [body] */
  put: (path, body) => request('PUT', path, body ?? {}),
  /** @param {string} path @param {unknown} [body] */
  patch: (path, body) => request('PATCH', path, body ?? {}),
  /** @param {string} path */
  delete: (path) => request('DELETE', path),
};

// ---- Request signature, version 2 (DESIGN §3.3) ----

export const SIGNATURE_VERSION = 'waymark-sig-v2';
const encoder = new TextEncoder();

/** @param {ArrayBuffer} buffer */
function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** @param {string | Uint8Array | ArrayBuffer | null | undefined} body */
function bodyBytes(body) {
  if (body == null) return new Uint8Array(0);
  if (typeof body === 'string') return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

/**
 * @param {Array<[string, string]> | Record<string, string> | undefined} headers
 * @returns {Array<[string, string]>} lowercase names, values trimmed of spaces and tabs, in order
 */
function signedHeaderList(headers) {
  const entries = headers === undefined ? [] : Array.isArray(headers) ? headers : Object.entries(headers);
  return entries.map(([name, value]) => [name.toLowerCase(), String(value).replace(/^[ \t]+|[ \t]+$/g, '')]);
}

/** 128 random bits as 22 characters of unpadded base64url. */
export function newNonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The exact text that is signed.
 * @param {{method: string, target: string, timestamp: number, nonce: string,
 *   body?: string | Uint8Array | ArrayBuffer | null, headers?: Array<[string, string]> | Record<string, string>}} request
 */
export async function stringToSign({ method, target, timestamp, nonce, body, headers }) {
  const bodyHash = hex(await crypto.subtle.digest('SHA-256', bodyBytes(body)));
  let text = `${SIGNATURE_VERSION}\n${method.toUpperCase()}\n${target}\n${timestamp}\n${nonce}\n${bodyHash}\n`;
  for (const [name, value] of signedHeaderList(headers)) text += `${name}:${value}\n`;
  return text;
}

/**
 * Signs one route-API request. `headers` are the headers to sign, in order (always include
 * content-type, idempotency-key, x-delete-token, x-delete-token-hash and x-route-lookup when
 * the request carries them); `target` is the path and query exactly as sent.
 * @param {{secret: string, key: string, method: string, target: string,
 *   body?: string | Uint8Array | ArrayBuffer | null,
 *   headers?: Array<[string, string]> | Record<string, string>,
 *   now?: number | Date, nonce?: string}} request `now` in milliseconds (default: the clock)
 * @returns {Promise<Record<string, string>>} the five X-API-* headers to add
 */
export async function signRequest({ secret, key, method, target, body, headers, now = Date.now(), nonce = newNonce() }) {
  const timestamp = Math.floor(Number(now) / 1000);
  const message = await stringToSign({ method, target, timestamp, nonce, body, headers });
  const hmacKey = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = hex(await crypto.subtle.sign('HMAC', hmacKey, encoder.encode(message)));
  return {
    'X-API-Key': key,
    'X-API-Timestamp': String(timestamp),
    'X-API-Nonce': nonce,
    'X-API-Signed-Headers': signedHeaderList(headers).map(([name]) => name).join(';'),
    'X-API-Sig': signature,
  };
}
