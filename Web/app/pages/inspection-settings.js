// `/inspection/settings` (issue #15 point 7): seed 003's Settings screen. The centroid switch
// ("Photo with centroid location computation"), the centroid sampling number with its Default
// button, the accuracy and stillness thresholds the evidence camera needs, and SET DEFAULT
// VALUES. As on the seed's screen there is no Save button: a switch is kept when it is flipped, a
// number when it is left (or Enter is pressed) — unless it is wrong, then the field says what to
// enter and the kept value stays. Below, the external GNSS receiver over Web Serial (the seed's
// external Bluetooth GPS): baud rate, Connect, Disconnect and what it is doing (kept connected
// through a reload until Disconnect); where the browser has no Web Serial, which browsers do.
import { t, language } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { announce } from '../status.js';
import {
  DEFAULTS, SAMPLES_RANGE, ACCURACY_MAX, STILLNESS_MAX, loadInspectionSettings, saveInspectionSettings, readSettingsForm,
} from '../../inspection/settings.js';
import {
  BAUD_RATES, serialAvailable, receiverState, onReceiverState, receiverSummary, connectReceiver, disconnectReceiver, resumeReceiver,
} from '../../inspection/receiver.js';
import { positionText, fixTimeText } from '../../inspection/words.js';

/** @typedef {import('../../inspection/settings.js').InspectionSettings} InspectionSettings */
/** @typedef {import('../../inspection/receiver.js').ReceiverState} ReceiverState */

export const titleKey = 'inspection.settings.title';

/** @param {number} value @param {number} digits */
function number(value, digits) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: digits }).format(value);
}

/**
 * A number as the form shows it: the language's decimal sign, no grouping.
 * @param {number} value
 */
function fieldText(value) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: 3, useGrouping: false }).format(value);
}

/** @param {HTMLElement} root */
export function render(root) {
  let current = loadInspectionSettings();

  /**
   * A number field with its unit, hint and error line.
   * @param {'samples' | 'accuracy' | 'stillness'} name
   * @param {string} labelKey @param {string} hint @param {string} unit @param {HTMLElement | null} extra
   */
  const numberField = (name, labelKey, hint, unit, extra) => {
    const id = uniqueId(`inspection-${name}`);
    const input = el('input', {
      id, name, type: 'text', inputmode: name === 'samples' ? 'numeric' : 'decimal', autocomplete: 'off',
      value: fieldText(current[name]), 'aria-describedby': `${id}-hint ${id}-error`,
    });
    const error = el('p', { id: `${id}-error`, class: 'form-error', role: 'alert' });
    const field = el('div', { class: 'field' },
      el('label', { for: id }, t(labelKey)),
      el('div', { class: 'with-button' },
        el('div', { class: 'with-unit' }, input, unit ? el('span', { class: 'unit', 'aria-hidden': 'true' }, unit) : null),
        extra),
      el('p', { class: 'hint', id: `${id}-hint` }, hint),
      error);
    return { field, input, error };
  };

  const centroidId = uniqueId('inspection-centroid');
  const centroid = el('input', { id: centroidId, name: 'centroid', type: 'checkbox', role: 'switch', checked: current.centroid, 'aria-describedby': `${centroidId}-hint` });
  const defaultSamples = el('button', { type: 'button', class: 'inspection-default' }, t('inspection.settings.samples.default'));
  const samples = numberField('samples', 'inspection.settings.samples',
    t('inspection.settings.samples.hint', { min: SAMPLES_RANGE.min, max: SAMPLES_RANGE.max, default: DEFAULTS.samples }), '', defaultSamples);
  const accuracy = numberField('accuracy', 'inspection.settings.accuracy',
    t('inspection.settings.accuracy.hint', { default: DEFAULTS.accuracy }), t('settings.unit.metres'), null);
  const stillness = numberField('stillness', 'inspection.settings.stillness',
    t('inspection.settings.stillness.hint', { default: DEFAULTS.stillness }), 'm/s²', null);
  const fields = { samples, accuracy, stillness };
  const saved = el('p', { class: 'hint saved-line', 'aria-live': 'polite' });
  const resetAll = el('button', { type: 'button', class: 'inspection-reset' }, t('inspection.settings.defaults'));

  const form = el('form', { class: 'card inspection-settings', novalidate: true },
    el('div', { class: 'field check' },
      el('div', { class: 'choice' }, centroid, el('label', { for: centroidId }, t('inspection.settings.centroid'))),
      el('p', { class: 'hint', id: `${centroidId}-hint` }, t('inspection.settings.centroid.hint'))),
    samples.field, accuracy.field, stillness.field,
    saved,
    el('p', { class: 'actions' }, resetAll));

  /** Shows the kept settings in the form and clears every error. */
  const show = () => {
    centroid.checked = current.centroid;
    for (const [name, { input, error }] of Object.entries(fields)) {
      input.value = fieldText(current[/** @type {keyof typeof fields} */ (name)]);
      input.removeAttribute('aria-invalid');
      error.textContent = '';
    }
  };

  /**
   * Reads the form; keeps it when every field is right, else says what is wrong in each field.
   * @param {string} [only] check only this field's error line (the one just left)
   */
  const keep = (only) => {
    const outcome = readSettingsForm({
      centroid: centroid.checked, samples: samples.input.value, accuracy: accuracy.input.value, stillness: stillness.input.value,
    });
    const kept = { samples: number(current.samples, 0), accuracy: number(current.accuracy, 3), stillness: number(current.stillness, 3) };
    const limits = { min: SAMPLES_RANGE.min, max: SAMPLES_RANGE.max, accuracyMax: ACCURACY_MAX, stillnessMax: STILLNESS_MAX };
    for (const [name, { input, error }] of Object.entries(fields)) {
      if (only && name !== only) continue;
      const key = 'errors' in outcome ? outcome.errors[/** @type {keyof typeof fields} */ (name)] : undefined;
      error.textContent = key ? t(key, { ...limits, kept: kept[/** @type {keyof typeof fields} */ (name)] }) : '';
      if (key) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
    }
    if ('errors' in outcome) {
      saved.textContent = t('inspection.settings.notSaved');
      return false;
    }
    const changed = JSON.stringify(outcome.settings) !== JSON.stringify(current);
    current = outcome.settings;
    saveInspectionSettings(current);
    if (changed) saved.textContent = t('inspection.settings.saved');
    return true;
  };

  centroid.addEventListener('change', () => {
    // The switch is kept on its own even while a number field is wrong.
    current = { ...current, centroid: centroid.checked };
    saveInspectionSettings(current);
    saved.textContent = t('inspection.settings.saved');
  });
  for (const [name, { input }] of Object.entries(fields)) input.addEventListener('change', () => keep(name));
  form.addEventListener('input', () => { saved.textContent = ''; });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!keep()) {
      const wrong = Object.values(fields).find(({ input }) => input.getAttribute('aria-invalid') === 'true');
      wrong?.input.focus();
    }
  });
  defaultSamples.addEventListener('click', () => {
    samples.input.value = fieldText(DEFAULTS.samples);
    keep('samples');
  });
  resetAll.addEventListener('click', () => {
    current = { ...DEFAULTS };
    saveInspectionSettings(current);
    show();
    saved.textContent = t('inspection.settings.defaults.done');
    announce(t('inspection.settings.defaults.done'));
  });

  const receiver = receiverSection();

  root.replaceChildren(
    el('h1', {}, t('inspection.settings.title')),
    el('p', { class: 'lead' }, t('inspection.settings.lead')),
    form,
    receiver.section,
    el('p', { class: 'record-links' }, el('a', { href: '/inspection' }, t('inspection.settings.back'))));
  return receiver.stop;
}

