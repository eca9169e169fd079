// `/record` (seed 000's Connection and Recording Route screens, SCO-01…12 and SRR-01…19): the
// passphrase first when none is kept, then the recorder: distance and time (tap the distance
// to switch units), the GPS status, the QR code of the current period with its gauge, and
// Pause / Resume / Stop. Stop seals the route in the browser and queues it, then shows it.
// Without a recording in progress it offers Start; `/record?start=1` starts at once (SHO-08).
//
// The recording itself (position, saving, alert, wake lock, gaps) is a LiveRecording that lives
// as long as the page: leaving /record for another page of the app does not stop it, and
// coming back draws it again. A reload continues it from IndexedDB (every saved fix kept).
import { t, language } from '../i18n.js';
import { el } from '../dom.js';
import { announce } from '../status.js';
import * as keeper from '../../recorder/keeper.js';
import * as routes from '../../recorder/routes.js';
import { RecorderEngine, makeNonce, formatDistance } from '../../recorder/engine.js';
import { connectionScreen } from '../../recorder/ui/connection.js';
import { LiveRecording, now } from '../../recorder/ui/live.js';
import { loadQrLibrary, qrModules, drawQr } from '../../recorder/ui/qr.js';
import { makeGauge } from '../../recorder/ui/gauge.js';
import { unlockSound } from '../../recorder/ui/beep.js';
import { icon } from '../icons.js';
import { ROUTES_CHANGED, wasStored } from '../../recorder/notices.js';

/** @typedef {import('../router.js').PageContext} PageContext */
/** @typedef {import('../../recorder/engine.js').Snapshot} Snapshot */
/** @typedef {import('../../recorder/ui/live.js').Route} Route */
/** @typedef {import('../../recorder/ui/live.js').Gap} Gap */

export const titleKey = 'record.title';

/** The QR code's size on the screen, in CSS pixels. */
const QR_SIZE = 240;

/** The words of each GPS status (SRR-08): the icon's text alternative. */
const STATUS_KEYS = {
  none: 'record.gps.none', green: 'record.gps.green', blue: 'record.gps.blue', orange: 'record.gps.orange', red: 'record.gps.red',
};
/** What the recorder is doing, under the panels. */
const PHASE_KEYS = {
  waitingForFix: 'record.phase.waitingForFix', recording: 'record.phase.recording', paused: 'record.phase.paused', stopped: 'record.phase.stopped',
};

/**
 * The recording of this page, while there is one.
 * @type {LiveRecording | null}
 */
let live = null;
/**
 * A Start that is still beginning its route. The page may be drawn again meanwhile (a language
 * switch, the app coming to the front): that drawing waits for it and shows the recording, and
 * no second Start can begin another route.
 * @type {Promise<void> | null}
 */
let starting = null;

/**
 * @param {HTMLElement} root
 * @param {PageContext} context
 */
export async function render(root, context) {
  const { signal } = context;
  /** @type {(() => void) | null} */
  let leave = null;
  const showRecorder = async () => {
    if (signal.aborted) return;
    leave = await recorder(root, context);
    if (signal.aborted) leave();
  };
  if (await keeper.passphraseState() === 'none') connectionScreen(root, showRecorder);
  else await showRecorder();
  return () => { if (leave) leave(); };
}

/**
 * The recorder: the recording in progress (in this page, or unfinished in IndexedDB), or a
 * Start button.
 * @param {HTMLElement} root
 * @param {PageContext} context
 * @returns {Promise<() => void>} what to do when the page is left
 */
