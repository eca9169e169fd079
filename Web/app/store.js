// The app's one store of data kept in the browser: IndexedDB (database `waymark`), one object
// store per kind of record, opened here and nowhere else. Each version of the database adds
// stores, and UPGRADES is its one upgrade path: a phone on any older version runs the steps it
// has not run yet, so every older version's data stays.
//   1 `uploads`: photos that wait for the network.
//   2 the recorder's: `routes` (the phone's routes, each with its sealed upload while it is
//     queued), `routeFixes` (every accepted fix, written as it arrives, so a closed tab loses at
//     most the fix in flight), `routeDeletes` (remote deletes that wait for the network) and
//     `keeper` (settings, the kept passphrase and its verifier, the device key).
//   3 the data vault's (seed 002): `vaultRecords` (location records waiting for the vault; their
//     `id` made by the database) and `vault` (the vault session, the repo, the last upload, the
//     routes already imported).
//   4 `sceneOutbox`: new scenes and rephotographs that wait for the network (Web/scenes/outbox.js).
//   5 the tasks' `taskOutbox` (notes, photos and sends that wait for the network) and `tasks`
//     (the last answers, for offline use), and the field paths' `paths`. They had databases of
//     their own before (`waymark-tasks`, `waymark-paths`); what those hold is moved here once,
//     then they are deleted.

const DATABASE = 'waymark';
/** The fixes: keys made by the database, looked up by the route's id. */
const FIXES = 'routeFixes';

/** @typedef {'uploads' | 'routes' | 'routeDeletes' | 'keeper' | 'vault' | 'sceneOutbox' | 'taskOutbox' | 'tasks' | 'paths'} StoreName */

/** @param {IDBDatabase} database @param {string[]} names stores whose records carry their own `id` */
function keyed(database, ...names) {
  for (const name of names) {
    if (!database.objectStoreNames.contains(name)) database.createObjectStore(name, { keyPath: 'id' });
  }
}

/**
 * Step n makes version n + 1 from version n.
 * @type {Array<(database: IDBDatabase) => void>}
 */
const UPGRADES = [
  (database) => keyed(database, 'uploads'),
  (database) => {
    keyed(database, 'routes', 'routeDeletes', 'keeper');
    if (!database.objectStoreNames.contains(FIXES)) {
      database.createObjectStore(FIXES, { autoIncrement: true }).createIndex('routeId', 'routeId', { unique: false });
    }
  },
  (database) => {
    keyed(database, 'vault');
    if (!database.objectStoreNames.contains('vaultRecords')) database.createObjectStore('vaultRecords', { keyPath: 'id', autoIncrement: true });
  },
  (database) => keyed(database, 'sceneOutbox'),
  (database) => keyed(database, 'taskOutbox', 'tasks', 'paths'),
];
const VERSION = UPGRADES.length;

/**
 * The databases of before version 5, each store's records moved to one of `waymark`'s.
 * @type {Array<{name: string, stores: Record<string, StoreName>}>}
 */
const FORMER = [
  { name: 'waymark-tasks', stores: { outbox: 'taskOutbox', tasks: 'tasks' } },
  { name: 'waymark-paths', stores: { paths: 'paths' } },
];

/** @type {Promise<IDBDatabase> | null} */
let opening = null;

function open() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DATABASE, VERSION);
      request.onupgradeneeded = (event) => {
        for (let step = event.oldVersion; step < VERSION; step += 1) UPGRADES[step](request.result);
      };
      // Another tab still holds an older version open: it is asked to let go (below), and this one waits.
      request.onblocked = () => console.warn('Waymark: waiting for another tab to close the older local database');
      request.onsuccess = () => {
        const database = request.result;
        // A newer version of the app opened in another tab: close, so its upgrade can run.
        database.onversionchange = () => { database.close(); opening = null; };
        moveFormer(database).then(() => resolve(database), () => resolve(database));
      };
      request.onerror = () => { opening = null; reject(request.error); };
    });
  }
  return opening;
}

/**
 * Opens an older database only if it is there (opening one that is not would make it).
 * @param {string} name
 * @returns {Promise<IDBDatabase | null>}
 */
function openIfThere(name) {
  return new Promise((resolve) => {
    const request = indexedDB.open(name);
    request.onupgradeneeded = (event) => { if (event.oldVersion === 0) request.transaction?.abort(); };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
  });
}

/**
 * Moves what the databases of before version 5 hold into `database`, then deletes them. The
 * records keep their ids, so a move cut short (a closed tab) is simply done again next time.
 * @param {IDBDatabase} database
 */
async function moveFormer(database) {
  // Where the browser can list its databases (all current ones can), a phone that never had the
  // former ones opens nothing more; elsewhere each is tried (openIfThere makes none).
  const listed = typeof indexedDB.databases === 'function' ? await indexedDB.databases().catch(() => null) : null;
  const present = listed ? new Set(listed.map((info) => info.name)) : null;
  for (const former of FORMER) {
    if (present && !present.has(former.name)) continue;
    const old = await openIfThere(former.name);
    if (!old) continue;
    const names = Object.keys(former.stores).filter((name) => old.objectStoreNames.contains(name));
    /** @type {Array<[string, any[]]>} */
    const found = [];
    for (const name of names) {
      found.push([former.stores[name], await new Promise((resolve, reject) => {
        const request = old.transaction(name, 'readonly').objectStore(name).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      })]);
    }
    old.close();
    if (found.length > 0) {
      await new Promise((resolve, reject) => {
        const transaction = database.transaction(found.map(([store]) => store), 'readwrite');
        for (const [store, items] of found) for (const item of items) transaction.objectStore(store).put(item);
        transaction.oncomplete = () => resolve(undefined);
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () => reject(transaction.error);
      });
    }
    await new Promise((resolve) => { const request = indexedDB.deleteDatabase(former.name); request.onsuccess = request.onerror = request.onblocked = () => resolve(undefined); });
  }
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
