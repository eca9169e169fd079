// The traffic lights of the field-inspection main screen (seed 003's "Basic Info", issue #15
// point 7): what the page has observed about this phone turned into one light per attribute.
// Pure, so that node tests check every case; /inspection only gathers the observations.
//
// As the seed says: the location light is green while positions come and red when they cannot
// (refused, switched off, none within the time limit); every other light is green when the phone
// has the property and yellow when it does not, or when that is not (yet) known — it may turn
// green later (a sensor's first event, the service worker's first install). Each light carries the
// key of a sentence that says the same as its colour, so nobody depends on telling colours apart.

/** @typedef {'green' | 'yellow' | 'red'} Colour */

/**
 * One line of Basic Info.
 * @typedef {object} Light
 * @property {'location' | 'accuracy' | 'motion' | 'camera' | 'online' | 'serviceWorker'} name
 * @property {Colour} colour
 * @property {string} key the i18n key of the sentence that says what the light means
 * @property {Record<string, string | number>} params the sentence's parameters
 */

/**
 * What the page knows so far.
 * @typedef {object} Observations
 * @property {'waiting' | 'fix' | 'denied' | 'unavailable' | 'timeout'} location the last thing the
 *   position source said: nothing yet, a fix, or why it gave none
 * @property {number | null} accuracy the last fix's horizontal accuracy in metres (null: none yet)
 * @property {number} threshold the accuracy a fix needs (the inspection settings' `accuracy`)
 * @property {'seen' | 'waiting' | 'absent'} motion device motion or orientation events with data
 *   seen, none yet, or the browser has no such events
 * @property {'present' | 'none' | 'unknown'} camera a video input device exists, none does, or the
 *   browser does not say
 * @property {boolean} online navigator.onLine
 * @property {'ready' | 'installing' | 'unsupported'} serviceWorker the offline copy of the app works
 *   (a service worker is active), is being installed, or the browser has no service workers
 */

/** Which light each observation gives: [colour, key]. */
const LOCATION = /** @type {const} */ ({
  fix: ['green', 'inspection.light.location.fix'],
  waiting: ['yellow', 'inspection.light.location.waiting'],
  denied: ['red', 'inspection.light.location.denied'],
  unavailable: ['red', 'inspection.light.location.unavailable'],
  timeout: ['red', 'inspection.light.location.timeout'],
});
const MOTION = /** @type {const} */ ({
  seen: ['green', 'inspection.light.motion.seen'],
  waiting: ['yellow', 'inspection.light.motion.waiting'],
  absent: ['yellow', 'inspection.light.motion.absent'],
});
const CAMERA = /** @type {const} */ ({
  present: ['green', 'inspection.light.camera.present'],
  none: ['yellow', 'inspection.light.camera.none'],
  unknown: ['yellow', 'inspection.light.camera.unknown'],
});
const WORKER = /** @type {const} */ ({
  ready: ['green', 'inspection.light.serviceWorker.ready'],
  installing: ['yellow', 'inspection.light.serviceWorker.installing'],
  unsupported: ['yellow', 'inspection.light.serviceWorker.unsupported'],
});

/**
 * The six lights, in the order the page lists them.
 * @param {Observations} seen
 * @returns {Light[]}
 */
export function lights(seen) {
  /** @type {Light[]} */
  const list = [];
  /** @param {Light['name']} name @param {readonly [Colour, string]} pair @param {Record<string, string | number>} [params] */
  const add = (name, [colour, key], params = {}) => list.push({ name, colour, key, params });
  add('location', LOCATION[seen.location] ?? LOCATION.waiting);
  add('accuracy', ...accuracyLight(seen.accuracy, seen.threshold));
  add('motion', MOTION[seen.motion] ?? MOTION.waiting);
  add('camera', CAMERA[seen.camera] ?? CAMERA.unknown);
  add('online', seen.online ? ['green', 'inspection.light.online.yes'] : ['yellow', 'inspection.light.online.no']);
  add('serviceWorker', WORKER[seen.serviceWorker] ?? WORKER.unsupported);
  return list;
}

/**
 * Green when the last fix is within the threshold; yellow above it or before the first fix.
 * The accuracy is shown to a tenth of a metre, so that 10.04 m against 10 m reads "10" only
 * when it is green.
 * @param {number | null} accuracy
 * @param {number} threshold
 * @returns {[readonly [Colour, string], Record<string, string | number>]}
 */
function accuracyLight(accuracy, threshold) {
  if (accuracy === null || !Number.isFinite(accuracy)) return [['yellow', 'inspection.light.accuracy.unknown'], { threshold }];
  const params = { accuracy: Math.ceil(accuracy * 10 - 1e-9) / 10, threshold };
  return accuracy <= threshold
    ? [['green', 'inspection.light.accuracy.good'], params]
    : [['yellow', 'inspection.light.accuracy.poor'], params];
}

/**
 * What a watchFixes error means for the location light: the Geolocation API's codes
 * (1 permission denied, 2 position unavailable, 3 timeout).
 * @param {number} code
 * @returns {Observations['location']}
 */
export function locationFromError(code) {
  return code === 1 ? 'denied' : code === 3 ? 'timeout' : 'unavailable';
}

/**
 * Whether a devicemotion or deviceorientation event carries a reading. Desktop browsers without
 * sensors fire one event whose values are all null; that is no sensor.
 * @param {{acceleration?: {x: number | null} | null, accelerationIncludingGravity?: {x: number | null} | null,
 *   rotationRate?: {alpha: number | null} | null, alpha?: number | null, beta?: number | null}} event
 */
export function hasSensorData(event) {
  const present = (/** @type {unknown} */ value) => typeof value === 'number' && Number.isFinite(value);
  return present(event.acceleration?.x) || present(event.accelerationIncludingGravity?.x)
    || present(event.rotationRate?.alpha) || present(event.alpha) || present(event.beta);
}

/**
 * Whether the browser's list of media devices has a camera. Before a permission is given, the
 * list still names each kind (with empty labels), so this works without asking.
 * @param {ReadonlyArray<{kind: string}> | null} devices null when the browser cannot list them
 * @returns {Observations['camera']}
 */
export function cameraFromDevices(devices) {
  if (devices === null) return 'unknown';
  return devices.some((device) => device.kind === 'videoinput') ? 'present' : 'none';
}

/**
 * A position as the main screen writes it: degrees to six decimals (about 0.1 m) in the
 * language's digits, with the hemisphere as a letter instead of a sign.
 * @param {number} latitude
 * @param {number} longitude
 * @param {string} language
 * @returns {{latitude: string, longitude: string, ns: 'N' | 'S', ew: 'E' | 'W'}}
 */
export function coordinateParts(latitude, longitude, language) {
  const number = new Intl.NumberFormat(language, { minimumFractionDigits: 6, maximumFractionDigits: 6 });
  return {
    latitude: number.format(Math.abs(latitude)), ns: latitude < 0 ? 'S' : 'N',
    longitude: number.format(Math.abs(longitude)), ew: longitude < 0 ? 'W' : 'E',
  };
}
