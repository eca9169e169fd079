// `/settings` (seed 000's side navigation menu, SSN-01): the GPS accuracy threshold, the delay
// of the poor-accuracy alert, how long each QR code is shown (5 to 30 s, or 1), the units, and
// Wi-Fi only (offered only where the browser tells the connection's type; elsewhere the option
// says it cannot be honoured). Kept on this phone with the recorder's keeper; a recording in
// progress keeps the settings it started with. Also: forget the kept passphrase (SCO-12).
import { t } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { announce } from '../status.js';
import * as keeper from '../../recorder/keeper.js';
import * as routes from '../../recorder/routes.js';
import { resetDialog } from '../../recorder/ui/connection.js';

/** @typedef {import('../../recorder/engine.js').Settings} Settings */

export const titleKey = 'settings.title';

/**
 * The settings written in a form, checked as the Swift recorder's `waymark settings` checks
 * them: a positive threshold, an alert delay of at least 1 s, a QR period of 1 or 5 to 30 whole
 * seconds. Returns the settings, or the message key for each field that is wrong.
 * @param {{accuracyThreshold: string, alertDelay: string, qrPeriod: string, units: string, wifiOnly: boolean}} form
 * @returns {{settings: Settings} | {errors: Record<string, string>}}
 */
export function readSettings(form) {
  /** @type {Record<string, string>} */
  const errors = {};
  const number = /** @param {string} text */ (text) => (text.trim() === '' ? NaN : Number(text.trim().replace(',', '.')));
  const accuracyThreshold = number(form.accuracyThreshold);
  if (!(Number.isFinite(accuracyThreshold) && accuracyThreshold > 0)) errors.accuracyThreshold = 'settings.threshold.invalid';
  const alertDelay = number(form.alertDelay);
  if (!(Number.isFinite(alertDelay) && alertDelay >= 1)) errors.alertDelay = 'settings.alertDelay.invalid';
  const qrPeriod = number(form.qrPeriod);
  if (!(Number.isInteger(qrPeriod) && (qrPeriod === 1 || (qrPeriod >= 5 && qrPeriod <= 30)))) errors.qrPeriod = 'settings.qrPeriod.invalid';
  const units = form.units === 'imperial' ? 'imperial' : 'metric';
  if (Object.keys(errors).length > 0) return { errors };
  return { settings: { accuracyThreshold, alertDelay, qrPeriod, units, wifiOnly: form.wifiOnly } };
}

