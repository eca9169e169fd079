// The seed's Login screen in its three states: (1) the prompt with [Scan QR Code] and [Enter
// login data] or [Sign up for new data vault]; (2) the same with the help text; (3) the login
// form (vault address, default https://data-vault.eu; username; password). The QR code is read
// with the camera where the browser can (BarcodeDetector), else from a photo that Waymark's
// server decodes; a complete code logs in at once, a code whose login fails or that is
// incomplete fills the form. Errors in the seed's exact words.
import { t } from '../../app/i18n.js';
import { el, uniqueId } from '../../app/dom.js';
import { DEFAULT_VAULT, normalizeVaultURL } from '../client.js';
import { bestLoginPayload, decodePhoto } from '../qr.js';
import { signIn, vaultAllowed } from '../connection.js';
import { words, outside, copyright, failureWords, notAllowedWords } from './words.js';
import { cameraScanning, scanWithCamera } from './scanner.js';

/**
 * @typedef {import('../cache.js').VaultSession} VaultSession
 * @typedef {import('../client.js').VaultCredentials} VaultCredentials
 * @typedef {import('../qr.js').PayloadFields} PayloadFields
 */

/**
 * Draws the Login screen into `root`.
 * @param {HTMLElement} root
 * @param {(session: VaultSession) => void} onSignedIn
 * @returns {() => void} what to do when the page is left (stops the camera)
 */
