// `/camera` and `/tasks/:id/camera` (issue #15 point 2, DESIGN §3.10, seed 003's Camera mode):
// the evidence camera. The live back camera fills the width; over it a box shows the position
// (latitude, longitude, altitude, accuracy) and where the camera looks (azimuth from true north —
// the compass plus the magnetic declination at the fix —, tilt), and with
// the centroid setting on a second box the centroid of the last N fixes and "samples n/N". The
// shutter is enabled only when Web/inspection/camera-model.js' readiness has nothing missing —
// what is missing is written beside it — and starts a 5-second countdown; a condition that fails
// during it rejects the photo with the reason, and nothing is stored. A photo taken is stored
// with its fields before anything is sent: in the task's outbox (Web/tasks/local.js, so it works
// offline and goes when the network is back) or, on /camera, in the upload queue as a private
// photo. Evidence must come from the live camera: when it is refused or missing the page says so
// and offers no file input. Leaving the page stops the camera, the position and every sensor.
import { t, language } from '../i18n.js';
import { describeError } from '../errors.js';
import { el } from '../dom.js';
import { call, ApiError } from '../api.js';
import { announce } from '../status.js';
import { currentUser } from '../session.js';
import { watchFixes } from '../../inspection/fixes.js';
import { loadInspectionSettings } from '../../inspection/settings.js';
import {
  cameraDirection, trueDirection, absoluteAlpha, motionMagnitude, addMotionSample, stillness, centroidWindow, readiness,
  countdownStep, uploadFields,
} from '../../inspection/camera-model.js';
import { isEditable } from '../../tasks/model.js';
import { remembered, taskOutbox } from '../../tasks/local.js';
import { uploads, describeUploadError } from '../../photos/uploads.js';
import { refusalText } from '../../tasks/words.js';

/** @typedef {import('../../inspection/fixes.js').Fix} Fix */
/** @typedef {import('../../inspection/camera-model.js').Missing} Missing */
/** @typedef {import('../../inspection/camera-model.js').Direction} Direction */
/** @typedef {import('../../inspection/camera-model.js').MotionSample} MotionSample */

export const titleKey = 'camera.title';

