// `/scenes/new` (issue #14 point 4, DESIGN §3.9, seed 001 §4.2's capture flow): a new scene of
// rephotography in six steps, each of which can go back — the live back camera with a grid and
// the level rectangle (turned against the phone's tilt, so it stays level with the horizon), the
// reference photo reviewed (use it or take it again), the feet shot (the camera pointed at the
// ground where the photographer stands) reviewed, a map with a draggable pin that starts at the
// fix, and an overview with a name; then the upload with its progress and an Idempotency-Key
// (a retry never stores the scene twice), and the scene's page. The scene is kept on the phone
// before it is sent (Web/scenes/uploads.js): without a network it waits there, the page says so,
// and it goes when the network returns — even after this page was closed. The photos are taken at the
// camera's full resolution with the position and attitude of the moment the shutter fired in the
// upload's metadata and in each JPEG's Exif (Web/scenes/capture.js, Web/scenes/exif.js); where
// the user moved the pin, the pin is the place in both (it says better where they stood than the
// fix did), and the fix's altitude and the moment's time, attitude and heading stay.
import { t, language } from '../i18n.js';
import { el } from '../dom.js';
import { announce } from '../status.js';
import { currentUser } from '../session.js';
import { levelTilt } from '../../scenes/attitude.js';
import {
  liveCamera, watchSensors, metadataOf, stamped,
  needsOrientationPermission, requestOrientationPermission, svgElement,
} from '../../scenes/capture.js';
import { sceneUploadBlock } from '../../scenes/uploads.js';
import { loadLeaflet, tileSource, tileLayer } from '../../photos/leaflet.js';
import { geodesicDistance } from '../geodesy.js';

/** @typedef {import('../../scenes/capture.js').Moment} Moment */
/** @typedef {'camera' | 'review' | 'feet' | 'feetReview' | 'map' | 'overview'} Step */

export const titleKey = 'sceneCamera.new.title';

/**
 * The steps in order; Back goes to the one before.
 * @type {Step[]}
 */
