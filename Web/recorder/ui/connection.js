// The Connection screen (seed 000, SCO-01…12): the passphrase that encrypts the routes, entered
// once and kept on this phone. Continue is enabled only for a passphrase that is not blank
// (the rule book's isUsablePassphrase, the same as the Swift recorder's); a passphrase that does
// not match the kept one shows an error and a Reset button, and Reset forgets the kept one
// after a confirmation. Also used by /settings for Reset alone (resetControl).
import { t } from '../../app/i18n.js';
import { el, uniqueId } from '../../app/dom.js';
import { announce } from '../../app/status.js';
import * as keeper from '../keeper.js';
import { isUsablePassphrase } from '../passphrase-rules.js';
import { icon } from '../../app/icons.js';

/**
 * The confirmation of SCO-12 as a <dialog>: `ask()` opens it, and `onConfirmed` runs after
 * the kept passphrase is forgotten.
 * @param {() => void} onConfirmed
 */
export function resetDialog(onConfirmed) {
  const text = el('p', { id: uniqueId('reset-text') }, t('connection.reset.confirm'));
  const yes = el('button', { type: 'button', class: 'danger' }, t('connection.reset.yes'));
  const no = el('button', { type: 'button' }, t('connection.reset.no'));
  const dialog = el('dialog', { 'aria-labelledby': text.id, class: 'reset-dialog' }, text, el('p', { class: 'actions' }, no, yes));
  no.addEventListener('click', () => dialog.close());
  yes.addEventListener('click', async () => {
    yes.disabled = true;
    try {
      await keeper.resetPassphrase();
      dialog.close();
      announce(t('connection.reset.done'));
      onConfirmed();
    } finally {
      yes.disabled = false;
    }
  });
  return { dialog, ask: () => { dialog.showModal(); no.focus(); } };
}

/**
 * The passphrase input with its eye button that shows and hides what was typed (SCO-04/05);
 * also the passphrase field of /account's OwnTracks pairing and /vault/user.
 * @param {string} inputId
 * @param {string} describedBy the ids of the hint and the error
 * @returns {{input: HTMLInputElement, box: HTMLElement}} `box` holds both
 */
export function passphraseBox(inputId, describedBy) {
  const input = el('input', {
    id: inputId, name: 'passphrase', type: 'password', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
    'aria-describedby': describedBy,
  });
  const eye = el('button', {
    type: 'button', class: 'eye', 'aria-controls': inputId, 'aria-pressed': 'false', 'data-icon': 'eye-slash',
    'aria-label': t('connection.show'),
  }, icon('eye-slash'));
  eye.addEventListener('click', () => {
    const show = input.type === 'password';
    input.type = show ? 'text' : 'password';
    const name = show ? 'eye' : 'eye-slash';
    eye.replaceChildren(icon(name));
    eye.setAttribute('data-icon', name);
    eye.setAttribute('aria-pressed', String(show));
    eye.setAttribute('aria-label', t(show ? 'connection.hide' : 'connection.show'));
  });
  return { input, box: el('div', { class: 'passphrase-box' }, input, eye) };
}

/**
 * Draws the Connection screen into `root`; `onDone` runs once a passphrase is kept (saved for
 * the first time, or matched the kept one).
 * @param {HTMLElement} root
 * @param {() => void | Promise<void>} onDone
 */
export function connectionScreen(root, onDone) {
  const inputId = uniqueId('passphrase');
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const { input, box } = passphraseBox(inputId, `${hintId} ${errorId}`);
  const error = el('p', { id: errorId, class: 'form-error', role: 'alert' });
  const proceed = el('button', { type: 'submit', class: 'primary', disabled: true }, t('connection.continue'));
  const reset = el('button', { type: 'button', class: 'danger', hidden: true }, t('connection.reset'));
  const { dialog, ask } = resetDialog(() => {
    input.value = '';
    showContinue();
    input.focus();
  });

  const showContinue = () => {
    reset.hidden = true;
    proceed.hidden = false;
    error.textContent = '';
    input.removeAttribute('aria-invalid');
    proceed.disabled = !isUsablePassphrase(input.value);
  };

  input.addEventListener('input', () => {
    // SCO-11: typing a usable passphrase again brings Continue back and hides the error.
    if (!reset.hidden && isUsablePassphrase(input.value)) showContinue();
    else if (reset.hidden) proceed.disabled = !isUsablePassphrase(input.value);
  });
  reset.addEventListener('click', ask);

  const form = el('form', { class: 'connection card', novalidate: true },
    el('img', { class: 'connection-logo', src: '/icons/icon-192.png', alt: '', width: 96, height: 96 }),
    el('h1', {}, t('connection.heading')),
    el('p', { class: 'lead' }, t('connection.lead')),
    el('div', { class: 'field' },
      el('label', { for: inputId }, t('connection.passphrase')),
      box,
      el('p', { class: 'hint', id: hintId }, t('connection.hint')),
      error),
    proceed, reset);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (proceed.hidden || !isUsablePassphrase(input.value)) return;
    proceed.disabled = true;
    let outcome;
    try {
      outcome = await keeper.adoptPassphrase(input.value);
    } catch (failure) {
      console.warn('Waymark: could not keep the passphrase:', failure);
      error.textContent = t('connection.failed');
      proceed.disabled = false;
      return;
    }
    if (outcome === 'mismatch') {
      // SCO-10: the error below the field, and Reset instead of Continue.
      error.textContent = t('connection.mismatch');
      input.setAttribute('aria-invalid', 'true');
      proceed.hidden = true;
      reset.hidden = false;
      input.select();
      return;
    }
    announce(t(outcome === 'saved' ? 'connection.saved' : 'connection.matched'));
    await onDone();
  });

  root.replaceChildren(el('div', { class: 'connection-page' }, form, dialog));
  input.focus();
}
