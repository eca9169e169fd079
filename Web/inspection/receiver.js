// An external GNSS receiver on a serial port (Web Serial: Chrome, Edge and Opera on computers and
// Android; not Firefox or Safari), the browser's counterpart of the seed's external Bluetooth GPS
// (issue #15 point 7). While the port is open, every inspection page gets its positions from it
// through fixes.js's useExternalReceiver; when it closes or fails, they go back to the phone's
// own location service and the settings page says why.
//
// Two parts:
// - ReceiverReader (pure, tested with node): byte chunks as the port delivers them, split
//   anywhere, → Fix objects, read by Web/inspection/nmea.js (the Swift reader's rules). Only valid
//   fixes that carry an HDOP become Fixes (accuracy = HDOP × METRES_PER_HDOP, as Swift's
//   DilutionOfPrecision); a position without one is counted and shown, but never used, because
//   the camera's shutter needs an accuracy. It also counts what arrived, so the page can tell
//   "no data", "data but no NMEA (wrong baud rate?)", "NMEA but no fix yet" and "receiving".
// - The Web Serial wiring (connectReceiver, disconnectReceiver, resumeReceiver): opens the port
//   the user picks at the chosen baud rate, reads until it is closed or lost, and keeps one
//   ReceiverState that the pages show. A receiver left connected is opened again after a reload
//   (the browser keeps the permission), as the seed's receiver setting "is saved"; one the user
//   disconnected is not.
import { NmeaStreamParser } from './nmea.js';
import { useExternalReceiver, externalReceiver } from './fixes.js';

/** @typedef {import('./fixes.js').Fix} Fix */
/** @typedef {import('./fixes.js').FixListener} FixListener */
/** @typedef {import('./fixes.js').Receiver} Receiver */
/** @typedef {import('./nmea.js').NmeaFix} NmeaFix */
/** @typedef {import('./nmea.js').NmeaEvent} NmeaEvent */

/** The rates NMEA receivers use: 4800 is NMEA 0183's own, the others are common settings. */
export const BAUD_RATES = Object.freeze([4800, 9600, 38400, 115200]);
export const DEFAULT_BAUD_RATE = 4800;
/** Garbage lines without a single NMEA sentence before the page suspects the baud rate. */
const GARBAGE_BEFORE_WARNING = 3;
/** A fix this recent is handed at once to a page that starts watching (a receiver sends 1 per second). */
const FRESH_MS = 3000;
const KEY = 'waymark.inspection.receiver';

/**
 * The Fix of an NMEA fix, or null when it has no accuracy (no HDOP from GGA, GNS or GSA).
 * @param {NmeaFix} fix
 * @returns {Fix | null}
 */
export function fixOf(fix) {
  if (fix.accuracy === null || !Number.isFinite(fix.accuracy)) return null;
  return { latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitude, accuracy: fix.accuracy, time: fix.time, source: 'receiver' };
}

/**
 * What a receiver has sent so far, counted for the status line.
 * @typedef {object} ReadingCounts
 * @property {number} bytes
 * @property {number} sentences well-formed NMEA sentences (positions, no-fix reports and unused ones)
 * @property {number} garbage lines that are no sentence, or whose checksum is wrong, or overlong
 * @property {number} fixes fixes handed on
 * @property {number} withoutAccuracy valid positions without an HDOP (not handed on)
 * @property {boolean} noFix the receiver's last word was "no fix"
 * @property {NmeaFix | null} lastPosition the last valid position, with or without HDOP
 */

/** Reads a receiver's byte stream into Fixes; push() takes chunks of any size. */
export class ReceiverReader {
  constructor() {
    this.parser = new NmeaStreamParser();
    /** @type {ReadingCounts} */
    this.counts = { bytes: 0, sentences: 0, garbage: 0, fixes: 0, withoutAccuracy: 0, noFix: false, lastPosition: null };
  }

  /**
   * @param {Uint8Array | string} chunk
   * @returns {Fix[]} the fixes this chunk completed
   */
  push(chunk) {
    this.counts.bytes += chunk.length;
    return this.take(this.parser.push(chunk));
  }

  /** The fixes still held (an epoch waiting for its second sentence); call when the stream ends. */
  finish() {
    return this.take(this.parser.finish());
  }

