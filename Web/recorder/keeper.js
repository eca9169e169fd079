// What the recorder keeps on the phone besides its routes: the settings (SSN-01), the
// passphrase with a PBKDF2-SHA256 verifier (SCO-09: the first Continue keeps it; SCO-10: a
// later one must match; SCO-12: Reset clears it) and the device key the route API is signed
// with, made with POST /api/v1/keys when the user is signed in (DESIGN §3.5). Storage and the
// server are injected (createKeeper); the exported functions use IndexedDB and the app's API.
// Nothing here touches the DOM.
import { call, ApiError } from '../app/api.js';
import { currentUser } from '../app/session.js';
import { records } from '../app/store.js';
import { makeVerifier, checkVerifier, PBKDF2_ITERATIONS } from './envelope.js';

/**
 * @typedef {{accuracyThreshold: number, alertDelay: number, qrPeriod: number, wifiOnly: boolean,
 *   units: 'metric' | 'imperial'}} Settings
 * @typedef {{key: string, secret: string}} DeviceKey
 * @typedef {{id: string, [field: string]: any}} KeptRecord
 * @typedef {{get: (id: string) => Promise<KeptRecord | null>, put: (record: KeptRecord) => Promise<void>,
 *   delete: (id: string) => Promise<void>}} KeeperStorage
 */

/** The settings of a recorder that was never set (as RecorderSettings.swift and the contract). */
export const defaultSettings = Object.freeze({ accuracyThreshold: 100, alertDelay: 30, qrPeriod: 5, wifiOnly: false, units: /** @type {'metric' | 'imperial'} */ ('metric') });

/** A setting out of its range; `field` names it. */
export class SettingsError extends Error {
  /** @param {keyof Settings} field @param {string} reason */
  constructor(field, reason) {
    super(`${field} ${reason}`);
    this.name = 'SettingsError';
    this.field = field;
    this.reason = reason;
  }
}

/**
 * Checks settings: accuracy threshold and alert delay positive, the QR period 1 (precise sync)
 * or 5 to 30 whole seconds (SRR-13), units metric or imperial.
 * @param {Partial<Settings>} settings missing ones take the defaults
 * @returns {Settings}
 * @throws {SettingsError}
 */
export function validSettings(settings) {
  const merged = { ...defaultSettings, ...settings };
  const { accuracyThreshold, alertDelay, qrPeriod, wifiOnly, units } = merged;
  if (typeof accuracyThreshold !== 'number' || !Number.isFinite(accuracyThreshold) || accuracyThreshold <= 0) throw new SettingsError('accuracyThreshold', 'must be a positive number of metres');
  if (typeof alertDelay !== 'number' || !Number.isFinite(alertDelay) || alertDelay <= 0) throw new SettingsError('alertDelay', 'must be a positive number of seconds');
  if (!Number.isInteger(qrPeriod) || !(qrPeriod === 1 || (qrPeriod >= 5 && qrPeriod <= 30))) throw new SettingsError('qrPeriod', 'must be 1 or 5 to 30 whole seconds');
  if (typeof wifiOnly !== 'boolean') throw new SettingsError('wifiOnly', 'must be true or false');
  if (units !== 'metric' && units !== 'imperial') throw new SettingsError('units', 'must be metric or imperial');
  return { accuracyThreshold, alertDelay, qrPeriod, wifiOnly, units };
}

/**
 * The device's name on the account's Devices list: "Waymark web recorder (Firefox on Android)".
 * @param {string} userAgent
 */
export function deviceName(userAgent) {
  const ua = String(userAgent ?? '');
  const browser = /Edg\//.test(ua) ? 'Edge' : /OPR\//.test(ua) ? 'Opera' : /SamsungBrowser\//.test(ua) ? 'Samsung Internet'
    : /Firefox\/|FxiOS\//.test(ua) ? 'Firefox' : /Chrome\/|CriOS\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'browser';
  const system = /Android/.test(ua) ? 'Android' : /iPhone|iPad|iPod/.test(ua) ? 'iOS' : /Windows/.test(ua) ? 'Windows'
    : /Mac OS X|Macintosh/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : '';
  return `Waymark web recorder (${system ? `${browser} on ${system}` : browser})`;
}

/**
 * @param {{storage: KeeperStorage, createKey?: (name: string) => Promise<any>,
 *   signedInUser?: () => Promise<{id: string} | null>, userAgent?: string, verifierIterations?: number}} options
 *   `createKey` is POST /api/v1/keys; `signedInUser` null when nobody is signed in (or offline)
 */
