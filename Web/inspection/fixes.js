// Where the inspection pages get their position from (issue #15 points 2 and 7): the phone's own
// location service, or — when one is connected over Web Serial — an external GNSS receiver whose
// NMEA sentences are read with Web/inspection/nmea.js (the same rules as the Swift reader).
// Pages call watchFixes and get the same Fix from either source.

/**
 * @typedef {object} Fix
 * @property {number} latitude degrees
 * @property {number} longitude degrees
 * @property {number | null} altitude metres above the ellipsoid or mean sea level, as the source gives it
 * @property {number} accuracy horizontal accuracy in metres (the receiver's HDOP times METRES_PER_HDOP)
 * @property {number} time milliseconds since 1970
 * @property {'device' | 'receiver'} source
 */

/** @typedef {(fix: Fix) => void} FixListener */
/** @typedef {(error: {code: number, message: string}) => void} FixErrorListener */

/**
 * An external receiver: `watch` starts delivering fixes to `listener` and returns a function that
 * stops; `label` names it on screen.
 * @typedef {{watch: (listener: FixListener, onError: FixErrorListener) => () => void, label: string}} Receiver
 */

/**
 * The receiver connected over Web Serial while it is open; null otherwise.
 * @type {Receiver | null}
 */
let receiver = null;

/** @type {Set<() => void>} */
const changeListeners = new Set();
/** @type {Set<(source: Receiver | null) => void>} */
const sourceListeners = new Set();

/** The external receiver now in use, or null for the phone's own location service. */
export function externalReceiver() {
  return receiver;
}

/**
 * Uses an external receiver (or, with null, the phone again) for every watch from now on;
 * watches already running are restarted on the new source.
 * @param {Receiver | null} source
 */
export function useExternalReceiver(source) {
  receiver = source;
  // Pages hear of the new source before its first fix (a receiver hands its last fix at once).
  for (const listener of [...sourceListeners]) listener(source);
  for (const listener of [...changeListeners]) listener();
}

/**
 * Calls `listener` whenever the source changes (a receiver, or null for the phone), until the
 * returned function is called; the main screen says where the position comes from.
 * @param {(source: Receiver | null) => void} listener
 * @returns {() => void}
 */
export function onSourceChange(listener) {
  sourceListeners.add(listener);
  return () => { sourceListeners.delete(listener); };
}

/**
 * Calls `onFix` with every new position until the returned function is called.
 * @param {FixListener} onFix
 * @param {FixErrorListener} [onError]
 * @returns {() => void}
 */
export function watchFixes(onFix, onError = () => {}) {
  /** @type {() => void} */
  let stopSource = () => {};
  const start = () => {
    stopSource();
    stopSource = receiver ? receiver.watch(onFix, onError) : watchDevice(onFix, onError);
  };
  changeListeners.add(start);
  start();
  return () => {
    changeListeners.delete(start);
    stopSource();
  };
}

/** @param {FixListener} onFix @param {FixErrorListener} onError */
function watchDevice(onFix, onError) {
  if (!('geolocation' in navigator)) {
    onError({ code: 2, message: 'no location service' });
    return () => {};
  }
  const id = navigator.geolocation.watchPosition((position) => {
    const { latitude, longitude, altitude, accuracy } = position.coords;
    onFix({ latitude, longitude, altitude: altitude ?? null, accuracy, time: position.timestamp, source: 'device' });
  }, (error) => onError({ code: error.code, message: error.message }), { enableHighAccuracy: true, maximumAge: 0, timeout: 30000 });
  return () => navigator.geolocation.clearWatch(id);
}
