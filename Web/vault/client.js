// The data vault's four endpoints (seed 002 "APIs", DESIGN §3.11), called from the browser
// straight to the vault: Waymark's server never sees the records or the password. Outcomes are
// typed (VaultError kinds); the pages choose the words. fetch is injected so node's tests drive
// it with a fake vault. Nothing here touches the DOM.
//
// A fetch that fails without an answer is either a vault that cannot be reached or one that
// answered without allowing this page's origin (CORS): the browser hides which. The same URL is
// then asked again with `mode: 'no-cors'` (a plain GET, no credentials sent again): an opaque
// answer means the vault is there and only refuses the browser.

/**
 * @typedef {{kind: 'password', email: string, password: string} | {kind: 'app', key: string, secret: string}} VaultCredentials
 * @typedef {{accessToken: string, expires: number, username: string | null}} VaultToken  `expires` in ms since 1970
 * @typedef {{id: number | null, name: string, description: string, url: string, uid: string, secret: string,
 *   picture: string | null}} VaultModule
 * @typedef {{written: true, id: number | null} | {written: false, reason: string}} WriteResult
 * @typedef {'unreachable' | 'blocked' | 'invalidCredentials' | 'unauthorized' | 'forbidden' | 'badAnswer' | 'invalidURL'} VaultErrorKind
 *   unreachable: no answer or a time-out (the seed's "can't access data vault"); blocked: the vault
 *   answers but not to this origin (CORS); invalidCredentials: the sign-in answered ≠ 200;
 *   unauthorized: 401 on an API call; forbidden: 403; badAnswer: an answer that breaks the API
 */

/** An outcome other than success; `status` is the HTTP status when there was an answer. */
export class VaultError extends Error {
  /** @param {VaultErrorKind} kind @param {string} [detail] @param {number} [status] */
  constructor(kind, detail = '', status = 0) {
    super(detail ? `${kind}: ${detail}` : kind);
    this.name = 'VaultError';
    this.kind = kind;
    this.detail = detail;
    this.status = status;
  }
}

export const DEFAULT_VAULT = 'https://data-vault.eu';
export const DEFAULT_REPOSITORY = 'eu.ownyourdata.location';
/** The seed's token lifetime, when the answer gives none. */
const DEFAULT_LIFETIME = 7200;

/**
 * A vault's address as it is used (no trailing slash), or null unless it is an http(s) URL
 * without credentials, query or fragment.
 * @param {unknown} text
 * @returns {string | null}
 */
