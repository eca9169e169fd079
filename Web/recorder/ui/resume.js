// SRR-19: while a recording is unfinished, the recording screen is the app's default. The shell
// (Web/app/main.js) asks `hasUnfinishedRecording` when the app starts on `/`, and
// `returnToRecording` sends the person back to /record whenever the app comes to the front
// again on another page (after switching apps or locking the phone).

/** How long the app's start waits for IndexedDB's answer (a blocked database must not stall it). */
const PATIENCE = 2000;

/** Whether a recording was started and not stopped (IndexedDB says; false when it cannot, or not in time). */
export async function hasUnfinishedRecording() {
  try {
    const routes = await import('../routes.js');
    /** @type {Promise<false>} */
    const late = new Promise((resolve) => { setTimeout(() => resolve(false), PATIENCE); });
    return await Promise.race([routes.unfinishedRoute().then((route) => route !== null), late]);
  } catch (failure) {
    console.warn('Waymark: could not look for an unfinished recording:', failure);
    return false;
  }
}

/** @param {(path: string) => void} navigate the router's */
export function returnToRecording(navigate) {
  document.addEventListener('visibilitychange', async () => {
    if (document.visibilityState !== 'visible' || location.pathname === '/record') return;
    if (await hasUnfinishedRecording()) navigate('/record');
  });
}
