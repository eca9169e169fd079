// `/account`: sign in and sign up when signed out; when signed in, who you are, sign out, the
// devices (consumer keys for the route API) with their one-time secret, and the OwnTracks apps
// that record for the account (Web/owntracks/).
import { t, formatDate } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { call, ApiError } from '../api.js';
import { describeError } from '../errors.js';
import { currentUser, setUser, tasksGiven } from '../session.js';
import { ensureDeviceKey } from '../../recorder/keeper.js';
import { syncNow } from '../../recorder/routes.js';
import { announce } from '../status.js';
import { JOBS, chosenJob, chooseJob, suggestedJob } from '../jobs.js';
import { loadQrLibrary, qrModules, drawQr } from '../../recorder/ui/qr.js';
import { ownTracksSection } from '../../owntracks/ui/account.js';

/** @typedef {import('../session.js').User} User */
/** @typedef {import('../router.js').PageContext} PageContext */
/** @typedef {import('../contract.js').DeviceKey} DeviceKey */

export const titleKey = 'page.account.title';

/**
 * @param {HTMLElement} root
 * @param {PageContext} context
 */
export async function render(root, context) {
  const user = await currentUser();
  if (user) {
    root.replaceChildren(...signedIn(user, context));
  } else {
    root.replaceChildren(...signedOut(context));
    const target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (target) target.scrollIntoView();
  }
}

// ---- Signed out ----

/**
 * At sign-in the phone recorder gets its device key for the route API (DESIGN §3.5), before the
 * Devices list is drawn, and routes recorded while signed out start uploading.
 */
async function readyToSendRoutes() {
  try {
    if (await ensureDeviceKey()) void syncNow();
  } catch (error) {
    console.warn('Waymark: no device key for the recorder yet:', error);
  }
}

/** @param {PageContext} context */
function signedOut(context) {
  const signInForm = form('sign-in-form', 'account.signIn.submit',
    textField({ name: 'username', labelKey: 'field.username', autocomplete: 'username' }),
    passwordField({ autocomplete: 'current-password' }));
  onSubmit(signInForm, async (values) => {
    const answer = await call('signIn', { body: { username: values.username, password: values.password } });
    setUser(answer.user);
    await readyToSendRoutes();
    announce(t('status.signedIn', { name: answer.user.displayName || answer.user.username }));
    context.refresh();
  });

  const signUpForm = form('sign-up-form', 'account.signUp.submit',
    textField({ name: 'username', labelKey: 'field.username', autocomplete: 'username', hintKey: 'hint.username' }),
    passwordField({ autocomplete: 'new-password', hintKey: 'hint.password' }),
    textField({ name: 'displayName', labelKey: 'field.displayName', autocomplete: 'name', autocapitalize: 'words' }),
    textField({ name: 'email', labelKey: 'field.email', type: 'email', autocomplete: 'email', required: false }));
  onSubmit(signUpForm, async (values) => {
    /** @type {import('../contract.js').NewAccount} */
    const body = { username: values.username, password: values.password };
    if (values.displayName.trim()) body.displayName = values.displayName.trim();
    if (values.email.trim()) body.email = values.email.trim();
    const answer = await call('createAccount', { body });
    setUser(answer.user);
    await readyToSendRoutes();
    announce(t('status.accountCreated', { name: answer.user.displayName || answer.user.username }));
    context.refresh();
  });

  return [
    el('h1', { class: 'visually-hidden' }, t('page.account.title')),
    el('section', { class: 'card', id: 'sign-in', 'aria-labelledby': 'sign-in-heading' },
      el('h2', { id: 'sign-in-heading' }, t('account.signIn.heading')), signInForm),
    el('section', { class: 'card', id: 'sign-up', 'aria-labelledby': 'sign-up-heading' },
      el('h2', { id: 'sign-up-heading' }, t('account.signUp.heading')), signUpForm),
    jobChooser(null),
  ];
}

/**
 * What the person uses Waymark for, which decides the bottom bar (issue #33 point 1). Chosen
 * here or on the first screen and kept on this device; before that, the account's suggestion.
 * @param {import('../session.js').User | null} user
 */