  /** @param {NmeaEvent[]} events */
  take(events) {
    /** @type {Fix[]} */
    const fixes = [];
    const counts = this.counts;
    for (const event of events) {
      if (event.type === 'fix') {
        counts.sentences += 1;
        counts.noFix = false;
        counts.lastPosition = event.fix;
        const fix = fixOf(event.fix);
        if (fix) { fixes.push(fix); counts.fixes += 1; } else counts.withoutAccuracy += 1;
      } else if (event.type === 'noFix') {
        counts.sentences += 1;
        counts.noFix = true;
      } else if (event.reason === 'unused' || event.reason === 'malformed') {
        counts.sentences += 1;
      } else if (event.reason !== 'comment') {
        counts.garbage += 1;
      }
    }
    return fixes;
  }
}

/**
 * The receiver as the pages show it.
 * @typedef {object} ReceiverState
 * @property {'closed' | 'opening' | 'open' | 'failed'} phase
 * @property {number} baudRate
 * @property {string} label the port's USB ids ("USB 1546:01A9"), or '' when the browser gives none
 * @property {ReadingCounts} counts
 * @property {number | null} lastFixAt when (this computer's clock, ms) the last fix arrived
 * @property {string | null} reason why the connection failed or could not be made (the browser's
 *   words); null with phase 'failed' when the port simply stopped (unplugged, switched off)
 * @property {boolean} cancelled the user closed the port chooser without picking one
 */

/**
 * The status line of a receiver: the key of its sentence and the parameters.
 * @param {ReceiverState} state
 * @returns {{key: string, params: Record<string, string | number>, level: 'ok' | 'wait' | 'problem'}}
 */
export function receiverSummary(state) {
  const counts = state.counts;
  switch (state.phase) {
    case 'opening': return { key: 'inspection.receiver.opening', params: { baud: state.baudRate }, level: 'wait' };
    case 'failed':
      return state.reason
        ? { key: 'inspection.receiver.failed', params: { reason: state.reason }, level: 'problem' }
        : { key: 'inspection.receiver.stopped', params: {}, level: 'problem' };
    case 'closed':
      return state.cancelled
        ? { key: 'inspection.receiver.cancelled', params: {}, level: 'wait' }
        : { key: 'inspection.receiver.closed', params: {}, level: 'wait' };
    default: break;
  }
  if (counts.bytes === 0) return { key: 'inspection.receiver.waiting', params: { baud: state.baudRate }, level: 'wait' };
  if (counts.sentences === 0) {
    return counts.garbage >= GARBAGE_BEFORE_WARNING
      ? { key: 'inspection.receiver.noNmea', params: { baud: state.baudRate }, level: 'problem' }
      : { key: 'inspection.receiver.waiting', params: { baud: state.baudRate }, level: 'wait' };
  }
  if (counts.noFix || counts.lastPosition === null) return { key: 'inspection.receiver.noFix', params: {}, level: 'wait' };
  if (counts.fixes === 0) return { key: 'inspection.receiver.noAccuracy', params: {}, level: 'problem' };
  return { key: 'inspection.receiver.receiving', params: {}, level: 'ok' };
}

/**
 * A baud rate from storage or a form: one of BAUD_RATES, else the default.
 * @param {unknown} value
 */
export function normalizeBaudRate(value) {
  const rate = typeof value === 'string' ? Number(value) : value;
  return typeof rate === 'number' && BAUD_RATES.includes(rate) ? rate : DEFAULT_BAUD_RATE;
}

/**
 * "USB 1546:01A9" from a port's USB vendor and product ids; '' for a port without them
 * (a built-in serial port, a Bluetooth serial profile).
 * @param {{usbVendorId?: number, usbProductId?: number}} info
 */
export function portLabel(info) {
  const hex = (/** @type {number} */ id) => id.toString(16).toUpperCase().padStart(4, '0');
  if (typeof info.usbVendorId !== 'number') return '';
  return typeof info.usbProductId === 'number' ? `USB ${hex(info.usbVendorId)}:${hex(info.usbProductId)}` : `USB ${hex(info.usbVendorId)}`;
}

// ---- Web Serial ----

