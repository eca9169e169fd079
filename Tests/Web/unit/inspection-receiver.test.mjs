// The external GNSS receiver (Web/inspection/receiver.js) as a user with a receiver on a serial
// port meets it: real receiver logs (../shared/fixtures/nmea, GPSD's regression logs) arriving
// in chunks of any size give the same fixes as read whole, and the fixes WaymarkCore's log reader
// gives (the per-log counts and first fixes of NMEAReaderTests.swift, read from that file, so the
// two cannot drift apart); garbage never gives a fix or an exception; the status line says what
// the receiver is doing; and the Web Serial wiring hands fixes to watchFixes while the port is open
// and the phone's own location back when it closes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, FIXTURES } from './helpers.mjs';
import { NmeaStreamParser, METRES_PER_HDOP } from '../../../Web/inspection/nmea.js';
import {
  ReceiverReader, receiverSummary, fixOf, normalizeBaudRate, portLabel, BAUD_RATES, DEFAULT_BAUD_RATE,
  connectReceiver, disconnectReceiver, receiverState, onReceiverState, serialAvailable,
} from '../../../Web/inspection/receiver.js';
import { watchFixes, externalReceiver } from '../../../Web/inspection/fixes.js';

const NMEA = join(FIXTURES, 'nmea');

/** A seeded generator (mulberry32, as nmea-dump.mjs) so that a failing split can be replayed. @param {number} seed */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `bytes` cut at random places into pieces of 1…`largest` bytes. @param {Uint8Array} bytes @param {() => number} next @param {number} largest */
function randomPieces(bytes, next, largest) {
  const parts = [];
  for (let i = 0; i < bytes.length;) {
    const size = 1 + Math.floor(next() * largest);
    parts.push(bytes.subarray(i, i + size));
    i += size;
  }
  return parts;
}

/** Everything a reader makes of `chunks`, finish() included. @param {Iterable<Uint8Array | string>} chunks */
function read(chunks) {
  const reader = new ReceiverReader();
  const fixes = [];
  for (const chunk of chunks) fixes.push(...reader.push(chunk));
  fixes.push(...reader.finish());
  return { fixes, counts: reader.counts };
}

/**
 * WaymarkCore's log reader on each fixture log, as NMEAReaderTests.swift's `receivers` table
 * states it: the number of fixes and the first fix in time order (`dd + mm.mmmm / 60` as written there).
 */
function swiftExpectations() {
  const swift = readFileSync(join(REPO, 'Tests', 'WaymarkCoreTests', 'NMEAReaderTests.swift'), 'utf8');
  const degrees = (/** @type {string} */ text) => {
    const m = /^(-)?\(?(\d+) \+ ([\d.]+) \/ 60\)?$/.exec(text.trim());
    assert.ok(m, `cannot read ${text}`);
    return (m[1] ? -1 : 1) * (Number(m[2]) + Number(m[3]) / 60);
  };
  const rows = [...swift.matchAll(/\.init\(file: "([^"]+)", count: (\d+), latitude: (.+?), longitude: (.+?), altitude: ([-\d.]+|nil), time: "([^"]+)"\)/g)];
  return rows.map((m) => ({
    file: m[1], count: Number(m[2]), latitude: degrees(m[3]), longitude: degrees(m[4]),
    altitude: m[5] === 'nil' ? null : Number(m[5]), time: Date.parse(m[6]),
  }));
}

