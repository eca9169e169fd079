// The one way pages talk to the server: JSON over fetch with the session cookie, errors as
// ApiError, and the route API's request signature (DESIGN §3.3, version 2) with WebCrypto.
// Nothing here touches the DOM, so node's test runner imports it as it is.

import { operations } from './contract.js';

/** @typedef {import('./contract.js').Operations} Operations */

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
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
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

// ---- Operations of the contract, by operationId (Web/app/contract.js) ----

/**
 * What one call of operation K takes: its path parameters (required when it has any), its
 * query, its body (JSON, or FormData for an upload form), more headers, and a cache mode.
 * @template {keyof Operations} K
 * @typedef {({} extends Operations[K]['path'] ? { path?: Operations[K]['path'] } : { path: Operations[K]['path'] })
 *   & ({} extends Operations[K]['query'] ? { query?: Operations[K]['query'] } : { query: Operations[K]['query'] })
 *   & (undefined extends Operations[K]['body'] ? { body?: Operations[K]['body'] } : { body: Operations[K]['body'] })
 *   & { headers?: Record<string, string>, cache?: RequestCache }} CallOptions
 */

/**
 * The path and query of operation `id`: each `{name}` of its path filled in (percent-encoded),
 * then the query's defined values in order.
 * @template {keyof Operations} K
 * @param {K} id
 * @param {{ path?: Operations[K]['path'], query?: Operations[K]['query'] }} [parts]
 * @returns {string} e.g. `/api/v1/photos/abc/image/thumb`
 */
export function target(id, parts = {}) {
  const operation = operations[id];
  if (!operation) throw new TypeError(`no operation ${String(id)} in the contract`);
  /** @type {Record<string, unknown>} */
  const values = parts.path ?? {};
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') throw new TypeError(`${String(id)} needs its path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parts.query ?? {})) {
    if (value !== undefined && value !== null) query.append(name, String(value));
  }
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * Calls operation `id` of the contract with the session cookie: the method and path come from
 * the contract, and its answer is typed by it. A non-2xx answer, or none, is an ApiError.
 * @template {keyof Operations} K
 * @param {K} id
 * @param {CallOptions<K>} [options]
 * @returns {Promise<Operations[K]['answer']>}
 */
export async function call(id, options = /** @type {CallOptions<K>} */ ({})) {
  const { body, headers, cache } = /** @type {{ body?: unknown, headers?: Record<string, string>, cache?: RequestCache }} */ (options);
  return request(operations[id].method, target(id, options), body, cache, headers);
}

/**
 * Calls operation `id` with an upload form (its `body`, a FormData) by XMLHttpRequest, which
 * tells how much of it is sent; otherwise as `call`.
 * @template {keyof Operations} K
 * @param {K} id
 * @param {CallOptions<K>} options
 * @param {(fraction: number) => void} onProgress 0…1 of the bytes sent; 1 once answered
 * @returns {Promise<Operations[K]['answer']>}
 */
export function upload(id, options, onProgress) {
  const { body, headers = {} } = /** @type {{ body?: unknown, headers?: Record<string, string> }} */ (options);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(operations[id].method, target(id, options));
    request.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        try { resolve(JSON.parse(request.responseText)); } catch { resolve(/** @type {any} */ (null)); }
      } else {
        reject(errorFromResponse(request.status, request.responseText, request.getResponseHeader('Retry-After')));
      }
    });
    const offline = () => reject(new ApiError(0, 'offline', 'The network failed during the upload.'));
    request.addEventListener('error', offline);
    request.addEventListener('abort', offline);
    request.addEventListener('timeout', offline);
    request.send(/** @type {FormData} */ (body));
  });
}

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

/**
 * Calls operation `id` signed with a device key (signature v2) instead of the session cookie, as
 * the route API and an OwnTracks device's messages are asked for: the request target comes from
 * the contract, a fresh nonce signs every request, and no cookie is sent. A JSON body is signed
 * with its content-type.
 * @template {keyof Operations} K
 * @param {K} id
 * @param {{key: string, secret: string}} deviceKey
 * @param {CallOptions<K>} [options]
 * @returns {Promise<Operations[K]['answer']>}
 */
export async function callSigned(id, deviceKey, options = /** @type {CallOptions<K>} */ ({})) {
  const { body, headers = {} } = /** @type {{ body?: unknown, headers?: Record<string, string> }} */ (options);
  const method = operations[id].method;
  const to = target(id, options);
  const text = body === undefined ? '' : JSON.stringify(body);
  /** @type {Array<[string, string]>} */
  const signed = Object.entries(headers);
  if (body !== undefined) signed.unshift(['content-type', 'application/json']);
  const xapi = await signRequest({ secret: deviceKey.secret, key: deviceKey.key, method, target: to, body: text, headers: signed });
  /** @type {Record<string, string>} */
  const sent = { Accept: 'application/json', ...xapi };
  for (const [name, value] of signed) sent[name] = value;
  let response;
  try {
    response = await fetch(to, { method, headers: sent, body: body === undefined ? undefined : text, credentials: 'omit', cache: 'no-store' });
  } catch (error) {
    throw new ApiError(0, 'offline', String(error));
  }
  const answer = await response.text();
  if (!response.ok) throw errorFromResponse(response.status, answer, response.headers.get('Retry-After'));
  return answer === '' ? null : JSON.parse(answer);
}