/**
 * The part of Web Serial this file uses (TypeScript's DOM types do not have it yet).
 * @typedef {object} SerialPortLike
 * @property {(options: {baudRate: number}) => Promise<void>} open
 * @property {() => Promise<void>} close
 * @property {ReadableStream<Uint8Array> | null} readable
 * @property {() => {usbVendorId?: number, usbProductId?: number}} [getInfo]
 */
/** @typedef {{requestPort: (options?: object) => Promise<SerialPortLike>, getPorts?: () => Promise<SerialPortLike[]>}} SerialLike */

/** @returns {SerialLike | null} navigator.serial, where the browser has it */
function serial() {
  const found = typeof navigator === 'undefined' ? undefined : /** @type {{serial?: SerialLike}} */ (navigator).serial;
  return found ?? null;
}

/** Whether this browser can talk to a serial port (Web Serial). */
export function serialAvailable() {
  return serial() !== null;
}

/** @returns {ReadingCounts} */
const noCounts = () => new ReceiverReader().counts;

/** @type {ReceiverState} */
let state = { phase: 'closed', baudRate: loadBaudRate(), label: '', counts: noCounts(), lastFixAt: null, reason: null, cancelled: false };
/** @type {Set<(state: ReceiverState) => void>} */
const stateListeners = new Set();
/** @type {Set<FixListener>} */
const fixListeners = new Set();
/** @typedef {{port: SerialPortLike, reader: ReadableStreamDefaultReader<Uint8Array> | null, closing: boolean}} Connection */
/** @type {Connection | null} */
let connection = null;
/** @type {Fix | null} */
let lastFix = null;
let resumeTried = false;

/** Whether a port is open or being opened (then Connect and a resume do nothing). */
function busy() {
  return connection !== null || state.phase === 'opening';
}

/** The receiver's state now. */
export function receiverState() {
  return state;
}

/**
 * Calls `listener` with every change of the receiver's state until the returned function is called.
 * @param {(state: ReceiverState) => void} listener
 */
export function onReceiverState(listener) {
  stateListeners.add(listener);
  return () => { stateListeners.delete(listener); };
}

/** @param {Partial<ReceiverState>} change */
function update(change) {
  state = { ...state, ...change };
  for (const listener of [...stateListeners]) listener(state);
}

/**
 * What this phone remembers of its receiver: the baud rate chosen last, and whether the receiver
 * was left connected (then a reload reopens the same port without asking, as the seed's "this
 * setting is saved"), with its label to find it among the ports the browser allows.
 * @typedef {{baudRate: number, connected: boolean, label: string}} Remembered
 */

/** @returns {Remembered} */
export function loadRemembered() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return {
      baudRate: normalizeBaudRate(saved?.baudRate), connected: saved?.connected === true,
      label: typeof saved?.label === 'string' ? saved.label : '',
    };
  } catch {
    return { baudRate: DEFAULT_BAUD_RATE, connected: false, label: '' };
  }
}

/** The baud rate chosen last on this phone. */
export function loadBaudRate() {
  return loadRemembered().baudRate;
}

/** @param {Partial<Remembered>} change */
function remember(change) {
  try { localStorage.setItem(KEY, JSON.stringify({ ...loadRemembered(), ...change })); } catch { /* private mode: not remembered */ }
}

/**
 * Asks the user for a port (the browser's chooser), opens it at `baudRate` and makes it the
 * source of every inspection page's positions until it closes. Must be called from a click.
 * Resolves when the port is open (true) or when it could not be (false; the state says why).
 * @param {number} baudRate
 */
export async function connectReceiver(baudRate) {
  const api = serial();
  if (!api || busy()) return false;
  const rate = normalizeBaudRate(baudRate);
  remember({ baudRate: rate });
  /** @type {SerialPortLike} */
  let port;
  try {
    port = await api.requestPort();
  } catch (error) {
    // NotFoundError: the chooser was closed without a choice; that is no failure.
    if (error instanceof Error && error.name === 'NotFoundError') update({ phase: 'closed', cancelled: true, reason: null });
    else update({ phase: 'failed', reason: describe(error), cancelled: false });
    return false;
  }
  return open(port, rate);
}