async function recorder(root, context) {
  if (starting) await starting;
  let unfinished = await routes.unfinishedRoute();
  if (starting) {
    await starting;
    unfinished = await routes.unfinishedRoute();
  }
  if (live && (!unfinished || unfinished.id !== live.id)) {
    // Finished or deleted elsewhere (another tab): this page's copy is stale.
    live.end();
    live = null;
  }
  if (!live && unfinished) {
    live = LiveRecording.resume(await routes.getRoute(unfinished.id));
    if (live.engine.phase !== 'stopped') announce(t('record.resumed'));
  }
  if (live) return recordingScreen(root, context, live);

  /** @type {(() => void) | null} */
  let leave = null;
  let left = false;
  const start = el('button', { type: 'button', class: 'primary start-recording' }, t('record.start'));
  start.addEventListener('click', () => {
    if (starting || live) return;
    start.disabled = true;
    unlockSound();
    starting = (async () => {
      try {
        const settings = await keeper.loadSettings();
        const id = crypto.randomUUID();
        const nonce = makeNonce();
        const instant = now();
        const engine = new RecorderEngine({ settings, nonce, sourceIsLive: true, start: instant });
        await routes.beginRoute({ id, nonce, settings, startedAt: instant.wall });
        live = new LiveRecording(id, engine);
      } catch (failure) {
        console.warn('Waymark: could not start a recording:', failure);
        start.disabled = false;
        announce(t('record.startFailed'));
      }
    })().finally(() => { starting = null; });
    // Drawn here unless the page was drawn again meanwhile (that drawing shows the recording).
    void starting.then(() => { if (live && !left) leave = recordingScreen(root, context, live); });
  });
  root.replaceChildren(el('div', { class: 'record-idle' },
    el('h1', {}, t('record.heading')),
    el('p', { class: 'lead' }, t('record.intro')),
    el('p', { class: 'hint' }, t('record.screenOnHint')),
    start,
    el('p', { class: 'record-links' },
      el('a', { href: '/routes' }, t('record.routesLink')), ' · ',
      el('a', { href: '/settings' }, t('record.settingsLink')), ' · ',
      el('a', { href: '/clock' }, t('record.clockLink')))));
  // SHO-08: the Start button of the routes list (`/record?start=1`) starts at once; the address
  // loses `start` so that a reload does not start another recording.
  if (new URLSearchParams(location.search).has('start')) {
    history.replaceState(history.state, '', '/record');
    start.click();
  }
  return () => { left = true; leave?.(); };
}

/**
 * The recording screen (SRR-01) drawing `recording`.
 * @param {HTMLElement} root
 * @param {PageContext} context
 * @param {LiveRecording} recording
 * @returns {() => void} what to do when the page is left (the recording goes on)
 */
