// `/scenes/:id/retake` (issue #14 point 4, DESIGN §3.9, seed 001 §4.3 and §5): the retake
// camera. The live back camera with the scene's reference laid over it — its opacity on a
// vertical slider —, Flip to see the reference alone and back, the navigation rectangle of the
// thesis' eq. 4.17 (Web/scenes/compare.js through attitude.js), which sits on the dashed frame in
// the middle when the phone is held as the reference was, and — as the thesis' testers asked —
// a button that shows the feet shot inside the camera, so the user finds where to stand. The
// shutter leads to the comparison (the new picture over the reference with an opacity, or a
// side-by-side wipe, on one slider); Use uploads it as a rephotograph with the position and
// attitude of the moment (metadata and Exif, Web/scenes/capture.js) and opens the scene's page.
// The rephotograph is kept on the phone before it is sent (Web/scenes/uploads.js): without a
// network it waits there, the page says so, and it goes when the network returns — even after
// this page was closed.
import { t } from '../i18n.js';
import { describeError } from '../errors.js';
import { el, uniqueId } from '../dom.js';
import { call, ApiError } from '../api.js';
import { announce } from '../status.js';
import { currentUser } from '../session.js';
import { quaternion } from '../../scenes/attitude.js';
import { rectangleOnView, comparisonLayers, sliderFraction } from '../../scenes/compare.js';
import {
  liveCamera, watchSensors, metadataOf, stamped,
  needsOrientationPermission, requestOrientationPermission, svgElement,
} from '../../scenes/capture.js';
import { sceneUploadBlock } from '../../scenes/uploads.js';

/** @typedef {import('../../scenes/capture.js').Moment} Moment */

export const titleKey = 'sceneCamera.retake.title';

