// The two languages: both files have the same keys and placeholders, every key the app uses
// exists, and parameters are filled in the way each language writes numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEB, webFiles } from './helpers.mjs';
import { pickLanguage, format, t, useMessages, formatDate, LANGUAGES } from '../../../Web/app/i18n.js';
import { KNOWN_ERRORS } from '../../../Web/app/errors.js';
import { ROLES } from '../../../Web/app/session.js';

const read = (language) => JSON.parse(readFileSync(join(WEB, 'i18n', `${language}.json`), 'utf8'));
const en = read('en');
const de = read('de');
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every language the switch offers has a messages file', () => {
  assert.deepEqual([...LANGUAGES].sort(), ['de', 'en']);
});

test('en.json and de.json have the same keys', () => {
  const onlyEn = Object.keys(en).filter((key) => !(key in de));
  const onlyDe = Object.keys(de).filter((key) => !(key in en));
  assert.deepEqual(onlyEn, [], `missing in de.json: ${onlyEn.join(', ')}`);
  assert.deepEqual(onlyDe, [], `missing in en.json: ${onlyDe.join(', ')}`);
});

test('every message is a non-empty string with the same placeholders in both languages', () => {
  for (const [key, text] of Object.entries(en)) {
    assert.equal(typeof text, 'string', key);
    assert.notEqual(text.trim(), '', `en ${key} is empty`);
    assert.notEqual(de[key].trim(), '', `de ${key} is empty`);
    assert.deepEqual(placeholders(de[key]), placeholders(text), `placeholders of ${key}`);
  }
});

/** The keys that Web/'s HTML and JavaScript name literally. */
function usedKeys() {
  const namespaces = new Set(Object.keys(en).map((key) => key.split('.')[0]));
  const used = new Map();
  const note = (key, file) => { if (!used.has(key)) used.set(key, file); };
  for (const file of webFiles()) {
    if (!/\.(html|js)$/.test(file)) continue;
    const text = readFileSync(join(WEB, file), 'utf8');
    // data-i18n="key" and data-i18n-label="key"
    for (const m of text.matchAll(/data-i18n(?:-label)?="([^"]+)"/g)) note(m[1], file);
    // t('key' …) and i18n.t('key' …)
    for (const m of text.matchAll(/\bt\(\s*(['"])([^'"]+)\1/g)) note(m[2], file);
    // Keys handed to helpers (labelKey: 'field.username', form(id, 'account.signIn.submit'), titleKey = '…'):
    // any quoted literal that looks like a key of one of the files' namespaces.
    for (const m of text.matchAll(/(['"])([a-zA-Z]+(?:\.[a-zA-Z_]+)+)\1/g)) {
      const key = m[2];
      if (namespaces.has(key.split('.')[0]) && !/\.(js|json|css|png|html|webmanifest)$/.test(key)) note(key, file);
    }
  }
  for (const code of KNOWN_ERRORS) note(`error.${code}`, '/app/errors.js');
  for (const role of ROLES) note(`role.${role}`, '/app/session.js');
  return used;
}

test('German speaks to the user as du, never Sie or Ihr (seed 002’s own voice)', () => {
  // "Sie" may begin a sentence as "it" or "they" ("Sie bleibt auf diesem Telefon"); inside a
  // sentence, and "Ihr"/"Ihnen" anywhere, it is the formal "you".
  const formal = /(?<![.!?:;–]\s|^)\bSie\b|\b(?:Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|Ihnen)\b/u;
  const offending = Object.entries(de).filter(([, text]) => formal.test(text)).map(([key, text]) => `${key}: ${text}`);
  assert.deepEqual(offending, []);
  assert.ok(formal.test('Melden Sie sich an.') && formal.test('Ihre Route') && formal.test('Sie haben noch keine. Tippen Sie hier.'), 'the check finds the formal voice');
  assert.ok(!formal.test('Sie bleibt auf diesem Telefon; ohne sie kann niemand deine Routen lesen.'), 'a sentence that begins with "it" is not formal');
});

test('every key used in Web/ exists in both languages', () => {
  const used = usedKeys();
  assert.ok(used.size > 40, `found only ${used.size} keys: is the scan broken?`);
  for (const must of ['nav.home', 'account.signIn.submit', 'error.wrong_credentials', 'page.account.title', 'field.username']) {
    assert.ok(used.has(must), `the scan misses ${must}`);
  }
  const missing = [...used].filter(([key]) => !(key in en) || !(key in de)).map(([key, file]) => `${key} (${file})`);
  assert.deepEqual(missing, []);
});

test('every key in the files is used somewhere (no dead translations)', () => {
  const used = usedKeys();
  assert.deepEqual(Object.keys(en).filter((key) => !used.has(key)), []);
});

test('the language comes from the remembered choice, else the browser, else English', () => {
  assert.equal(pickLanguage(['de-DE', 'en'], null), 'de');
  assert.equal(pickLanguage(['de-AT'], null), 'de');
  assert.equal(pickLanguage(['fr-FR', 'de-CH', 'en'], null), 'de');
  assert.equal(pickLanguage(['en-US'], null), 'en');
  assert.equal(pickLanguage(['fr-FR', 'it'], null), 'en');
  assert.equal(pickLanguage([], null), 'en');
  assert.equal(pickLanguage(['de-DE'], 'en'), 'en');
  assert.equal(pickLanguage(['en-US'], 'de'), 'de');
  assert.equal(pickLanguage(['en-US'], 'xx'), 'en', 'an unknown remembered value is ignored');
});

test('parameters are filled in, numbers in the language’s own format', () => {
  assert.equal(format('Wait {minutes} min', { minutes: 1234.5 }, 'en'), 'Wait 1,234.5 min');
  assert.equal(format('Bitte {minutes} Min.', { minutes: 1234.5 }, 'de'), 'Bitte 1.234,5 Min.');
  assert.equal(format('Hi {name}!', { name: 'Alice' }, 'en'), 'Hi Alice!');
  assert.equal(format('Hi {name} and {other}', { name: 'A' }, 'en'), 'Hi A and {other}', 'a missing parameter stays visible');
  assert.equal(format('{a}{a}', { a: 'x' }, 'en'), 'xx');
});

test('t uses the current messages; an unknown key shows itself', () => {
  useMessages('de', de);
  assert.equal(t('error.wrong_credentials'), 'Benutzername oder Passwort ist falsch.');
  assert.equal(t('status.signedIn', { name: 'Alice' }), 'Angemeldet als Alice.');
  assert.equal(t('error.too_many_attempts', { minutes: 15 }), de['error.too_many_attempts'].replace('{minutes}', '15'));
  assert.equal(t('no.such.key'), 'no.such.key');
  useMessages('en', en);
  assert.equal(t('status.signedIn', { name: 'Alice' }), 'Signed in as Alice.');
});

test('dates are written the way each language writes them', () => {
  // As the API writes an instant, and as a Date.
  assert.match(formatDate('2026-11-24T12:00:00.000Z', 'en'), /Nov 24, 2026/);
  assert.match(formatDate(new Date(Date.UTC(2026, 10, 24, 12, 0)), 'de'), /24\.11\.2026/);
});