/** How often the conditions, the boxes and the countdown are brought up to date, ms. */
const TICK_MS = 200;
/** The most fixes kept (the centroid sampling number is at most 100). */
const FIXES_KEPT = 100;
/** How long ImageCapture.takePhoto may take before the video frame is used instead, ms. */
const TAKE_PHOTO_LIMIT_MS = 8000;

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export async function render(root, context) {
  const { signal } = context;
  // Ended when the page is left (the router's signal) or its camera stopped (stop(), once).
  let stopped = false;
  const ended = () => stopped || signal.aborted;
  const taskId = context.params.id ?? null;
  const user = await currentUser();
  // Offline, who is signed in cannot be asked: the camera works, and the photo waits.
  if (!user && navigator.onLine) {
    root.replaceChildren(
      el('h1', {}, t('camera.title')),
      el('div', { class: 'card' },
        el('p', {}, t('camera.signInFirst')),
        el('p', { class: 'actions' }, el('a', { class: 'button primary', href: '/account#sign-in' }, t('home.signIn')))));
    return;
  }

  const back = taskId
    ? el('a', { href: `/tasks/${encodeURIComponent(taskId)}` }, t('camera.back.task'))
    : el('a', { href: '/inspection' }, t('camera.back'));
  const heading = el('h1', {}, t('camera.title'));
  root.replaceChildren(el('p', { class: 'camera-back' }, back), heading);

  // A task's photos may be added only while it is editable (the server refuses the others too).
  if (taskId) {
    const { task, refused } = await loadTask(taskId);
    if (refused) { root.append(el('p', { class: 'form-error', role: 'alert' }, refused)); return; }
    if (task) heading.textContent = t('camera.heading.task', { name: task.name });
    if (task && !isEditable(task.status)) {
      root.append(el('p', { class: 'form-error', role: 'alert' }, t('camera.taskNotEditable')));
      return;
    }
  }

  const settings = loadInspectionSettings();
  /** @type {MediaStream | null} */
  let stream = null;
  /** @type {Fix[]} */
  let fixes = [];
  /** @type {MotionSample[]} */
  let motion = [];
  /** @type {Direction | null} */
  let direction = null;
  /** @type {number | null} when the countdown started (performance.now()) */
  let countdownFrom = null;
  let taking = false;
  /** @type {string | null} the outbox item of the last photo taken while it waits for the network */
  let waitingId = null;

  // ---- The elements ----
  const video = el('video', { class: 'camera-video', autoplay: true, muted: true, playsinline: true, 'aria-label': t('camera.video') });
  video.muted = true;
  const value = (/** @type {string} */ name) => el('dd', { class: `camera-${name}` }, '—');
  const place = {
    latitude: value('latitude'), longitude: value('longitude'), altitude: value('altitude'),
    accuracy: value('accuracy'), azimuth: value('azimuth'), tilt: value('tilt'),
  };
  const readout = el('section', { class: 'camera-box camera-readout', 'aria-label': t('camera.position') },
    el('dl', {},
      el('dt', {}, t('camera.latitude')), place.latitude,
      el('dt', {}, t('camera.longitude')), place.longitude,
      el('dt', {}, t('camera.altitude')), place.altitude,
      el('dt', {}, t('camera.accuracy')), place.accuracy,
      el('dt', {}, t('camera.azimuth')), place.azimuth,
      el('dt', {}, t('camera.tilt')), place.tilt));
  const centre = { latitude: value('centroid-latitude'), longitude: value('centroid-longitude'), samples: value('samples') };
  const centroidBox = settings.centroid
    ? el('section', { class: 'camera-box camera-centroid', 'aria-labelledby': 'camera-centroid-title' },
      el('h2', { class: 'camera-box-title', id: 'camera-centroid-title' }, t('camera.centroid')),
      el('dl', {},
        el('dt', {}, t('camera.latitude')), centre.latitude,
        el('dt', {}, t('camera.longitude')), centre.longitude,
        el('dt', {}, t('camera.samples')), centre.samples))
    : null;
  const countdown = el('p', { class: 'camera-countdown', 'aria-live': 'assertive', hidden: true });
  const view = el('div', { class: 'camera-view' }, video, readout, centroidBox, countdown);

  const cameraProblem = el('p', { class: 'form-error camera-problem', role: 'alert', hidden: true });
  const positionProblem = el('p', { class: 'form-error camera-position-problem', role: 'alert', hidden: true });
  const shutter = el('button', { type: 'button', class: 'primary camera-shutter', disabled: true }, t('camera.shutter'));
  const cancel = el('button', { type: 'button', class: 'camera-cancel', hidden: true }, t('camera.cancel'));
  const missingList = el('ul', { class: 'camera-missing' });
  const missingNote = el('div', { class: 'camera-conditions', 'aria-live': 'polite' }, missingList);
  const refusal = el('p', { class: 'form-error camera-refusal', role: 'alert', hidden: true });
  const result = el('div', { class: 'card camera-result', 'aria-live': 'polite', hidden: true });
  const allowMotion = el('button', { type: 'button', class: 'camera-allow-motion', hidden: !needsMotionPermission() }, t('camera.motionPermission'));

  root.append(cameraProblem, view,
    el('div', { class: 'camera-controls' }, el('div', { class: 'camera-buttons' }, shutter, cancel), missingNote),
    positionProblem, allowMotion, refusal, result);

  // ---- The camera ----
  async function startCamera() {
    if (!navigator.mediaDevices?.getUserMedia) { showCameraProblem(t('camera.error.unavailable')); return; }
    try {
      const opened = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: 'environment' }, width: { ideal: 4096 }, height: { ideal: 3072 } },
      });
      if (ended() || !video.isConnected) { for (const track of opened.getTracks()) track.stop(); stop(); return; }
      stream = opened;
      video.srcObject = opened;
      await video.play().catch(() => { /* autoplay starts it */ });
    } catch (failure) {
      const name = failure instanceof DOMException ? failure.name : '';
      if (name === 'NotAllowedError' || name === 'SecurityError') showCameraProblem(t('camera.error.denied'));
      else if (name === 'NotFoundError' || name === 'OverconstrainedError') showCameraProblem(t('camera.error.none'));
      else showCameraProblem(t('camera.error.failed', { reason: name || String(failure) }));
    }
  }

  /** @param {string} text */
  function showCameraProblem(text) {
    cameraProblem.textContent = text;
    cameraProblem.hidden = false;
    view.classList.add('camera-off');
  }

  const cameraShows = () => stream !== null && stream.getVideoTracks().some((track) => track.readyState === 'live') && video.videoWidth > 0;

  // ---- Position and sensors ----
  const stopFixes = watchFixes((fix) => {
    fixes = [...fixes.slice(-(FIXES_KEPT - 1)), fix];
    positionProblem.hidden = true;
  }, (error) => {
    positionProblem.textContent = t(error.code === 1 ? 'position.denied' : error.code === 3 ? 'position.timeout' : 'position.unavailable');
    positionProblem.hidden = false;
  });

  const absoluteEvents = 'ondeviceorientationabsolute' in window;
  const orientationEvent = absoluteEvents ? 'deviceorientationabsolute' : 'deviceorientation';
  /** @param {Event} event */
  const onOrientation = (event) => {
    const reading = /** @type {DeviceOrientationEvent & {webkitCompassHeading?: number}} */ (event);
    const alpha = event.type === 'deviceorientationabsolute' ? reading.alpha : absoluteAlpha(reading);
    direction = cameraDirection(alpha, reading.beta, reading.gamma, screenAngle());
  };
  /** @param {DeviceMotionEvent} event */
  const onMotion = (event) => {
    const magnitude = motionMagnitude(event);
    if (magnitude !== null) motion = addMotionSample(motion, { time: performance.now(), magnitude });
  };
  window.addEventListener(orientationEvent, onOrientation);
  window.addEventListener('devicemotion', onMotion);

  allowMotion.addEventListener('click', async () => {
    const granted = await requestMotionPermission();
    allowMotion.hidden = granted;
    if (!granted) {
      refusal.textContent = t('camera.motionDenied');
      refusal.hidden = false;
    }
  });

  // ---- Every tick: the boxes, the conditions and the countdown ----
  let shownMissing = '';
  function tick() {
    if (ended()) return;
    // Left while it was still drawing: its <main> is out of the document, and the shell runs the
    // cleanup only once render has returned.
    if (!video.isConnected) { stop(); return; }
    const now = Date.now();
    const fix = fixes[fixes.length - 1] ?? null;
    const collected = settings.centroid ? centroidWindow(fixes, settings.samples) : null;
    const missing = readiness({
      camera: cameraShows(), fix, now, settings, motion: stillness(motion, performance.now(), settings.stillness), collected,
    });
    showReadout(fix, collected);
    showMissing(missing);
    // Once motion data comes the sensors are allowed: the button is no longer needed.
    if (motion.length > 0) allowMotion.hidden = true;
    if (countdownFrom !== null) {
      const step = countdownStep(countdownFrom, performance.now(), missing);
      if (step.state === 'counting') {
        countdown.textContent = t('camera.countdown', { seconds: step.secondsLeft });
      } else if (step.state === 'rejected') {
        stopCountdown();
        refusal.textContent = t('camera.refused', { reason: t(step.reason.key, step.reason.params) });
        refusal.hidden = false;
      } else if (fix) {
        stopCountdown();
        void take({ fix, direction, centroid: collected?.centroid ?? null });
      }
    }
    shutter.disabled = missing.length > 0 || countdownFrom !== null || taking;
  }

  /** @param {Fix | null} fix @param {import('../../inspection/camera-model.js').CentroidWindow | null} collected */
  function showReadout(fix, collected) {
    const number = (/** @type {number} */ digits) => new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
    const degrees = (/** @type {number} */ n, /** @type {number} */ digits) => `${number(digits).format(n)}°`;
    const metres = (/** @type {number} */ n) => `${number(1).format(n)} m`;
    const set = (/** @type {HTMLElement} */ element, /** @type {string} */ text) => { if (element.textContent !== text) element.textContent = text; };
    set(place.latitude, fix ? degrees(fix.latitude, 6) : '—');
    set(place.longitude, fix ? degrees(fix.longitude, 6) : '—');
    set(place.altitude, fix && fix.altitude !== null ? metres(fix.altitude) : '—');
    set(place.accuracy, fix ? `± ${metres(fix.accuracy)}` : '—');
    // True north needs the place: without a fix the azimuth is not known yet (not magnetic).
    const north = trueDirection(direction, fix, Date.now());
    set(place.azimuth, north ? degrees(north.azimuth, 1) : '—');
    set(place.tilt, direction ? degrees(direction.tilt, 1) : '—');
    if (collected) {
      set(centre.latitude, collected.centroid ? degrees(collected.centroid.latitude, 6) : '—');
      set(centre.longitude, collected.centroid ? degrees(collected.centroid.longitude, 6) : '—');
      set(centre.samples, t('camera.samples.value', { samples: collected.samples, total: collected.total }));
    }
  }

  /** @param {Missing[]} missing only redrawn when it changes, so that a screen reader hears each change once */
  function showMissing(missing) {
    const texts = missing.map((item) => t(item.key, item.params));
    const joined = texts.join('\n');
    if (joined === shownMissing) return;
    shownMissing = joined;
    missingList.replaceChildren(...(texts.length > 0
      ? texts.map((text) => el('li', {}, text))
      : [el('li', { class: 'camera-ready' }, t('camera.ready'))]));
  }

  function stopCountdown() {
    countdownFrom = null;
    countdown.hidden = true;
    countdown.textContent = '';
    cancel.hidden = true;
  }

  shutter.addEventListener('click', () => {
    if (shutter.disabled || countdownFrom !== null) return;
    refusal.hidden = true;
    result.hidden = true;
    countdownFrom = performance.now();
    countdown.hidden = false;
    cancel.hidden = false;
    tick();
    cancel.focus();
  });
  cancel.addEventListener('click', () => {
    stopCountdown();
    announce(t('camera.cancelled'));
    shutter.focus();
  });

  // ---- Taking and keeping the photo ----
  /**
   * @param {{fix: Fix, direction: Direction | null, centroid: {latitude: number, longitude: number, samples: number} | null}} at
   */
  async function take(at) {
    taking = true;
    const takenAt = Date.now();
    const fields = uploadFields({ takenAt, fix: at.fix, direction: trueDirection(at.direction, at.fix, takenAt), centroid: at.centroid });
    countdown.textContent = t('camera.taking');
    countdown.hidden = false;
    try {
      let blob;
      try {
        blob = await capture();
      } catch {
        refusal.textContent = t('camera.captureFailed');
        refusal.hidden = false;
        return;
      } finally {
        countdown.hidden = true;
        countdown.textContent = '';
      }
      const type = blob.type || 'image/jpeg';
      const extension = type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'jpg';
      const name = `waymark-${new Date(takenAt).toISOString().replace(/[:.]/g, '-')}.${extension}`;
      const photo = { data: await blob.arrayBuffer(), name, type, fields };
      if (taskId) await keepForTask(taskId, photo);
      else await keepAlone(photo);
    } finally {
      taking = false;
      tick();
    }
  }

  /** The picture at the camera's full resolution: ImageCapture where the browser has it, else the video frame. */
  async function capture() {
    const track = stream?.getVideoTracks()[0];
    if (!track) throw new Error('no camera');
    const ImageCaptureClass = /** @type {any} */ (window).ImageCapture;
    if (ImageCaptureClass) {
      try {
        const photo = await Promise.race([
          new ImageCaptureClass(track).takePhoto(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('takePhoto took too long')), TAKE_PHOTO_LIMIT_MS))]);
        if (photo instanceof Blob && photo.size > 0) return photo;
      } catch { /* the video frame below */ }
    }
    const canvas = el('canvas', { width: video.videoWidth, height: video.videoHeight });
    const drawing = canvas.getContext('2d');
    if (!drawing || video.videoWidth === 0) throw new Error('no picture');
    drawing.drawImage(video, 0, 0);
    return new Promise((resolve, reject) => canvas.toBlob((made) => (made ? resolve(made) : reject(new Error('no JPEG'))), 'image/jpeg', 0.92));
  }

  /** @param {{data: ArrayBuffer, name: string, type: string, fields: Record<string, string>}} photo @param {string} id */
  async function keepForTask(id, photo) {
    const outbox = taskOutbox();
    /** @type {import('../../tasks/model.js').OutboxItem} */
    let item;
    try {
      item = await outbox.addPhoto(id, photo);
    } catch {
      showResult(t('camera.storeFailed'), true);
      return;
    }
    showResult(t('camera.stored.sending'));
    await outbox.drain();
    const left = (await outbox.list(id)).find((waiting) => waiting.id === item.id);
    waitingId = left && left.state !== 'failed' ? left.id : null;
    if (!left) showResult(t('camera.stored.sent'));
    else if (left.state === 'failed') showResult(t('camera.stored.refused', { reason: left.error ? describeError(left.error, t) : '' }), true);
    else showResult(t('camera.stored.waiting'));
  }

  /** @param {{data: ArrayBuffer, name: string, type: string, fields: Record<string, string>}} photo */
  async function keepAlone(photo) {
    const queue = uploads();
    /** @type {import('../../photos/upload-queue.js').QueuedUpload} */
    let item;
    try {
      item = await queue.add(photo);
    } catch {
      showResult(t('camera.storeFailed'), true);
      return;
    }
    showResult(t('camera.stored.sending'));
    await queue.drain();
    const left = (await queue.list()).find((waiting) => waiting.id === item.id);
    if (!left) showResult(t('camera.stored.sent'));
    else if (left.state === 'failed' && left.error) showResult(t('camera.stored.refused', { reason: describeUploadError(left.error) }), true);
    else showResult(t('camera.stored.waiting'));
  }

  /** @param {string} text @param {boolean} [failed] */
  function showResult(text, failed = false) {
    if (ended()) return;
    const another = el('button', { type: 'button', class: 'primary' }, t('camera.another'));
    another.addEventListener('click', () => { result.hidden = true; shutter.focus(); });
    result.replaceChildren(
      el('p', { class: failed ? 'form-error camera-result-text' : 'camera-result-text' }, text),
      el('p', { class: 'actions' }, another,
        taskId ? el('a', { class: 'button', href: `/tasks/${encodeURIComponent(taskId)}` }, t('camera.toTask')) : null));
    result.hidden = false;
  }

  // A photo of this task that waited goes when the network is back, as on the task page.
  const online = () => {
    if (!taskId) return;
    void taskOutbox().drain().then(async (counts) => {
      if (counts.sent === 0 || ended()) return;
      announce(t('task.status.sent', { count: counts.sent }));
      // The photo this page said was waiting has gone too: say so where it said it waits.
      const waiting = new Set((await taskOutbox().list(taskId)).map((item) => item.id));
      if (waitingId !== null && !waiting.has(waitingId)) { waitingId = null; showResult(t('camera.stored.sent')); }
    });
  };
  window.addEventListener('online', online);

  const timer = setInterval(tick, TICK_MS);

  /** Stops the camera, the position, the sensors and the ticks (once). */
  function stop() {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    stopFixes();
    window.removeEventListener(orientationEvent, onOrientation);
    window.removeEventListener('devicemotion', onMotion);
    window.removeEventListener('online', online);
    if (stream) for (const track of stream.getTracks()) track.stop();
    stream = null;
    video.srcObject = null;
  }

  tick();
  // Not awaited: the page's cleanup must be in place while the browser still asks for the camera.
  void startCamera().then(tick);
  return stop;
}

