// Uploading the cached location records to the vault (seed 002 "Write Data", DESIGN §3.11):
// in batches of 100, each record sealed when the repo has a public key (asked once per push),
// plain otherwise. Exactly the records the vault wrote leave the cache; refused ones stay (the
// 400 answer lists each item). A 401 signs in again once and sends the batch again; a second
// 401, a 403, no answer or an answer that breaks the API stop the push and keep everything not
// yet written. Also: the phone's recorded routes become records, each route once.
// Client, tokens, cache and TweetNaCl are passed in; nothing here touches the DOM.
import { VaultError } from './client.js';
import { recordJSON, sealRecord } from './seal.js';
import { recordsFromTrack } from './records.js';

/**
 * @typedef {import('./client.js').VaultToken} VaultToken
 * @typedef {import('./client.js').WriteResult} WriteResult
 * @typedef {import('./cache.js').VaultCache} VaultCache
 * @typedef {import('./seal.js').Nacl} Nacl
 * @typedef {{token: () => Promise<VaultToken>, renew: () => Promise<VaultToken>}} TokenSource
 *   token(): the kept token, or a new one when it expired; renew(): always signs in again
 * @typedef {{repositoryKey: (repo: string, token: VaultToken) => Promise<string | null>,
 *   write: (items: unknown[], repo: string, token: VaultToken) => Promise<WriteResult[]>}} WritingClient
 *   `write` takes sealed items as objects and plain records as their JSON text
 * @typedef {{written: number, refused: Record<string, number>, kept: number, encrypted: boolean,
 *   failure: VaultError | null}} PushReport  `refused`: reason → how many; `kept`: still cached after the push
 */

export const BATCH_SIZE = 100;

/**
 * Calls `call` with a token; on a 401 signs in again once and calls it again.
 * @template T
 * @param {TokenSource} tokens
 * @param {(token: VaultToken) => Promise<T>} call
 * @returns {Promise<T>}
 */
export async function withToken(tokens, call) {
  const token = await tokens.token();
  try {
    return await call(token);
  } catch (error) {
    if (!(error instanceof VaultError && error.kind === 'unauthorized')) throw error;
    return call(await tokens.renew());
  }
}

/**
 * Sends every cached record to `repository`.
 * @param {{client: WritingClient, tokens: TokenSource, cache: VaultCache, nacl: Nacl | (() => Promise<Nacl>),
 *   repository: string, batchSize?: number, now?: () => number}} options  `nacl` may be a loader,
 *   asked only when the repo has a key
 * @returns {Promise<PushReport>}
 */
export async function pushRecords({ client, tokens, cache, nacl, repository, batchSize = BATCH_SIZE, now = Date.now }) {
  /** @type {PushReport} */
  const report = { written: 0, refused: {}, kept: 0, encrypted: false, failure: null };
  const queue = await cache.pending();
  try {
    if (queue.length === 0) return report;
    const key = await withToken(tokens, (token) => client.repositoryKey(repository, token));
    report.encrypted = key !== null;
    const box = key === null ? null : typeof nacl === 'function' ? await nacl() : nacl;
    for (let start = 0; start < queue.length; start += batchSize) {
      const batch = queue.slice(start, start + batchSize);
      /** @type {unknown[]} */
      const items = [];
      for (const { record } of batch) {
        const json = recordJSON(record);
        items.push(key !== null && box ? await sealRecord(box, json, key) : json);
      }
      const results = await withToken(tokens, (token) => client.write(items, repository, token));
      if (results.length !== batch.length) throw new VaultError('badAnswer', `${results.length} results for ${batch.length} items`);
      /** @type {number[]} */
      const written = [];
      results.forEach((result, index) => {
        if (result.written) written.push(batch[index].id);
        else report.refused[result.reason] = (report.refused[result.reason] ?? 0) + 1;
      });
      await cache.remove(written);
      if (written.length > 0) await cache.setLastUpload(now());
      report.written += written.length;
    }
  } catch (error) {
    if (!(error instanceof VaultError)) throw error;
    report.failure = error;
  } finally {
    report.kept = await cache.count();
  }
  return report;
}

/**
 * The number of records the vault refused in a push.
 * @param {PushReport} report
 */
export function refusedCount(report) {
  return Object.values(report.refused).reduce((sum, count) => sum + count, 0);
}

/**
 * Caches the records of every finished route recorded on this phone that was not imported yet
 * (source `route:<id>`); a route still being recorded waits until it is stopped.
 * @param {VaultCache} cache
 * @param {Array<{id: string, status: string}>} routes
 * @param {(id: string) => Promise<Array<Array<import('../recorder/envelope.js').Fix>>>} tracksOf
 * @returns {Promise<number>} records added
 */
export async function importRoutes(cache, routes, tracksOf) {
  let added = 0;
  for (const route of routes) {
    if (route.status === 'recording') continue;
    const source = `route:${route.id}`;
    if (await cache.hasSource(source)) continue;
    const records = (await tracksOf(route.id)).flatMap((track) => recordsFromTrack(track));
    added += await cache.add(records, source);
  }
  return added;
}