/** The external receiver: baud rate, Connect and Disconnect, and what it is doing. */
function receiverSection() {
  const heading = el('h2', { id: 'receiver' }, t('inspection.receiver.title'));
  const lead = el('p', { class: 'hint' }, t('inspection.receiver.lead'));
  if (!serialAvailable()) {
    return {
      section: el('section', { class: 'card inspection-receiver', 'aria-labelledby': 'receiver' },
        heading, lead, el('p', { class: 'warning inspection-no-serial' }, t('inspection.receiver.unsupported'))),
      stop: () => {},
    };
  }
  const baudId = uniqueId('inspection-baud');
  const baud = el('select', { id: baudId, name: 'baudRate', 'aria-describedby': `${baudId}-hint` },
    ...BAUD_RATES.map((rate) => el('option', { value: String(rate), selected: rate === receiverState().baudRate }, String(rate))));
  const connect = el('button', { type: 'button', class: 'primary' }, t('inspection.receiver.connect'));
  const disconnect = el('button', { type: 'button' }, t('inspection.receiver.disconnect'));
  const status = el('p', { class: 'inspection-receiver-status', 'aria-live': 'polite' });
  const facts = el('dl', { class: 'facts inspection-receiver-facts' });

  connect.addEventListener('click', () => { void connectReceiver(Number(baud.value)); });
  disconnect.addEventListener('click', () => { void disconnectReceiver(); });

  /** @param {ReceiverState} state */
  const draw = (state) => {
    const open = state.phase === 'open' || state.phase === 'opening';
    connect.disabled = open;
    disconnect.disabled = !open;
    baud.disabled = open;
    const summary = receiverSummary(state);
    const text = t(summary.key, summary.params);
    if (status.textContent !== text) status.textContent = text;
    status.className = `inspection-receiver-status receiver-${summary.level}`;
    const position = state.counts.lastPosition;
    /** @type {Array<[string, string, string]>} */
    const rows = [];
    if (open && state.label) rows.push(['inspection.receiver.port', state.label, 'receiver-port']);
    if (position) {
      rows.push(['inspection.position.coordinatesLabel', positionText(position.latitude, position.longitude), 'receiver-position']);
      rows.push(['inspection.receiver.hdop', position.hdop === null ? '—' : number(position.hdop, 2), 'receiver-hdop']);
      if (position.satellites !== null) rows.push(['inspection.receiver.satellites', number(position.satellites, 0), 'receiver-satellites']);
      rows.push(['inspection.receiver.lastFix', fixTimeText(position.time), 'receiver-time']);
    }
    facts.replaceChildren(...rows.flatMap(([key, value, className]) => [el('dt', {}, t(key)), el('dd', { class: className }, value)]));
    facts.hidden = rows.length === 0;
  };
  const stop = onReceiverState(draw);
  draw(receiverState());
  void resumeReceiver();

  return {
    section: el('section', { class: 'card inspection-receiver', 'aria-labelledby': 'receiver' },
      heading, lead,
      el('div', { class: 'field' },
        el('label', { for: baudId }, t('inspection.receiver.baud')), baud,
        el('p', { class: 'hint', id: `${baudId}-hint` }, t('inspection.receiver.baud.hint'))),
      el('p', { class: 'actions' }, connect, disconnect),
      status, facts),
    stop,
  };
}