export function loginScreen(root, onSignedIn) {
  /** @type {(() => void) | null} */
  let stopCamera = null;
  /**
   * The QR code's app credentials, used while the form shows them unchanged.
   * @type {{key: string, secret: string} | null}
   */
  let app = null;

  const signUpLink = () => outside(t('vault.login.signUpURL'), t('vault.login.signUp'));

  // (1)/(2): the prompt and its help.
  const helpId = uniqueId('vault-help');
  const help = el('button', { type: 'button', class: 'link-button vault-help-toggle', 'aria-expanded': 'false', 'aria-controls': helpId }, t('vault.login.help'));
  const helpText = el('p', { id: helpId, class: 'vault-help', hidden: true },
    ...words('vault.login.helpText', { vault: outside(DEFAULT_VAULT, DEFAULT_VAULT) }));
  help.addEventListener('click', () => {
    helpText.hidden = !helpText.hidden;
    help.setAttribute('aria-expanded', String(!helpText.hidden));
  });
  const scan = el('button', { type: 'button', class: 'primary vault-scan' }, t('vault.login.scan'));
  const enter = el('button', { type: 'button', class: 'vault-enter' }, t('vault.login.enter'));
  const choice = el('p', { class: 'vault-choice' }, ...words('vault.login.or', { enter, signUp: signUpLink() }));
  const error = el('p', { class: 'form-error vault-error', role: 'alert' });

  // (3): the form.
  const field = /** @param {string} name @param {string} labelKey @param {Record<string, string | boolean>} attributes */ (name, labelKey, attributes) => {
    const id = uniqueId(`vault-${name}`);
    const input = el('input', { id, name, autocapitalize: 'off', spellcheck: 'false', ...attributes });
    return { input, element: el('div', { class: 'field' }, el('label', { for: id }, t(labelKey)), input) };
  };
  const url = field('vault', 'vault.login.url', { type: 'url', inputmode: 'url', autocomplete: 'url', value: DEFAULT_VAULT });
  const username = field('username', 'vault.login.username', { type: 'text', autocomplete: 'username' });
  const password = field('password', 'vault.login.password', { type: 'password', autocomplete: 'current-password' });
  const submit = el('button', { type: 'submit', class: 'primary' }, t('vault.login.submit'));
  const form = el('form', { class: 'vault-form', novalidate: true, hidden: true },
    url.element, username.element, password.element, submit,
    el('p', { class: 'vault-signup' }, signUpLink()));
  for (const input of [username.input, password.input]) input.addEventListener('input', () => { app = null; });

  // The scan view.
  const video = el('video', { class: 'vault-camera', muted: true, playsinline: true, 'aria-label': t('vault.scan.camera'), hidden: true });
  const photoId = uniqueId('vault-photo');
  const photo = el('input', { id: photoId, type: 'file', accept: 'image/*', capture: 'environment', class: 'file-input vault-photo' });
  const scanStatus = el('p', { class: 'hint vault-scan-status', 'aria-live': 'polite' });
  // Said only while the camera runs: without one, the photo is the way.
  const cameraHint = el('p', { class: 'hint vault-scan-hint', hidden: true }, t('vault.scan.hint'));
  const cancel = el('button', { type: 'button', class: 'vault-cancel' }, t('vault.cancel'));
  const scanView = el('section', { class: 'vault-scan-view card', hidden: true, 'aria-labelledby': `${photoId}-heading` },
    el('h2', { id: `${photoId}-heading` }, t('vault.login.scan')),
    video,
    cameraHint,
    photo,
    el('label', { for: photoId, class: 'button vault-photo-button' }, t('vault.scan.photo')),
    el('p', { class: 'hint' }, t('vault.scan.photoHint')),
    scanStatus,
    el('p', { class: 'actions' }, cancel));

  const start = el('div', { class: 'vault-start' }, el('p', { class: 'actions' }, scan), choice);

  root.replaceChildren(el('div', { class: 'vault-page vault-login' },
    el('h1', {}, t('vault.title')),
    el('p', { class: 'vault-prompt' }, ...words('vault.login.prompt', { help })),
    helpText,
    start,
    scanView,
    error,
    form,
    copyright()));

  /** Shows the form (state 3) in place of [Enter login data]. */
  function showForm() {
    closeScan();
    choice.hidden = true;
    form.hidden = false;
  }
  enter.addEventListener('click', () => {
    showForm();
    username.input.focus();
  });

  /** @param {Array<Node | string>} message */
  function showError(message) {
    error.replaceChildren(...message);
  }

  /**
   * Logs in; on success the page goes on to the module list.
   * @param {string} address what the form or the QR code said
   * @param {VaultCredentials} credentials
   */
  async function attempt(address, credentials) {
    showError([]);
    const vault = normalizeVaultURL(address);
    if (!vault) { showError([t('vault.error.url')]); url.input.focus(); return; }
    if (!(await vaultAllowed(vault))) { showError(notAllowedWords(vault)); return; }
    submit.disabled = true;
    form.setAttribute('aria-busy', 'true');
    scanStatus.textContent = t('vault.login.busy');
    try {
      const session = await signIn(vault, credentials);
      onSignedIn(session);
    } catch (failure) {
      console.warn('Waymark: vault login failed:', failure instanceof Error ? failure.name : failure);
      showError(failureWords(failure));
    } finally {
      submit.disabled = false;
      form.removeAttribute('aria-busy');
      scanStatus.textContent = '';
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    /** @type {VaultCredentials} */
    const credentials = app && username.input.value === app.key && password.input.value === app.secret
      ? { kind: 'app', key: app.key, secret: app.secret }
      : { kind: 'password', email: username.input.value.trim(), password: password.input.value };
    void attempt(url.input.value, credentials);
  });

  // ---- The QR code ----

  function closeScan() {
    stopCamera?.();
    stopCamera = null;
    scanView.hidden = true;
    start.hidden = false;
    video.hidden = true;
    cameraHint.hidden = true;
    scanStatus.textContent = '';
  }
  cancel.addEventListener('click', () => { closeScan(); scan.focus(); });

  scan.addEventListener('click', async () => {
    showError([]);
    start.hidden = true;
    form.hidden = true;
    scanView.hidden = false;
    cancel.focus();
    if (cameraScanning()) {
      try {
        video.hidden = false;
        cameraHint.hidden = false;
        const stop = await scanWithCamera(video, (texts) => void useTexts(texts));
        // Cancelled while the camera was starting: it stops at once.
        if (scanView.hidden) stop(); else stopCamera = stop;
      } catch (failure) {
        console.warn('Waymark: no camera for the QR code:', failure instanceof Error ? failure.name : failure);
        video.hidden = true;
        cameraHint.hidden = true;
        if (!scanView.hidden) scanStatus.textContent = t('vault.scan.noCamera');
      }
    }
  });

  photo.addEventListener('change', async () => {
    const file = photo.files?.[0];
    photo.value = '';
    if (!file) return;
    scanStatus.textContent = t('vault.scan.reading');
    let texts;
    try {
      texts = await decodePhoto(file);
    } catch (failure) {
      console.warn('Waymark: the QR photo could not be decoded:', failure instanceof Error ? failure.message : failure);
      scanStatus.textContent = t('vault.scan.failed');
      return;
    }
    if (texts.length === 0) { scanStatus.textContent = t('vault.scan.none'); return; }
    await useTexts(texts);
  });

  /** @param {PayloadFields} fields puts what the code holds into the form */
  function fill(fields) {
    if (fields.vault) url.input.value = fields.vault;
    const user = fields.key ?? fields.email;
    const secret = fields.key ? fields.secret : fields.password;
    if (user !== undefined) username.input.value = user;
    if (secret !== undefined) password.input.value = secret;
    app = fields.key && fields.secret ? { key: fields.key, secret: fields.secret } : null;
  }

  /** @param {string[]} texts the codes read */
  async function useTexts(texts) {
    const payload = bestLoginPayload(texts);
    if (payload.kind === 'invalid') { scanStatus.textContent = t('vault.scan.invalid'); return; }
    showForm();
    if (payload.kind === 'incomplete') {
      fill(payload.fields);
      showError([t('vault.scan.incomplete')]);
      return;
    }
    if (payload.kind === 'app') {
      fill({ vault: payload.vault, key: payload.key, secret: payload.secret });
      await attempt(payload.vault, { kind: 'app', key: payload.key, secret: payload.secret });
    } else {
      fill({ vault: payload.vault, email: payload.email, password: payload.password });
      await attempt(payload.vault, { kind: 'password', email: payload.email, password: payload.password });
    }
  }

  return () => { stopCamera?.(); };
}
