// NMEA 0183 from an external GNSS receiver (Web Serial), read by the same rules as WaymarkCore's
// NMEAStreamParser.swift and NMEASentence.swift; NMEABrowserParityTests.swift runs both on every
// fixture log and fails when they differ in a single fix.
//
// - Input arrives in chunks of any size (Uint8Array from the port, or text): a sentence may be
//   split across chunks; CR, LF and CR LF end lines; a run of more than 4096 bytes without a line
//   end is dropped (then reading starts afresh, as the Swift parser does).
// - A line's sentence starts at its last '$' (junk before it is a logger's prefix or a cut-off
//   sentence); lines starting with '#' are comments. A `*hh` checksum (either letter case) must be
//   exactly two hex digits that match the XOR of the bytes between '$' and '*', or the sentence is
//   skipped; a sentence without a checksum is accepted.
// - Any talker (GP, GN, GL, GA, BD, GB, …). RMC, GGA, GNS and Magellan's PMGNTRK give positions;
//   GSA gives the HDOP when no GGA/GNS does; everything else (GSV, VTG, proprietary) is unused.
// - No fix: RMC status other than A or mode N/S, GGA quality other than 1–6, GNS without a mode
//   letter A D P R F E, PMGNTRK validity other than A. One `noFix` event per epoch.
// - Sentences of the same time of day merge into one epoch: the date comes from RMC (or a
//   PMGNTRK's date field), altitude, HDOP and satellites from GGA/GNS; accuracy is HDOP × 5 m.
//   An epoch's fix is emitted as soon as it has both its RMC and its GGA/GNS, otherwise when the
//   next epoch starts or at finish(). Two-digit years are 1980–2079 (as Swift: no GPS-week
//   rollover correction). Fixes before the first date wait for it (at most 600) and are then
//   dated backwards; after that the last date carries on and a time of day that jumps back by
//   more than 12 h starts the next day.
// - Speed (knots → m/s) and course from RMC, and GGA's quality, are extras the Swift Fix does not
//   carry; they merge like the HDOP (the first sentence of the epoch that has one wins).
//
// Every line that contributes nothing says why in an `ignored` event with a typed reason.

/** The longest line kept while waiting for its end (NMEAStreamParser.maximumLineLength). */
export const MAXIMUM_LINE_LENGTH = 4096;
/** Accuracy estimate per unit of HDOP, in metres (DilutionOfPrecision.metresPerHDOP). */
export const METRES_PER_HDOP = 5;
const HALF_DAY = 43_200_000;
const DAY = 86_400_000;
const UNDATED_BACKLOG = 600;
const KNOT = 1852 / 3600;

/** @typedef {'rmc' | 'gga' | 'gns' | 'pmgntrk'} PositionKind */
/**
 * Why a line gave nothing: `badChecksum` (wrong or cut-off `*hh`), `malformed` (a position
 * sentence whose time, position or date cannot be read), `unused` (a well-formed sentence Waymark
 * does not read: GSV, VTG, proprietary, …), `notSentence` (no '$', or no valid address),
 * `comment` ('#' line), `overlongLine` (more than 4096 bytes without a line end, dropped).
 * @typedef {'badChecksum' | 'malformed' | 'unused' | 'notSentence' | 'comment' | 'overlongLine'} IgnoredReason
 */
/**
 * One position of the receiver.
 * @typedef {object} NmeaFix
 * @property {number} time milliseconds since 1970-01-01 UTC (GPS time, never the computer's clock)
 * @property {number} latitude degrees, north positive
 * @property {number} longitude degrees, east positive
 * @property {number | null} altitude metres above mean sea level (GGA/GNS, PMGNTRK)
 * @property {number | null} hdop horizontal dilution of precision (GGA/GNS, else GSA)
 * @property {number | null} accuracy metres, hdop × 5 (null without a positive HDOP)
 * @property {number | null} satellites satellites used (GGA/GNS)
 * @property {number | null} quality GGA fix quality 1–6 (1 GPS, 2 DGPS, 4 RTK fixed, …)
 * @property {number | null} speed metres per second over ground (RMC)
 * @property {number | null} course degrees from true north (RMC)
 */
