// SRR-19: while a recording is unfinished, the recording screen is the app's default. The shell
// (Web/app/main.js) asks `hasUnfinishedRecording` when the app starts on `/`, and
// `returnToRecording` sends the person back to /record whenever the app comes to the front
// again on another page (after switching apps or locking the phone).

/** Whether a recording was started and not stopped (IndexedDB says; false when it cannot). */
export async function hasUnfinishedRecording() {
  try {
    const routes = await import('../routes.js');
    return (await routes.unfinishedRoute()) !== null;
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
