// Messages whose placeholders are elements (a link, a button, a command in <code>): the text
// around them stays the translation's, the elements are put where the placeholders are.
import { t } from '../../app/i18n.js';
import { el } from '../../app/dom.js';
import { VaultError } from '../client.js';

/**
 * The nodes of message `key` with `{name}` replaced by `parts[name]` (a node or a string). An
 * element stays on one line with the characters that touch it, so "(help):" never breaks
 * after its parenthesis.
 * @param {string} key
 * @param {Record<string, Node | string>} parts
 * @returns {Array<Node | string>}
 */
export function words(key, parts) {
  const text = t(key);
  /** @type {Array<Node | string>} */
  const nodes = [];
  let at = 0;
  /** @type {HTMLElement | null} the element just placed, with the characters before it */
  let open = null;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    const part = parts[match[1]];
    if (part === undefined) continue;
    let before = text.slice(at, match.index);
    if (open) {
      const glued = /^\S*/.exec(before)?.[0] ?? '';
      if (glued) open.append(glued);
      before = before.slice(glued.length);
      open = null;
    }
    if (typeof part === 'string') {
      nodes.push(before, part);
    } else {
      const glued = /\S*$/.exec(before)?.[0] ?? '';
      nodes.push(before.slice(0, before.length - glued.length));
      open = el('span', { class: 'nowrap' }, glued || null, part);
      nodes.push(open);
    }
    at = (match.index ?? 0) + match[0].length;
  }
  let rest = text.slice(at);
  if (open) {
    const glued = /^\S*/.exec(rest)?.[0] ?? '';
    if (glued) open.append(glued);
    rest = rest.slice(glued.length);
  }
  nodes.push(rest);
  // A span that glued nothing is not needed.
  return nodes.filter((node) => node !== '').map((node) => (node instanceof HTMLElement && node.classList.contains('nowrap')
    && node.childNodes.length === 1 && node.firstChild ? node.firstChild : node));
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