function jobChooser(user) {
  const shown = chosenJob() ?? suggestedJob(user, 0);
  const name = uniqueId('job');
  const section = el('section', { class: 'card account-job', 'aria-labelledby': 'account-job-heading' },
    el('h2', { id: 'account-job-heading' }, t('account.job.heading')),
    el('p', { class: 'hint' }, t('account.job.hint')),
    el('fieldset', { class: 'job-choices' },
      el('legend', { class: 'visually-hidden' }, t('account.job.heading')),
      ...JOBS.map((job) => {
        const id = uniqueId('job-choice');
        return el('div', { class: 'job-choice' },
          el('input', {
            type: 'radio', id, name, value: job.id, checked: job.id === shown, 'aria-describedby': `${id}-line`,
            onchange: () => { chooseJob(job.id); announce(t('account.job.saved', { job: t(job.name) })); },
          }),
          el('label', { for: id }, t(job.name)),
          el('span', { class: 'hint', id: `${id}-line` }, t(job.line)));
      })));
  // Until a job is chosen the bar follows the account, which may have been given tasks.
  if (!chosenJob() && user) {
    tasksGiven(user).then((given) => {
      const suggested = section.querySelector(`input[value="${suggestedJob(user, given)}"]`);
      if (!chosenJob() && suggested instanceof HTMLInputElement) suggested.checked = true;
    }, (error) => console.warn('Waymark: no suggested job:', error));
  }
  return section;
}

/**
 * A form with an error line beside it and one submit button.
 * @param {string} id
 * @param {string} submitKey
 * @param {...HTMLElement} fields
 */
function form(id, submitKey, ...fields) {
  const errorId = `${id}-error`;
  return el('form', { id, novalidate: true, 'aria-describedby': errorId },
    ...fields,
    el('p', { class: 'form-error', id: errorId, role: 'alert' }),
    el('button', { type: 'submit', class: 'primary' }, t(submitKey)));
}

/**
 * Runs `action` with the form's values on submit; shows an API error beside the form in the
 * chosen language and keeps the button disabled while the request runs.
 * @param {HTMLFormElement} target
 * @param {(values: Record<string, string>) => Promise<void>} action
 */
function onSubmit(target, action) {
  target.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = /** @type {HTMLElement} */ (target.querySelector('.form-error'));
    const button = /** @type {HTMLButtonElement} */ (target.querySelector('button[type=submit]'));
    /** @type {Record<string, string>} */
    const values = {};
    new FormData(target).forEach((value, name) => { values[name] = String(value); });
    error.textContent = '';
    button.disabled = true;
    target.setAttribute('aria-busy', 'true');
    try {
      await action(values);
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      error.textContent = describeError(failure, t);
    } finally {
      button.disabled = false;
      target.removeAttribute('aria-busy');
    }
  });
}

/**
 * A labelled input with an optional hint.
 * @param {{name: string, labelKey: string, type?: string, autocomplete: string, hintKey?: string,
 *   required?: boolean, autocapitalize?: string}} options
 */
function textField({ name, labelKey, type = 'text', autocomplete, hintKey, required = true, autocapitalize = 'none' }) {
  const id = uniqueId(name);
  const hintId = hintKey ? `${id}-hint` : undefined;
  return el('div', { class: 'field' },
    el('label', { for: id }, t(labelKey)),
    el('input', {
      id, name, type, autocomplete, required, autocapitalize, spellcheck: 'false',
      'aria-describedby': hintId,
    }),
    hintKey ? el('p', { class: 'hint', id: hintId }, t(hintKey)) : null);
}

/**
 * The password input with a show/hide toggle (a real button with aria-pressed).
 * @param {{autocomplete: string, hintKey?: string}} options
 */
