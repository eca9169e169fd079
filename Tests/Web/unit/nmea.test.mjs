// The browser's NMEA parser (Web/inspection/nmea.js) as a user of an external receiver over Web
// Serial meets it: a real u-blox log arriving in chunks, checksums, split sentences and hostile
// input. NMEABrowserParityTests.swift checks every fixture log against WaymarkCore's parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './helpers.mjs';
import { NmeaStreamParser, MAXIMUM_LINE_LENGTH } from '../../../Web/inspection/nmea.js';

const NMEA = join(FIXTURES, 'nmea');

/** `$body*hh` with the right checksum. @param {string} body */
function sentence(body, lowercase = false) {
  let sum = 0;
  for (const c of body) sum ^= c.charCodeAt(0);
  const hex = sum.toString(16).padStart(2, '0');
  return `$${body}*${lowercase ? hex : hex.toUpperCase()}`;
}

/**
 * Everything the parser makes of `chunks`, finish() included.
 * @param {Iterable<string | Uint8Array>} chunks
 */
function parse(chunks) {
  const parser = new NmeaStreamParser();
  /** @type {import('../../../Web/inspection/nmea.js').NmeaEvent[]} */ const events = [];
  for (const chunk of chunks) events.push(...parser.push(chunk));
  events.push(...parser.finish());
  return events;
}

/** @param {ReturnType<typeof parse>} events */
const fixes = (events) => events.flatMap((e) => (e.type === 'fix' ? [e.fix] : []));
/** @param {ReturnType<typeof parse>} events */
const reasons = (events) => events.flatMap((e) => (e.type === 'ignored' ? [e.reason] : []));

/** `bytes` cut into pieces of `size` bytes. @param {Uint8Array} bytes @param {number} size */
function pieces(bytes, size) {
  const parts = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return parts;
}

const RMC = 'GPRMC,120000,A,4600.000,N,01400.000,E,10.0,90.0,010524,,';
const GGA = 'GPGGA,120000,4600.000,N,01400.000,E,1,08,1.2,300.0,M,45.0,M,,';

test('a u-blox log arriving in 7-byte chunks gives the fixes its sentences say', () => {
  const bytes = new Uint8Array(readFileSync(join(NMEA, 'ublox-neo-m9n-nmea.log')));
  const found = fixes(parse(pieces(bytes, 7)));
  assert.equal(found.length, 61);
  // $GNRMC,223745.00,A,3806.62964,N,12237.61382,W,0.040,,110720,,,D,V*0E
  // $GNGGA,223745.00,3806.62964,N,12237.61382,W,2,12,0.54,83.1,M,-29.5,M,,0000*44
  const first = found[0];
  assert.equal(new Date(first.time).toISOString(), '2020-07-11T22:37:45.000Z');
  assert.ok(Math.abs(first.latitude - (38 + 6.62964 / 60)) < 1e-12);
  assert.ok(Math.abs(first.longitude + (122 + 37.61382 / 60)) < 1e-12);
  assert.equal(first.altitude, 83.1);
  assert.equal(first.hdop, 0.54);
  assert.ok(Math.abs((first.accuracy ?? 0) - 2.7) < 1e-12);
  assert.equal(first.satellites, 12);
  assert.equal(first.quality, 2);
  assert.ok(Math.abs((first.speed ?? 0) - 0.040 * 1852 / 3600) < 1e-12);
  assert.equal(first.course, null);
  // $GNRMC,223746.00,A,3806.62966,N,12237.61384,W,0.061,,110720,,,D,V*0A and its GGA (83.0 m).
  assert.equal(new Date(found[1].time).toISOString(), '2020-07-11T22:37:46.000Z');
  assert.equal(found[1].altitude, 83.0);
  assert.ok(found.every((fix, i) => i === 0 || fix.time > found[i - 1].time));
  // One byte at a time, and as text: the same fixes.
  assert.deepEqual(fixes(parse(pieces(bytes, 1))), found);
  assert.deepEqual(fixes(parse([new TextDecoder().decode(bytes)])), found);
});

