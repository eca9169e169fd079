// The vault as the pages use it: the cache in IndexedDB, the session kept there, a token that is
// renewed by signing in again, TweetNaCl from /vendor/, the vaults this server's CSP lets the
// page reach (GET /api/v1/config `vaults`), the recorded routes imported, and automatic upload
// only where the browser says the connection is Wi-Fi. The pages put the words to the outcomes.
import { records, numberedRecords } from '../app/store.js';
import { call } from '../app/api.js';
import { createVaultCache } from './cache.js';
import { createVaultClient, VaultError } from './client.js';
import { pushRecords, importRoutes } from './push.js';
import { createTokenSource } from './tokens.js';
import { listRoutes, getRoute } from '../recorder/routes.js';

/**
 * @typedef {import('./client.js').VaultCredentials} VaultCredentials
 * @typedef {import('./client.js').VaultToken} VaultToken
 * @typedef {import('./client.js').VaultModule} VaultModule
 * @typedef {import('./cache.js').VaultSession} VaultSession
 * @typedef {import('./push.js').PushReport} PushReport
 * @typedef {import('./seal.js').Nacl} Nacl
 */

const NACL_SCRIPT = '/vendor/tweetnacl/nacl-fast.js';

/** @type {import('./cache.js').VaultCache | null} */
let shared = null;

/** The cache of this phone (IndexedDB). */
export function vaultCache() {
  if (!shared) {
    shared = createVaultCache({
      records: /** @type {any} */ (numberedRecords('vaultRecords')),
      state: /** @type {any} */ (records('vault')),
    });
  }
  return shared;
}

/** @type {Promise<string[] | null> | null} */
let allowed = null;

/**
 * The origins of the vaults this server lets the page talk to (its CSP's connect-src and
 * frame-src), or null when the server did not say (then the browser finds out).
 * @returns {Promise<string[] | null>}
 */
export function allowedVaultOrigins() {
  if (!allowed) {
    allowed = call('webAppConfig').then((config) => {
      const vaults = config && Array.isArray(config.vaults) ? config.vaults : null;
      if (!vaults) return null;
      return vaults.flatMap((/** @type {unknown} */ url) => {
        try { return typeof url === 'string' ? [new URL(url).origin] : []; } catch { return []; }
      });
    }, () => { allowed = null; return null; });
  }
  return allowed;
}

/**
 * Whether the page may talk to `vault` (false only when the server's list excludes it).
 * @param {string} vault
 */
export async function vaultAllowed(vault) {
  const origins = await allowedVaultOrigins();
  return origins === null || origins.includes(new URL(vault).origin);
}

/** @type {Promise<Nacl> | null} */
let loadingNacl = null;

/**
 * TweetNaCl (Debian's node-tweetnacl), loaded once as a classic script: it sets `window.nacl`.
 * @returns {Promise<Nacl>}
 */
export function loadNacl() {
  const ready = () => /** @type {Nacl | undefined} */ (/** @type {any} */ (window).nacl?.box ? /** @type {any} */ (window).nacl : undefined);
  if (!loadingNacl) {
    loadingNacl = new Promise((resolve, reject) => {
      const present = ready();
      if (present) { resolve(present); return; }
      const script = document.createElement('script');
      script.src = NACL_SCRIPT;
      script.addEventListener('load', () => {
        const nacl = ready();
        if (nacl) resolve(nacl); else reject(new Error(`${NACL_SCRIPT} did not define nacl`));
      });
      script.addEventListener('error', () => reject(new Error(`${NACL_SCRIPT} could not be loaded`)));
      document.head.append(script);
    });
    loadingNacl.catch(() => { loadingNacl = null; });
  }
  return loadingNacl;
}

/**
 * Signs in to `vault` and keeps the session on this phone.
 * @param {string} vault normalized
 * @param {VaultCredentials} credentials
 * @returns {Promise<VaultSession>}
 * @throws {VaultError}
 */
export async function signIn(vault, credentials) {
  const token = await createVaultClient({ vault }).signIn(credentials);
  /** @type {VaultSession} */
  const session = { id: 'session', vault, credentials, token };
  await vaultCache().saveSession(session);
  return session;
}

/** Forgets the session (the cached records and the repo stay). */
export async function signOut() {
  modulesSeen = null;
  await vaultCache().deleteSession();
}

/**
 * The tokens of `session`: the kept one while it is valid, else a new sign-in (kept too).
 * @param {VaultSession} session changed in place when a new token comes
 */
export function tokenSource(session) {
  return createTokenSource({ session, client: createVaultClient({ vault: session.vault }), save: () => vaultCache().saveSession(session) });
}

/** @type {{vault: string, modules: VaultModule[]} | null} */
let modulesSeen = null;

/**
 * The vault's modules (kept in memory for the module page).
 * @param {VaultSession} session
 * @returns {Promise<VaultModule[]>}
 */
export async function loadModules(session) {
  const client = createVaultClient({ vault: session.vault });
  const tokens = tokenSource(session);
  let list;
  const token = await tokens.token();
  try {
    list = await client.modules(token);
  } catch (error) {
    if (!(error instanceof VaultError && error.kind === 'unauthorized')) throw error;
    list = await client.modules(await tokens.renew());
  }
  modulesSeen = { vault: session.vault, modules: list };
  return list;
}

/**
 * The module `id` (its id, or its place in the list when it has none), from the last list.
 * @param {VaultSession} session
 * @param {string} id
 */
export async function findModule(session, id) {
  const list = modulesSeen && modulesSeen.vault === session.vault ? modulesSeen.modules : await loadModules(session);
  return list.find((module, index) => moduleId(module, index) === id) ?? null;
}

/** @param {VaultModule} module @param {number} index */
export function moduleId(module, index) {
  return module.id === null ? `n${index}` : String(module.id);
}

/** Caches the records of the routes recorded on this phone that were not imported yet. */
export async function importRecordedRoutes() {
  const routes = await listRoutes();
  return importRoutes(vaultCache(), routes, async (id) => (await getRoute(id))?.tracks ?? []);
}

/** @type {Promise<PushReport> | null} */
let pushing = null;

/**
 * Imports the recorded routes, then sends every cached record to the repo chosen (one push at a
 * time: a second call while one runs gets its report).
 * @param {VaultSession} session
 * @returns {Promise<PushReport>}
 */
export function uploadNow(session) {
  if (!pushing) {
    pushing = (async () => {
      const cache = vaultCache();
      await importRecordedRoutes();
      return pushRecords({
        client: createVaultClient({ vault: session.vault }), tokens: tokenSource(session), cache,
        nacl: loadNacl, repository: await cache.repository(),
      });
    })().finally(() => { pushing = null; });
  }
  return pushing;
}

/** @returns {any} the Network Information API's object, where the browser has one */
function networkInformation() {
  return /** @type {any} */ (navigator).connection;
}

/** Whether this browser tells the kind of connection (Chrome on Android does; most others do not). */
export function networkKnown() {
  return typeof networkInformation()?.type === 'string';
}

/** Whether an automatic upload may run now: only on Wi-Fi, and only where the browser says so. */
export function onWifi() {
  return navigator.onLine !== false && networkInformation()?.type === 'wifi';
}