/** How often the rectangle is redrawn, ms. */
const TICK_MS = 100;
/** The navigation rectangle's size as a fraction of the view. */
const RECTANGLE = 0.36;

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export async function render(root, context) {
  const { signal } = context;
  // Ended when the page is left (the router's signal) or its camera stopped (stop(), once).
  let stopped = false;
  const ended = () => stopped || signal.aborted;
  const id = context.params.id ?? '';
  const scenePath = `/scenes/${encodeURIComponent(id)}`;
  const backLink = el('p', { class: 'scene-back-link' }, el('a', { href: scenePath }, t('sceneCamera.retake.toScene')));
  const user = await currentUser();
  if (!user) {
    root.replaceChildren(el('h1', {}, t('sceneCamera.retake.title')),
      el('div', { class: 'card' },
        el('p', {}, t('sceneCamera.signInFirst')),
        el('p', { class: 'actions' }, el('a', { class: 'button primary', href: '/account#sign-in' }, t('home.signIn')))));
    return;
  }
  root.replaceChildren(backLink, el('h1', {}, t('sceneCamera.retake.title')), el('p', { 'aria-live': 'polite' }, t('sceneCamera.loading')));
  /** @type {import('../contract.js').Scene} */
  let scene;
  try {
    scene = await call('getScene', { path: { scene_id: id }, cache: 'no-cache' });
  } catch (failure) {
    const text = failure instanceof ApiError && failure.status === 404 ? t('sceneCamera.retake.notFound')
      : failure instanceof ApiError && failure.status === 0 ? t('sceneCamera.retake.offline')
        : t('sceneCamera.retake.loadFailed', { reason: failure instanceof ApiError ? describeError(failure, t) : String(failure) });
    root.replaceChildren(backLink, el('h1', {}, t('sceneCamera.retake.title')), el('p', { class: 'form-error', role: 'alert' }, text));
    return;
  }
  const a = scene.attitude ?? {};
  const referenceAttitude = quaternion(Number(a.w), Number(a.x), Number(a.y), Number(a.z));
  if (!root.isConnected) return;

  /** @type {'camera' | 'compare'} */
  let step = 'camera';
  /** @type {{blob: Blob, url: string, moment: Moment} | null} */
  let shot = null;
  let taking = false;
  let flipped = false;
  let matchedBefore = /** @type {boolean | null} */ (null);

  // ---- The camera with the overlay ----
  const heading = el('h1', {}, scene.name ? t('sceneCamera.retake.heading', { name: scene.name }) : t('sceneCamera.retake.title'));
  const video = el('video', { class: 'scene-video', autoplay: true, muted: true, playsinline: true, 'aria-label': t('sceneCamera.video') });
  video.muted = true;
  // The overlay is an SVG image: its opacity is an attribute, which the CSP allows (no styles from script).
  const overlay = svgElement('image', { class: 'scene-overlay', href: scene.reference.urls.large, x: 0, y: 0, width: 300, height: 400, preserveAspectRatio: 'xMidYMid slice' });
  const feetInside = scene.feetShot
    ? el('img', { class: 'scene-feet-inside', src: scene.feetShot.urls.medium, alt: t('sceneCamera.retake.feetAlt'), hidden: true })
    : null;
  const svg = svgElement('svg', { class: 'scene-guides', 'aria-hidden': 'true', viewBox: '0 0 300 400', preserveAspectRatio: 'none' });
  const target = svgElement('rect', { class: 'scene-target' });
  const rectangle = svgElement('rect', { class: 'scene-navigation', visibility: 'hidden' });
  svg.append(overlay, target, rectangle);
  const opacity = el('input', {
    type: 'range', class: 'scene-opacity', min: 0, max: 100, step: 1, value: 50,
    'aria-label': t('sceneCamera.retake.opacity'), 'aria-orientation': 'vertical',
  });
  const view = el('div', { class: 'scene-view scene-view-retake' }, video, svg, feetInside);
  const stage = el('div', { class: 'scene-stage' }, view, el('div', { class: 'scene-opacity-box' }, opacity));
  const alignment = el('p', { class: 'scene-alignment', 'aria-live': 'polite' });
  const cameraProblem = el('p', { class: 'form-error scene-camera-problem', role: 'alert', hidden: true });
  const flip = el('button', { type: 'button', class: 'scene-flip', 'aria-pressed': 'false' }, t('sceneCamera.retake.flip'));
  const feetButton = feetInside
    ? el('button', { type: 'button', class: 'scene-feet-button', 'aria-pressed': 'false' }, t('sceneCamera.retake.feet'))
    : null;
  const shutter = el('button', { type: 'button', class: 'primary scene-shutter', disabled: true }, t('sceneCamera.shutter'));
  const waiting = el('p', { class: 'scene-waiting', 'aria-live': 'polite' });
  const allowSensors = el('button', { type: 'button', class: 'scene-allow-sensors', hidden: !needsOrientationPermission() }, t('sceneCamera.allowSensors'));
  const cameraStep = el('section', { class: 'scene-step scene-step-camera' }, stage, alignment, cameraProblem,
    el('div', { class: 'scene-controls' }, shutter, flip, feetButton), waiting, allowSensors);

  // ---- The comparison ----
  // Both pictures in one SVG of the new photo's size, the reference cropped to it as the overlay
  // was; the new one over it with an opacity, or clipped to the right of the split.
  const clipId = uniqueId('scene-wipe');
  const wipe = svgElement('rect', { x: 0, y: 0, width: 300, height: 400 });
  const clip = svgElement('clipPath', { id: clipId });
  clip.append(wipe);
  const compareReference = svgElement('image', { class: 'scene-compare-reference', href: scene.reference.urls.large, x: 0, y: 0, width: 300, height: 400, preserveAspectRatio: 'xMidYMid slice' });
  const compareNew = svgElement('image', { class: 'scene-compare-new', x: 0, y: 0, width: 300, height: 400, preserveAspectRatio: 'xMidYMid slice' });
  const divider = svgElement('line', { class: 'scene-compare-divider', x1: 0, y1: 0, x2: 0, y2: 400, visibility: 'hidden' });
  const compareSvg = svgElement('svg', { class: 'scene-compare-picture', viewBox: '0 0 300 400', role: 'img', 'aria-label': t('sceneCamera.compare.picture') });
  compareSvg.append(svgElement('defs', {}), compareReference, compareNew, divider);
  compareSvg.firstChild?.appendChild(clip);
  const compareBox = el('div', { class: 'scene-compare' }, compareSvg);
  const modeOverlay = el('input', { type: 'radio', name: 'scene-compare-mode', value: 'overlay', id: 'scene-mode-overlay', checked: true });
  const modeWipe = el('input', { type: 'radio', name: 'scene-compare-mode', value: 'wipe', id: 'scene-mode-wipe' });
  const compareSlider = el('input', { type: 'range', id: 'scene-compare-slider', class: 'scene-compare-slider', min: 0, max: 100, step: 1, value: 50 });
  const progress = el('progress', { class: 'scene-progress', max: 100, value: 0, hidden: true, 'aria-label': t('sceneCamera.upload.progressLabel') });
  const progressText = el('p', { class: 'scene-progress-text', 'aria-live': 'polite' });
  const uploadProblem = el('p', { class: 'form-error scene-upload-problem', role: 'alert', hidden: true });
  const kept = el('div', { class: 'scene-kept', role: 'status', hidden: true },
    el('p', {}, t('sceneCamera.retake.kept')), el('p', {}, el('a', { href: '/me/scenes' }, t('sceneOutbox.waitingLink'))));
  const uploadButton = el('button', { type: 'button', class: 'primary scene-upload' }, t('sceneCamera.retake.upload'));
  const againButton = el('button', { type: 'button', class: 'scene-again' }, t('sceneCamera.again'));
  const compareStep = el('section', { class: 'scene-step scene-step-compare', hidden: true },
    el('h2', { class: 'scene-step-title', tabindex: '-1' }, t('sceneCamera.step.compare')),
    compareBox,
    el('fieldset', { class: 'choices scene-compare-mode' }, el('legend', {}, t('sceneCamera.compare.mode')),
      el('div', { class: 'choice' }, modeOverlay, el('label', { for: 'scene-mode-overlay' }, t('sceneCamera.compare.overlay'))),
      el('div', { class: 'choice' }, modeWipe, el('label', { for: 'scene-mode-wipe' }, t('sceneCamera.compare.wipe')))),
    el('label', { for: 'scene-compare-slider' }, t('sceneCamera.compare.slider')), compareSlider,
    progress, progressText, uploadProblem, kept, el('p', { class: 'actions' }, uploadButton, againButton));

  root.replaceChildren(backLink, heading, cameraStep, compareStep);

  const camera = liveCamera(video, (key, reason) => {
    cameraProblem.textContent = t(key, { reason });
    cameraProblem.hidden = false;
    view.classList.add('scene-off');
    // Nothing to wait for: without the camera the shutter and its conditions go.
    cameraStep.classList.add('scene-no-camera');
  });
  const sensors = watchSensors({
    onPositionError: (error) => {
      waiting.textContent = t(error.code === 1 ? 'position.denied' : error.code === 3 ? 'position.timeout' : 'position.unavailable');
    },
  });
  allowSensors.addEventListener('click', async () => { allowSensors.hidden = await requestOrientationPermission(); });

  // The overlay's opacity (the slider) and Flip: the reference alone, fully opaque, or the camera with the overlay.
  function showOverlay() {
    overlay.setAttribute('opacity', flipped ? '1' : String(sliderFraction(opacity.value)));
    view.classList.toggle('scene-flipped', flipped);
  }
  opacity.addEventListener('input', showOverlay);
  flip.addEventListener('click', () => {
    flipped = !flipped;
    flip.setAttribute('aria-pressed', String(flipped));
    flip.textContent = t(flipped ? 'sceneCamera.retake.flipBack' : 'sceneCamera.retake.flip');
    showOverlay();
  });
  feetButton?.addEventListener('click', () => {
    if (!feetInside) return;
    feetInside.hidden = !feetInside.hidden;
    feetButton.setAttribute('aria-pressed', String(!feetInside.hidden));
    feetButton.textContent = t(feetInside.hidden ? 'sceneCamera.retake.feet' : 'sceneCamera.retake.feetHide');
  });

  function tick() {
    if (ended()) return;
    if (!video.isConnected) { stop(); return; }
    // Once the orientation comes the browser has allowed it: the button is no longer needed.
    if (sensors.moment().attitude) allowSensors.hidden = true;
    if (step !== 'camera') return;
    // The guides are drawn in the view's own pixels, so the rectangle's offset is eq. 4.17's on screen.
    const width = Math.round(view.clientWidth), height = Math.round(view.clientHeight);
    if (width > 0 && height > 0) {
      const box = `0 0 ${width} ${height}`;
      if (svg.getAttribute('viewBox') !== box) svg.setAttribute('viewBox', box);
      const w = width * RECTANGLE, h = height * RECTANGLE;
      setAttributes(target, { x: (width - w) / 2, y: (height - h) / 2, width: w, height: h });
      setAttributes(overlay, { width, height });
      const now = sensors.moment();
      if (now.attitude && referenceAttitude) {
        const on = rectangleOnView(referenceAttitude, now.attitude, width, height);
        setAttributes(rectangle, { x: on.x - w / 2, y: on.y - h / 2, width: w, height: h, visibility: 'visible' });
        rectangle.classList.toggle('matched', on.matched);
        if (on.matched !== matchedBefore) {
          matchedBefore = on.matched;
          alignment.textContent = t(on.matched ? 'sceneCamera.retake.aligned' : 'sceneCamera.retake.align');
        }
      } else {
        rectangle.setAttribute('visibility', 'hidden');
      }
    }
    const missing = !camera.shows() ? t('sceneCamera.waiting.camera')
      : !sensors.moment().attitude ? t('sceneCamera.waiting.attitude') : '';
    if (waiting.textContent !== missing && (missing !== '' || waiting.dataset.sensor === 'yes')) {
      waiting.textContent = missing;
    }
    waiting.dataset.sensor = missing === '' ? 'no' : 'yes';
    shutter.disabled = missing !== '' || taking;
  }

  shutter.addEventListener('click', async () => {
    if (shutter.disabled || taking) return;
    const moment = sensors.moment();
    if (!moment.attitude) return;
    taking = true;
    shutter.disabled = true;
    waiting.textContent = t('sceneCamera.taking');
    try {
      const blob = await camera.picture();
      if (ended()) return;
      if (shot) URL.revokeObjectURL(shot.url);
      shot = { blob, url: URL.createObjectURL(blob), moment };
      // The new photo replaces one this page kept on the phone and has not sent: a new
      // rephotograph, with a key of its own.
      await sceneUpload.forget();
      waiting.textContent = '';
      showCompare();
      announce(t('sceneCamera.taken'));
    } catch {
      waiting.textContent = t('sceneCamera.captureFailed');
    } finally {
      taking = false;
    }
  });

  function showCompare() {
    step = 'compare';
    camera.close();
    cameraStep.hidden = true;
    compareStep.hidden = false;
    compareNew.setAttribute('href', shot?.url ?? '');
    void sizeComparison();
    showComparison();
    /** @type {HTMLElement | null} */ (compareStep.querySelector('.scene-step-title'))?.focus();
  }

  /** The comparison takes the new photo's proportions (its full size, from the JPEG). */
  let compareWidth = 300, compareHeight = 400;
  async function sizeComparison() {
    if (!shot) return;
    try {
      const bitmap = await createImageBitmap(shot.blob);
      compareWidth = bitmap.width;
      compareHeight = bitmap.height;
      bitmap.close();
    } catch { return; }
    compareSvg.setAttribute('viewBox', `0 0 ${compareWidth} ${compareHeight}`);
    for (const image of [compareReference, compareNew]) setAttributes(image, { width: compareWidth, height: compareHeight });
    setAttributes(divider, { y2: compareHeight });
    showComparison();
  }

  function showComparison() {
    const mode = modeWipe.checked ? 'wipe' : 'overlay';
    const layers = comparisonLayers(mode, compareSlider.value);
    compareBox.classList.toggle('scene-compare-wipe', mode === 'wipe');
    compareNew.setAttribute('opacity', String(layers.opacity));
    const split = layers.split * compareWidth;
    setAttributes(wipe, { x: split, y: 0, width: compareWidth - split, height: compareHeight });
    if (mode === 'wipe') compareNew.setAttribute('clip-path', `url(#${clipId})`);
    else compareNew.removeAttribute('clip-path');
    setAttributes(divider, { x1: split, x2: split, visibility: mode === 'wipe' ? 'visible' : 'hidden' });
    compareSlider.setAttribute('aria-valuetext', mode === 'wipe'
      ? t('sceneCamera.compare.wipeValue', { percent: Math.round(layers.split * 100) })
      : t('sceneCamera.compare.overlayValue', { percent: Math.round(layers.opacity * 100) }));
  }
  compareSlider.addEventListener('input', showComparison);
  modeOverlay.addEventListener('change', showComparison);
  modeWipe.addEventListener('change', showComparison);

  againButton.addEventListener('click', () => {
    if (sceneUpload.isUploading()) return;
    step = 'camera';
    compareStep.hidden = true;
    cameraStep.hidden = false;
    uploadProblem.hidden = true;
    void camera.open().then(tick);
    shutter.focus();
  });

  const sceneUpload = sceneUploadBlock({
    button: uploadButton, also: [againButton], kept, problem: uploadProblem, bar: progress, words: progressText,
    label: t('sceneCamera.retake.upload'), isAlive: () => !ended(), onSent: () => context.navigate(scenePath),
  });

  uploadButton.addEventListener('click', () => {
    if (!shot) return;
    const taken = shot;
    void sceneUpload.upload(async (key) => ({
      kind: 'rephotograph',
      key,
      owner: user?.id ?? null,
      sceneId: id,
      sceneName: typeof scene.name === 'string' ? scene.name : '',
      metadata: metadataOf(taken.moment),
      image: { data: await stamped(taken.blob, taken.moment), name: 'rephotograph.jpg', type: 'image/jpeg' },
    }));
  });

  const timer = setInterval(tick, TICK_MS);

  /** Stops the camera, the sensors and the ticks (once). */
  function stop() {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    sceneUpload.stop();
    camera.dispose();
    sensors.stop();
    if (shot) URL.revokeObjectURL(shot.url);
  }

  showOverlay();
  tick();
  void camera.open().then(tick);
  return stop;
}

/**
 * @param {Element} element @param {Record<string, string | number>} attributes numbers to 0.1 px
 */
function setAttributes(element, attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    element.setAttribute(name, typeof value === 'number' ? value.toFixed(1) : value);
  }
}