function passwordField({ autocomplete, hintKey }) {
  const id = uniqueId('password');
  const hintId = hintKey ? `${id}-hint` : undefined;
  const input = el('input', { id, name: 'password', type: 'password', autocomplete, required: true, 'aria-describedby': hintId });
  const toggle = el('button', {
    type: 'button', class: 'toggle', 'aria-pressed': 'false', 'aria-controls': id, 'aria-label': t('password.toggle'),
    onclick: () => {
      const show = input.type === 'password';
      input.type = show ? 'text' : 'password';
      toggle.setAttribute('aria-pressed', String(show));
    },
  }, t('password.show'));
  return el('div', { class: 'field' },
    el('label', { for: id }, t('field.password')),
    el('div', { class: 'with-button' }, input, toggle),
    hintKey ? el('p', { class: 'hint', id: hintId }, t(hintKey)) : null);
}

// ---- Signed in ----

/**
 * @param {User} user
 * @param {PageContext} context
 */
function signedIn(user, context) {
  const signOut = el('button', {
    type: 'button',
    onclick: async () => {
      signOut.disabled = true;
      try {
        await call('signOut');
      } catch (failure) {
        // Already signed out (or the session is gone): the page shows the signed-out view anyway.
        if (!(failure instanceof ApiError) || failure.code !== 'not_signed_in') {
          signOut.disabled = false;
          if (failure instanceof ApiError) announce(describeError(failure, t));
          return;
        }
      }
      setUser(null);
      announce(t('status.signedOut'));
      context.refresh();
    },
  }, t('account.signOut'));

  /** @type {Array<[string, string]>} */
  const facts = [
    ['account.displayName', user.displayName],
    ['account.username', user.username],
    ['account.role', t(`role.${user.role}`)],
    ['account.createdAt', formatDate(user.createdAt)],
  ];
  if (user.email) facts.splice(2, 0, ['account.email', user.email]);

  return [
    el('section', { class: 'card', 'aria-labelledby': 'account-heading' },
      el('h1', { id: 'account-heading' }, t('account.heading')),
      el('dl', { class: 'facts' }, ...facts.flatMap(([key, value]) => [el('dt', {}, t(key)), el('dd', {}, value)])),
      el('p', { class: 'actions' }, signOut)),
    devices(context),
    ownTracksSection({ signedOut: () => { setUser(null); context.refresh(); } }),
    pairing(),
    jobChooser(user),
  ];
}

/**
 * With HTTPS on (GET /api/v1/config `pairing`), the code `waymark serve` prints: a phone that
 * scans it opens the pairing page, trusts Waymark's certificate authority and opens Waymark.
 * Without HTTPS the section stays hidden.
 */
function pairing() {
  const canvas = el('canvas', { class: 'pair-code', role: 'img' });
  const link = el('a', {});
  const section = el('section', { class: 'card', id: 'pair', 'aria-labelledby': 'pair-heading', hidden: true },
    el('h2', { id: 'pair-heading' }, t('pair.heading')),
    el('p', {}, t('pair.intro')),
    canvas,
    el('p', { class: 'hint' }, t('pair.link'), ' ', link));
  void (async () => {
    try {
      const config = await call('webAppConfig');
      if (!config.pairing) return;
      const address = config.pairing.pairAddress;
      link.setAttribute('href', address);
      link.textContent = address;
      canvas.setAttribute('aria-label', t('pair.code', { address }));
      drawQr(canvas, qrModules(await loadQrLibrary(), address, 'Byte'), 200);
      section.hidden = false;
    } catch (error) {
      console.warn('Waymark: no pairing code:', error);
    }
  })();
  return section;
}

/**
 * The Devices section: the list of keys, the form that adds one, and revoking with confirmation.
 * @param {PageContext} context
 */
