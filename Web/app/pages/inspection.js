// `/inspection` (issue #15 point 7): the field-inspection main screen of seed 003. "Basic info"
// lists six traffic lights — location, high accuracy, motion sensors, camera, online, offline
// copy — each with a sentence that says what its colour means (the logic is in
// Web/inspection/status.js); below, where the position comes from (the phone, or the external
// receiver connected in the settings) and the last fix; then the modules: Photos (the evidence
// camera), Tasks, Map (paths), Sky, Settings and About. Works without an account and offline.
import { t, language } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { announce } from '../status.js';
import { VERSION } from '../shell.js';
import { watchFixes, externalReceiver, onSourceChange } from '../../inspection/fixes.js';
import { loadInspectionSettings } from '../../inspection/settings.js';
import { resumeReceiver, onReceiverState, receiverState, receiverSummary } from '../../inspection/receiver.js';
import { lights, locationFromError, hasSensorData, cameraFromDevices } from '../../inspection/status.js';
import { positionText, fixTimeText } from '../../inspection/words.js';

/** @typedef {import('../../inspection/fixes.js').Fix} Fix */
/** @typedef {import('../../inspection/fixes.js').Receiver} Receiver */
/** @typedef {import('../../inspection/status.js').Observations} Observations */
/** @typedef {import('../../inspection/status.js').Light} Light */

export const titleKey = 'inspection.title';

/** The name of each light (literal keys, so the i18n test sees them used). */
const NAMES = /** @type {Record<Light['name'], string>} */ ({
  location: 'inspection.light.name.location', accuracy: 'inspection.light.name.accuracy', motion: 'inspection.light.name.motion',
  camera: 'inspection.light.name.camera', online: 'inspection.light.name.online', serviceWorker: 'inspection.light.name.serviceWorker',
});
const COLOURS = /** @type {Record<Light['colour'], string>} */ ({
  green: 'inspection.colour.green', yellow: 'inspection.colour.yellow', red: 'inspection.colour.red',
});
/** The lights whose change is announced (the others change too often, or only once). */
const ANNOUNCED = new Set(['location', 'online']);

/** @param {number} value @param {number} digits */
function number(value, digits) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: digits }).format(value);
}

/** @param {Receiver | null} source */
export function sourceText(source) {
  if (!source) return t('inspection.source.device');
  return source.label ? t('inspection.source.receiverNamed', { label: source.label }) : t('inspection.source.receiver');
}