/**
 * The task as the server has it or, offline, the copy the task page kept (null when there is
 * none: the photo is still kept, and the server decides when it arrives); `refused` is the
 * server's reason when it refuses the task (not found, not this user's).
 * @param {string} id
 * @returns {Promise<{task: any, refused: string | null}>}
 */
async function loadTask(id) {
  try {
    return { task: await call('getTask', { path: { task_id: id }, cache: 'no-cache' }), refused: null };
  } catch (failure) {
    if (failure instanceof ApiError && failure.status !== 0) return { task: null, refused: refusalText(failure) };
    return { task: (await remembered(`task:${id}`))?.task ?? null, refused: null };
  }
}

/** The screen's rotation, degrees (0 in portrait). */
function screenAngle() {
  const angle = screen.orientation?.angle ?? Number(/** @type {any} */ (window).orientation ?? 0);
  return Number.isFinite(angle) ? angle : 0;
}

/** Whether the browser asks before it gives motion and orientation data (Safari on iOS 13 and later). */
function needsMotionPermission() {
  return typeof (/** @type {any} */ (globalThis.DeviceMotionEvent))?.requestPermission === 'function';
}

/** Asks for the motion and orientation sensors (must follow a tap); true when both are granted. */
async function requestMotionPermission() {
  try {
    const motion = await /** @type {any} */ (DeviceMotionEvent).requestPermission();
    const orientation = typeof (/** @type {any} */ (globalThis.DeviceOrientationEvent))?.requestPermission === 'function'
      ? await /** @type {any} */ (DeviceOrientationEvent).requestPermission()
      : 'granted';
    return motion === 'granted' && orientation === 'granted';
  } catch {
    return false;
  }
}