export function createKeeper({
  storage, createKey = (name) => call('createDeviceKey', { body: { name } }), signedInUser = () => currentUser(),
  userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent, verifierIterations = PBKDF2_ITERATIONS,
}) {
  /** @type {Promise<DeviceKey | null> | null} */
  let making = null;

  /** @returns {Promise<Settings>} */
  async function loadSettings() {
    const kept = await storage.get('settings');
    try {
      return validSettings(kept?.settings ?? {});
    } catch {
      return { ...defaultSettings };
    }
  }

  /**
   * @param {Partial<Settings>} settings merged into the kept ones
   * @returns {Promise<Settings>} what is kept now
   * @throws {SettingsError} nothing is kept then
   */
  async function saveSettings(settings) {
    const merged = validSettings({ ...(await loadSettings()), ...settings });
    await storage.put({ id: 'settings', settings: merged });
    return merged;
  }

  /** @returns {Promise<'none' | 'kept'>} */
  async function passphraseState() {
    return (await storage.get('passphrase'))?.verifier ? 'kept' : 'none';
  }

  /**
   * Continue (SCO-09/10): keeps the first passphrase; a later one must match the kept one.
   * @param {string} passphrase
   * @returns {Promise<'saved' | 'matched' | 'mismatch'>}
   */
  async function adoptPassphrase(passphrase) {
    const kept = await storage.get('passphrase');
    if (kept?.verifier) {
      if (!(await checkVerifier(kept.verifier, passphrase))) return 'mismatch';
      await storage.put({ ...kept, passphrase });
      return 'matched';
    }
    await storage.put({ id: 'passphrase', passphrase, verifier: await makeVerifier(passphrase, { iterations: verifierIterations }) });
    return 'saved';
  }

  /** Reset (SCO-12): forgets the passphrase and its verifier. */
  async function resetPassphrase() {
    await storage.delete('passphrase');
  }

  /** @returns {Promise<string | null>} the kept passphrase (SCO-09 keeps it on the phone) */
  async function passphrase() {
    const kept = await storage.get('passphrase');
    return typeof kept?.passphrase === 'string' ? kept.passphrase : null;
  }

  /** @returns {Promise<(DeviceKey & {userId: string | null}) | null>} */
  async function keptKey() {
    const kept = await storage.get('deviceKey');
    return kept && typeof kept.key === 'string' && typeof kept.secret === 'string' ? { key: kept.key, secret: kept.secret, userId: kept.userId ?? null } : null;
  }

  /** @returns {Promise<DeviceKey | null>} the kept device key, or null */
  async function deviceKey() {
    const kept = await keptKey();
    return kept ? { key: kept.key, secret: kept.secret } : null;
  }

  /**
   * The device key, made when none is kept (or the kept one is another account's) and the user
   * is signed in; null when nobody is signed in and none is kept, or the server cannot be asked.
   * @returns {Promise<DeviceKey | null>}
   */
  function ensureDeviceKey() {
    if (making) return making;
    making = (async () => {
      const kept = await keptKey();
      let user = null;
      try { user = await signedInUser(); } catch { user = null; }
      if (kept && (!user || !kept.userId || kept.userId === user.id)) return { key: kept.key, secret: kept.secret };
      if (!user) return null;
      return makeKey(user.id);
    })().finally(() => { making = null; });
    return making;
  }

  /**
   * The server no longer knows the kept key (401 unknown_key): forget it and make a new one.
   * @returns {Promise<DeviceKey | null>}
   */
  async function renewDeviceKey() {
    await storage.delete('deviceKey');
    return ensureDeviceKey();
  }

  /** @param {string} userId */
  async function makeKey(userId) {
    let created;
    try {
      created = await createKey(deviceName(userAgent));
    } catch (error) {
      if (error instanceof ApiError) return null; // offline or signed out meanwhile: asked again later
      throw error;
    }
    if (!created || typeof created.key !== 'string' || typeof created.secret !== 'string') return null;
    await storage.put({ id: 'deviceKey', key: created.key, secret: created.secret, name: created.name ?? null, userId });
    return { key: created.key, secret: created.secret };
  }

  return { loadSettings, saveSettings, passphraseState, adoptPassphrase, resetPassphrase, passphrase, deviceKey, ensureDeviceKey, renewDeviceKey };
}

/** @typedef {ReturnType<typeof createKeeper>} Keeper */

/** @type {Keeper | null} */
let shared = null;

/** The app's keeper, over IndexedDB's `keeper` store. */
export function keeper() {
  if (!shared) shared = createKeeper({ storage: records('keeper') });
  return shared;
}

export const loadSettings = () => keeper().loadSettings();
/** @param {Partial<Settings>} settings */
export const saveSettings = (settings) => keeper().saveSettings(settings);
export const passphraseState = () => keeper().passphraseState();
/** @param {string} text */
export const adoptPassphrase = (text) => keeper().adoptPassphrase(text);
export const resetPassphrase = () => keeper().resetPassphrase();
export const passphrase = () => keeper().passphrase();
export const deviceKey = () => keeper().deviceKey();
export const ensureDeviceKey = () => keeper().ensureDeviceKey();
export const renewDeviceKey = () => keeper().renewDeviceKey();