test('every fixture log gives the same fixes in random chunks as whole, and the fixes WaymarkCore reads', () => {
  const expectations = swiftExpectations();
  assert.equal(expectations.length, 8, 'the Swift table names eight logs with fixes');
  const next = random(20261125);
  let total = 0;
  for (const expected of expectations) {
    const bytes = new Uint8Array(readFileSync(join(NMEA, expected.file)));
    const whole = read([bytes]);
    for (const largest of [4, 64, 1500]) {
      assert.deepEqual(read(randomPieces(bytes, next, largest)).fixes, whole.fixes, `${expected.file} in pieces of up to ${largest} bytes`);
    }
    // A position without an HDOP has no accuracy and is not handed on; Swift's reader keeps it.
    assert.equal(whole.counts.fixes + whole.counts.withoutAccuracy, expected.count, expected.file);
    assert.ok(whole.counts.withoutAccuracy <= 4, `${expected.file}: ${whole.counts.withoutAccuracy} fixes without HDOP`);
    const parser = new NmeaStreamParser();
    const positions = [...parser.push(bytes), ...parser.finish()].flatMap((event) => (event.type === 'fix' ? [event.fix] : []));
    assert.deepEqual(whole.fixes, positions.flatMap((position) => {
      const fix = fixOf(position);
      return fix ? [fix] : [];
    }), `${expected.file}: the receiver's fixes are the positions with an HDOP`);
    const first = [...positions].sort((a, b) => a.time - b.time)[0];
    assert.equal(first.time, expected.time, `${expected.file}: first fix ${new Date(first.time).toISOString()}`);
    assert.ok(Math.abs(first.latitude - expected.latitude) < 1e-9, `${expected.file}: latitude ${first.latitude}`);
    assert.ok(Math.abs(first.longitude - expected.longitude) < 1e-9, `${expected.file}: longitude ${first.longitude}`);
    assert.equal(first.altitude, expected.altitude, expected.file);
    total += whole.fixes.length;
  }
  assert.ok(total > 500, `${total} fixes in all`);
});

test('a fix is the NMEA parser\'s with accuracy = HDOP × 5 m, from the receiver; no HDOP gives none', () => {
  const bytes = new Uint8Array(readFileSync(join(NMEA, 'ublox-neo-m9n-nmea.log')));
  const parser = new NmeaStreamParser();
  const nmea = [...parser.push(bytes), ...parser.finish()].flatMap((event) => (event.type === 'fix' ? [event.fix] : []));
  const { fixes } = read([bytes]);
  assert.equal(fixes.length, 61);
  // $GNGGA,223745.00,3806.62964,N,12237.61382,W,2,12,0.54,83.1,M,-29.5,M,,0000*44
  assert.equal(METRES_PER_HDOP, 5);
  assert.ok(Math.abs(fixes[0].accuracy - 0.54 * 5) < 1e-12);
  assert.equal(fixes[0].source, 'receiver');
  assert.equal(fixes[0].altitude, 83.1);
  fixes.forEach((fix, i) => {
    assert.equal(fix.accuracy, (nmea[i].hdop ?? NaN) * METRES_PER_HDOP);
    assert.deepEqual([fix.latitude, fix.longitude, fix.time], [nmea[i].latitude, nmea[i].longitude, nmea[i].time]);
  });
  assert.equal(fixOf({ ...nmea[0], hdop: null, accuracy: null }), null);
});

/** `$body*hh` with the right checksum. @param {string} body */
function sentence(body) {
  let sum = 0;
  for (const c of body) sum ^= c.charCodeAt(0);
  return `$${body}*${sum.toString(16).padStart(2, '0').toUpperCase()}`;
}
const RMC = 'GPRMC,120000,A,4600.000,N,01400.000,E,10.0,90.0,010524,,';
const GGA = 'GPGGA,120000,4600.000,N,01400.000,E,1,08,1.2,300.0,M,45.0,M,,';

