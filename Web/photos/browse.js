// The results of the last search on `/` (or the map), kept for this tab so the photo page can
// step to the next and previous one; and whether photos changed since (an upload, an edit, a
// delete), so that `/` searches again instead of showing what it had.

const KEY = 'waymark.browse';

/**
 * @param {string[]} ids the photos in the order they were shown
 */
export function rememberResults(ids) {
  try { sessionStorage.setItem(KEY, JSON.stringify(ids)); } catch { /* private mode: no stepping */ }
}

/** @returns {string[]} */
export function rememberedResults() {
  try {
    const ids = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

let changed = false;

/** Says that photos were uploaded, edited or deleted: the next search result list is stale. */
export function resultsChanged() {
  changed = true;
}

/** Whether photos changed since the last call (and forgets it). */
export function takeResultsChanged() {
  const was = changed;
  changed = false;
  return was;
}