const STEPS = ['camera', 'review', 'feet', 'feetReview', 'map', 'overview'];
/** The heading of each step. @type {Record<Step, string>} */
const STEP_TITLES = {
  camera: 'sceneCamera.step.camera', review: 'sceneCamera.step.review', feet: 'sceneCamera.step.feet',
  feetReview: 'sceneCamera.step.feetReview', map: 'sceneCamera.step.map', overview: 'sceneCamera.step.overview',
};
/** How often the level rectangle and the shutter's conditions are redrawn, ms. */
const TICK_MS = 100;
/** Within this many degrees of level the level rectangle says the phone is level. */
const LEVEL_DEGREES = 1;

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export async function render(root, context) {
  const { signal } = context;
  // Ended when the page is left (the router's signal) or its camera stopped (stop(), once).
  let stopped = false;
  const ended = () => stopped || signal.aborted;
  const user = await currentUser();
  // Offline the server cannot say who is signed in: the scene is made all the same and waits on
  // the phone (were nobody signed in, the server refuses it later, and it waits for Try again).
  if (!user && navigator.onLine) {
    root.replaceChildren(
      el('h1', {}, t('sceneCamera.new.title')),
      el('div', { class: 'card' },
        el('p', {}, t('sceneCamera.signInFirst')),
        el('p', { class: 'actions' }, el('a', { class: 'button primary', href: '/account#sign-in' }, t('home.signIn')))));
    return;
  }

  /** @type {Step} */
  let step = 'camera';
  /** @type {{blob: Blob, url: string, moment: Moment} | null} */
  let reference = null;
  /** @type {{blob: Blob, url: string, moment: Moment} | null} */
  let feet = null;
  /** @type {{latitude: number, longitude: number} | null} where the pin is, once the map showed it */
  let pin = null;
  let taking = false;

  // ---- The elements ----
  const stepTitle = el('h2', { class: 'scene-step-title', tabindex: '-1' });
  const video = el('video', { class: 'scene-video', autoplay: true, muted: true, playsinline: true, 'aria-label': t('sceneCamera.video') });
  video.muted = true;
  const svg = svgElement('svg', { class: 'scene-guides', 'aria-hidden': 'true', viewBox: '0 0 300 400', preserveAspectRatio: 'none' });
  const grid = svgElement('g', { class: 'scene-grid' });
  for (const x of [100, 200]) grid.append(svgElement('line', { x1: x, y1: 0, x2: x, y2: 400 }));
  for (const y of [133.33, 266.67]) grid.append(svgElement('line', { x1: 0, y1: y, x2: 300, y2: y }));
  const level = svgElement('rect', { class: 'scene-level', x: 90, y: 160, width: 120, height: 80, rx: 4 });
  svg.append(grid, level);
  const hint = el('p', { class: 'scene-hint' });
  const view = el('div', { class: 'scene-view' }, video, svg, hint);
  const cameraProblem = el('p', { class: 'form-error scene-camera-problem', role: 'alert', hidden: true });
  const waiting = el('p', { class: 'scene-waiting', 'aria-live': 'polite' });
  const shutter = el('button', { type: 'button', class: 'primary scene-shutter', disabled: true }, t('sceneCamera.shutter'));
  const allowSensors = el('button', { type: 'button', class: 'scene-allow-sensors', hidden: !needsOrientationPermission() }, t('sceneCamera.allowSensors'));
  const cameraStep = el('section', { class: 'scene-step scene-step-camera' }, view, cameraProblem,
    el('div', { class: 'scene-controls' }, shutter, waiting), allowSensors);

  const reviewImage = el('img', { class: 'scene-review-image', alt: '' });
  const useButton = el('button', { type: 'button', class: 'primary scene-use' }, t('sceneCamera.use'));
  const againButton = el('button', { type: 'button', class: 'scene-again' }, t('sceneCamera.again'));
  const reviewStep = el('section', { class: 'scene-step scene-step-review', hidden: true }, reviewImage,
    el('p', { class: 'actions' }, useButton, againButton));

  const mapBox = el('div', { class: 'scene-map', role: 'application', 'aria-label': t('sceneCamera.map.label') });
  const pinText = el('p', { class: 'scene-pin', 'aria-live': 'polite' });
  const mapProblem = el('p', { class: 'form-error', role: 'alert', hidden: true });
  const resetPin = el('button', { type: 'button', class: 'scene-pin-reset' }, t('sceneCamera.map.reset'));
  const mapNext = el('button', { type: 'button', class: 'primary scene-map-next' }, t('sceneCamera.next'));
  const mapStep = el('section', { class: 'scene-step scene-step-map', hidden: true },
    el('p', { class: 'hint' }, t('sceneCamera.map.hint')), mapBox, mapProblem, pinText, el('p', { class: 'actions' }, mapNext, resetPin));

  const nameInput = el('input', { id: 'scene-name', name: 'name', type: 'text', maxlength: 200, autocomplete: 'off' });
  const overviewReference = el('img', { class: 'scene-overview-image', alt: t('sceneCamera.overview.reference') });
  const overviewFeet = el('img', { class: 'scene-overview-image', alt: t('sceneCamera.overview.feet') });
  const overviewPlace = el('dd', { class: 'scene-overview-place' });
  const overviewTime = el('dd', { class: 'scene-overview-time' });
  const overviewHeading = el('dd', { class: 'scene-overview-heading' });
  const progress = el('progress', { class: 'scene-progress', max: 100, value: 0, hidden: true, 'aria-label': t('sceneCamera.upload.progressLabel') });
  const progressText = el('p', { class: 'scene-progress-text', 'aria-live': 'polite' });
  const uploadProblem = el('p', { class: 'form-error scene-upload-problem', role: 'alert', hidden: true });
  const kept = el('div', { class: 'scene-kept', role: 'status', hidden: true },
    el('p', {}, t('sceneCamera.upload.kept')), el('p', {}, el('a', { href: '/me/scenes' }, t('sceneOutbox.waitingLink'))));
  const uploadButton = el('button', { type: 'submit', class: 'primary scene-upload' }, t('sceneCamera.upload'));
  const overviewStep = el('form', { class: 'scene-step scene-step-overview', hidden: true, novalidate: true },
    el('div', { class: 'scene-overview-images' }, overviewReference, overviewFeet),
    el('label', { for: 'scene-name' }, t('sceneCamera.overview.name')), nameInput,
    el('p', { class: 'hint' }, t('sceneCamera.overview.nameHint')),
    el('dl', { class: 'scene-overview-facts' },
      el('dt', {}, t('sceneCamera.overview.place')), overviewPlace,
      el('dt', {}, t('sceneCamera.overview.time')), overviewTime,
      el('dt', {}, t('sceneCamera.overview.heading')), overviewHeading),
    progress, progressText, uploadProblem, kept, el('p', { class: 'actions' }, uploadButton));

  const back = el('button', { type: 'button', class: 'scene-back' }, t('sceneCamera.back'));
  const stepCount = el('p', { class: 'scene-step-count' });
  root.replaceChildren(
    el('h1', {}, t('sceneCamera.new.title')),
    el('div', { class: 'scene-step-head' }, back, stepCount),
    stepTitle, cameraStep, reviewStep, mapStep, overviewStep);

  // ---- Camera and sensors ----
  const camera = liveCamera(video, (key, reason) => {
    cameraProblem.textContent = t(key, { reason });
    cameraProblem.hidden = false;
    view.classList.add('scene-off');
    // Nothing to wait for: without the camera the shutter and its conditions go.
    cameraStep.classList.add('scene-no-camera');
  });
  /** @type {string | null} why the phone gives no position, when it said so (shown only while there is none) */
  let positionProblem = null;
  const sensors = watchSensors({
    onPositionError: (error) => {
      positionProblem = t(error.code === 1 ? 'position.denied' : error.code === 3 ? 'position.timeout' : 'position.unavailable');
    },
  });
  allowSensors.addEventListener('click', async () => {
    allowSensors.hidden = await requestOrientationPermission();
  });

  /** What the shutter still waits for, as a message; '' when it can fire. */
  function missing() {
    if (!camera.shows()) return t('sceneCamera.waiting.camera');
    const now = sensors.moment();
    if (!now.attitude) return t('sceneCamera.waiting.attitude');
    if (step === 'camera' && !now.fix) return positionProblem ?? t('sceneCamera.waiting.position');
    return '';
  }

  function tick() {
    if (ended()) return;
    if (!video.isConnected) { stop(); return; }
    // Once the orientation comes the browser has allowed it: the button is no longer needed.
    if (sensors.moment().attitude) allowSensors.hidden = true;
    if (step !== 'camera' && step !== 'feet') return;
    const now = sensors.moment();
    const tilt = now.attitude ? levelTilt(now.attitude) : null;
    if (tilt === null || step === 'feet') {
      level.setAttribute('visibility', 'hidden');
    } else {
      const degrees = -tilt * 180 / Math.PI;
      level.setAttribute('visibility', 'visible');
      level.setAttribute('transform', `rotate(${degrees.toFixed(2)} 150 200)`);
      level.classList.toggle('level', Math.abs(degrees) <= LEVEL_DEGREES);
    }
    const text = missing();
    if (waiting.textContent !== text && !taking) waiting.textContent = text;
    shutter.disabled = text !== '' || taking;
  }

  // ---- Steps ----
  /** @param {Step} next @param {boolean} [focus] */
  function show(next, focus = true) {
    step = next;
    const index = STEPS.indexOf(next);
    stepCount.textContent = t('sceneCamera.stepCount', { step: index + 1, total: STEPS.length });
    stepTitle.textContent = t(STEP_TITLES[next]);
    back.textContent = index === 0 ? t('sceneCamera.cancel') : t('sceneCamera.back');
    cameraStep.hidden = next !== 'camera' && next !== 'feet';
    reviewStep.hidden = next !== 'review' && next !== 'feetReview';
    mapStep.hidden = next !== 'map';
    overviewStep.hidden = next !== 'overview';
    view.classList.toggle('scene-feet', next === 'feet');
    if (next === 'camera' || next === 'feet') {
      hint.textContent = t(next === 'feet' ? 'sceneCamera.hint.feet' : 'sceneCamera.hint.reference');
      shutter.textContent = t(next === 'feet' ? 'sceneCamera.shutter.feet' : 'sceneCamera.shutter');
      void camera.open().then(tick);
    } else {
      camera.close();
    }
    if (next === 'review' || next === 'feetReview') {
      const shot = next === 'review' ? reference : feet;
      reviewImage.src = shot?.url ?? '';
      reviewImage.alt = t(next === 'review' ? 'sceneCamera.overview.reference' : 'sceneCamera.overview.feet');
      useButton.textContent = t('sceneCamera.use');
    }
    if (next === 'map') void showMap();
    else removeMap();
    if (next === 'overview') showOverview();
    tick();
    if (focus) stepTitle.focus();
  }

  back.addEventListener('click', () => {
    if (sceneUpload.isUploading()) return;
    const index = STEPS.indexOf(step);
    if (index === 0) { context.navigate('/scenes'); return; }
    // From the feet shot's camera back to the reference's review; from the map to the feet shot's.
    show(STEPS[index - 1]);
  });

  shutter.addEventListener('click', async () => {
    if (shutter.disabled || taking) return;
    const moment = sensors.moment();
    if (!moment.attitude || (step === 'camera' && !moment.fix)) return;
    taking = true;
    shutter.disabled = true;
    waiting.textContent = t('sceneCamera.taking');
    try {
      const blob = await camera.picture();
      if (ended()) return;
      const shot = { blob, url: URL.createObjectURL(blob), moment };
      if (step === 'camera') {
        if (reference) URL.revokeObjectURL(reference.url);
        reference = shot;
        pin = null;
        show('review');
      } else {
        if (feet) URL.revokeObjectURL(feet.url);
        feet = shot;
        show('feetReview');
      }
      announce(t('sceneCamera.taken'));
    } catch {
      waiting.textContent = t('sceneCamera.captureFailed');
    } finally {
      taking = false;
    }
  });
  useButton.addEventListener('click', () => show(step === 'review' ? 'feet' : 'map'));
  againButton.addEventListener('click', () => show(step === 'review' ? 'camera' : 'feet'));

  // ---- The map with the pin ----
  /** @type {any} */
  let map = null;
  /** @type {any} */
  let marker = null;
  /** @type {any} Leaflet, once loaded */
  let leaflet = null;
  // Without a pointer the arrow keys move the focused pin, 4 screen pixels a press. (Listened for
  // on the map's box: Leaflet makes the pin's element only once the map has a view.)
  mapBox.addEventListener('keydown', (event) => {
    const step = { ArrowUp: [0, -4], ArrowDown: [0, 4], ArrowLeft: [-4, 0], ArrowRight: [4, 0] }[event.key];
    if (!step || !map || !marker || !(event.target instanceof Element) || !event.target.closest('.scene-pin-marker')) return;
    event.preventDefault();
    event.stopPropagation();
    const point = map.latLngToContainerPoint(marker.getLatLng()).add(leaflet.point(step[0], step[1]));
    const at = map.containerPointToLatLng(point);
    marker.setLatLng(at);
    pin = { latitude: at.lat, longitude: at.lng };
    describePin();
  });

  /** The map goes when its step does (a hidden map would still follow resizes and load tiles); the pin stays. */
  function removeMap() {
    map?.remove();
    map = null;
    marker = null;
  }

  async function showMap() {
    const fix = reference?.moment.fix;
    if (!fix) return;
    const start = pin ?? { latitude: fix.latitude, longitude: fix.longitude };
    pin = start;
    describePin();
    if (!map) {
      try {
        const [L, source] = await Promise.all([loadLeaflet(), tileSource()]);
        if (ended() || step !== 'map' || map) return;
        leaflet = L;
        map = L.map(mapBox, { zoomControl: true, minZoom: 2, maxZoom: 19 });
        tileLayer(L, source).addTo(map);
        marker = L.marker([start.latitude, start.longitude], {
          draggable: true, keyboard: true, autoPan: true, title: t('sceneCamera.map.pin'), alt: t('sceneCamera.map.pin'),
          // The drop shape is drawn by a child: Leaflet places the icon itself with a transform.
          icon: L.divIcon({ className: 'scene-pin-marker', html: el('span', { class: 'scene-pin-shape' }), iconSize: [28, 28], iconAnchor: [14, 34] }),
        }).addTo(map);
        marker.on('dragend', () => {
          const at = marker.getLatLng();
          pin = { latitude: at.lat, longitude: at.lng };
          describePin();
        });
      } catch {
        mapProblem.textContent = t('sceneCamera.map.failed');
        mapProblem.hidden = false;
        return;
      }
    }
    // The box was hidden until this step: Leaflet measures it again before it centres the pin.
    map.invalidateSize();
    map.setView([start.latitude, start.longitude], 18);
    marker.setLatLng([start.latitude, start.longitude]);
  }

  function describePin() {
    const fix = reference?.moment.fix;
    if (!pin || !fix) return;
    const moved = geodesicDistance(fix, pin);
    const number = new Intl.NumberFormat(language(), { maximumFractionDigits: 6, minimumFractionDigits: 6 });
    const where = `${number.format(pin.latitude)}°, ${number.format(pin.longitude)}°`;
    pinText.textContent = moved < 0.5
      ? t('sceneCamera.map.atFix', { place: where })
      : t('sceneCamera.map.moved', { place: where, metres: new Intl.NumberFormat(language(), { maximumFractionDigits: 0 }).format(moved) });
  }

  resetPin.addEventListener('click', () => {
    pin = null;
    void showMap();
  });
  mapNext.addEventListener('click', () => show('overview'));

  // ---- Overview and upload ----
  function showOverview() {
    if (!reference || !feet || !pin) return;
    overviewReference.src = reference.url;
    overviewFeet.src = feet.url;
    const number = new Intl.NumberFormat(language(), { maximumFractionDigits: 6, minimumFractionDigits: 6 });
    overviewPlace.textContent = `${number.format(pin.latitude)}°, ${number.format(pin.longitude)}°`;
    overviewTime.textContent = new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeStyle: 'medium' }).format(reference.moment.takenAt);
    const heading = reference.moment.heading;
    overviewHeading.textContent = heading === null ? '—' : `${new Intl.NumberFormat(language(), { maximumFractionDigits: 0 }).format(heading)}°`;
  }

  /** @param {string} id the stored scene's */
  const toScene = (id) => context.navigate(id ? `/scenes/${encodeURIComponent(id)}` : '/me/scenes');
  const sceneUpload = sceneUploadBlock({
    button: uploadButton, also: [back], kept, problem: uploadProblem, bar: progress, words: progressText,
    label: t('sceneCamera.upload'), isAlive: () => !ended(), onSent: (item) => toScene(item.result ?? ''),
  });

  overviewStep.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!reference || !feet || !pin) return;
    const [shot, feetShot, place] = [reference, feet, pin];
    const moved = shot.moment.fix ? geodesicDistance(shot.moment.fix, place) >= 0.5 : true;
    void sceneUpload.upload(async (key) => ({
      kind: 'scene',
      key,
      owner: user?.id ?? null,
      metadata: metadataOf(shot.moment, { name: nameInput.value, place: moved ? place : null }),
      image: { data: await stamped(shot.blob, shot.moment, moved ? place : null), name: 'reference.jpg', type: 'image/jpeg' },
      feetShot: { data: await stamped(feetShot.blob, feetShot.moment, place), name: 'feet.jpg', type: 'image/jpeg' },
    }));
  });

  const timer = setInterval(tick, TICK_MS);

  /** Stops the camera, the sensors, the map and the ticks (once). */
  function stop() {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    sceneUpload.stop();
    camera.dispose();
    sensors.stop();
    removeMap();
    for (const shot of [reference, feet]) if (shot) URL.revokeObjectURL(shot.url);
  }

  show('camera', false);
  return stop;
}