test('broken input gives no fix and no exception, and the status line suspects the baud rate', () => {
  const garbage = new Uint8Array(5000);
  for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 197 + 11) & 0xff;
  const wrong = sentence(RMC).slice(0, -2) + '00';
  const megabyte = new Uint8Array(1 << 20).fill(0x24); // a 1 MB line of '$'
  const reader = new ReceiverReader();
  /** @type {unknown[]} */ const fixes = [];
  for (const chunk of [garbage, '\r\n', wrong + '\r\n', sentence(GGA).replace('GPGGA', 'GPGGB') + 'ZZ\r\n', megabyte, megabyte, '\n', '\0\0\0\n$,,,,\n']) {
    assert.doesNotThrow(() => fixes.push(...reader.push(chunk)));
  }
  assert.deepEqual(fixes, []);
  assert.equal(reader.counts.sentences, 0);
  assert.ok(reader.counts.garbage >= 3, `${reader.counts.garbage} garbage lines`);
  const state = { phase: /** @type {const} */ ('open'), baudRate: 9600, label: '', counts: reader.counts, lastFixAt: null, reason: null, cancelled: false };
  assert.deepEqual(receiverSummary(state), { key: 'inspection.receiver.noNmea', params: { baud: 9600 }, level: 'problem' });
  // The stream goes on: the next good epoch is read.
  const after = [...reader.push(sentence(RMC) + '\r\n'), ...reader.push(sentence(GGA) + '\r\n')];
  assert.equal(after.length, 1);
  assert.deepEqual([after[0].latitude, after[0].longitude, after[0].altitude, after[0].accuracy], [46, 14, 300, 6]);
  assert.deepEqual(receiverSummary({ ...state, counts: reader.counts }).key, 'inspection.receiver.receiving');
});

test('the status line: waiting, no fix yet, no accuracy, receiving, stopped, failed and cancelled', () => {
  const base = { phase: /** @type {'open'} */ ('open'), baudRate: 4800, label: '', counts: new ReceiverReader().counts, lastFixAt: null, reason: null, cancelled: false };
  const summary = (/** @type {Partial<typeof base> | object} */ change) => receiverSummary({ ...base, ...change }).key;
  assert.equal(summary({}), 'inspection.receiver.waiting');
  assert.equal(summary({ phase: 'closed' }), 'inspection.receiver.closed');
  assert.equal(summary({ phase: 'closed', cancelled: true }), 'inspection.receiver.cancelled');
  assert.equal(summary({ phase: 'opening' }), 'inspection.receiver.opening');
  assert.deepEqual(receiverSummary({ ...base, phase: 'failed', reason: 'The device has been lost.' }),
    { key: 'inspection.receiver.failed', params: { reason: 'The device has been lost.' }, level: 'problem' });
  assert.equal(summary({ phase: 'failed' }), 'inspection.receiver.stopped');

  const noFix = new ReceiverReader();
  noFix.push(readFileSync(join(NMEA, 'holux-gm-210.log')));
  assert.equal(noFix.counts.fixes, 0);
  assert.equal(summary({ counts: noFix.counts }), 'inspection.receiver.noFix', 'a receiver without a fix says so');

  const rmcOnly = new ReceiverReader();
  rmcOnly.push(sentence(RMC) + '\n' + sentence(RMC.replace('120000', '120001')) + '\n');
  assert.equal(rmcOnly.counts.withoutAccuracy, 1);
  assert.equal(summary({ counts: rmcOnly.counts }), 'inspection.receiver.noAccuracy');
});

test('baud rates: 4800 by default, only the offered ones; port labels from USB ids', () => {
  assert.deepEqual([...BAUD_RATES], [4800, 9600, 38400, 115200]);
  assert.equal(DEFAULT_BAUD_RATE, 4800);
  assert.equal(normalizeBaudRate('38400'), 38400);
  assert.equal(normalizeBaudRate(115200), 115200);
  assert.equal(normalizeBaudRate(57600), 4800);
  assert.equal(normalizeBaudRate('fast'), 4800);
  assert.equal(normalizeBaudRate(undefined), 4800);
  assert.equal(portLabel({ usbVendorId: 0x1546, usbProductId: 0x1a9 }), 'USB 1546:01A9');
  assert.equal(portLabel({ usbVendorId: 0x67b }), 'USB 067B');
  assert.equal(portLabel({}), '');
});

