// /account's "Record with OwnTracks" (DESIGN §3.13): the account's OwnTracks devices (name, when
// added, how many messages and the last one, the nonce, a link to its time code on /clock) with
// Revoke after a confirmation, and the form that pairs a new one: a name and the passphrase of
// the routes, then the code OwnTracks imports its configuration from, the steps on the phone,
// the key and the secret shown this once, and what the server can and cannot see.
import { t, formatDate, language } from '../../app/i18n.js';
import { el, uniqueId } from '../../app/dom.js';
import { ApiError } from '../../app/api.js';
import { describeError } from '../../app/errors.js';
import { announce } from '../../app/status.js';
import { passphraseState, adoptPassphrase } from '../../recorder/keeper.js';
import { isUsablePassphrase } from '../../recorder/passphrase-rules.js';
import { passphraseBox } from '../../recorder/ui/connection.js';
import { loadQrLibrary, qrModules, drawQr } from '../../recorder/ui/qr.js';
import { pairOwnTracks, listOwnTracksDevices, revokeOwnTracksDevice } from '../devices.js';

/**
 * @typedef {import('../devices.js').OwnTracksDevice} OwnTracksDevice
 * @typedef {import('../devices.js').Pairing} Pairing
 */

/** The code's size on the screen, in CSS pixels: the configuration makes a large code. */
const CODE_SIZE = 320;

/**
 * The section.
 * @param {{signedOut: () => void}} options `signedOut` when the server says the session is gone
 * @returns {HTMLElement}
 */
export function ownTracksSection({ signedOut }) {
  const list = el('ul', { class: 'devices owntracks-devices', 'aria-live': 'polite' });
  const created = el('div', { class: 'new-key owntracks-new', hidden: true });
  const nameId = uniqueId('owntracks-name');
  const passphraseId = uniqueId('owntracks-passphrase');
  const nameInput = el('input', { id: nameId, name: 'name', required: true, maxlength: 100, autocomplete: 'off', value: t('owntracks.defaultName') });
  const { input: passphrase, box } = passphraseBox(passphraseId, `${passphraseId}-hint owntracks-form-error`);
  const error = el('p', { class: 'form-error', id: 'owntracks-form-error', role: 'alert' });
  const submit = el('button', { type: 'submit', class: 'primary' }, t('owntracks.pair'));
  const form = el('form', { id: 'owntracks-form', novalidate: true, 'aria-describedby': 'owntracks-form-error' },
    el('div', { class: 'field' }, el('label', { for: nameId }, t('owntracks.name')), nameInput),
    el('div', { class: 'field' },
      el('label', { for: passphraseId }, t('owntracks.passphrase')), box,
      el('p', { class: 'hint', id: `${passphraseId}-hint` }, t('owntracks.passphrase.hint'))),
    error, submit);

  const confirmText = el('p', { id: uniqueId('owntracks-revoke-text') });
  const confirmYes = el('button', { type: 'button', class: 'danger' }, t('owntracks.confirm.yes'));
  const confirmNo = el('button', { type: 'button' }, t('devices.confirm.no'));
  const dialog = el('dialog', { 'aria-labelledby': confirmText.id }, confirmText, el('p', { class: 'actions' }, confirmNo, confirmYes));
  /** @type {OwnTracksDevice | null} */
  let revoking = null;
  confirmNo.addEventListener('click', () => dialog.close());
  confirmYes.addEventListener('click', async () => {
    const device = revoking;
    dialog.close();
    if (!device) return;
    try {
      await revokeOwnTracksDevice(device.id);
      announce(t('owntracks.revoked', { name: device.name }));
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      announce(describeError(failure, t));
    }
    await reload();
  });

  const count = new Intl.NumberFormat(language());
  /** @param {OwnTracksDevice} device */
  const item = (device) => el('li', { 'data-nonce': device.nonce },
    el('div', { class: 'device' },
      el('strong', { class: 'device-name' }, device.name),
      el('span', { class: 'device-detail' }, `${t('devices.created')}: ${formatDate(device.createdAt)}`),
      el('span', { class: 'device-detail owntracks-messages' }, t('owntracks.messages', { count: count.format(device.messages) })),
      el('span', { class: 'device-detail owntracks-last' },
        device.lastMessageAt ? t('owntracks.lastMessage', { when: formatDate(device.lastMessageAt) }) : t('owntracks.noMessage')),
      el('span', { class: 'device-detail' }, `${t('owntracks.nonce')}: `, el('code', {}, device.nonce)),
      el('a', { class: 'device-detail', href: `/clock?nonce=${device.nonce}` }, t('owntracks.clockLink'))),
    el('button', {
      type: 'button', class: 'danger', 'aria-label': t('owntracks.revokeLabel', { name: device.name }),
      onclick: () => {
        revoking = device;
        confirmText.textContent = t('owntracks.confirm.text', { name: device.name });
        dialog.showModal();
        confirmNo.focus();
      },
    }, t('devices.revoke')));

  async function reload() {
    try {
      const devices = await listOwnTracksDevices();
      list.replaceChildren(...(devices.length ? devices.map(item) : [el('li', { class: 'empty' }, t('owntracks.empty'))]));
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      if (failure.code === 'not_signed_in') { signedOut(); return; }
      list.replaceChildren(el('li', { class: 'form-error' }, describeError(failure, t)));
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    passphrase.removeAttribute('aria-invalid');
    const name = nameInput.value.trim();
    if (!isUsablePassphrase(passphrase.value)) {
      error.textContent = t('owntracks.passphrase.empty');
      passphrase.setAttribute('aria-invalid', 'true');
      passphrase.focus();
      return;
    }
    submit.disabled = true;
    form.setAttribute('aria-busy', 'true');
    try {
      // The routes' passphrase: where this browser's recorder keeps one, it must be that one.
      if (await passphraseState() === 'kept' && await adoptPassphrase(passphrase.value) === 'mismatch') {
        error.textContent = t('owntracks.passphrase.mismatch');
        passphrase.setAttribute('aria-invalid', 'true');
        passphrase.select();
        return;
      }
      const pairing = await pairOwnTracks({ name, passphrase: passphrase.value });
      passphrase.value = '';
      nameInput.value = t('owntracks.defaultName');
      await showPairing(created, pairing);
      announce(t('owntracks.paired', { name: pairing.device.name }));
      await reload();
    } catch (failure) {
      if (failure instanceof ApiError) {
        if (failure.code === 'not_signed_in') { signedOut(); return; }
        error.textContent = describeError(failure, t);
      } else {
        console.warn('Waymark: OwnTracks pairing failed:', failure);
        error.textContent = t('owntracks.failed');
      }
    } finally {
      submit.disabled = false;
      form.removeAttribute('aria-busy');
    }
  });

  void reload();
  return el('section', { class: 'card owntracks', id: 'owntracks', 'aria-labelledby': 'owntracks-heading' },
    el('h2', { id: 'owntracks-heading' }, t('owntracks.heading')),
    el('p', { class: 'hint' }, t('owntracks.intro')),
    created, list, form, dialog);
}

