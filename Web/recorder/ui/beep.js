// The poor-accuracy alert's sound (SRR-09): a short two-tone beep made with Web Audio, no audio
// file. Browsers only let a page play sound after a tap, so `unlock` is called from the Start
// (or Resume) button's click; without it, or without Web Audio, beeping does nothing and the
// page's visible notice is the alert.

/** @type {AudioContext | null} */
let context = null;

/** Prepares the sound during a user gesture (a tap on Start or Resume). */
export function unlockSound() {
  try {
    if (!context && typeof AudioContext === 'function') context = new AudioContext();
    if (context && context.state === 'suspended') void context.resume().catch(() => {});
  } catch {
    context = null;
  }
}

/** Plays the alert: two 0.15 s tones; whether it could (false when sound is not available). */
export function beep() {
  if (!context || context.state !== 'running') return false;
  const start = context.currentTime;
  for (const [offset, frequency] of [[0, 880], [0.2, 660]]) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.4, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.15);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(start + offset);
    oscillator.stop(start + offset + 0.16);
  }
  return true;
}