test('a Quectel log: first fix, and a receiver that has no fix yet says so once per epoch', () => {
  const text = readFileSync(join(NMEA, 'quectel-L70.log'), 'latin1');
  const found = fixes(parse(text.match(/[^]{1,33}/g) ?? []));
  assert.equal(found.length, 16);
  assert.equal(new Date(found[0].time).toISOString(), '2022-03-09T15:01:19.000Z');
  assert.ok(Math.abs(found[0].latitude - (51 + 4.0859 / 60)) < 1e-12);
  assert.ok(Math.abs(found[0].longitude + (114 + 5.7387 / 60)) < 1e-12);
  assert.equal(found[0].altitude, 1102.4);

  const noFix = parse([
    sentence('GPRMC,120001,V,,,,,,,010524,,') + '\r\n',
    sentence('GPGGA,120001,,,,,0,00,99.0,,M,,M,,') + '\r\n',
    sentence('GPRMC,120002,V,,,,,,,010524,,') + '\r\n',
  ]);
  assert.deepEqual(noFix, [{ type: 'noFix', sentence: 'rmc' }, { type: 'noFix', sentence: 'rmc' }]);
});

test('checksums: a wrong or cut-off one skips the sentence, either letter case and none are accepted', () => {
  const good = sentence(RMC);
  const wrong = good.slice(0, -2) + (good.endsWith('00') ? '01' : '00');
  const lower = sentence(RMC.replace('120000', '120008'), true);
  assert.match(lower, /\*[0-9a-f]*[a-f]/, 'the lower-case checksum has a letter');
  const events = parse([
    wrong.replace('120000', '115959') + '\n',
    lower + '\n',
    '$' + RMC.replace('120000', '120002') + '\n',
    sentence(RMC.replace('120000', '120003')).slice(0, -1) + '\n',
    sentence(RMC.replace('120000', '120004')) + 'X\n',
    good.replace('120000', '120005') + '\n',
  ]);
  assert.deepEqual(fixes(events).map((fix) => new Date(fix.time).toISOString()),
    ['2024-05-01T12:00:08.000Z', '2024-05-01T12:00:02.000Z']);
  assert.deepEqual(reasons(events), ['badChecksum', 'badChecksum', 'badChecksum', 'badChecksum']);
});

test('a sentence split anywhere across chunks, with CR, LF or CR LF, reads the same', () => {
  const text = sentence(RMC) + '\r\n' + sentence(GGA) + '\r\n' + sentence(RMC.replaceAll('120000', '120001')) + '\r\n';
  const bytes = new TextEncoder().encode(text);
  const whole = fixes(parse([text]));
  assert.equal(whole.length, 2);
  assert.equal(whole[0].altitude, 300);
  assert.equal(whole[0].speed, 10 * 1852 / 3600);
  assert.equal(whole[0].course, 90);
  for (let cut = 1; cut < bytes.length; cut++) {
    assert.deepEqual(fixes(parse([bytes.subarray(0, cut), bytes.subarray(cut)])), whole, `cut at byte ${cut}`);
  }
  assert.deepEqual(fixes(parse([text.replaceAll('\r\n', '\n')])), whole);
  const southWest = fixes(parse([sentence('GNRMC,120000,A,3747.0873,S,07018.8938,W,0.0,,311214,,,A') + '\n']));
  assert.ok(Math.abs(southWest[0].latitude + (37 + 47.0873 / 60)) < 1e-12);
  assert.ok(Math.abs(southWest[0].longitude + (70 + 18.8938 / 60)) < 1e-12);
  assert.deepEqual(fixes(parse([text.replaceAll('\r\n', '\r')])), whole);
  // The RMC and GGA of one epoch give one fix as soon as both are in, not at the next epoch.
  const parser = new NmeaStreamParser();
  assert.deepEqual(parser.push(sentence(RMC) + '\n'), []);
  assert.equal(fixes(parser.push(sentence(GGA) + '\n')).length, 1);
});

test('hostile input: a 1 MB line, NUL bytes, commas only, $ storms and binary never stop the stream', () => {
  const parser = new NmeaStreamParser();
  const megabyte = new Uint8Array(1 << 20).fill(0x41);
  const events = [...parser.push(megabyte), ...parser.push(megabyte)];
  assert.deepEqual(events, [{ type: 'ignored', reason: 'overlongLine' }]);
  assert.ok(parser.lineLength <= MAXIMUM_LINE_LENGTH, 'the kept line stays bounded');

  const binary = new Uint8Array(3000);
  for (let i = 0; i < binary.length; i++) binary[i] = (i * 151 + 7) & 0xff;
  const more = [
    ...parser.push('\n'),
    ...parser.push(binary),
    ...parser.push('\n\0\0\0\n$,,,,,,,,,,,,,,\n$$$$$$$$$$$$$$$$$$$$\n*****\n'),
    ...parser.push('$$$$$' + sentence(RMC) + '\0\0\0\n'),
    ...parser.push(sentence(GGA) + '\n'),
  ];
  const found = fixes(more);
  assert.equal(found.length, 1, 'the sentence after the junk is still read');
  assert.equal(new Date(found[0].time).toISOString(), '2024-05-01T12:00:00.000Z');
  assert.equal(found[0].latitude, 46);
  assert.equal(found[0].altitude, 300);
  assert.ok(reasons(more).includes('notSentence'));
  assert.ok(!reasons(more).includes('unused'));
});

