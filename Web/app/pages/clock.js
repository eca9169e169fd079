// `/clock` (DESIGN §3.13): the time-sync QR code of an OwnTracks device, for the camera to
// photograph once: `<unix-seconds>-<nonce>` with the device's nonce, as the recorder shows it
// (§3.1: level Q, a new code every QR period, the gauge). Nothing is recorded here: OwnTracks
// records. Signed in, the account's devices to choose from (the first chosen); `?nonce=` picks
// a device by its nonce, also signed out. The screen is kept on while the code is shown.
import { t } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { ApiError } from '../api.js';
import { describeError } from '../errors.js';
import { currentUser } from '../session.js';
import { qrCodeAt } from '../../recorder/engine.js';
import { loadSettings } from '../../recorder/keeper.js';
import { loadQrLibrary, qrModules, drawQr } from '../../recorder/ui/qr.js';
import { makeGauge } from '../../recorder/ui/gauge.js';
import { keepScreenOn } from '../../recorder/ui/wake-lock.js';
import { isDeviceNonce } from '../../owntracks/configuration.js';
import { listOwnTracksDevices } from '../../owntracks/devices.js';

/** @typedef {import('../router.js').PageContext} PageContext */
/** @typedef {import('../../owntracks/devices.js').OwnTracksDevice} OwnTracksDevice */

export const titleKey = 'clock.title';

/** The QR code's size on the screen, in CSS pixels (as the recorder's). */
const QR_SIZE = 240;
/** How often the code and the gauge are drawn again, in milliseconds. */
const TICK = 250;

/**
 * @param {HTMLElement} root
 * @param {PageContext} context
 */
export async function render(root, context) {
  const asked = new URLSearchParams(location.search).get('nonce');
  const heading = el('h1', {}, t('clock.heading'));
  const lead = el('p', { class: 'lead' }, t('clock.intro'));
  if (asked !== null && !isDeviceNonce(asked)) {
    root.replaceChildren(el('div', { class: 'clock-page' }, heading,
      el('p', { class: 'form-error', role: 'alert' }, t('clock.badNonce')), lead));
    return undefined;
  }

  /** @type {OwnTracksDevice[]} */
  let devices = [];
  /** @type {string | null} */
  let failure = null;
  const user = await currentUser();
  if (user) {
    try {
      devices = await listOwnTracksDevices();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      failure = describeError(error, t);
    }
  }
  if (context.signal.aborted) return undefined;

  const nonces = devices.map((device) => device.nonce);
  if (asked !== null && !nonces.includes(asked)) nonces.unshift(asked);
  if (nonces.length === 0) {
    root.replaceChildren(el('div', { class: 'clock-page' }, heading, lead,
      failure ? el('p', { class: 'form-error', role: 'alert' }, failure) : null,
      user
        ? el('p', {}, t('clock.noDevice'), ' ', el('a', { href: '/account#owntracks' }, t('clock.pairLink')))
        : el('p', {}, t('clock.signedOut'), ' ', el('a', { href: '/account#sign-in' }, t('clock.signInLink')))));
    return undefined;
  }

  let nonce = asked ?? nonces[0];
  const chooserId = uniqueId('clock-device');
  const chooser = el('select', { id: chooserId, name: 'device' },
    ...nonces.map((value) => {
      const device = devices.find((candidate) => candidate.nonce === value);
      return el('option', { value, selected: value === nonce }, device ? t('clock.deviceOption', { name: device.name, nonce: value }) : value);
    }));
  const canvas = el('canvas', { class: 'qr-code clock-code', role: 'img', width: QR_SIZE, height: QR_SIZE });
  const gauge = makeGauge(t('record.gaugeLabel'));
  const caption = el('p', { class: 'qr-caption' });
  const nonceLine = el('p', { class: 'hint clock-nonce' });
  const awakeLine = el('p', { class: 'hint awake-line' });
  root.replaceChildren(el('div', { class: 'clock-page' },
    heading, lead,
    el('div', { class: 'field' }, el('label', { for: chooserId }, t('clock.device')), chooser),
    el('figure', { class: 'qr-box' }, canvas, el('figcaption', { class: 'qr-side' }, gauge.element, caption)),
    nonceLine,
    el('p', { class: 'hint' }, t('clock.once')),
    awakeLine));

  const { qrPeriod } = await loadSettings();
  /** @type {import('../../recorder/ui/qr.js').QrFactory | null} */
  let factory = null;
  let drawn = '';
  const draw = () => {
    const qr = qrCodeAt(Date.now() / 1000, qrPeriod, nonce);
    if (factory && qr.text !== drawn) {
      drawQr(canvas, qrModules(factory, qr.text), QR_SIZE);
      drawn = qr.text;
      canvas.setAttribute('aria-label', t('record.qrLabel', { text: qr.text }));
      canvas.setAttribute('data-payload', qr.text);
    }
    const seconds = Math.max(1, Math.ceil(qr.secondsLeft));
    gauge.update(qr.secondsLeft, qr.period, t('record.qrNext', { seconds }));
    if (factory) caption.textContent = t('record.qrNext', { seconds });
    nonceLine.textContent = t('clock.nonce', { nonce });
  };
  chooser.addEventListener('change', () => {
    nonce = chooser.value;
    history.replaceState(history.state, '', `/clock?nonce=${nonce}`);
    draw();
  });
  loadQrLibrary().then((loaded) => { factory = loaded; draw(); }, (error) => {
    console.warn('Waymark: no QR code library:', error);
    caption.textContent = t('record.qrMissing');
  });
  draw();
  const timer = setInterval(draw, TICK);
  const awake = keepScreenOn((held) => { awakeLine.textContent = t(held ? 'clock.awake' : 'clock.notAwake'); });
  return () => {
    clearInterval(timer);
    awake.release();
  };
}
