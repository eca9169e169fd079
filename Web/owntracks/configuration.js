// What pairs the OwnTracks app with Waymark (DESIGN §3.13): the random encryption key OwnTracks
// seals its messages with, and the configuration link its QR code carries. OwnTracks imports
// `owntracks:///config?inline=` + Base64 of a `_type: configuration` message
// (owntracks.org/booklet/features/remoteconfig); the keys are written in one fixed order, the
// same as `waymark owntracks` writes them, so both make the same text for the same inputs.
// Nothing here touches the DOM.
import { toBase64 } from '../recorder/envelope.js';

/**
 * The key's characters: digits and letters without the ones a person mistakes for each other
 * when typing the key by hand (0 O o, 1 I l), 56 of them: 32 characters hold 185 bits.
 */
export const KEY_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz';
/** OwnTracks pads a key to 32 bytes; a longer one it cuts. */
export const KEY_LENGTH = 32;

/** A device's nonce, as a route's QR nonce (DESIGN §3.1). */
export const NONCE_PATTERN = /^[0-9A-Z]{12}$/;

/** @param {unknown} text */
export function isDeviceNonce(text) {
  return typeof text === 'string' && NONCE_PATTERN.test(text);
}

/**
 * A new encryption key: KEY_LENGTH characters of KEY_ALPHABET from the browser's secure
 * generator, each drawn without bias (a byte at or above the last whole multiple of the
 * alphabet's length is drawn again).
 * @param {(bytes: Uint8Array) => Uint8Array} [random] crypto.getRandomValues (tests give their own)
 */
export function makeEncryptionKey(random = (bytes) => crypto.getRandomValues(bytes)) {
  const limit = 256 - (256 % KEY_ALPHABET.length);
  let key = '';
  while (key.length < KEY_LENGTH) {
    for (const byte of random(new Uint8Array(48))) {
      if (byte < limit && key.length < KEY_LENGTH) key += KEY_ALPHABET[byte % KEY_ALPHABET.length];
    }
  }
  return key;
}

/**
 * The configuration OwnTracks imports: HTTP mode (3) posting to `url` with Basic auth, the key,
 * the device called `waymark` (tracker id WM), significant-changes monitoring (2) with a fix at
 * least every 10 s when moving, and neither remote commands nor remote configuration.
 * @param {{url: string, username: string, password: string, key: string}} parts
 *   `url` the full address of POST /api/v1/owntracks
 * @returns {{json: string, link: string}} the JSON, and the `owntracks:///config?inline=` link
 *   with the standard Base64 (with padding) of its UTF-8
 */
export function owntracksConfiguration({ url, username, password, key }) {
  const json = JSON.stringify({
    _type: 'configuration',
    mode: 3,
    url,
    auth: true,
    username,
    password,
    deviceId: 'waymark',
    tid: 'WM',
    encryptionKey: key,
    monitoring: 2,
    locatorInterval: 10,
    locatorDisplacement: 0,
    cmd: false,
    remoteConfiguration: false,
  });
  // `+` as %2B: OwnTracks for Android decodes the query as a form, where a bare + is a space.
  return { json, link: `owntracks:///config?inline=${toBase64(new TextEncoder().encode(json)).replaceAll('+', '%2B')}` };
}