/** The About dialog: what Waymark is, its version and what it is built with. */
function aboutDialog() {
  const titleId = uniqueId('about-title');
  const close = el('button', { type: 'button', class: 'primary' }, t('inspection.about.close'));
  const dialog = el('dialog', { class: 'inspection-about', 'aria-labelledby': titleId },
    el('h2', { id: titleId }, t('inspection.about.title')),
    el('p', {}, t('inspection.about.what')),
    el('dl', { class: 'facts' },
      el('dt', {}, t('inspection.about.version')), el('dd', { class: 'inspection-version' }, VERSION)),
    el('h3', {}, t('inspection.about.licences')),
    el('ul', { class: 'inspection-credits' },
      el('li', {}, t('inspection.about.leaflet')),
      el('li', {}, t('inspection.about.qrcode')),
      el('li', {}, t('inspection.about.tweetnacl')),
      el('li', {}, t('inspection.about.tiles')),
      el('li', {}, t('inspection.about.orbits')),
      el('li', {}, t('inspection.about.seed'))),
    el('p', { class: 'actions' }, close));
  close.addEventListener('click', () => dialog.close());
  return dialog;
}

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export function render(root, { signal }) {
  const settings = loadInspectionSettings();
  const worker = 'serviceWorker' in navigator;
  /** @type {Observations} */
  const seen = {
    location: 'waiting', accuracy: null, threshold: settings.accuracy,
    motion: 'DeviceMotionEvent' in window || 'DeviceOrientationEvent' in window ? 'waiting' : 'absent',
    camera: 'unknown', online: navigator.onLine,
    serviceWorker: !worker ? 'unsupported' : navigator.serviceWorker.controller ? 'ready' : 'installing',
  };
  /** @type {Fix | null} */
  let fix = null;
  /** @type {Map<string, string>} */
  const shown = new Map();
  // iOS Safari gives motion events only after a permission asked from a tap; where a browser has
  // that question, a button asks it until the sensors report.
  const motionApi = /** @type {{requestPermission?: () => Promise<string>} | undefined} */ (/** @type {unknown} */ (window.DeviceMotionEvent));
  const askMotion = typeof motionApi?.requestPermission === 'function' ? motionApi.requestPermission : null;
  let motionAllowed = false;

  const list = el('ul', { class: 'inspection-lights' });
  const facts = el('dl', { class: 'facts inspection-fix' });
  const none = el('p', { class: 'hint inspection-nofix' }, t('inspection.position.none'));
  // Why the receiver stopped, when it did (the settings page says the same, with its controls).
  const receiverProblem = el('p', { class: 'warning inspection-receiver-problem', hidden: true });
  const motionButton = el('button', { type: 'button', hidden: true }, t('inspection.motion.allow'));
  const about = aboutDialog();
  const aboutButton = el('button', { type: 'button', class: 'inspection-module' }, t('inspection.module.about'));
  aboutButton.addEventListener('click', () => about.showModal());
  const module = (/** @type {string} */ href, /** @type {string} */ key) =>
    el('li', {}, el('a', { class: 'button inspection-module', href }, t(key)));

  root.replaceChildren(
    el('h1', {}, t('inspection.title')),
    el('p', { class: 'lead' }, t('inspection.lead')),
    el('section', { class: 'card', 'aria-labelledby': 'inspection-info-heading' },
      el('h2', { id: 'inspection-info-heading' }, t('inspection.basicInfo')),
      list,
      el('p', { class: 'actions' }, motionButton)),
    el('section', { class: 'card', 'aria-labelledby': 'inspection-position-heading' },
      el('h2', { id: 'inspection-position-heading' }, t('inspection.position')),
      facts, none, receiverProblem,
      el('p', { class: 'hint' }, el('a', { href: '/inspection/settings#receiver' }, t('inspection.position.receiverLink')))),
    el('nav', { class: 'inspection-modules', 'aria-label': t('inspection.modules') },
      el('ul', {},
        module('/camera', 'inspection.module.photos'),
        module('/tasks', 'inspection.module.tasks'),
        module('/paths', 'inspection.module.map'),
        module('/sky', 'inspection.module.sky'),
        module('/inspection/settings', 'inspection.module.settings'),
        el('li', {}, aboutButton))),
    about);

  /**
   * One line of Basic Info: the light, its name, its sentence.
   * @param {Light} light
   */
  const item = (light) => el('li', { class: `inspection-light light-${light.colour}`, 'data-light': light.name, 'data-colour': light.colour },
    el('span', { class: 'light-dot', 'aria-hidden': 'true' }),
    el('span', { class: 'light-text' },
      el('strong', { class: 'light-name' }, t(NAMES[light.name])),
      el('span', { class: 'visually-hidden' }, ` (${t(COLOURS[light.colour])})`),
      el('span', { class: 'light-says' }, t(light.key, light.params))));

  function draw() {
    const now = lights(seen);
    list.replaceChildren(...now.map(item));
    for (const light of now) {
      // Announced: going offline and back, and the location turning red or back from red (not
      // "waiting" and the first fix, which follow every start and every change of source).
      const before = shown.get(light.name);
      const worth = light.name !== 'location' || light.colour === 'red' || before === 'red';
      if (before && before !== light.colour && worth && ANNOUNCED.has(light.name)) announce(`${t(NAMES[light.name])}: ${t(light.key, light.params)}`);
      shown.set(light.name, light.colour);
    }
    motionButton.hidden = !askMotion || motionAllowed || seen.motion === 'seen';
    none.hidden = fix !== null;
    const rows = [['inspection.source', sourceText(externalReceiver()), 'inspection-source']];
    if (fix) {
      rows.push(
        ['inspection.position.coordinatesLabel', positionText(fix.latitude, fix.longitude), 'inspection-coordinates'],
        ['inspection.position.accuracy', t('inspection.position.metres', { value: number(fix.accuracy, 1) }), 'inspection-accuracy'],
        ['inspection.position.altitude', fix.altitude === null ? '—' : t('inspection.position.metres', { value: number(fix.altitude, 1) }), 'inspection-altitude'],
        ['inspection.position.time', fixTimeText(fix.time), 'inspection-time'],
      );
    }
    facts.replaceChildren(...rows.flatMap(([key, value, className]) => [el('dt', {}, t(key)), el('dd', { class: className }, value)]));
  }

  // The position: the same watch the camera uses, from the phone or the receiver.
  const stopSource = onSourceChange((next) => {
    fix = null;
    seen.location = 'waiting';
    seen.accuracy = null;
    draw();
    announce(t('inspection.source.changed', { source: sourceText(next) }));
  });
  const stopFixes = watchFixes((next) => {
    fix = next;
    seen.location = 'fix';
    seen.accuracy = next.accuracy;
    draw();
  }, (error) => {
    seen.location = locationFromError(error.code);
    if (seen.location !== 'timeout') { fix = null; seen.accuracy = null; }
    draw();
  });

  // Motion sensors: green with the first event that carries a reading.
  /** @param {Event} event */
  const onSensor = (event) => {
    if (!hasSensorData(/** @type {any} */ (event))) return;
    seen.motion = 'seen';
    stopSensors();
    draw();
  };
  const stopSensors = () => {
    window.removeEventListener('devicemotion', onSensor);
    window.removeEventListener('deviceorientation', onSensor);
  };
  window.addEventListener('devicemotion', onSensor);
  window.addEventListener('deviceorientation', onSensor);
  if (askMotion) {
    motionButton.addEventListener('click', () => {
      askMotion.call(window.DeviceMotionEvent).then((answer) => {
        motionAllowed = answer === 'granted';
        if (!motionAllowed) announce(t('inspection.motion.refused'));
        if (!signal.aborted) draw();
      }, () => announce(t('inspection.motion.refused')));
    });
  }

  // The camera: the list of media devices names each kind even before any permission.
  const media = navigator.mediaDevices;
  const checkCamera = () => {
    if (!media?.enumerateDevices) { seen.camera = cameraFromDevices(null); draw(); return; }
    media.enumerateDevices().then((devices) => { seen.camera = cameraFromDevices(devices); }, () => { seen.camera = 'unknown'; }).then(() => { if (!signal.aborted) draw(); });
  };
  media?.addEventListener?.('devicechange', checkCamera);

  // Online, live.
  const onConnection = () => { seen.online = navigator.onLine; draw(); };
  window.addEventListener('online', onConnection);
  window.addEventListener('offline', onConnection);

  // The offline copy: ready once a service worker is active.
  if (worker) {
    navigator.serviceWorker.ready.then(() => {
      if (signal.aborted) return;
      seen.serviceWorker = 'ready';
      draw();
    }, () => {});
  }

  draw();
  checkCamera();
  // A receiver left connected before a reload is opened again (its permission is kept).
  void resumeReceiver();
  /** @param {import('../../inspection/receiver.js').ReceiverState} state */
  const showReceiver = (state) => {
    const summary = receiverSummary(state);
    const text = state.phase === 'failed' ? t(summary.key, summary.params) : '';
    if (receiverProblem.textContent !== text) receiverProblem.textContent = text;
    receiverProblem.hidden = text === '';
  };
  const stopReceiver = onReceiverState(showReceiver);
  showReceiver(receiverState());

  return () => {
    stopFixes();
    stopSource();
    stopReceiver();
    stopSensors();
    media?.removeEventListener?.('devicechange', checkCamera);
    window.removeEventListener('online', onConnection);
    window.removeEventListener('offline', onConnection);
    if (about.open) about.close();
  };
}