function recordingScreen(root, context, recording) {
  const engine = recording.engine;
  const status = el('span', { class: 'gps-status', role: 'img', 'data-status': 'none' }, icon('gps'));
  const distanceValue = el('span', { class: 'panel-value distance-value' });
  const distancePanel = el('button', { type: 'button', class: 'panel distance-panel', 'aria-describedby': 'distance-hint' },
    el('span', { class: 'panel-label' }, t('record.distance')), distanceValue);
  const timeValue = el('span', { class: 'panel-value time-value' });
  const timePanel = el('div', { class: 'panel time-panel' }, el('span', { class: 'panel-label' }, t('record.time')), timeValue);
  const canvas = el('canvas', { class: 'qr-code', role: 'img', width: QR_SIZE, height: QR_SIZE });
  const gauge = makeGauge(t('record.gaugeLabel'));
  const qrCaption = el('p', { class: 'qr-caption' });
  const phaseLine = el('p', { class: 'phase-line', 'aria-live': 'polite' });
  const alertNotice = el('p', { class: 'warning record-alert', role: 'alert', hidden: true });
  const gapNotice = el('div', { class: 'warning gap-notice', hidden: true });
  const awakeLine = el('p', { class: 'hint awake-line' });
  const positionNotice = el('p', { class: 'form-error position-error', role: 'alert' });
  const saveNotice = el('p', { class: 'form-error save-error', role: 'alert' });
  const pause = el('button', { type: 'button', class: 'pause' }, t('record.pause'));
  const stop = el('button', { type: 'button', class: 'danger stop' }, t('record.stop'));
  const resume = el('button', { type: 'button', class: 'primary resume', hidden: true }, t('record.resume'));
  const retry = el('button', { type: 'button', class: 'primary retry-seal', hidden: true }, t('record.sealRetry'));

  // After a reload no tap has unlocked the sound yet: the first touch of the screen does.
  root.replaceChildren(el('div', { class: 'record-page', onpointerdown: unlockSound },
    el('div', { class: 'record-title' },
      el('a', { class: 'settings-link', href: '/settings', 'aria-label': t('record.settingsLink') }, icon('gear')),
      el('h1', {}, t('record.recording')),
      status),
    el('div', { class: 'panels' }, distancePanel, timePanel),
    el('p', { id: 'distance-hint', class: 'visually-hidden' }, t('record.distanceHint')),
    phaseLine,
    el('figure', { class: 'qr-box' }, canvas, el('figcaption', { class: 'qr-side' }, gauge.element, qrCaption)),
    alertNotice, positionNotice, saveNotice,
    el('div', { class: 'record-controls' }, pause, stop, resume, retry),
    gapNotice, awakeLine));

  /** @type {((typeNumber: number, level: 'L' | 'M' | 'Q' | 'H') => any) | null} */
  let qrFactory = null;
  let drawnQr = '';
  let shownGap = /** @type {Gap | null} */ (null);
  let sealing = false;
  let left = false;
  loadQrLibrary().then((factory) => { qrFactory = factory; draw(); }, (failure) => {
    console.warn('Waymark: no QR code library:', failure);
    qrCaption.textContent = t('record.qrMissing');
  });

  function draw() {
    if (left) return;
    const snapshot = engine.snapshot(now());
    distanceValue.textContent = formatDistance(snapshot.distance, engine.settings.units, language());
    timeValue.textContent = snapshot.elapsedText;
    const words = statusWords(snapshot);
    status.setAttribute('data-status', snapshot.status);
    status.setAttribute('aria-label', words);
    status.setAttribute('title', words);
    const { qr } = snapshot;
    if (qrFactory && qr.text !== drawnQr) {
      drawQr(canvas, qrModules(qrFactory, qr.text), QR_SIZE);
      drawnQr = qr.text;
      canvas.setAttribute('aria-label', t('record.qrLabel', { text: qr.text }));
      canvas.setAttribute('data-payload', qr.text);
    }
    const seconds = Math.max(1, Math.ceil(qr.secondsLeft));
    gauge.update(qr.secondsLeft, qr.period, t('record.qrNext', { seconds }));
    if (qrFactory) qrCaption.textContent = t('record.qrNext', { seconds });
    if (!sealing) {
      phaseLine.textContent = t(PHASE_KEYS[snapshot.phase]);
      const paused = snapshot.phase === 'paused';
      pause.hidden = paused;
      stop.hidden = paused;
      resume.hidden = !paused;
    }
    const { notices } = recording;
    alertNotice.hidden = notices.alert === null;
    alertNotice.textContent = notices.alert ? t(notices.alert.key, { seconds: notices.alert.seconds }) : '';
    positionNotice.textContent = notices.position ? t(notices.position) : '';
    saveNotice.textContent = notices.saveFailed ? t('record.saveFailed') : '';
    awakeLine.textContent = notices.awake === null || snapshot.phase === 'paused' ? '' : t(notices.awake ? 'record.awake' : 'record.notAwake');
    if (notices.gap && notices.gap.gap !== shownGap) showGap(notices.gap.gap, notices.gap.key);
  }

  /** @param {Snapshot} snapshot */
  function statusWords(snapshot) {
    const accuracy = snapshot.lastAccuracy;
    const words = t(STATUS_KEYS[snapshot.status]);
    return accuracy === null || snapshot.status === 'none' ? words : `${words} (${t('record.accuracy', { metres: Math.round(accuracy) })})`;
  }

  /**
   * @param {Gap} gap
   * @param {string} key what happened: the page was hidden, or closed and opened again
   */
  function showGap(gap, key) {
    shownGap = gap;
    const time = /** @param {number} seconds */ (seconds) => new Date(seconds * 1000)
      .toLocaleTimeString(document.documentElement.lang || undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    gapNotice.replaceChildren(
      el('p', {}, t(key, { from: time(gap.from), to: time(gap.to) })),
      el('p', {}, t('record.screenOff')));
    gapNotice.hidden = false;
  }

  distancePanel.addEventListener('click', () => recording.toggleUnits());
  pause.addEventListener('click', () => { recording.pause(); resume.focus(); });
  resume.addEventListener('click', () => { unlockSound(); recording.resume(); pause.focus(); });
  stop.addEventListener('click', async () => {
    if (sealing) return;
    sealing = true;
    const route = await recording.stop();
    await seal(route);
  });

  /**
   * Seals the stopped route with the kept passphrase and queues it (SRR-17/18), then shows it.
   * When the passphrase was reset while recording, the Connection screen asks for it first.
   * @param {Route} route
   */
  async function seal(route) {
    sealing = true;
    phaseLine.textContent = t('record.sealing');
    for (const button of [pause, stop, resume, retry]) button.hidden = true;
    try {
      const passphrase = await keeper.passphrase();
      if (!passphrase) {
        connectionScreen(root, () => seal(route));
        return;
      }
      await routes.finishRoute(recording.id, route, passphrase);
      if (live === recording) live = null;
      // "… sent when the phone is online" leaves as soon as the queue has stored the route (its
      // own notice then says so).
      const stored = new AbortController();
      const id = recording.id;
      const shown = announce(t('record.stopped'), { until: stored.signal });
      window.addEventListener(ROUTES_CHANGED, (event) => { if (wasStored(event, id)) stored.abort(); }, { signal: shown });
      context.navigate(`/routes/${encodeURIComponent(recording.id)}`);
    } catch (failure) {
      console.warn('Waymark: could not seal the route:', failure);
      phaseLine.textContent = t('record.sealFailed');
      retry.hidden = false;
      retry.onclick = () => void seal(route);
    }
  }

  recording.onChange = draw;
  draw();
  if (engine.phase === 'stopped') {
    // Stopped, but the page closed before the route was sealed: seal it now.
    recording.end();
    void seal(recording.stoppedRoute());
  }
  return () => {
    left = true;
    if (recording.onChange === draw) recording.onChange = null;
  };
}
