// `/`: what Waymark does, and where to sign in (issue #12 turns it into "photos near me").
import { t } from '../i18n.js';
import { el } from '../dom.js';
import { currentUser } from '../session.js';

export const titleKey = 'page.home.title';

/** @param {HTMLElement} root */
export async function render(root) {
  const user = await currentUser();
  const next = user
    ? el('div', { class: 'card' },
        el('p', { class: 'signed-in' }, t('home.signedInAs', { name: user.displayName || user.username })),
        el('p', {}, el('a', { href: '/account' }, t('home.accountLink'))))
    : el('div', { class: 'card' },
        el('p', {}, t('home.signedOut')),
        el('p', { class: 'actions' },
          el('a', { class: 'button primary', href: '/account#sign-in' }, t('home.signIn')),
          el('a', { class: 'button', href: '/account#sign-up' }, t('home.signUp'))));
  root.replaceChildren(
    el('section', { class: 'intro' },
      el('h1', {}, t('home.heading')),
      el('p', { class: 'lead' }, t('home.intro'))),
    next,
  );
}