test('position sentences that cannot be read are ignored as malformed; other sentences as unused', () => {
  const events = parse([
    sentence('GPRMC,120000,A,4600.000,N,01400.0X0,E,0.0,0.0,010524,,') + '\n',
    sentence('GPRMC,120000,A,4600.000,N,01400.000,E,0.0,0.0,311324,,') + '\n',
    sentence('GPGGA,126000,4600.000,N,01400.000,E,1,08,1.0,300.0,M,,M,,') + '\n',
    sentence('GPGGA,120000,4660.000,N,01400.000,E,1,08,1.0,300.0,M,,M,,') + '\n',
    sentence('GPGSV,3,1,12,01,05,060,18,02,17,259,43,04,56,287,28,09,08,277,28') + '\n',
    sentence('GPVTG,054.7,T,034.4,M,005.5,N,010.2,K') + '\n',
    sentence('PGRME,15.0,M,45.0,M,25.0,M') + '\n',
    '# a comment\n',
  ]);
  assert.deepEqual(events, [
    { type: 'ignored', reason: 'malformed', sentence: 'rmc' },
    { type: 'ignored', reason: 'malformed', sentence: 'rmc' },
    { type: 'ignored', reason: 'malformed', sentence: 'gga' },
    { type: 'ignored', reason: 'malformed', sentence: 'gga' },
    { type: 'ignored', reason: 'unused' },
    { type: 'ignored', reason: 'unused' },
    { type: 'ignored', reason: 'unused' },
    { type: 'ignored', reason: 'comment' },
  ]);
});

test('dates: from RMC, two-digit years 1980–2079, midnight rollover, and fixes before the first date back-filled', () => {
  const at = (/** @type {string} */ body) => fixes(parse([sentence(body) + '\n'])).map((f) => new Date(f.time).toISOString());
  assert.deepEqual(at('GPRMC,120000,A,4600.000,N,01400.000,E,0.0,0.0,010180,,'), ['1980-01-01T12:00:00.000Z']);
  assert.deepEqual(at('GPRMC,120000,A,4600.000,N,01400.000,E,0.0,0.0,311279,,'), ['2079-12-31T12:00:00.000Z']);

  const rollover = parse([
    sentence('GPRMC,235958,A,4600.000,N,01400.000,E,0.0,0.0,311224,,'),
    sentence('GPGGA,235959,4600.000,N,01400.000,E,1,08,1.0,300.0,M,,M,,'),
    sentence('GPGGA,235958.7,4600.000,N,01400.000,E,1,08,1.0,300.0,M,,M,,'),
    sentence('GPGGA,000000,4600.000,N,01400.000,E,1,08,1.0,300.0,M,,M,,'),
  ].join('\n') + '\n');
  // A receiver clock that steps back 0.3 s stays on its day; a jump back of more than 12 h is midnight.
  assert.deepEqual(fixes(rollover).map((f) => new Date(f.time).toISOString()),
    ['2024-12-31T23:59:58.000Z', '2024-12-31T23:59:59.000Z', '2024-12-31T23:59:58.700Z', '2025-01-01T00:00:00.000Z']);

  const early = parse([
    sentence('GPGGA,235959.5,4600.000,N,01400.000,E,1,08,1.0,300.0,M,,M,,'),
    sentence('GPRMC,000000,A,4600.000,N,01400.000,E,0.0,0.0,010125,,'),
  ].join('\n') + '\n');
  assert.deepEqual(fixes(early).map((f) => new Date(f.time).toISOString()),
    ['2024-12-31T23:59:59.500Z', '2025-01-01T00:00:00.000Z']);
});

test('GSA gives the accuracy when the receiver sends no GGA; a last line without its end counts only with a checksum', () => {
  const gsa = fixes(parse([
    sentence(RMC) + '\n',
    sentence('GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1') + '\n',
  ]));
  assert.equal(gsa.length, 1);
  assert.equal(gsa[0].hdop, 1.3);
  assert.ok(Math.abs((gsa[0].accuracy ?? 0) - 6.5) < 1e-12);
  assert.equal(gsa[0].altitude, null);

  assert.equal(fixes(parse([sentence(RMC)])).length, 1);
  assert.equal(fixes(parse(['$' + RMC])).length, 0);
});
