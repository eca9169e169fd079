// The rules a passphrase meets before it is used (SCO-07, SCO-08, SCO-10), shared with the Swift
// recorder through the rule book (Tests/Conformance/recorder/passphrase.json). Pure: no DOM.

// The characters Swift's `trimmingCharacters(in: .whitespacesAndNewlines)` removes (Foundation's
// set: tab to carriage return, space, NEL, no-break space, the Unicode spaces, zero width space,
// line and paragraph separators, ideographic space). Not String.prototype.trim, which also
// removes U+FEFF and keeps U+0085 and U+200B.
const EDGE_WHITESPACE = /^[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200B\u2028\u2029\u202F\u205F\u3000]*$/u;

/**
 * Whether Continue is enabled for `text` (SCO-07, SCO-08): anything but an empty passphrase or
 * one of whitespace only. The passphrase itself is used as typed, spaces included.
 * @param {string} text
 */
export function isUsablePassphrase(text) {
  return !EDGE_WHITESPACE.test(text);
}

/**
 * The form of the passphrase that keys are derived from (DESIGN §3.2): its Unicode NFC
 * normalisation, so that `é` typed as one character or as `e` and a combining accent is the
 * same passphrase (SCO-10).
 * @param {string} text
 */
export function normalizePassphrase(text) {
  return text.normalize('NFC');
}
