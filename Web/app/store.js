// The app's one store of data kept in the browser: IndexedDB (database `waymark`), one object
// store per kind of record. Version 1 had `uploads` (photos that wait for the network); version
// 2 adds the recorder's: `routes` (the phone's routes, each with its sealed upload while it is
// queued), `routeFixes` (every accepted fix, written as it arrives, so a closed tab loses at
// most the fix in flight), `routeDeletes` (remote deletes that wait for the network) and
// `keeper` (settings, the kept passphrase and its verifier, the device key). Version 3 adds the
// data vault's (seed 002): `vaultRecords` (location records waiting for the vault; their `id`
// made by the database) and `vault` (the vault session, the repo, the last upload, the routes
// already imported). Version 4 adds `sceneOutbox` (new scenes and rephotographs that wait for the
// network, Web/scenes/outbox.js). Each upgrade only adds what is missing, so every older
// version's data stays.

const DATABASE = 'waymark';
const VERSION = 4;
/** Object stores whose records carry their own `id`. */
const STORES = ['uploads', 'routes', 'routeDeletes', 'keeper', 'vault', 'sceneOutbox'];
/** Object stores whose records get their `id` from the database when they have none. */
const NUMBERED = ['vaultRecords'];
/** The fixes: keys made by the database, looked up by the route's id. */
const FIXES = 'routeFixes';

/** @typedef {'uploads' | 'routes' | 'routeDeletes' | 'keeper' | 'vault' | 'sceneOutbox'} StoreName */

/** @type {Promise<IDBDatabase> | null} */
let opening = null;

function open() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DATABASE, VERSION);
      request.onupgradeneeded = () => {
        const database = request.result;
        for (const name of STORES) {
          if (!database.objectStoreNames.contains(name)) database.createObjectStore(name, { keyPath: 'id' });
        }
        for (const name of NUMBERED) {
          if (!database.objectStoreNames.contains(name)) database.createObjectStore(name, { keyPath: 'id', autoIncrement: true });
        }
        if (!database.objectStoreNames.contains(FIXES)) {
          database.createObjectStore(FIXES, { autoIncrement: true }).createIndex('routeId', 'routeId', { unique: false });
        }
      };
      // Another tab still holds an older version open: it is asked to let go (below), and this one waits.
      request.onblocked = () => console.warn('Waymark: waiting for another tab to close the older local database');
      request.onsuccess = () => {
        const database = request.result;
        // A newer version of the app opened in another tab: close, so its upgrade can run.
        database.onversionchange = () => { database.close(); opening = null; };
        resolve(database);
      };
      request.onerror = () => { opening = null; reject(request.error); };
    });
  }
  return opening;
}

/**
 * @template T
 * @param {string} store
 * @param {IDBTransactionMode} mode
 * @param {(objects: IDBObjectStore) => IDBRequest<T>} action
 * @returns {Promise<T>}
 */
async function run(store, mode, action) {
  const database = await open();
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(store, mode);
    const request = action(transaction.objectStore(store));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/**
 * The records of one object store.
 * @template {{id: string}} T
 * @param {StoreName} name
 */
export function records(name) {
  return {
    /** @returns {Promise<T[]>} */
    all: () => run(name, 'readonly', (objects) => objects.getAll()),
    /** @param {string} id @returns {Promise<T | null>} */
    get: async (id) => (await run(name, 'readonly', (objects) => objects.get(id))) ?? null,
    /** @param {T} record */
    put: async (record) => { await run(name, 'readwrite', (objects) => objects.put(record)); },
    /** @param {string} id */
    delete: async (id) => { await run(name, 'readwrite', (objects) => objects.delete(id)); },
  };
}

/**
 * The recorded fixes, each `{routeId, track, ...fix}`, in the order they were written.
 * @template {{routeId: string}} F
 */
export function fixRecords() {
  return {
    /** @param {F} fix committed before the promise resolves */
    add: async (fix) => { await run(FIXES, 'readwrite', (objects) => objects.add(fix)); },
    /** @param {string} routeId @returns {Promise<F[]>} */
    of: (routeId) => run(FIXES, 'readonly', (objects) => objects.index('routeId').getAll(IDBKeyRange.only(routeId))),
    /** @param {string} routeId @returns {Promise<number>} */
    count: (routeId) => run(FIXES, 'readonly', (objects) => objects.index('routeId').count(IDBKeyRange.only(routeId))),
    /** @param {string} routeId */
    deleteRoute: async (routeId) => {
      const database = await open();
      await new Promise((resolve, reject) => {
        const transaction = database.transaction(FIXES, 'readwrite');
        const cursor = transaction.objectStore(FIXES).index('routeId').openKeyCursor(IDBKeyRange.only(routeId));
        cursor.onsuccess = () => {
          const at = cursor.result;
          if (at) { transaction.objectStore(FIXES).delete(at.primaryKey); at.continue(); }
        };
        transaction.oncomplete = () => resolve(undefined);
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () => reject(transaction.error);
      });
    },
  };
}

/**
 * Records numbered by the database (`vaultRecords`), in the order they were added; several are
 * added or deleted in one transaction.
 * @template {{id?: number}} T
 * @param {'vaultRecords'} name
 */
export function numberedRecords(name) {
  /**
   * @param {IDBTransactionMode} mode
   * @param {(objects: IDBObjectStore) => void} action
   * @returns {Promise<void>}
   */
  const batch = async (mode, action) => {
    const database = await open();
    await new Promise((resolve, reject) => {
      const transaction = database.transaction(name, mode);
      action(transaction.objectStore(name));
      transaction.oncomplete = () => resolve(undefined);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  };
  return {
    /** @returns {Promise<T[]>} */
    all: () => run(name, 'readonly', (objects) => objects.getAll()),
    /** @param {number} limit @returns {Promise<T[]>} the first `limit`, oldest first */
    first: (limit) => run(name, 'readonly', (objects) => objects.getAll(null, limit)),
    /** @returns {Promise<number>} */
    count: () => run(name, 'readonly', (objects) => objects.count()),
    /** @param {T[]} list added in this order, each given its `id` */
    add: (list) => batch('readwrite', (objects) => { for (const record of list) objects.add(record); }),
    /** @param {number[]} ids */
    delete: (ids) => batch('readwrite', (objects) => { for (const id of ids) objects.delete(id); }),
    clear: () => batch('readwrite', (objects) => { objects.clear(); }),
  };
}
