// Prints what the browser's NMEA parser (Web/inspection/nmea.js) makes of NMEA logs, as JSON, for
// NMEABrowserParityTests.swift to compare with WaymarkCore's NMEAStreamParser.
//
//   node Tests/Web/unit/nmea-dump.mjs SEED FILE…
//
// Each file is read three ways: whole, as byte chunks of random sizes (1–64 bytes; a sentence is
// split across chunks) and as text chunks of random sizes decoded from UTF-8 as a browser's
// TextDecoderStream would. The sizes come from a small generator seeded by SEED, so a failure can
// be replayed. Output: {"files": [{"file", "runs": {"whole", "bytes", "text"}}]}, each run
// {"events": [{"type": "fix", …} | {"type": "noFix"}], "ignored": {reason: count}}.
// (Not a test file itself: node --test runs only *.test.mjs.)
import { readFileSync } from 'node:fs';
import { NmeaStreamParser } from '../../../Web/inspection/nmea.js';

/** A seeded generator (mulberry32) so that chunk sizes can be replayed. @param {number} seed */
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

/** @param {Uint8Array} bytes @param {() => number} next @returns {Uint8Array[]} */
function chunks(bytes, next) {
  const parts = [];
  for (let i = 0; i < bytes.length;) {
    const size = 1 + Math.floor(next() * 64);
    parts.push(bytes.subarray(i, i + size));
    i += size;
  }
  return parts;
}

/** @param {Iterable<Uint8Array | string>} parts */
function run(parts) {
  const parser = new NmeaStreamParser();
  const all = [];
  for (const part of parts) all.push(...parser.push(part));
  all.push(...parser.finish());
  /** @type {Record<string, number>} */ const ignored = {};
  const events = [];
  for (const event of all) {
    if (event.type === 'ignored') ignored[event.reason] = (ignored[event.reason] ?? 0) + 1;
    else if (event.type === 'fix') events.push({ type: 'fix', ...event.fix });
    else events.push({ type: 'noFix' });
  }
  return { events, ignored };
}

const [seedText, ...files] = process.argv.slice(2);
const seed = Number(seedText);
if (!Number.isInteger(seed) || files.length === 0) {
  process.stderr.write('usage: node nmea-dump.mjs SEED FILE…\n');
  process.exit(2);
}
const next = random(seed);
const output = files.map((file) => {
  const bytes = new Uint8Array(readFileSync(file));
  const decoder = new TextDecoder('utf-8');
  const text = chunks(bytes, next).map((part) => decoder.decode(part, { stream: true }));
  text.push(decoder.decode());
  return { file, runs: { whole: run([bytes]), bytes: run(chunks(bytes, next)), text: run(text) } };
});
process.stdout.write(JSON.stringify({ files: output }) + '\n');
