// The phone's side of the data vault: the location records that wait to be uploaded, the repo
// they go to, the last successful upload, the routes already imported, and the vault session
// (address, credentials, token). Kept in IndexedDB (Web/app/store.js: `vaultRecords`, `vault`)
// by the pages; node's tests use memoryVaultStorage. The credentials stay on this phone as the
// seed's app keeps them, so the token can be renewed by signing in again. No DOM here.
import { DEFAULT_REPOSITORY } from './client.js';

/**
 * @typedef {import('./seal.js').VaultRecord} VaultRecord
 * @typedef {import('./client.js').VaultCredentials} VaultCredentials
 * @typedef {import('./client.js').VaultToken} VaultToken
 * @typedef {{id?: number, record: VaultRecord, source: string | null}} CachedRecord
 * @typedef {{id: 'settings', repository: string, lastUpload: number | null, sources: string[]}} VaultSettings
 *   `lastUpload` in ms since 1970; `sources`: the routes (and other sources) already imported
 * @typedef {{id: 'session', vault: string, credentials: VaultCredentials, token: VaultToken | null}} VaultSession
 * @typedef {{all: () => Promise<CachedRecord[]>, first: (limit: number) => Promise<CachedRecord[]>, count: () => Promise<number>,
 *   add: (list: CachedRecord[]) => Promise<void>, delete: (ids: number[]) => Promise<void>, clear: () => Promise<void>}} RecordStorage
 * @typedef {{get: (id: string) => Promise<any>, put: (value: any) => Promise<void>, delete: (id: string) => Promise<void>}} StateStorage
 * @typedef {{records: RecordStorage, state: StateStorage}} VaultStorage
 */

/** What makes two records the same place at the same time: they are cached once. */
const sameness = /** @param {VaultRecord} record */ (record) => `${record.timestamp}|${record.latitude}|${record.longitude}`;

/** @param {VaultStorage} storage */
export function createVaultCache(storage) {
  /** @returns {Promise<VaultSettings>} */
  async function settings() {
    const kept = await storage.state.get('settings');
    return {
      id: 'settings', repository: DEFAULT_REPOSITORY, lastUpload: null, sources: [],
      ...(kept && typeof kept === 'object' ? kept : {}),
    };
  }
  /** @param {Partial<VaultSettings>} change */
  async function changeSettings(change) {
    await storage.state.put({ ...(await settings()), ...change, id: 'settings' });
  }

  return {
    /**
     * Adds the records not already cached. A `source` (e.g. `route:<id>`) is remembered: the same
     * source adds nothing a second time.
     * @param {VaultRecord[]} list
     * @param {string | null} [source]
     * @returns {Promise<number>} how many were added
     */
    async add(list, source = null) {
      const current = await settings();
      if (source !== null && current.sources.includes(source)) return 0;
      const seen = new Set((await storage.records.all()).map((cached) => sameness(cached.record)));
      /** @type {CachedRecord[]} */
      const fresh = [];
      for (const record of list) {
        const key = sameness(record);
        if (seen.has(key)) continue;
        seen.add(key);
        fresh.push({ record, source });
      }
      if (fresh.length > 0) await storage.records.add(fresh);
      if (source !== null) await changeSettings({ sources: [...current.sources, source] });
      return fresh.length;
    },
    /** @param {string} source @returns {Promise<boolean>} */
    async hasSource(source) {
      return (await settings()).sources.includes(source);
    },
    /**
     * The cached records, oldest first.
     * @param {number} [limit]
     * @returns {Promise<Array<{id: number, record: VaultRecord}>>}
     */
    async pending(limit) {
      const list = limit === undefined ? await storage.records.all() : await storage.records.first(limit);
      return list.map((cached) => ({ id: /** @type {number} */ (cached.id), record: cached.record }));
    },
    /** @param {number[]} ids */
    remove: (ids) => (ids.length > 0 ? storage.records.delete(ids) : Promise.resolve()),
    count: () => storage.records.count(),
    /** Deletes every cached record; @returns {Promise<number>} how many there were */
    async clear() {
      const count = await storage.records.count();
      await storage.records.clear();
      return count;
    },
    /** @returns {Promise<number | null>} ms since 1970 */
    lastUpload: async () => (await settings()).lastUpload,
    /** @param {number} when ms since 1970 */
    setLastUpload: (when) => changeSettings({ lastUpload: when }),
    repository: async () => (await settings()).repository,
    /** @param {string} repository */
    setRepository: (repository) => changeSettings({ repository }),
    /** @returns {Promise<VaultSession | null>} */
    async session() {
      const kept = await storage.state.get('session');
      return kept && typeof kept.vault === 'string' && kept.credentials ? kept : null;
    },
    /** @param {{vault: string, credentials: VaultCredentials, token: VaultToken | null}} session */
    saveSession: (session) => storage.state.put({ ...session, id: 'session' }),
    deleteSession: () => storage.state.delete('session'),
  };
}

/** @typedef {ReturnType<typeof createVaultCache>} VaultCache */

/** A repo name as the vault's API takes it: letters, digits, dots, dashes and underscores. */
export function isRepositoryName(/** @type {string} */ name) {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(name);
}

/** Storage in memory, for tests and where IndexedDB is missing. @returns {VaultStorage} */
export function memoryVaultStorage() {
  /** @type {Map<number, CachedRecord>} */
  const records = new Map();
  /** @type {VaultStorage} */
  let storage;
  /** @type {Map<string, any>} */
  const state = new Map();
  let next = 1;
  const copy = /** @param {any} value */ (value) => (value === undefined ? undefined : structuredClone(value));
  storage = {
    records: {
      all: async () => [...records.values()].map(copy),
      first: async (limit) => [...records.values()].slice(0, limit).map(copy),
      count: async () => records.size,
      add: async (list) => { for (const record of list) { const id = next++; records.set(id, { ...copy(record), id }); } },
      delete: async (ids) => { for (const id of ids) records.delete(id); },
      clear: async () => { records.clear(); },
    },
    state: {
      get: async (id) => copy(state.get(id)) ?? null,
      put: async (value) => { state.set(value.id, copy(value)); },
      delete: async (id) => { state.delete(id); },
    },
  };
  return storage;
}
