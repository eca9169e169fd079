// The app's one store of data kept in the browser: IndexedDB (database `waymark`), one object
// store per kind of record, each record with an `id`. Used by the upload queue (photos that
// wait for the network).

const DATABASE = 'waymark';
const VERSION = 1;
const STORES = ['uploads'];

/** @type {Promise<IDBDatabase> | null} */
let opening = null;

function open() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DATABASE, VERSION);
      request.onupgradeneeded = () => {
        for (const name of STORES) {
          if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name, { keyPath: 'id' });
        }
      };
      request.onsuccess = () => resolve(request.result);
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
 * @param {'uploads'} name
 */
export function records(name) {
  return {
    /** @returns {Promise<T[]>} */
    all: () => run(name, 'readonly', (objects) => objects.getAll()),
    /** @param {T} record */
    put: async (record) => { await run(name, 'readwrite', (objects) => objects.put(record)); },
    /** @param {string} id */
    delete: async (id) => { await run(name, 'readwrite', (objects) => objects.delete(id)); },
  };
}