function devices(context) {
  const list = el('ul', { class: 'devices', 'aria-live': 'polite' });
  const created = el('div', { class: 'new-key', hidden: true });
  const nameInput = el('input', { id: 'device-name', name: 'name', required: true, maxlength: 100, autocomplete: 'off' });
  const addForm = el('form', { id: 'device-form', novalidate: true, 'aria-describedby': 'device-form-error' },
    el('div', { class: 'field' }, el('label', { for: 'device-name' }, t('devices.name')), nameInput),
    el('p', { class: 'form-error', id: 'device-form-error', role: 'alert' }),
    el('button', { type: 'submit', class: 'primary' }, t('devices.add')));

  const confirmText = el('p', { id: 'revoke-text' });
  const confirmYes = el('button', { type: 'button', class: 'danger' }, t('devices.confirm.yes'));
  const confirmNo = el('button', { type: 'button' }, t('devices.confirm.no'));
  const dialog = el('dialog', { 'aria-labelledby': 'revoke-text' }, confirmText, el('p', { class: 'actions' }, confirmNo, confirmYes));
  /** @type {DeviceKey | null} */
  let revoking = null;
  confirmNo.addEventListener('click', () => dialog.close());
  confirmYes.addEventListener('click', async () => {
    const key = revoking;
    dialog.close();
    if (!key) return;
    try {
      await call('revokeDeviceKey', { path: { key: key.key } });
      announce(t('status.keyRevoked', { name: key.name }));
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      announce(describeError(failure, t));
    }
    await reload();
  });

  /** @param {DeviceKey} key */
  const item = (key) => el('li', {},
    el('div', { class: 'device' },
      el('strong', { class: 'device-name' }, key.name),
      el('span', { class: 'device-detail' }, `${t('devices.key')}: `, el('code', {}, key.key)),
      el('span', { class: 'device-detail' }, `${t('devices.created')}: ${formatDate(key.createdAt)}`)),
    el('button', {
      type: 'button', class: 'danger', 'aria-label': t('devices.revokeLabel', { name: key.name }),
      onclick: () => {
        revoking = key;
        confirmText.textContent = t('devices.confirm.text', { name: key.name });
        dialog.showModal();
        confirmNo.focus();
      },
    }, t('devices.revoke')));

  async function reload() {
    try {
      const answer = await call('listDeviceKeys');
      /** @type {DeviceKey[]} */
      const items = answer.items;
      list.replaceChildren(...(items.length ? items.map(item) : [el('li', { class: 'empty' }, t('devices.empty'))]));
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      if (failure.code === 'not_signed_in') { setUser(null); context.refresh(); return; }
      list.replaceChildren(el('li', { class: 'form-error' }, describeError(failure, t)));
    }
  }

  onSubmit(addForm, async (values) => {
    const answer = await call('createDeviceKey', { body: { name: values.name.trim() } });
    nameInput.value = '';
    showSecret(created, answer);
    announce(t('status.keyCreated', { name: answer.name }));
    await reload();
  });

  void reload();
  return el('section', { class: 'card', 'aria-labelledby': 'devices-heading' },
    el('h2', { id: 'devices-heading' }, t('devices.heading')),
    el('p', { class: 'hint' }, t('devices.intro')),
    created, list, addForm, dialog);
}

/**
 * Shows a new key and its secret, this once, with copy buttons; Done removes the secret from the page.
 * @param {HTMLElement} box
 * @param {{key: string, secret: string, name: string}} answer
 */
function showSecret(box, answer) {
  const copy = /** @param {string} labelKey @param {string} text */ (labelKey, text) => el('button', {
    type: 'button',
    onclick: () => navigator.clipboard.writeText(text).then(
      () => announce(t('status.copied')),
      () => announce(t('status.copyFailed'))),
  }, t(labelKey));
  const done = el('button', { type: 'button', class: 'primary', onclick: () => { box.replaceChildren(); box.hidden = true; } }, t('devices.done'));
  box.replaceChildren(
    el('h3', { id: 'new-key-heading', tabindex: '-1' }, t('devices.new.heading', { name: answer.name })),
    el('p', { class: 'warning' }, t('devices.secret.warning')),
    el('dl', { class: 'facts' },
      el('dt', {}, t('devices.key')), el('dd', {}, el('code', { class: 'new-key-key' }, answer.key)),
      el('dt', {}, t('devices.secret')), el('dd', {}, el('code', { class: 'new-key-secret' }, answer.secret))),
    el('p', { class: 'actions' }, copy('devices.copyKey', answer.key), copy('devices.copySecret', answer.secret), done));
  box.hidden = false;
  box.setAttribute('aria-labelledby', 'new-key-heading');
  box.setAttribute('role', 'region');
  /** @type {HTMLElement} */ (box.querySelector('h3')).focus();
}
