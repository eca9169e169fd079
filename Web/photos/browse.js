// The results of the last search on `/` (or the map), kept for this tab so the photo page can
// step to the next and previous one; and the page's search state, so coming back shows the
// same results without asking for the position again.

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
