// `/vault/user` (seed 002, User screen): the vault's username in the header, how many location
// records wait on this phone and when the last upload succeeded; Upload location data now (on
// any network), read location (one record from the browser's position), clear cache (asks
// first), Open Web Data Vault, Log out; positions an OwnTracks device recorded (FR3a); the repo
// the records go to; version and copyright.
// Uploads start by themselves only where the browser says the connection is Wi-Fi.
import { t, formatDate } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { announce } from '../status.js';
import { VERSION, CACHE_PREFIX } from '../shell.js';
import { vaultCache, uploadNow, importRecordedRoutes, signOut, networkKnown, onWifi } from '../../vault/connection.js';
import { recordFromPosition } from '../../vault/records.js';
import { isRepositoryName } from '../../vault/cache.js';
import { refusedCount } from '../../vault/push.js';
import { copyright, outside, failureWords } from '../../vault/ui/words.js';
import { ownTracksExport } from '../../vault/ui/owntracks.js';

/** @typedef {import('../router.js').PageContext} PageContext */
/** @typedef {import('../../vault/push.js').PushReport} PushReport */

export const titleKey = 'vault.user.title';

/**
 * @param {HTMLElement} root
 * @param {PageContext} context
 */
export async function render(root, context) {
  const cache = vaultCache();
  const kept = await cache.session();
  if (!kept) { context.navigate('/vault'); return undefined; }
  const session = kept;
  let left = false;
  const name = session.token?.username || (session.credentials.kind === 'password' ? session.credentials.email : session.credentials.key);

  const count = el('dd', { class: 'vault-count' });
  const lastUpload = el('dd', { class: 'vault-last-upload' });
  const message = el('p', { class: 'vault-message', 'aria-live': 'polite' });
  const error = el('p', { class: 'form-error vault-user-error', role: 'alert' });
  const upload = el('button', { type: 'button', class: 'primary vault-upload' }, t('vault.user.upload'));
  const read = el('button', { type: 'button', class: 'vault-read' }, t('vault.user.read'));
  const clear = el('button', { type: 'button', class: 'danger vault-clear' }, t('vault.user.clear'));
  const logout = el('button', { type: 'button', class: 'vault-logout' }, t('vault.user.logout'));
  const repoId = uniqueId('vault-repo');
  const repo = el('input', {
    id: repoId, name: 'repo', type: 'text', autocapitalize: 'off', autocomplete: 'off', spellcheck: 'false',
    value: await cache.repository(), 'aria-describedby': `${repoId}-hint ${repoId}-error`,
  });
  const repoError = el('p', { id: `${repoId}-error`, class: 'form-error', role: 'alert' });
  const clearText = el('p', { id: uniqueId('vault-clear-text') });
  const clearYes = el('button', { type: 'button', class: 'danger' }, t('vault.user.clear'));
  const clearNo = el('button', { type: 'button' }, t('vault.cancel'));
  const dialog = el('dialog', { class: 'vault-clear-dialog', 'aria-labelledby': clearText.id }, clearText, el('p', { class: 'actions' }, clearNo, clearYes));

  root.replaceChildren(el('div', { class: 'vault-page vault-user' },
    el('div', { class: 'vault-bar' },
      el('a', { class: 'vault-back', href: '/vault', 'aria-label': t('vault.user.back') }, '‹'),
      el('h1', { class: 'vault-bar-title vault-username' }, name)),
    el('section', { class: 'card' },
      el('dl', { class: 'facts vault-facts' },
        el('dt', {}, t('vault.user.count')), count,
        el('dt', {}, t('vault.user.lastUpload')), lastUpload)),
    el('div', { class: 'vault-actions' }, upload, read, clear,
      outside(session.vault, t('vault.user.openVault')), logout),
    message, error,
    el('p', { class: 'hint vault-wifi' }, t(networkKnown() ? 'vault.user.wifi' : 'vault.user.wifiUnknown')),
    ownTracksExport({ cache, added: () => send(true) }),
    el('section', { class: 'card' },
      el('div', { class: 'field' },
        el('label', { for: repoId }, t('vault.user.repo')), repo,
        el('p', { class: 'hint', id: `${repoId}-hint` }, t('vault.user.repoHint')), repoError)),
    el('footer', { class: 'vault-footer' },
      el('p', { class: 'vault-version' }, t('vault.user.version', { version: VERSION.slice(CACHE_PREFIX.length) })),
      copyright()),
    dialog));
  const openVault = /** @type {HTMLAnchorElement} */ (root.querySelector('.vault-actions a'));
  openVault.classList.add('button');

  async function showInfo() {
    if (left) return;
    const [records, last] = await Promise.all([cache.count(), cache.lastUpload()]);
    count.textContent = new Intl.NumberFormat(document.documentElement.lang || undefined).format(records);
    lastUpload.textContent = last === null ? t('vault.user.never') : formatDate(new Date(last));
  }

  /** @param {PushReport} report */
  function describe(report) {
    const parts = [];
    if (report.written > 0) parts.push(t(report.encrypted ? 'vault.user.uploadedSealed' : 'vault.user.uploadedPlain', { count: report.written }));
    const refused = refusedCount(report);
    if (refused > 0) parts.push(t('vault.user.refused', { count: refused, reason: Object.keys(report.refused).join('; ') }));
    if (parts.length === 0 && !report.failure) parts.push(t('vault.user.nothing'));
    return parts.join(' ');
  }

  /** @param {boolean} asked the button, not the Wi-Fi rule */
  async function send(asked) {
    if (asked) { message.textContent = t('vault.user.uploading'); error.replaceChildren(); }
    upload.disabled = true;
    try {
      await savingRepo;
      const report = await uploadNow(session);
      if (left) return;
      if (asked || report.written > 0) message.textContent = describe(report);
      if (report.failure) error.replaceChildren(...failureWords(report.failure, { repo: await cache.repository() }));
    } catch (failure) {
      console.warn('Waymark: vault upload failed:', failure);
      if (!left) error.replaceChildren(...failureWords(failure));
    } finally {
      upload.disabled = false;
      await showInfo();
    }
  }
  upload.addEventListener('click', () => void send(true));

  read.addEventListener('click', () => {
    error.replaceChildren();
    message.textContent = '';
    if (!('geolocation' in navigator)) { error.textContent = t('vault.user.readUnsupported'); return; }
    read.disabled = true;
    navigator.geolocation.getCurrentPosition(async (position) => {
      read.disabled = false;
      const record = recordFromPosition(position);
      const added = await cache.add([record]);
      message.textContent = added > 0
        ? t('vault.user.readDone', { latitude: record.latitude.toFixed(5), longitude: record.longitude.toFixed(5) })
        : t('vault.user.readSame');
      await showInfo();
    }, (failure) => {
      read.disabled = false;
      error.textContent = t(failure.code === failure.PERMISSION_DENIED ? 'vault.user.readDenied' : 'vault.user.readUnavailable');
    }, { enableHighAccuracy: true, timeout: 20_000, maximumAge: 0 });
  });

  clear.addEventListener('click', async () => {
    clearText.textContent = t('vault.user.clearConfirm', { count: await cache.count() });
    dialog.showModal();
    clearNo.focus();
  });
  clearNo.addEventListener('click', () => dialog.close());
  clearYes.addEventListener('click', async () => {
    clearYes.disabled = true;
    try {
      const cleared = await cache.clear();
      dialog.close();
      message.textContent = t('vault.user.cleared', { count: cleared });
      await showInfo();
    } finally {
      clearYes.disabled = false;
    }
  });

  logout.addEventListener('click', async () => {
    await signOut();
    announce(t('vault.user.loggedOut'));
    context.navigate('/vault');
  });

  /** The repo being saved: an upload tapped right after the field changed waits for it. */
  let savingRepo = Promise.resolve();
  repo.addEventListener('change', () => { savingRepo = saveRepo(); });
  async function saveRepo() {
    const value = repo.value.trim();
    if (!isRepositoryName(value)) {
      repoError.textContent = t('vault.user.repoInvalid');
      repo.setAttribute('aria-invalid', 'true');
      return;
    }
    repoError.textContent = '';
    repo.removeAttribute('aria-invalid');
    repo.value = value;
    await cache.setRepository(value);
    message.textContent = t('vault.user.repoSaved', { repo: value });
  }

  const added = await importRecordedRoutes().catch((failure) => { console.warn('Waymark: routes not imported:', failure); return 0; });
  if (added > 0) message.textContent = t('vault.user.imported', { count: added });
  await showInfo();
  if (onWifi()) void send(false);
  return () => { left = true; if (dialog.open) dialog.close(); };
}
