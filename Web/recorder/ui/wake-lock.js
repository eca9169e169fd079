// Keeps the screen on while recording (Screen Wake Lock API): a browser cannot record with the
// screen off, so the lock is asked for when recording starts and again whenever the page is
// shown (the browser releases it when the page is hidden). Where the API is missing or refused
// (battery saver, an old browser) the page says so and records as long as the screen is on.

/**
 * @param {(held: boolean) => void} onChange told whether the screen is kept on
 * @returns {{release: () => void}}
 */
export function keepScreenOn(onChange) {
  /**
   * The lock held (a WakeLockSentinel; this TypeScript's DOM types do not know the API yet).
   * @type {any}
   */
  let sentinel = null;
  let wanted = true;
  const acquire = async () => {
    if (!wanted || document.visibilityState !== 'visible' || sentinel) return;
    const wakeLock = /** @type {any} */ (navigator).wakeLock;
    if (!wakeLock) { onChange(false); return; }
    try {
      /** @type {any} */
      const lock = await wakeLock.request('screen');
      if (!wanted) { void lock.release(); return; }
      sentinel = lock;
      onChange(true);
      lock.addEventListener('release', () => {
        if (sentinel === lock) sentinel = null;
        if (wanted) onChange(false);
      });
    } catch {
      onChange(false);
    }
  };
  const visibility = () => { if (document.visibilityState === 'visible') void acquire(); };
  document.addEventListener('visibilitychange', visibility);
  void acquire();
  return {
    release() {
      wanted = false;
      document.removeEventListener('visibilitychange', visibility);
      if (sentinel) void sentinel.release().catch(() => {});
      sentinel = null;
    },
  };
}