/**
 * @typedef {{type: 'fix', fix: NmeaFix}
 *   | {type: 'noFix', sentence: PositionKind}
 *   | {type: 'ignored', reason: IgnoredReason, sentence?: PositionKind}} NmeaEvent
 */
/**
 * What one epoch (one instant) reported, merged over its sentences.
 * @typedef {object} Epoch
 * @property {number} millisecondOfDay
 * @property {number} latitude
 * @property {number} longitude
 * @property {number | null} altitude
 * @property {number | null} hdop
 * @property {number | null} day days since 1970-01-01
 * @property {number | null} satellites
 * @property {number | null} quality
 * @property {number | null} speed
 * @property {number | null} course
 */
/**
 * @typedef {{kind: 'position', epoch: Epoch, sentence: PositionKind}
 *   | {kind: 'noFix', sentence: PositionKind, millisecondOfDay: number | null}
 *   | {kind: 'malformed', sentence: PositionKind}
 *   | {kind: 'gsa', fixType: number | null, hdop: number | null}
 *   | {kind: 'other'} | {kind: 'badChecksum'} | {kind: 'comment'} | {kind: 'none'}} Sentence
 */

const encoder = new TextEncoder();
const MAGELLAN = [0x50, 0x4d, 0x47, 0x4e, 0x54, 0x52, 0x4b]; // PMGNTRK