/**
 * A stand-in for navigator.serial whose one port streams `chunks`, then ends (as an unplugged
 * receiver) or, with `hold`, keeps the stream open until it is cancelled.
 * @param {Uint8Array[]} chunks @param {{hold?: boolean, refuse?: Error}} [options]
 */
function fakeSerial(chunks, { hold = false, refuse } = {}) {
  const calls = { opened: /** @type {number[]} */ ([]), closed: 0, cancelled: 0 };
  const port = {
    readable: /** @type {ReadableStream<Uint8Array> | null} */ (null),
    async open(/** @type {{baudRate: number}} */ { baudRate }) {
      if (refuse) throw refuse;
      calls.opened.push(baudRate);
      let i = 0;
      port.readable = new ReadableStream({
        pull(controller) {
          if (i < chunks.length) controller.enqueue(chunks[i++]);
          else if (!hold) controller.close();
          else return new Promise(() => {});
          return undefined;
        },
        cancel() { calls.cancelled += 1; },
      });
    },
    async close() { calls.closed += 1; port.readable = null; },
    getInfo: () => ({ usbVendorId: 0x1546, usbProductId: 0x01a9 }),
  };
  return { serial: { requestPort: async () => port, getPorts: async () => [port] }, calls };
}

/** Waits until `check()` holds (the port is read asynchronously). @param {() => boolean} check */
async function until(check) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(check(), 'timed out');
}

test('Web Serial: while the port is open watchFixes gets its fixes; when it ends, the phone again and the reason', async (t) => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  t.after(() => { if (saved) Object.defineProperty(globalThis, 'navigator', saved); else delete (/** @type {any} */ (globalThis)).navigator; });
  const bytes = new Uint8Array(readFileSync(join(NMEA, 'ublox-neo-m9n-nmea.log')));
  const pieces = randomPieces(bytes, random(7), 100);

  Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true });
  assert.equal(serialAvailable(), false);

  const { serial, calls } = fakeSerial(pieces);
  Object.defineProperty(globalThis, 'navigator', { value: { serial }, configurable: true });
  assert.equal(serialAvailable(), true);
  /** @type {import('../../../Web/inspection/fixes.js').Fix[]} */ const fixes = [];
  /** @type {number[]} */ const errors = [];
  const stop = watchFixes((fix) => fixes.push(fix), (error) => errors.push(error.code));
  assert.deepEqual(errors, [2], 'no receiver and no location service (node): the phone says so');
  /** @type {string[]} */ const phases = [];
  const unsubscribe = onReceiverState((state) => { if (phases.at(-1) !== state.phase) phases.push(state.phase); });

  assert.equal(await connectReceiver(38400), true);
  assert.deepEqual(calls.opened, [38400]);
  assert.equal(externalReceiver()?.label, 'USB 1546:01A9');
  await until(() => receiverState().phase === 'failed');
  assert.equal(fixes.length, 61, 'every fix of the log reached the page');
  assert.deepEqual(fixes, read([bytes]).fixes);
  assert.equal(externalReceiver(), null, 'the pages went back to the phone');
  assert.deepEqual(errors, [2, 2], 'and the phone\'s watch restarted');
  assert.equal(calls.closed, 1);
  assert.deepEqual(phases, ['opening', 'open', 'failed']);
  assert.equal(receiverSummary(receiverState()).key, 'inspection.receiver.stopped');
  assert.equal(receiverState().counts.fixes, 61);
  assert.ok(receiverState().lastFixAt !== null);

  // Disconnect while it streams: closed, not failed; the port is closed.
  const held = fakeSerial(pieces.slice(0, 10), { hold: true });
  Object.defineProperty(globalThis, 'navigator', { value: { serial: held.serial }, configurable: true });
  assert.equal(await connectReceiver(4800), true);
  await until(() => receiverState().counts.bytes > 0);
  assert.ok(externalReceiver() !== null);
  await disconnectReceiver();
  await until(() => receiverState().phase === 'closed');
  assert.equal(externalReceiver(), null);
  assert.equal(held.calls.closed, 1);
  assert.equal(held.calls.cancelled, 1);

  // A port that cannot be opened: failed with the browser's words; the phone stays the source.
  const busy = fakeSerial([], { refuse: Object.assign(new Error('Failed to open serial port.'), { name: 'NetworkError' }) });
  Object.defineProperty(globalThis, 'navigator', { value: { serial: busy.serial }, configurable: true });
  assert.equal(await connectReceiver(9600), false);
  assert.deepEqual(receiverSummary(receiverState()), { key: 'inspection.receiver.failed', params: { reason: 'Failed to open serial port.' }, level: 'problem' });
  assert.equal(externalReceiver(), null);

  // The chooser closed without a port: no failure.
  const cancel = { requestPort: async () => { throw Object.assign(new Error('No port selected by the user.'), { name: 'NotFoundError' }); } };
  Object.defineProperty(globalThis, 'navigator', { value: { serial: cancel }, configurable: true });
  assert.equal(await connectReceiver(9600), false);
  assert.equal(receiverSummary(receiverState()).key, 'inspection.receiver.cancelled');
  unsubscribe();
  stop();
});

