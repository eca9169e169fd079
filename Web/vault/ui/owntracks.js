// /vault/user's "Positions from OwnTracks" (seed 002 FR3a, DESIGN §3.11 and §3.13): one of the
// account's OwnTracks devices (or its nonce, typed), a time span (the last 24 hours unless
// changed), an interval (5 minutes) and the passphrase; the device's messages are fetched and
// opened on this phone, one fix per interval becomes a location record in the cache, and the
// page then uploads the cache as it does every record.
import { t, language } from '../../app/i18n.js';
import { el, uniqueId } from '../../app/dom.js';
import { ApiError } from '../../app/api.js';
import { describeError } from '../../app/errors.js';
import { currentUser } from '../../app/session.js';
import { EnvelopeError } from '../../recorder/envelope.js';
import { passphraseBox } from '../../recorder/ui/connection.js';
import { isUsablePassphrase } from '../../recorder/passphrase-rules.js';
import { isDeviceNonce } from '../../owntracks/configuration.js';
import { listOwnTracksDevices, fixesOfDevice, OwnTracksError } from '../../owntracks/devices.js';
import { recordFromFix } from '../records.js';
import { loadNacl } from '../connection.js';

/** @typedef {import('../cache.js').VaultCache} VaultCache */

/** The interval offered first, in minutes. */
const DEFAULT_INTERVAL = 5;

/**
 * A date as a datetime-local input writes it, in this phone's time zone: 2026-06-01T10:00.
 * @param {Date} date
 */
function localInput(date) {
  const pad = /** @param {number} value */ (value) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The section.
 * @param {{cache: VaultCache, added: (count: number) => Promise<void>}} options `added` runs
 *   after records were cached (the page uploads them)
 * @returns {HTMLElement}
 */
export function ownTracksExport({ cache, added }) {
  const deviceId = uniqueId('vault-owntracks-device');
  const fromId = uniqueId('vault-owntracks-from');
  const toId = uniqueId('vault-owntracks-to');
  const intervalId = uniqueId('vault-owntracks-interval');
  const passphraseId = uniqueId('vault-owntracks-passphrase');
  const now = new Date();
  const deviceField = el('div', { class: 'field' });
  const from = el('input', { id: fromId, name: 'from', type: 'datetime-local', required: true, value: localInput(new Date(now.getTime() - 86400_000)) });
  const to = el('input', { id: toId, name: 'to', type: 'datetime-local', required: true, value: localInput(new Date(now.getTime() + 60_000)) });
  const interval = el('input', { id: intervalId, name: 'interval', type: 'number', min: 1, max: 1440, step: 1, required: true, value: DEFAULT_INTERVAL, inputmode: 'numeric' });
  const { input: passphrase, box } = passphraseBox(passphraseId, `${passphraseId}-hint`);
  const message = el('p', { class: 'vault-owntracks-message', 'aria-live': 'polite' });
  const error = el('p', { class: 'form-error vault-owntracks-error', role: 'alert' });
  const submit = el('button', { type: 'submit', class: 'primary' }, t('vault.owntracks.submit'));
  /** @type {HTMLSelectElement | HTMLInputElement} */
  let device = el('input', { id: deviceId, name: 'nonce', type: 'text', autocapitalize: 'characters', autocomplete: 'off', spellcheck: 'false', maxlength: 12 });
  deviceField.replaceChildren(el('label', { for: deviceId }, t('vault.owntracks.nonce')), device);

  const form = el('form', { class: 'vault-owntracks-form', novalidate: true },
    deviceField,
    el('div', { class: 'field' }, el('label', { for: fromId }, t('vault.owntracks.from')), from),
    el('div', { class: 'field' }, el('label', { for: toId }, t('vault.owntracks.to')), to),
    el('div', { class: 'field' }, el('label', { for: intervalId }, t('vault.owntracks.interval')), interval),
    el('div', { class: 'field' },
      el('label', { for: passphraseId }, t('owntracks.passphrase')), box,
      el('p', { class: 'hint', id: `${passphraseId}-hint` }, t('vault.owntracks.passphraseHint'))),
    error, submit, message);

  // Signed in to Waymark: the account's devices to choose from instead of a typed nonce.
  void (async () => {
    try {
      if (!(await currentUser())) return;
      const devices = await listOwnTracksDevices();
      if (devices.length === 0) return;
      device = el('select', { id: deviceId, name: 'nonce' },
        ...devices.map((item, index) => el('option', { value: item.nonce, selected: index === 0 }, t('clock.deviceOption', { name: item.name, nonce: item.nonce }))));
      deviceField.replaceChildren(el('label', { for: deviceId }, t('vault.owntracks.device')), device);
    } catch (failure) {
      console.warn('Waymark: no OwnTracks devices listed:', failure);
    }
  })();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    message.textContent = '';
    const nonce = device.value.trim().toUpperCase();
    const start = Date.parse(from.value) / 1000;
    const end = Date.parse(to.value) / 1000;
    const minutes = Number(interval.value);
    if (!isDeviceNonce(nonce)) { error.textContent = t('clock.badNonce'); device.focus(); return; }
    if (!(Number.isFinite(start) && Number.isFinite(end) && end > start)) { error.textContent = t('vault.owntracks.badSpan'); from.focus(); return; }
    if (!(Number.isInteger(minutes) && minutes >= 1 && minutes <= 1440)) { error.textContent = t('vault.owntracks.badInterval'); interval.focus(); return; }
    if (!isUsablePassphrase(passphrase.value)) { error.textContent = t('owntracks.passphrase.empty'); passphrase.focus(); return; }
    submit.disabled = true;
    form.setAttribute('aria-busy', 'true');
    message.textContent = t('vault.owntracks.reading');
    try {
      const nacl = /** @type {any} */ (await loadNacl());
      const read = await fixesOfDevice({ nonce, passphrase: passphrase.value, from: start, to: end, interval: minutes * 60, nacl });
      const count = await cache.add(read.fixes.map(recordFromFix));
      const number = new Intl.NumberFormat(language());
      message.textContent = t('vault.owntracks.added', { count: number.format(count), messages: number.format(read.messages) })
        + (read.unreadable === 1 ? ` ${t('vault.owntracks.unreadable.one')}`
          : read.unreadable > 1 ? ` ${t('vault.owntracks.unreadable', { count: number.format(read.unreadable) })}` : '');
      passphrase.value = '';
      if (count > 0) await added(count);
    } catch (failure) {
      message.textContent = '';
      if (failure instanceof OwnTracksError) error.textContent = t(failure.code === 'noDeviceKey' ? 'vault.owntracks.noDeviceKey' : 'vault.owntracks.unknownDevice');
      else if (failure instanceof EnvelopeError && failure.code === 'cannotOpen') error.textContent = t('vault.owntracks.wrongPassphrase');
      else if (failure instanceof ApiError) error.textContent = describeError(failure, t);
      else {
        console.warn('Waymark: OwnTracks positions not read:', failure);
        error.textContent = t('vault.owntracks.failed');
      }
    } finally {
      submit.disabled = false;
      form.removeAttribute('aria-busy');
    }
  });

  return el('section', { class: 'card vault-owntracks', 'aria-labelledby': 'vault-owntracks-heading' },
    el('h2', { id: 'vault-owntracks-heading' }, t('vault.owntracks.heading')),
    el('p', { class: 'hint' }, t('vault.owntracks.intro')),
    form);
}
