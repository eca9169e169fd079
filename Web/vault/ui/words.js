// Messages whose placeholders are elements (a link, a button, a command in <code>): the text
// around them stays the translation's, the elements are put where the placeholders are.
import { t } from '../../app/i18n.js';
import { el } from '../../app/dom.js';
import { VaultError } from '../client.js';

/**
 * The nodes of message `key` with `{name}` replaced by `parts[name]` (a node or a string).
 * @param {string} key
 * @param {Record<string, Node | string>} parts
 * @returns {Array<Node | string>}
 */
export function words(key, parts) {
  const text = t(key);
  /** @type {Array<Node | string>} */
  const nodes = [];
  let at = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    const part = parts[match[1]];
    if (part === undefined) continue;
    nodes.push(text.slice(at, match.index));
    nodes.push(part);
    at = (match.index ?? 0) + match[0].length;
  }
  nodes.push(text.slice(at));
  return nodes.filter((node) => node !== '');
}

/**
 * A link that opens in the phone's browser, not in the app.
 * @param {string} href
 * @param {string} text
 */
export function outside(href, text) {
  return el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, text);
}

/** The seed's footer: © 2015-2018 OwnYourData.eu. */
export function copyright() {
  return el('p', { class: 'vault-copyright' }, ...words('vault.copyright', { link: outside('https://www.ownyourdata.eu', 'OwnYourData.eu') }));
}

/**
 * The words for a failed call to the vault.
 * @param {unknown} error
 * @param {{vault?: string, repo?: string}} [context]
 * @returns {Array<Node | string>}
 */
export function failureWords(error, context = {}) {
  if (!(error instanceof VaultError)) return [t('vault.error.badAnswer')];
  switch (error.kind) {
    case 'unreachable': return [t('vault.error.unreachable')];
    case 'invalidCredentials': return [t('vault.error.credentials')];
    case 'blocked':
      return words('vault.error.blocked', { origin: location.origin, command: el('code', {}, 'waymark vault push') });
    case 'unauthorized': return [t('vault.error.relogin')];
    case 'forbidden': return [t('vault.error.forbidden', { repo: context.repo ?? '' })];
    case 'invalidURL': return [t('vault.error.url')];
    default: return [t('vault.error.badAnswer')];
  }
}

/**
 * The words when the server's CSP keeps the page from `vault`.
 * @param {string} vault
 */
export function notAllowedWords(vault) {
  return words('vault.error.notAllowed', { vault, command: el('code', {}, `waymark serve --vault-url ${vault}`) });
}
