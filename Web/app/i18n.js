// Every string a person reads goes through this module: the messages of Web/i18n/<lang>.json,
// the language chosen from the browser (or the switch, remembered in localStorage), and
// numbers formatted with Intl. The pure parts (pickLanguage, format) are unit-tested in node.

/** @typedef {'en' | 'de'} Language */
/** @typedef {Record<string, string>} Messages */
/** @typedef {Record<string, string | number>} Params */

/** @type {readonly Language[]} */
export const LANGUAGES = ['en', 'de'];
const STORAGE_KEY = 'waymark.language';

/** @type {Language} */
let current = 'en';
/** @type {Messages} */
let messages = {};
/** @type {Set<(language: Language) => void>} */
const listeners = new Set();

/**
 * The language to use: the remembered choice if there is one, else the first of the browser's
 * languages that Waymark speaks, else English.
 * @param {readonly string[]} browserLanguages e.g. navigator.languages
 * @param {string | null} remembered the value stored by the switch
 * @returns {Language}
 */
export function pickLanguage(browserLanguages, remembered) {
  const known = /** @param {string | null | undefined} tag */ (tag) =>
    LANGUAGES.find((language) => tag != null && tag.toLowerCase().split('-')[0] === language);
  const chosen = known(remembered);
  if (chosen) return chosen;
  for (const tag of browserLanguages) {
    const language = known(tag);
    if (language) return language;
  }
  return 'en';
}

/**
 * Fills `{name}` placeholders; numbers are formatted for the language with Intl.NumberFormat.
 * A placeholder without a value stays as it is, so a missing parameter is visible, not silent.
 * @param {string} text
 * @param {Params} [params]
 * @param {string} [language]
 */
export function format(text, params = {}, language = current) {
  const numbers = new Intl.NumberFormat(language);
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? numbers.format(value) : value;
  });
}

/**
 * The message for `key` in the current language, with its parameters filled in.
 * An unknown key shows itself (and a unit test makes sure none is used).
 * @param {string} key
 * @param {Params} [params]
 */
export function t(key, params) {
  const text = messages[key];
  return format(text === undefined ? key : text, params, current);
}

/** @returns {Language} */
export function language() {
  return current;
}

/**
 * Uses these messages for `language` (what load does after fetching; tests call it directly).
 * @param {Language} language
 * @param {Messages} table
 */
export function useMessages(language, table) {
  current = language;
  messages = table;
}

/**
 * Fetches the messages of `language` and makes it current; tells every listener.
 * @param {Language} language
 */
export async function load(language) {
  const response = await fetch(`/i18n/${language}.json`);
  if (!response.ok) throw new Error(`/i18n/${language}.json: ${response.status}`);
  useMessages(language, await response.json());
  document.documentElement.lang = language;
  for (const listener of listeners) listener(language);
}

/** The language this browser should start with. */
export function initialLanguage() {
  let remembered = null;
  try { remembered = localStorage.getItem(STORAGE_KEY); } catch { /* storage may be off */ }
  return pickLanguage(navigator.languages ?? [navigator.language], remembered);
}

/**
 * The switch: loads `language` and remembers the choice for the next visit.
 * @param {Language} language
 */
export async function switchTo(language) {
  try { localStorage.setItem(STORAGE_KEY, language); } catch { /* not remembered, still switched */ }
  await load(language);
}

/**
 * Calls `listener` after every language change.
 * @param {(language: Language) => void} listener
 * @returns {() => void} removes the listener
 */
export function onChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Translates the static text of `root`: the key in an element's data-i18n attribute sets its
 * text, the one in data-i18n-label its aria-label.
 * @param {ParentNode} root
 */
export function apply(root) {
  for (const element of root.querySelectorAll('[data-i18n]')) {
    element.textContent = t(element.getAttribute('data-i18n') ?? '');
  }
  for (const element of root.querySelectorAll('[data-i18n-label]')) {
    element.setAttribute('aria-label', t(element.getAttribute('data-i18n-label') ?? ''));
  }
}

/**
 * A date and time as this language writes it.
 * @param {string | Date} when an instant as the API writes it (ISO 8601), or a Date
 * @param {string} [lang]
 */
export function formatDate(when, lang = current) {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(when));
}
