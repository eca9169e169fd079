// What the phone's outboxes share — photo uploads (Web/photos/upload-queue.js), task changes
// (Web/tasks/model.js) and field paths (Web/paths/model.js): which failures are simply tried
// again later, how a failure is kept with the item, and the send loop. Each outbox keeps its own
// storage and its own attempt (what "sent" means differs); nothing here touches the DOM.

/** @typedef {{status: number, code: string, reason: string}} OutboxFailure what the page shows of a failed attempt */

/**
 * Whether a failed attempt should simply be repeated later: no answer at all (offline, the
 * connection dropped), a timeout, too many requests, or a server that is down for a moment.
 * Anything else the server refused (a 4xx such as not_an_image, or a 500) waits for the person.
 * @param {{status?: number}} error
 */
export function isTransient(error) {
  const status = typeof error?.status === 'number' ? error.status : 0;
  return status === 0 || status === 408 || status === 429 || status === 502 || status === 503 || status === 504;
}

/**
 * A thrown error as an outbox keeps it (an error without a status is taken as no network).
 * @param {unknown} failure
 * @returns {OutboxFailure}
 */
export function failureOf(failure) {
  const error = /** @type {any} */ (failure);
  return { status: typeof error?.status === 'number' ? error.status : 0, code: String(error?.code ?? 'offline'), reason: String(error?.reason ?? error?.message ?? '') };
}

/**
 * The send loop: `pending()`'s items go oldest first, one at a time, through `attempt`; items
 * `isFailed` says the server refused are left for the person (counted, not tried); the first
 * attempt that finds no network ends the round, and the items after it count as waiting (they
 * would fail the same way). `drain()` called while a round runs answers that round, so nothing
 * goes twice at once; `settled()` waits for a running round (before changing what it reads).
 * `drainAfter()` is for news that came while a round may be running — the network is back —:
 * that round may already have found no network and be ending, so a round is started after it
 * (several such calls during one round share that one next round).
 * @template T
 * @param {{pending: () => Promise<T[]>, attempt: (item: T) => Promise<'sent' | 'waiting' | 'failed'>, isFailed?: (item: T) => boolean}} options
 */
export function createDrain({ pending, attempt, isFailed = () => false }) {
  /** @type {Promise<{sent: number, waiting: number, failed: number}> | null} */
  let running = null;

  function drain() {
    if (running) return running;
    running = (async () => {
      const counts = { sent: 0, waiting: 0, failed: 0 };
      let offline = false;
      for (const item of await pending()) {
        if (isFailed(item)) { counts.failed += 1; continue; }
        if (offline) { counts.waiting += 1; continue; }
        const result = await attempt(item);
        counts[result] += 1;
        if (result === 'waiting') offline = true;
      }
      return counts;
    })().finally(() => { running = null; });
    return running;
  }

  /** @type {Promise<{sent: number, waiting: number, failed: number}> | null} the round asked for after the running one */
  let next = null;

  function drainAfter() {
    if (!running) return drain();
    next ??= running.catch(() => {}).then(() => { next = null; return drain(); });
    return next;
  }

  async function settled() {
    if (running) await running.catch(() => {});
  }

  return { drain, drainAfter, settled };
}