export function normalizeVaultURL(text) {
  if (typeof text !== 'string' || text.length > 2048) return null;
  let url;
  try { url = new URL(text.trim()); } catch { return null; }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * A query value percent-encoded: everything but RFC 3986's unreserved characters
 * (encodeURIComponent leaves !'()* as they are).
 * @param {string} value
 */
export function encodeValue(value) {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The address a module is opened at (seed: `[MODULE_URL]?PIA_URL=…&APP_KEY=…&APP_SECRET=…`).
 * @param {{url: string, uid: string, secret: string}} module
 * @param {string} vault the vault signed in to (PIA_URL)
 */
export function moduleLink(module, vault) {
  const separator = module.url.includes('?') ? '&' : '?';
  return `${module.url}${separator}PIA_URL=${encodeValue(vault)}&APP_KEY=${encodeValue(module.uid)}&APP_SECRET=${encodeValue(module.secret)}`;
}

/** @param {unknown} value */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** @param {unknown} value @param {number} [max] */
const text = (value, max = 100_000) => (typeof value === 'string' && value.length <= max ? value : null);

/**
 * One module of the list, or null when it cannot be shown or opened safely (no http(s) URL).
 * A picture is kept only as a data: image (the CSP allows no other image origin).
 * @param {unknown} item
 * @returns {VaultModule | null}
 */
export function parseModule(item) {
  if (!isObject(item)) return null;
  const entry = /** @type {Record<string, unknown>} */ (item);
  const name = text(entry.name, 1000);
  const url = text(entry.url, 4096);
  if (name === null || url === null) return null;
  let parsed;
  try { parsed = new URL(url); } catch { return null; }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const picture = text(entry.picture, 2_000_000);
  return {
    id: typeof entry.id === 'number' && Number.isFinite(entry.id) ? entry.id : null,
    name, description: text(entry.description) ?? '', url,
    uid: text(entry.uid, 1000) ?? '', secret: text(entry.secret, 1000) ?? '',
    picture: picture !== null && /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=\s]*$/.test(picture) ? picture : null,
  };
}

/**
 * @param {{vault: string, fetch?: typeof fetch, timeout?: number, now?: () => number}} options
 *   `vault` as normalizeVaultURL gives it; `timeout` in ms (the seed's "no response or response time out")
 */
export function createVaultClient({ vault, fetch: send = (input, init) => fetch(input, init), timeout = 20_000, now = Date.now }) {
  const base = normalizeVaultURL(vault);

  /**
   * @param {string} path
   * @param {RequestInit} init
   * @returns {Promise<Response>}
   * @throws {VaultError} unreachable, blocked, invalidURL
   */
  async function request(path, init) {
    if (!base) throw new VaultError('invalidURL', String(vault));
    const url = base + path;
    try {
      return await withTimeout(url, { ...init, credentials: 'omit', cache: 'no-store', redirect: 'follow' });
    } catch (error) {
      if (error instanceof VaultError) throw error;
      // No answer the page may read: ask once more without CORS to tell a refusal from silence.
      try {
        const probe = await withTimeout(url, { method: 'GET', mode: 'no-cors', credentials: 'omit', cache: 'no-store' });
        if (probe.type === 'opaque' || probe.status > 0) throw new VaultError('blocked', url);
      } catch (again) {
        if (again instanceof VaultError && again.kind === 'blocked') throw again;
      }
      throw new VaultError('unreachable', url);
    }
  }

  /** @param {string} url @param {RequestInit} init */
  async function withTimeout(url, init) {
    const controller = typeof AbortController === 'function' ? new AbortController() : null;
    const timer = setTimeout(() => controller?.abort(), timeout);
    try {
      return await send(url, controller ? { ...init, signal: controller.signal } : init);
    } finally {
      clearTimeout(timer);
    }
  }

  /** @param {Response} response @returns {Promise<unknown>} the JSON body, or undefined when it is not JSON */
  async function json(response) {
    let body;
    try { body = await response.text(); } catch { throw new VaultError('unreachable', 'the answer broke off'); }
    try { return JSON.parse(body); } catch { return undefined; }
  }

  /** @param {VaultToken} token */
  const authorization = (token) => ({ Authorization: `Bearer ${token.accessToken}`, Accept: 'application/json' });

  /** @param {Response} response the answer to an API call that was not what was asked */
  function apiFailure(response) {
    if (response.status === 401) return new VaultError('unauthorized', '', 401);
    if (response.status === 403) return new VaultError('forbidden', '', 403);
    return new VaultError('badAnswer', `HTTP ${response.status}`, response.status);
  }

  /**
   * POST /oauth/token: the password grant (form fields email, password) or, for the QR code's
   * APP_KEY/APP_SECRET, the client_credentials grant.
   * @param {VaultCredentials} credentials
   * @returns {Promise<VaultToken>}
   */
  async function signIn(credentials) {
    const form = credentials.kind === 'app'
      ? new URLSearchParams({ grant_type: 'client_credentials', client_id: credentials.key, client_secret: credentials.secret })
      : new URLSearchParams({ grant_type: 'password', email: credentials.email, password: credentials.password });
    const response = await request('/oauth/token', {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, body: form.toString(),
    });
    if (response.status !== 200) throw new VaultError('invalidCredentials', '', response.status);
    const body = await json(response);
    const fields = isObject(body) ? /** @type {Record<string, unknown>} */ (body) : {};
    const accessToken = text(fields.access_token, 4096);
    if (!accessToken || /[^\x21-\x7e]/.test(accessToken)) throw new VaultError('badAnswer', 'no access_token', 200);
    const lifetime = typeof fields.expires_in === 'number' && fields.expires_in > 0 ? fields.expires_in : DEFAULT_LIFETIME;
    return { accessToken, expires: now() + lifetime * 1000, username: text(fields.username, 1000) };
  }

  /**
   * GET /api/modules/index.
   * @param {VaultToken} token
   * @returns {Promise<VaultModule[]>}
   */
  async function modules(token) {
    const response = await request('/api/modules/index', { method: 'GET', headers: authorization(token) });
    if (response.status !== 200) throw apiFailure(response);
    const body = await json(response);
    if (!Array.isArray(body)) throw new VaultError('badAnswer', 'the module list is not an array', 200);
    return /** @type {VaultModule[]} */ (body.map(parseModule).filter((module) => module !== null));
  }

  /**
   * GET /api/repos/{repo}/pub_key: the repo's public key (field pub_key, or public_key as the
   * seed's example), or null when the repo has none (404, or an empty key).
   * @param {string} repo
   * @param {VaultToken} token
   * @returns {Promise<string | null>} 64 lowercase hex digits
   */
  async function repositoryKey(repo, token) {
    const response = await request(`/api/repos/${encodeURIComponent(repo)}/pub_key`, { method: 'GET', headers: authorization(token) });
    if (response.status === 404) return null;
    if (response.status !== 200) throw apiFailure(response);
    const body = await json(response);
    if (!isObject(body)) throw new VaultError('badAnswer', 'the key answer is not an object', 200);
    const fields = /** @type {Record<string, unknown>} */ (body);
    const key = fields.pub_key ?? fields.public_key;
    if (key === undefined || key === null || key === '') return null;
    if (typeof key !== 'string' || !/^[0-9a-fA-F]{64}$/.test(key)) throw new VaultError('badAnswer', 'the repo key is not 64 hex digits', 200);
    return key.toLowerCase();
  }

  /**
   * POST /api/repos/{repo}/items with an array of items: one result per item, in order. An item
   * that is a string is JSON already (a plain record as recordJSON wrote it) and sent as it is.
   * 200 writes all; 400 lists per item (`{"id"}` written, `{"error"}` refused). Any answer whose
   * count does not match is a badAnswer: nothing may be taken as written.
   * @param {unknown[]} items
   * @param {string} repo
   * @param {VaultToken} token
   * @returns {Promise<WriteResult[]>}
   */
  async function write(items, repo, token) {
    const response = await request(`/api/repos/${encodeURIComponent(repo)}/items`, {
      method: 'POST', headers: { ...authorization(token), 'Content-Type': 'application/json' },
      body: `[${items.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(',')}]`,
    });
    if (response.status !== 200 && response.status !== 400) throw apiFailure(response);
    const body = await json(response);
    const fields = isObject(body) ? /** @type {Record<string, unknown>} */ (body) : null;
    const responses = fields && Array.isArray(fields.responses) ? fields.responses : null;
    if (responses) {
      if (responses.length !== items.length) {
        throw new VaultError('badAnswer', `${responses.length} answers for ${items.length} items`, response.status);
      }
      return responses.map((answer) => itemResult(answer, response.status));
    }
    // One answer for the whole body: only meaningful when one item was sent.
    if (items.length === 1 && fields) {
      if (response.status === 200) return [{ written: true, id: typeof fields.id === 'number' ? fields.id : null }];
      return [{ written: false, reason: text(fields.error, 500) ?? 'refused' }];
    }
    throw new VaultError('badAnswer', `HTTP ${response.status} without per-item answers`, response.status);
  }

  return { vault: base, signIn, modules, repositoryKey, write };
}

/**
 * @param {unknown} answer one entry of `responses`
 * @param {number} status the whole answer's status
 * @returns {WriteResult}
 */
function itemResult(answer, status) {
  if (!isObject(answer)) return { written: false, reason: 'no answer for this item' };
  const fields = /** @type {Record<string, unknown>} */ (answer);
  const error = text(fields.error, 500);
  const itemStatus = typeof fields.status === 'number' ? fields.status : (status === 200 && error === null ? 200 : null);
  if (error === null && (itemStatus === 200 || (typeof fields.id === 'number' && itemStatus === null))) {
    return { written: true, id: typeof fields.id === 'number' ? fields.id : null };
  }
  return { written: false, reason: error ?? `status ${itemStatus ?? 'unknown'}` };
}