test('a receiver left connected is opened again after a reload, at its baud rate; one the user disconnected is not', async (t) => {
  const savedNavigator = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  const stored = new Map();
  /** @type {any} */ (globalThis).localStorage = {
    getItem: (/** @type {string} */ key) => stored.get(key) ?? null,
    setItem: (/** @type {string} */ key, /** @type {string} */ value) => { stored.set(key, value); },
  };
  t.after(() => {
    delete (/** @type {any} */ (globalThis)).localStorage;
    if (savedNavigator) Object.defineProperty(globalThis, 'navigator', savedNavigator); else delete (/** @type {any} */ (globalThis)).navigator;
  });
  const pieces = randomPieces(new Uint8Array(readFileSync(join(NMEA, 'bu353s4.log'))), random(3), 64);
  /** A page load: a new port object from the browser, the receiver module loaded afresh (fixes.js stays). */
  let loads = 0;
  const load = async () => {
    const fake = fakeSerial(pieces, { hold: true });
    Object.defineProperty(globalThis, 'navigator', { value: { serial: fake.serial }, configurable: true });
    loads += 1;
    /** @type {typeof import('../../../Web/inspection/receiver.js')} */
    const module = await import(`../../../Web/inspection/receiver.js?load=${loads}`);
    return { module, calls: fake.calls };
  };

  const first = await load();
  assert.deepEqual(first.module.loadRemembered(), { baudRate: 4800, connected: false, label: '' });
  assert.equal(await first.module.resumeReceiver(), false, 'nothing to resume before the first connection');
  assert.equal(await first.module.connectReceiver(115200), true);
  assert.deepEqual(first.module.loadRemembered(), { baudRate: 115200, connected: true, label: 'USB 1546:01A9' });
  assert.equal(await first.module.resumeReceiver(), false, 'no second resume in one page load');
  assert.deepEqual(first.calls.opened, [115200]);

  const second = await load();
  assert.equal(second.module.receiverState().phase, 'closed');
  assert.equal(await second.module.resumeReceiver(), true);
  assert.deepEqual(second.calls.opened, [115200]);
  assert.equal(externalReceiver()?.label, 'USB 1546:01A9');
  assert.equal(second.module.receiverState().phase, 'open');
  await second.module.disconnectReceiver();
  await until(() => second.module.receiverState().phase === 'closed');
  assert.equal(second.module.loadRemembered().connected, false);
  assert.equal(externalReceiver(), null);

  const third = await load();
  assert.equal(await third.module.resumeReceiver(), false);
  assert.deepEqual(third.calls.opened, []);
  await first.module.disconnectReceiver();
});