/** @param {number} c @returns {number} the hex digit's value, or -1 */
function hexValue(c) {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

/**
 * A plain decimal (`-12.345`, `+7`, `.5`) from ASCII bytes, as TrackNumbers.decimal reads it.
 * @param {Uint8Array} b @param {number} from @param {number} to
 * @returns {number | null}
 */
export function decimal(b, from, to) {
  let i = from;
  if (i >= to) return null;
  let negative = false;
  if (b[i] === 0x2d || b[i] === 0x2b) { negative = b[i] === 0x2d; i++; }
  let mantissa = 0, digits = 0, fractionDigits = 0, seenPoint = false;
  for (; i < to; i++) {
    const c = b[i];
    if (c >= 0x30 && c <= 0x39) {
      if (digits < 18) {
        mantissa = mantissa * 10 + (c - 0x30);
        if (seenPoint) fractionDigits++;
      } else if (!seenPoint) {
        // Beyond 18 digits before the point: the whole field as a floating-point literal, as Swift's Double(String).
        const text = String.fromCharCode(...b.subarray(from, to));
        return /^[+-]?[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?$/.test(text) ? Number(text) : null;
      }
      digits++;
    } else if (c === 0x2e && !seenPoint) {
      seenPoint = true;
    } else {
      return null;
    }
  }
  if (digits === 0) return null;
  // Past 2^53 a Number sum of digits rounds at every step; Swift's UInt64 mantissa is exact and rounded once.
  let value = mantissa <= Number.MAX_SAFE_INTEGER ? mantissa : Number(BigInt(significant(b, from, to)));
  if (fractionDigits > 0) value /= 10 ** fractionDigits;
  return negative ? -value : value;
}

/**
 * The first 18 digits of a decimal field, the mantissa Swift's TrackNumbers.decimal keeps.
 * @param {Uint8Array} b @param {number} from @param {number} to
 */
function significant(b, from, to) {
  let digits = '';
  for (let i = from; i < to && digits.length < 18; i++) if (b[i] >= 0x30 && b[i] <= 0x39) digits += String.fromCharCode(b[i]);
  return digits;
}

/**
 * `hhmmss[.sss]` → milliseconds since midnight (seconds up to 60 for a leap second).
 * @param {Uint8Array} b @param {number} from @param {number} to
 * @returns {number | null}
 */
export function millisecondOfDay(b, from, to) {
  if (to - from < 6) return null;
  let whole = 0;
  for (let k = from; k < from + 6; k++) {
    const c = b[k];
    if (c < 0x30 || c > 0x39) return null;
    whole = whole * 10 + (c - 0x30);
  }
  const hours = Math.trunc(whole / 10_000), minutes = Math.trunc(whole / 100) % 100, seconds = whole % 100;
  if (hours >= 24 || minutes >= 60 || seconds >= 61) return null;
  let millis = 0;
  if (to - from > 6) {
    if (b[from + 6] !== 0x2e) return null;
    let scale = 100;
    for (let k = from + 7; k < to; k++) {
      const c = b[k];
      if (c < 0x30 || c > 0x39) return null;
      millis += (c - 0x30) * scale;
      scale = Math.trunc(scale / 10);
    }
  }
  return (hours * 3600 + minutes * 60 + seconds) * 1000 + millis;
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (CivilTime.daysSinceEpoch).
 * @param {number} year @param {number} month @param {number} day
 */
function daysSinceEpoch(year, month, day) {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.trunc((y >= 0 ? y : y - 399) / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.trunc((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.trunc(yearOfEra / 4) - Math.trunc(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * `ddmmyy` → days since 1970-01-01; two-digit years are 1980–2079.
 * @param {Uint8Array} b @param {number} from @param {number} to
 * @returns {number | null}
 */
export function dayOfDate(b, from, to) {
  if (to - from !== 6) return null;
  /** @type {number[]} */ const d = [];
  for (let k = from; k < to; k++) {
    if (b[k] < 0x30 || b[k] > 0x39) return null;
    d.push(b[k] - 0x30);
  }
  const day = d[0] * 10 + d[1], month = d[2] * 10 + d[3], yy = d[4] * 10 + d[5];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return daysSinceEpoch(yy < 80 ? 2000 + yy : 1900 + yy, month, day);
}

/**
 * Reads single lines into sentences; the field ranges are kept between calls.
 */
class SentenceScanner {
  constructor() {
    /** @type {number[]} start and end of each field, in pairs */
    this.fields = [];
    /** @type {Uint8Array} */
    this.bytes = new Uint8Array(0);
  }

  /**
   * The sentence on `bytes[from..<to]` (without its line end).
   * @param {Uint8Array} bytes @param {number} from @param {number} to
   * @returns {Sentence}
   */
  scan(bytes, from, to) {
    this.bytes = bytes;
    let start = from;
    while (start < to && (bytes[start] === 0x20 || bytes[start] === 0x09)) start++;
    if (start >= to) return { kind: 'none' };
    if (bytes[start] === 0x23) return { kind: 'comment' };
    let dollar = to - 1;
    while (dollar >= start && bytes[dollar] !== 0x24) dollar--;
    if (dollar < start) return { kind: 'none' };
    let end = to;
    while (end > dollar && (bytes[end - 1] === 0x20 || bytes[end - 1] === 0x09 || bytes[end - 1] === 0x00)) end--;
    const bodyStart = dollar + 1;
    let bodyEnd = end;
    let star = bodyStart;
    let checksum = 0;
    while (star < end && bytes[star] !== 0x2a) {
      checksum ^= bytes[star];
      star++;
    }
    if (star < end) {
      if (star + 3 !== end) return { kind: 'badChecksum' };
      const high = hexValue(bytes[star + 1]), low = hexValue(bytes[star + 2]);
      if (high < 0 || low < 0 || ((high << 4) | low) !== checksum) return { kind: 'badChecksum' };
      bodyEnd = star;
    }
    let comma = bodyStart;
    while (comma < bodyEnd && bytes[comma] !== 0x2c) comma++;
    const addressLength = comma - bodyStart;
    if (addressLength === 7 && comma < bodyEnd && MAGELLAN.every((c, k) => bytes[bodyStart + k] === c)) {
      this.split(comma + 1, bodyEnd);
      return this.magellanTrack();
    }
    if (addressLength < 3 || addressLength > 6 || comma >= bodyEnd) return { kind: 'none' };
    for (let k = bodyStart; k < comma; k++) {
      const c = bytes[k];
      if (!((c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39))) return { kind: 'none' };
    }
    if (addressLength !== 5 || bytes[bodyStart] === 0x50) return { kind: 'other' };
    const type = String.fromCharCode(bytes[comma - 3], bytes[comma - 2], bytes[comma - 1]);
    switch (type) {
      case 'RMC': this.split(comma + 1, bodyEnd); return this.rmc();
      case 'GGA': this.split(comma + 1, bodyEnd); return this.gga('gga');
      case 'GNS': this.split(comma + 1, bodyEnd); return this.gga('gns');
      case 'GSA': this.split(comma + 1, bodyEnd); return this.gsa();
      default: return { kind: 'other' };
    }
  }

  /** @param {number} from @param {number} to */
  split(from, to) {
    this.fields.length = 0;
    let start = from;
    for (let i = from; i < to; i++) {
      if (this.bytes[i] === 0x2c) { this.fields.push(start, i); start = i + 1; }
    }
    this.fields.push(start, to);
  }

  /** @param {number} n @returns {[number, number]} the field's range, empty when it is missing */
  range(n) {
    return 2 * n < this.fields.length ? [this.fields[2 * n], this.fields[2 * n + 1]] : [0, 0];
  }

  /** @param {number} n @returns {number} the field's first byte, or -1 when empty */
  first(n) {
    const [from, to] = this.range(n);
    return from < to ? this.bytes[from] : -1;
  }

  /** @param {number} n */
  decimal(n) { return decimal(this.bytes, ...this.range(n)); }

  /** @param {number} n */
  time(n) { return millisecondOfDay(this.bytes, ...this.range(n)); }

  /** @param {number} n */
  day(n) { return dayOfDate(this.bytes, ...this.range(n)); }

  /**
   * `ddmm.mmmm`, `N|S`, `dddmm.mmmm`, `E|W` in fields n…n+3 → signed degrees.
   * @param {number} n @returns {[number, number] | null}
   */
  position(n) {
    const latValue = this.decimal(n), lonValue = this.decimal(n + 2);
    const [nsFrom, nsTo] = this.range(n + 1), [ewFrom, ewTo] = this.range(n + 3);
    if (latValue === null || lonValue === null || !(latValue >= 0) || !(lonValue >= 0)
      || nsTo - nsFrom !== 1 || ewTo - ewFrom !== 1) return null;
    const latDegrees = Math.floor(latValue / 100), lonDegrees = Math.floor(lonValue / 100);
    const latMinutes = latValue - latDegrees * 100, lonMinutes = lonValue - lonDegrees * 100;
    if (!(latMinutes < 60) || !(lonMinutes < 60)) return null;
    let latitude = latDegrees + latMinutes / 60;
    let longitude = lonDegrees + lonMinutes / 60;
    const ns = this.bytes[nsFrom], ew = this.bytes[ewFrom];
    if (ns === 0x53) latitude = -latitude; else if (ns !== 0x4e) return null;
    if (ew === 0x57) longitude = -longitude; else if (ew !== 0x45) return null;
    if (!(latitude <= 90) || !(longitude <= 180)) return null;
    return [latitude, longitude];
  }

  /**
   * @param {number} millisecondOfDay @param {[number, number]} position
   * @param {Partial<Epoch>} more
   * @returns {Epoch}
   */
  static epoch(millisecondOfDay, position, more) {
    return {
      millisecondOfDay, latitude: position[0], longitude: position[1], altitude: null, hdop: null, day: null,
      satellites: null, quality: null, speed: null, course: null, ...more,
    };
  }

  /**
   * RMC: time, status, lat, N/S, lon, E/W, speed, course, date, magvar, E/W, mode, …
   * @returns {Sentence}
   */
  rmc() {
    const mode = this.first(11);
    if (this.first(1) !== 0x41 || mode === 0x4e || mode === 0x53) {
      return { kind: 'noFix', sentence: 'rmc', millisecondOfDay: this.time(0) };
    }
    const time = this.time(0), position = this.position(2), day = this.day(8);
    if (time === null || position === null || day === null) return { kind: 'malformed', sentence: 'rmc' };
    const knots = this.decimal(6);
    return {
      kind: 'position', sentence: 'rmc',
      epoch: SentenceScanner.epoch(time, position, { day, speed: knots === null ? null : knots * KNOT, course: this.decimal(7) }),
    };
  }

  /**
   * GGA: time, lat, N/S, lon, E/W, quality, satellites, HDOP, altitude, M, …
   * GNS: time, lat, N/S, lon, E/W, mode letters, satellites, HDOP, altitude, …
   * @param {'gga' | 'gns'} kind @returns {Sentence}
   */
  gga(kind) {
    const [from, to] = this.range(5);
    let valid = false;
    if (kind === 'gns') {
      for (let k = from; k < to; k++) if ([0x41, 0x44, 0x50, 0x52, 0x46, 0x45].includes(this.bytes[k])) valid = true;
    } else {
      valid = to - from === 1 && this.bytes[from] >= 0x31 && this.bytes[from] <= 0x36;
    }
    if (!valid) return { kind: 'noFix', sentence: kind, millisecondOfDay: this.time(0) };
    const time = this.time(0), position = this.position(1);
    if (time === null || position === null) return { kind: 'malformed', sentence: kind };
    const satellites = this.decimal(6);
    return {
      kind: 'position', sentence: kind,
      epoch: SentenceScanner.epoch(time, position, {
        hdop: this.decimal(7), altitude: this.decimal(8),
        satellites: satellites !== null && Number.isInteger(satellites) && satellites >= 0 ? satellites : null,
        quality: kind === 'gga' ? this.bytes[from] - 0x30 : null,
      }),
    };
  }

  /**
   * PMGNTRK: lat, N/S, lon, E/W, altitude, M/F, time, A/V, track name[, date].
   * @returns {Sentence}
   */
  magellanTrack() {
    if (this.first(7) !== 0x41) return { kind: 'noFix', sentence: 'pmgntrk', millisecondOfDay: this.time(6) };
    const time = this.time(6), position = this.position(0);
    if (time === null || position === null) return { kind: 'malformed', sentence: 'pmgntrk' };
    let altitude = this.decimal(4);
    switch (this.first(5)) {
      case 0x46: case 0x66: altitude = altitude === null ? null : altitude * 0.3048; break;
      case 0x4d: case 0x6d: case -1: break;
      default: altitude = null;
    }
    const [dateFrom, dateTo] = this.range(9);
    let day = null;
    if (dateTo > dateFrom) {
      day = this.day(9);
      if (day === null) return { kind: 'malformed', sentence: 'pmgntrk' };
    }
    return { kind: 'position', sentence: 'pmgntrk', epoch: SentenceScanner.epoch(time, position, { altitude, day }) };
  }

  /**
   * GSA: selection mode, fix type, 12 satellite ids, PDOP, HDOP, VDOP[, system id].
   * @returns {Sentence}
   */
  gsa() {
    const [from, to] = this.range(1);
    const fixType = to - from === 1 && this.bytes[from] >= 0x30 && this.bytes[from] <= 0x39 ? this.bytes[from] - 0x30 : null;
    return { kind: 'gsa', fixType, hdop: this.decimal(15) };
  }
}

/**
 * Fills what `epoch` lacks from another sentence of the same instant.
 * @param {Epoch} epoch @param {Epoch} other
 */
function merge(epoch, other) {
  epoch.altitude ??= other.altitude;
  epoch.hdop ??= other.hdop;
  epoch.day ??= other.day;
  epoch.satellites ??= other.satellites;
  epoch.quality ??= other.quality;
  epoch.speed ??= other.speed;
  epoch.course ??= other.course;
}

/**
 * The fix of an epoch on `day`.
 * @param {Epoch} epoch @param {number} day @returns {NmeaFix}
 */
function fixOf(epoch, day) {
  const hdop = epoch.hdop;
  return {
    time: day * DAY + epoch.millisecondOfDay,
    latitude: epoch.latitude,
    longitude: epoch.longitude,
    altitude: epoch.altitude,
    hdop,
    accuracy: hdop !== null && Number.isFinite(hdop) && hdop > 0 ? hdop * METRES_PER_HDOP : null,
    satellites: epoch.satellites,
    quality: epoch.quality,
    speed: epoch.speed,
    course: epoch.course,
  };
}

/**
 * Turns NMEA 0183 as it arrives from a receiver into events, one fix per epoch.
 */
export class NmeaStreamParser {
  constructor() {
    this.scanner = new SentenceScanner();
    /** @type {Uint8Array} the partial line waiting for its end */
    this.line = new Uint8Array(MAXIMUM_LINE_LENGTH);
    this.lineLength = 0;
    /** Whether the current run without a line end has been reported as overlong already. */
    this.overlong = false;
    /** @type {Epoch | null} */
    this.open = null;
    this.openHasRMC = false;
    this.openHasGGA = false;
    this.openEmitted = false;
    /** @type {Epoch[]} */
    this.undated = [];
    /** @type {number | null} */
    this.lastDay = null;
    this.lastMillisecondOfDay = 0;
    /** @type {number | null} */
    this.lastNoFixMillisecondOfDay = null;
    this.sawRMC = false;
  }

  /**
   * Feeds a chunk as it arrives and returns the events it completes; a partial last line is kept
   * until its end arrives. Bytes are read exactly; text is taken as UTF-8 (pass the port's bytes
   * when you have them).
   * @param {Uint8Array | string} chunk
   * @returns {NmeaEvent[]}
   */
  push(chunk) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    /** @type {NmeaEvent[]} */ const events = [];
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (byte === 0x0a || byte === 0x0d) {
        this.overlong = false;
        if (this.lineLength > 0) {
          this.consumeLine(this.line, this.lineLength, events);
          this.lineLength = 0;
        }
      } else if (this.lineLength < MAXIMUM_LINE_LENGTH) {
        this.line[this.lineLength++] = byte;
      } else {
        // No line end for far longer than any sentence: junk, start afresh.
        this.lineLength = 0;
        if (!this.overlong) events.push({ type: 'ignored', reason: 'overlongLine' });
        this.overlong = true;
      }
    }
    return events;
  }

  /**
   * Ends the stream: returns the event of the last epoch if it is still open. A last line without
   * its line end counts only if it carries a checksum ('*'): without one, nothing shows that the
   * receiver did not stop in the middle of a field.
   * @returns {NmeaEvent[]}
   */
  finish() {
    /** @type {NmeaEvent[]} */ const events = [];
    if (this.line.subarray(0, this.lineLength).includes(0x2a)) this.consumeLine(this.line, this.lineLength, events);
    this.lineLength = 0;
    this.overlong = false;
    this.close(events);
    return events;
  }

  /**
   * @param {Uint8Array} line @param {number} length @param {NmeaEvent[]} events
   */
  consumeLine(line, length, events) {
    const sentence = this.scanner.scan(line, 0, length);
    switch (sentence.kind) {
      case 'position': this.position(sentence.epoch, sentence.sentence, events); break;
      case 'noFix': this.noFix(sentence.sentence, sentence.millisecondOfDay, events); break;
      case 'gsa': {
        const open = this.open;
        if (sentence.hdop !== null && !this.openEmitted && open !== null && open.hdop === null) open.hdop = sentence.hdop;
        break;
      }
      case 'malformed': events.push({ type: 'ignored', reason: 'malformed', sentence: sentence.sentence }); break;
      case 'other': events.push({ type: 'ignored', reason: 'unused' }); break;
      case 'badChecksum': events.push({ type: 'ignored', reason: 'badChecksum' }); break;
      case 'comment': events.push({ type: 'ignored', reason: 'comment' }); break;
      case 'none': {
        let blank = true;
        for (let k = 0; k < length; k++) if (line[k] !== 0x20 && line[k] !== 0x09) { blank = false; break; }
        if (!blank) events.push({ type: 'ignored', reason: 'notSentence' });
        break;
      }
    }
  }

  /** @param {Epoch} epoch @param {PositionKind} kind @param {NmeaEvent[]} events */
  position(epoch, kind, events) {
    const current = this.open;
    if (current !== null && current.millisecondOfDay === epoch.millisecondOfDay) {
      merge(current, epoch);
    } else {
      this.close(events);
      this.open = epoch;
    }
    if (kind === 'rmc') { this.openHasRMC = true; this.sawRMC = true; } else { this.openHasGGA = true; }
    if (this.openHasRMC && this.openHasGGA && !this.openEmitted && this.open !== null) {
      this.openEmitted = true;
      this.emit(this.open, events);
    }
  }

  /** @param {PositionKind} kind @param {number | null} millisecondOfDay @param {NmeaEvent[]} events */
  noFix(kind, millisecondOfDay, events) {
    if (millisecondOfDay !== null) {
      // A fix and a no-fix sentence of the same instant: the fix wins.
      if (this.open !== null && this.open.millisecondOfDay === millisecondOfDay) return;
      if (millisecondOfDay === this.lastNoFixMillisecondOfDay) return;
    } else if (kind !== 'rmc' && this.sawRMC) {
      // No time to tell epochs apart: count the RMC, sent once per epoch.
      return;
    }
    this.lastNoFixMillisecondOfDay = millisecondOfDay;
    this.close(events);
    events.push({ type: 'noFix', sentence: kind });
  }

  /**
   * Closes the open epoch, emitting it if that has not happened yet.
   * @param {NmeaEvent[]} events
   */
  close(events) {
    const current = this.open;
    const emitted = this.openEmitted;
    this.open = null;
    this.openHasRMC = false;
    this.openHasGGA = false;
    this.openEmitted = false;
    if (current !== null && !emitted) this.emit(current, events);
  }

  /**
   * The fix of an epoch with its date resolved; nothing while no date has been seen.
   * @param {Epoch} epoch @param {NmeaEvent[]} events
   */
  emit(epoch, events) {
    let day;
    if (epoch.day !== null) {
      day = epoch.day;
      this.backFill(epoch, day, events);
    } else if (this.lastDay !== null) {
      day = this.lastDay;
      if (epoch.millisecondOfDay < this.lastMillisecondOfDay - HALF_DAY) day += 1;
    } else {
      this.undated.push({ ...epoch });
      // A receiver that never sends RMC: keep a bounded backlog, not the whole session.
      if (this.undated.length > UNDATED_BACKLOG) this.undated.splice(0, this.undated.length - UNDATED_BACKLOG);
      return;
    }
    this.lastDay = day;
    this.lastMillisecondOfDay = epoch.millisecondOfDay;
    events.push({ type: 'fix', fix: fixOf(epoch, day) });
  }

  /**
   * The epochs that waited for a date, dated backwards from the first one that has it.
   * @param {Epoch} epoch @param {number} day @param {NmeaEvent[]} events
   */
  backFill(epoch, day, events) {
    if (this.undated.length === 0) return;
    const days = new Array(this.undated.length).fill(day);
    let next = epoch.millisecondOfDay;
    let backDay = day;
    for (let i = this.undated.length - 1; i >= 0; i--) {
      if (this.undated[i].millisecondOfDay > next + HALF_DAY) backDay -= 1;
      days[i] = backDay;
      next = this.undated[i].millisecondOfDay;
    }
    this.undated.forEach((waiting, i) => events.push({ type: 'fix', fix: fixOf(waiting, days[i]) }));
    this.undated = [];
  }
}
