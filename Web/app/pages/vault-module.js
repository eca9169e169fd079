// `/vault/modules/:id` (seed 002, Module list 4 and 6): a module of the data vault in the app:
// a header with the module's title (tapping it goes back to the module list) and the module's
// page in a frame, opened at `[url]?PIA_URL=…&APP_KEY=…&APP_SECRET=…`; the same address can be
// opened in the phone's browser, for a module whose site will not be shown in a frame.
import { t } from '../i18n.js';
import { el } from '../dom.js';
import { vaultCache, findModule } from '../../vault/connection.js';
import { moduleLink } from '../../vault/client.js';
import { failureWords } from '../../vault/ui/words.js';

/** @typedef {import('../router.js').PageContext} PageContext */

export const titleKey = 'vault.module.title';

/**
 * @param {HTMLElement} root
 * @param {PageContext} context
 */
export async function render(root, context) {
  const session = await vaultCache().session();
  if (!session) { context.navigate('/vault'); return undefined; }
  const back = () => context.navigate('/vault');
  let module;
  try {
    module = await findModule(session, context.params.id);
  } catch (failure) {
    root.replaceChildren(el('div', { class: 'vault-page' },
      el('h1', {}, t('vault.module.title')),
      el('p', { class: 'form-error', role: 'alert' }, ...failureWords(failure)),
      el('p', {}, el('a', { href: '/vault' }, t('vault.module.toList')))));
    return undefined;
  }
  if (!module) {
    root.replaceChildren(el('div', { class: 'vault-page' },
      el('h1', {}, t('vault.module.title')),
      el('p', { class: 'warning' }, t('vault.module.missing')),
      el('p', {}, el('a', { href: '/vault' }, t('vault.module.toList')))));
    return undefined;
  }
  context.title(module.name);
  root.classList.add('vault-module-main');
  const link = moduleLink(module, session.vault);
  const outsideLabel = t('vault.module.outside', { name: module.name });
  root.replaceChildren(el('div', { class: 'vault-module-page' },
    el('div', { class: 'vault-module-bar' },
      el('h1', { class: 'vault-module-header' },
        el('button', { type: 'button', class: 'vault-module-back', 'aria-label': t('vault.module.back', { name: module.name }), onclick: back },
          el('span', { class: 'vault-back-arrow', 'aria-hidden': 'true' }, '‹'),
          el('span', { class: 'vault-module-title' }, module.name))),
      // A module whose site refuses to be shown in a frame still opens, in the phone's browser.
      el('a', { class: 'vault-module-outside', href: link, target: '_blank', rel: 'noopener noreferrer', 'aria-label': outsideLabel, title: outsideLabel },
        el('span', { 'aria-hidden': 'true' }, '↗'))),
    el('iframe', {
      class: 'vault-module-frame', src: link, title: module.name,
      referrerpolicy: 'no-referrer', allow: 'geolocation',
    })));
  return () => root.classList.remove('vault-module-main');
}