/** @param {HTMLElement} root */
export async function render(root) {
  const current = await keeper.loadSettings();
  // Wi-Fi only needs the Network Information API's connection type, which most browsers keep to themselves.
  const honoured = routes.wifiOnlyHonoured();

  /**
   * A number field with its unit, hint and error line.
   * @param {string} name
   * @param {string} labelKey
   * @param {string} hintKey
   * @param {number} value
   * @param {string} unit
   */
  const numberField = (name, labelKey, hintKey, value, unit) => {
    const id = uniqueId(name);
    const input = el('input', {
      id, name, type: 'text', inputmode: name === 'accuracyThreshold' ? 'decimal' : 'numeric', value: String(value),
      autocomplete: 'off', 'aria-describedby': `${id}-hint ${id}-error`,
    });
    const error = el('p', { id: `${id}-error`, class: 'form-error', role: 'alert' });
    const field = el('div', { class: 'field' },
      el('label', { for: id }, t(labelKey)),
      el('div', { class: 'with-unit' }, input, el('span', { class: 'unit', 'aria-hidden': 'true' }, unit)),
      el('p', { class: 'hint', id: `${id}-hint` }, t(hintKey)),
      error);
    return { field, input, error };
  };
  const threshold = numberField('accuracyThreshold', 'settings.threshold', 'settings.threshold.hint', current.accuracyThreshold, t('settings.unit.metres'));
  const alertDelay = numberField('alertDelay', 'settings.alertDelay', 'settings.alertDelay.hint', current.alertDelay, t('settings.unit.seconds'));
  const qrPeriod = numberField('qrPeriod', 'settings.qrPeriod', 'settings.qrPeriod.hint', current.qrPeriod, t('settings.unit.seconds'));
  const fields = { accuracyThreshold: threshold, alertDelay, qrPeriod };

  const radio = /** @param {'metric' | 'imperial'} value @param {string} key */ (value, key) => {
    const id = uniqueId(`units-${value}`);
    return el('div', { class: 'choice' },
      el('input', { type: 'radio', id, name: 'units', value, checked: current.units === value }),
      el('label', { for: id }, t(key)));
  };
  const wifiId = uniqueId('wifi-only');
  const wifi = el('input', {
    id: wifiId, name: 'wifiOnly', type: 'checkbox', checked: honoured && current.wifiOnly, disabled: !honoured,
    'aria-describedby': `${wifiId}-hint`,
  });
  const saved = el('p', { class: 'hint saved-line', 'aria-live': 'polite' });
  const save = el('button', { type: 'submit', class: 'primary' }, t('settings.save'));
  const form = el('form', { class: 'settings card', novalidate: true },
    threshold.field, alertDelay.field, qrPeriod.field,
    el('fieldset', { class: 'choices' }, el('legend', {}, t('settings.units')),
      radio('metric', 'settings.units.metric'), radio('imperial', 'settings.units.imperial')),
    el('div', { class: 'field check' },
      el('div', { class: 'choice' }, wifi, el('label', { for: wifiId }, t('settings.wifiOnly'))),
      el('p', { class: 'hint', id: `${wifiId}-hint` }, t(honoured ? 'settings.wifiOnly.hint' : 'settings.wifiOnly.unavailable'))),
    save, saved);

  form.addEventListener('input', () => { saved.textContent = ''; });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const units = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name=units]:checked'))?.value ?? 'metric';
    const outcome = readSettings({
      accuracyThreshold: threshold.input.value, alertDelay: alertDelay.input.value, qrPeriod: qrPeriod.input.value,
      // Where it cannot be honoured the box is disabled and the kept choice stays as it was.
      units, wifiOnly: honoured ? wifi.checked : current.wifiOnly,
    });
    for (const [name, { input, error }] of Object.entries(fields)) {
      const key = 'errors' in outcome ? outcome.errors[name] : undefined;
      error.textContent = key ? t(key) : '';
      if (key) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
    }
    if ('errors' in outcome) {
      const first = Object.keys(outcome.errors)[0];
      fields[/** @type {keyof typeof fields} */ (first)].input.focus();
      return;
    }
    save.disabled = true;
    try {
      await keeper.saveSettings(outcome.settings);
      saved.textContent = t((await routes.unfinishedRoute()) ? 'settings.savedNext' : 'settings.saved');
      announce(t('settings.saved'));
    } catch (failure) {
      console.warn('Waymark: could not save the settings:', failure);
      saved.textContent = t('settings.saveFailed');
    } finally {
      save.disabled = false;
    }
  });

  // The kept passphrase (SCO-12): forgetting it asks first; the next recording asks for one.
  const kept = el('p', { class: 'passphrase-line' });
  const reset = el('button', { type: 'button', class: 'danger' }, t('connection.reset'));
  const showKept = async () => {
    const state = await keeper.passphraseState();
    kept.textContent = t(state === 'kept' ? 'settings.passphrase.kept' : 'settings.passphrase.none');
    reset.hidden = state !== 'kept';
  };
  const { dialog, ask } = resetDialog(() => void showKept());
  reset.addEventListener('click', ask);
  await showKept();

  root.replaceChildren(
    el('h1', {}, t('settings.heading')),
    form,
    el('section', { class: 'card', 'aria-labelledby': 'passphrase-heading' },
      el('h2', { id: 'passphrase-heading' }, t('settings.passphrase')),
      kept,
      el('p', { class: 'hint' }, t('settings.passphrase.hint')),
      el('p', { class: 'actions' }, reset)),
    el('p', { class: 'record-links' }, el('a', { href: '/record' }, t('settings.toRecorder')), ' · ',
      el('a', { href: '/vault' }, t('vault.settingsLink')), ' · ',
      el('a', { href: '/sky' }, t('settings.toSky')), ' · ',
      el('a', { href: '/paths' }, t('settings.toPaths'))),
    el('p', { class: 'record-links' }, el('a', { href: '/inspection' }, t('settings.toInspection')), ' · ',
      el('a', { href: '/tasks' }, t('settings.toTasks'))),
    dialog);
}