/**
 * Shows a new device's code, the steps on the phone, and its key and secret this once, with copy
 * buttons; Done removes them from the page.
 * @param {HTMLElement} box
 * @param {Pairing} pairing
 */
async function showPairing(box, pairing) {
  const { device, key, configuration } = pairing;
  const copy = /** @param {string} labelKey @param {string} text */ (labelKey, text) => el('button', {
    type: 'button',
    onclick: () => navigator.clipboard.writeText(text).then(
      () => announce(t('status.copied')),
      () => announce(t('status.copyFailed'))),
  }, t(labelKey));
  const canvas = el('canvas', { class: 'owntracks-code', role: 'img', 'aria-label': t('owntracks.codeLabel', { name: device.name }) });
  const clock = `/clock?nonce=${device.nonce}`;
  const done = el('button', { type: 'button', class: 'primary', onclick: () => { box.replaceChildren(); box.hidden = true; } }, t('devices.done'));
  box.replaceChildren(
    el('h3', { id: 'owntracks-new-heading', tabindex: '-1' }, t('owntracks.new.heading', { name: device.name })),
    el('figure', { class: 'owntracks-figure' }, canvas),
    el('p', {}, el('a', { class: 'owntracks-link', href: configuration.link }, t('owntracks.openLink'))),
    el('ol', { class: 'owntracks-steps' },
      el('li', {}, t('owntracks.step.install')),
      el('li', {}, t('owntracks.step.scan')),
      el('li', {}, t('owntracks.step.key')),
      el('li', {}, t('owntracks.step.clock'), ' ', el('a', { href: clock }, t('owntracks.clockLink')))),
    el('p', { class: 'warning' }, t('owntracks.secret.warning')),
    el('dl', { class: 'facts' },
      el('dt', {}, t('owntracks.key')), el('dd', {}, el('code', { class: 'owntracks-key' }, key)),
      el('dt', {}, t('devices.secret')), el('dd', {}, el('code', { class: 'owntracks-secret' }, device.secret)),
      el('dt', {}, t('account.username')), el('dd', {}, el('code', { class: 'owntracks-username' }, device.username)),
      el('dt', {}, t('owntracks.nonce')), el('dd', {}, el('code', { class: 'owntracks-nonce' }, device.nonce))),
    el('p', { class: 'actions' }, copy('owntracks.copyKey', key), copy('devices.copySecret', device.secret), done),
    el('h4', {}, t('owntracks.privacy.heading')),
    el('p', { class: 'hint' }, t('owntracks.privacy.sees')),
    el('p', { class: 'hint' }, t('owntracks.privacy.never')));
  box.hidden = false;
  box.setAttribute('aria-labelledby', 'owntracks-new-heading');
  box.setAttribute('role', 'region');
  try {
    drawQr(canvas, qrModules(await loadQrLibrary(), configuration.link, 'Byte'), CODE_SIZE);
    canvas.setAttribute('data-payload', configuration.link);
  } catch (failure) {
    console.warn('Waymark: no QR code library:', failure);
    canvas.replaceWith(el('p', { class: 'form-error' }, t('record.qrMissing')));
  }
  /** @type {HTMLElement} */ (box.querySelector('h3')).focus();
}
