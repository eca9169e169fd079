// The account's OwnTracks devices as the pages use them (DESIGN §3.13): pairing one (a nonce
// made as the recorder makes a route's, a random key sealed under the passphrase, the device
// created on the server, and OwnTracks' configuration), listing and revoking them, and reading
// back what a device sent in a time span: found by its lookup key with requests signed by this
// browser's device key (as the route API is asked), its key opened with the passphrase, its
// messages opened and thinned to one fix per interval. The pages put the words to the outcomes.
import { call, callSigned, ApiError } from '../app/api.js';
import { operations } from '../app/contract.js';
import { makeNonce } from '../recorder/engine.js';
import { sealOwnTracksKey, openOwnTracksKey, lookupKey } from '../recorder/envelope.js';
import { ensureDeviceKey, renewDeviceKey } from '../recorder/keeper.js';
import { makeEncryptionKey, owntracksConfiguration } from './configuration.js';
import { readFixes, oneFixPerInterval } from './messages.js';

/**
 * @typedef {import('../app/contract.js').OwnTracksDevice} OwnTracksDevice
 * @typedef {import('../app/contract.js').NewOwnTracksDevice} NewOwnTracksDevice
 * @typedef {import('./messages.js').OwnTracksFix} OwnTracksFix
 * @typedef {import('./messages.js').SecretboxNacl} SecretboxNacl
 * @typedef {{device: NewOwnTracksDevice, key: string, configuration: {json: string, link: string}}} Pairing
 */

/** Why a device's fixes could not be read; the pages have words for each code. */
export class OwnTracksError extends Error {
  /** @param {'noDeviceKey' | 'unknownDevice'} code */
  constructor(code) {
    super(code);
    this.name = 'OwnTracksError';
    this.code = code;
  }
}

/** How long before the span a message may have arrived (a phone's clock a little ahead), in seconds. */
export const ARRIVED_BEFORE = 3600;
/** How long after the span a message of it may arrive (OwnTracks queues while offline), in seconds. */
export const ARRIVED_AFTER = 7 * 86400;

/**
 * Pairs a new OwnTracks device with the signed-in account. A nonce another device has already
 * (409, unlikely with 62 random bits) is made again once.
 * @param {{name: string, passphrase: string, origin?: string}} options `origin` the address
 *   OwnTracks posts to (default: this page's)
 * @returns {Promise<Pairing>}
 * @throws {ApiError}
 */
export async function pairOwnTracks({ name, passphrase, origin = location.origin }) {
  const key = makeEncryptionKey();
  for (let attempt = 0; ; attempt++) {
    const nonce = makeNonce();
    // The browser seals with PBKDF2 (no scrypt in WebCrypto), which the contract's KDF allows as it is.
    const sealedKey = /** @type {import('../app/contract.js').SealedKey} */ (/** @type {unknown} */ (await sealOwnTracksKey(key, passphrase, nonce)));
    try {
      const device = await call('createOwnTracksDevice', { body: { name, nonce, sealedKey } });
      const url = `${origin}${operations.publishOwnTracks.path}`;
      return { device, key, configuration: owntracksConfiguration({ url, username: device.username, password: device.secret, key }) };
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'conflict') || attempt > 0) throw error;
    }
  }
}

/**
 * The account's devices that are not revoked, oldest first.
 * @returns {Promise<OwnTracksDevice[]>}
 */
export async function listOwnTracksDevices() {
  return (await call('listOwnTracksDevices', { cache: 'no-cache' })).items;
}

/** @param {string} id */
export async function revokeOwnTracksDevice(id) {
  await call('revokeOwnTracksDevice', { path: { device_id: id } });
}

/**
 * Calls `request` with this browser's device key; when the server no longer knows the key,
 * makes a new one and calls again once.
 * @template T
 * @param {(key: {key: string, secret: string}) => Promise<T>} request
 * @returns {Promise<T>}
 */
async function withDeviceKey(request) {
  const key = await ensureDeviceKey();
  if (!key) throw new OwnTracksError('noDeviceKey');
  try {
    return await request(key);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401 && error.code === 'unknown_key')) throw error;
    const renewed = await renewDeviceKey();
    if (!renewed) throw error;
    return request(renewed);
  }
}

/** @param {number} seconds @returns {string} RFC 3339 in UTC with milliseconds */
const instant = (seconds) => new Date(seconds * 1000).toISOString();

/**
 * One fix per interval of what the device with `nonce` recorded in [from, to).
 * @param {{nonce: string, passphrase: string, from: number, to: number, interval: number, nacl: SecretboxNacl,
 *   pageSize?: number}} options  Unix seconds; `interval` seconds
 * @returns {Promise<{fixes: OwnTracksFix[], messages: number, located: number, unreadable: number}>}
 *   `messages` read, `located` of them fixes inside the span, `unreadable` not opened by the key
 * @throws {OwnTracksError | ApiError | import('../recorder/envelope.js').EnvelopeError} `cannotOpen`: another passphrase
 */
export async function fixesOfDevice({ nonce, passphrase, from, to, interval, nacl, pageSize = 1000 }) {
  const lookup = await lookupKey(nonce);
  let found;
  try {
    found = await withDeviceKey((key) => callSigned('findOwnTracksDevice', key, { path: { lookup } }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new OwnTracksError('unknownDevice');
    throw error;
  }
  const key = await openOwnTracksKey(/** @type {any} */ (found.sealedKey), passphrase, nonce);
  /** @type {Array<{data: string}>} */
  const items = [];
  /** @type {string | undefined} */
  let cursor;
  do {
    const query = { from: instant(from - ARRIVED_BEFORE), to: instant(to + ARRIVED_AFTER), limit: pageSize, ...(cursor ? { cursor } : {}) };
    const page = await withDeviceKey((signing) => callSigned('listOwnTracksMessages', signing, { path: { lookup }, query }));
    items.push(...page.items);
    cursor = page.next ?? undefined;
  } while (cursor);
  const { fixes, unreadable } = readFixes(nacl, items, key);
  const inSpan = fixes.filter((fix) => fix.time >= from && fix.time < to);
  return { fixes: oneFixPerInterval(inSpan, { from, to, interval }), messages: items.length, located: inSpan.length, unreadable };
}