/**
 * Reopens the receiver that was left connected before the page was reloaded, if the browser
 * still lists its port (Web Serial keeps the permission; a port that is unplugged is not listed,
 * and nothing happens). The inspection pages call it when they open; only the first call after
 * the app is loaded does anything.
 */
export async function resumeReceiver() {
  const api = serial();
  const remembered = loadRemembered();
  // Once per page load: a receiver that failed since stays closed until Connect (its reason shown).
  if (resumeTried) return false;
  resumeTried = true;
  if (!api?.getPorts || busy() || !remembered.connected) return false;
  /** @type {SerialPortLike[]} */
  let ports;
  try {
    ports = await api.getPorts();
  } catch {
    return false;
  }
  const named = ports.filter((port) => portLabel(port.getInfo?.() ?? {}) === remembered.label);
  const port = named.length > 0 ? named[0] : ports.length === 1 ? ports[0] : null;
  if (!port || busy()) return false;
  return open(port, remembered.baudRate);
}

/**
 * Opens `port` and reads it into the pages.
 * @param {SerialPortLike} port
 * @param {number} rate
 */
async function open(port, rate) {
  update({ phase: 'opening', baudRate: rate, cancelled: false, reason: null, counts: noCounts(), lastFixAt: null });
  try {
    await port.open({ baudRate: rate });
  } catch (error) {
    update({ phase: 'failed', reason: describe(error) });
    return false;
  }
  const label = portLabel(port.getInfo?.() ?? {});
  remember({ connected: true, label });
  /** @type {Connection} */
  const opened = { port, reader: null, closing: false };
  connection = opened;
  lastFix = null;
  update({ phase: 'open', label });
  /** @type {Receiver} */
  const source = {
    label,
    watch(listener) {
      fixListeners.add(listener);
      if (lastFix && state.lastFixAt !== null && Date.now() - state.lastFixAt < FRESH_MS) listener(lastFix);
      return () => { fixListeners.delete(listener); };
    },
  };
  useExternalReceiver(source);
  void read(opened, source);
  return true;
}

/** Closes the port; the pages go back to the phone's own location service, also after a reload. */
export async function disconnectReceiver() {
  if (!connection) return;
  remember({ connected: false });
  connection.closing = true;
  await connection.reader?.cancel().catch(() => {});
}

/**
 * Reads the port until it is closed (disconnectReceiver), lost (unplugged) or fails. Errors
 * Web Serial counts as passing (a framing, parity or overrun error, a break) give a new readable
 * stream and reading goes on, as the specification's example does.
 * @param {Connection} open
 * @param {Receiver} source
 */
async function read(open, source) {
  const reader = new ReceiverReader();
  /** @type {string | null} */
  let reason = null;
  let ended = false;
  while (open.port.readable && !open.closing) {
    const stream = open.port.readable.getReader();
    open.reader = stream;
    try {
      for (;;) {
        const { value, done } = await stream.read();
        if (done) break;
        if (value) deliver(reader, reader.push(value));
      }
      // The stream ended without an error: the port was closed (by us, or the device went away quietly).
      if (!open.closing) ended = true;
    } catch (error) {
      reason = describe(error);
    } finally {
      stream.releaseLock();
      open.reader = null;
    }
    if (open.closing || ended) break;
  }
  deliver(reader, reader.finish());
  await open.port.close().catch(() => {});
  connection = null;
  fixListeners.clear();
  if (externalReceiver() === source) useExternalReceiver(null);
  update(open.closing ? { phase: 'closed', reason: null, cancelled: false } : { phase: 'failed', reason: ended ? null : reason });
}

/**
 * Hands fixes to the pages and the counts to the status line.
 * @param {ReceiverReader} reader
 * @param {Fix[]} fixes
 */
function deliver(reader, fixes) {
  for (const fix of fixes) {
    lastFix = fix;
    for (const listener of [...fixListeners]) listener(fix);
  }
  update({ counts: { ...reader.counts }, lastFixAt: fixes.length > 0 ? Date.now() : state.lastFixAt });
}

/** @param {unknown} error the browser's words for what went wrong */
function describe(error) {
  return error instanceof Error ? (error.message || error.name) : String(error);
}
