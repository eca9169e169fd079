// The shell's aria-live region: short messages such as "Signed out." that a screen reader
// reads without moving focus, shown for a few seconds; and the offline notice.

/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;

/**
 * Shows and announces `text` in the status region.
 * @param {string} text
 */
export function announce(text) {
  const region = document.getElementById('status');
  if (!region) return;
  clearTimeout(timer);
  region.textContent = '';
  // A fresh text node after clearing makes screen readers announce a repeated message again.
  requestAnimationFrame(() => { region.textContent = text; });
  timer = setTimeout(() => { region.textContent = ''; }, 8000);
}

/** Keeps the offline notice (#offline) in step with the browser's connection. */
export function watchConnection() {
  const notice = document.getElementById('offline');
  if (!notice) return;
  const update = () => { notice.hidden = navigator.onLine; };
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  update();
}
