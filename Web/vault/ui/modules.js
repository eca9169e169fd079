// The seed's Module list: each module's image, its title on one line and its description on
// three, each cut with an ellipsis (CSS); a tap opens the module in the app (/vault/modules/:id).
// An empty list says "no modules available" with a link that opens the vault.
import { t } from '../../app/i18n.js';
import { el } from '../../app/dom.js';
import { loadModules, moduleId } from '../connection.js';
import { words, outside, failureWords } from './words.js';

/** @typedef {import('../cache.js').VaultSession} VaultSession */

/**
 * @param {HTMLElement} root
 * @param {VaultSession} session
 */
export async function moduleList(root, session) {
  const name = session.token?.username || (session.credentials.kind === 'password' ? session.credentials.email : session.credentials.key);
  const list = el('ul', { class: 'vault-modules', 'aria-busy': 'true' });
  const status = el('p', { class: 'hint vault-modules-status', 'aria-live': 'polite' }, t('vault.modules.loading'));
  const error = el('p', { class: 'form-error', role: 'alert' });
  root.replaceChildren(el('div', { class: 'vault-page vault-module-list' },
    el('div', { class: 'vault-bar' },
      el('h1', { class: 'vault-bar-title' }, t('vault.modules.heading')),
      el('a', { class: 'vault-user-link', href: '/vault/user', 'aria-label': t('vault.modules.userLink', { name }) },
        el('span', { class: 'vault-user-name' }, name))),
    status, error, list));

  try {
    const modules = await loadModules(session);
    status.textContent = '';
    if (modules.length === 0) {
      list.replaceWith(el('div', { class: 'vault-empty' },
        el('p', { class: 'vault-empty-title' }, t('vault.modules.empty')),
        el('p', {}, ...words('vault.modules.connect', { open: outside(session.vault, t('vault.modules.open')) }))));
      return;
    }
    list.replaceChildren(...modules.map((module, index) => el('li', {},
      el('a', { class: 'vault-module', href: `/vault/modules/${encodeURIComponent(moduleId(module, index))}` },
        module.picture
          ? el('img', { class: 'vault-module-picture', src: module.picture, alt: '', width: 56, height: 56 })
          : el('span', { class: 'vault-module-picture empty', 'aria-hidden': 'true' }),
        el('span', { class: 'vault-module-name' }, module.name),
        el('span', { class: 'vault-module-description' }, module.description)))));
  } catch (failure) {
    status.textContent = '';
    error.replaceChildren(...failureWords(failure));
  } finally {
    list.removeAttribute('aria-busy');
  }
}
