// Writes where and how a scene's photo was taken into the JPEG itself (issue #14 point 5), so the
// file says it wherever it goes, not only the upload's metadata: a minimal, hand-written Exif
// APP1 segment (Exif 2.32, CIPA DC-008; TIFF 6.0 little-endian), because Debian has no JavaScript
// EXIF library and the page needs only a few tags. Any Exif segment the JPEG had is replaced;
// every other segment and the image data are copied byte for byte, and the old segment's
// Orientation is kept (a phone's camera may store the picture sideways and say so only there). Checked with exiftool and
// exiv2 in Tests/Web/unit/scenes-exif.test.mjs.
//
// What is written:
// - IFD0: ImageDescription — the attitude, documented here: the text
//   `waymark-attitude {"w":…,"x":…,"y":…,"z":…}` (a unit quaternion in the W3C
//   DeviceOrientation frame, east-north-up, as DESIGN §3.9 and the upload's metadata have it);
//   Software "Waymark".
// - Exif IFD: ExifVersion 0232, DateTimeOriginal (the phone's local time) and OffsetTimeOriginal.
// - GPS IFD: GPSVersionID 2.3.0.0, GPSLatitude/Ref, GPSLongitude/Ref, GPSAltitude/Ref when there
//   is an altitude, GPSTimeStamp and GPSDateStamp (UTC), GPSImgDirection/Ref when there is a
//   heading, GPSHPositioningError when there is an accuracy. The direction's reference is "T"
//   (true north): the scene cameras add the magnetic declination to the phone's magnetic compass
//   (Web/scenes/capture.js' trueHeading).

/** The prefix of ImageDescription before the attitude's JSON. */
export const ATTITUDE_PREFIX = 'waymark-attitude ';

/**
 * @typedef {object} ExifFields
 * @property {number} takenAt when the shutter fired, ms since 1970 (UTC)
 * @property {number} [zoneOffsetMinutes] the phone's zone then, minutes east of UTC (−Date#getTimezoneOffset)
 * @property {number | null} [latitude] degrees north
 * @property {number | null} [longitude] degrees east
 * @property {number | null} [altitude] metres above the ellipsoid or sea level, as the browser gives it
 * @property {number | null} [accuracy] metres (the horizontal accuracy of the fix)
 * @property {number | null} [heading] the heading of the camera, degrees clockwise from true north
 * @property {{w: number, x: number, y: number, z: number} | null} [attitude]
 */

const BYTE = 1, ASCII = 2, SHORT = 3, LONG = 4, RATIONAL = 5, UNDEFINED = 7;
/** @type {Record<number, number>} */
const SIZES = { [BYTE]: 1, [ASCII]: 1, [SHORT]: 2, [LONG]: 4, [RATIONAL]: 8, [UNDEFINED]: 1 };

/** @typedef {{tag: number, type: number, count: number, bytes: Uint8Array}} Entry */

/** Why a file cannot take the Exif segment. */
export class NotJpegError extends Error {}

/**
 * The JPEG with an Exif segment saying `fields`, right after SOI (and after a JFIF APP0 if there is
 * one, which must come first); an Exif APP1 it had is left out.
 * @param {Uint8Array} jpeg
 * @param {ExifFields} fields
 * @returns {Uint8Array}
 */
export function withExif(jpeg, fields) {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new NotJpegError('not a JPEG (no SOI marker)');
  /** @type {Uint8Array[]} */
  const before = [];
  /** @type {Uint8Array[]} */
  const after = [];
  /** @type {number | null} */
  let orientation = null;
  let offset = 2;
  // The header segments up to the image data; from SOS on the rest is copied as it is.
  while (offset < jpeg.length) {
    if (jpeg[offset] !== 0xff) throw new NotJpegError(`not a JPEG (no marker at byte ${offset})`);
    const marker = jpeg[offset + 1];
    if (marker === 0xff) { offset += 1; continue; } // fill byte
    if (marker === 0xda || marker === 0xd9) { after.push(jpeg.subarray(offset)); break; }
    if (offset + 4 > jpeg.length) throw new NotJpegError('not a JPEG (cut short in its header)');
    const length = (jpeg[offset + 2] << 8) | jpeg[offset + 3];
    const end = offset + 2 + length;
    if (length < 2 || end > jpeg.length) throw new NotJpegError('not a JPEG (a segment runs past the end)');
    const segment = jpeg.subarray(offset, end);
    const isExif = marker === 0xe1 && length >= 8 && ascii(segment.subarray(4, 10)) === 'Exif\0\0';
    const isJfif = marker === 0xe0 && before.length === 0 && after.length === 0 && ascii(segment.subarray(4, 9)) === 'JFIF\0';
    if (isJfif) before.push(segment);
    else if (!isExif) after.push(segment);
    else orientation ??= orientationOf(segment.subarray(10));
    offset = end;
  }
  const app1 = exifSegment(fields, orientation);
  const parts = [Uint8Array.of(0xff, 0xd8), ...before, app1, ...after];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

/** @param {Uint8Array} bytes */
function ascii(bytes) {
  return String.fromCharCode(...bytes);
}

/**
 * The Orientation (1…8) of IFD0 of a TIFF structure, or null when it has none or is malformed.
 * @param {Uint8Array} tiff
 * @returns {number | null}
 */
export function orientationOf(tiff) {
  if (tiff.length < 8) return null;
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return null;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > tiff.length) return null;
  const count = view.getUint16(ifd, little);
  for (let i = 0; i < count; i += 1) {
    const entry = ifd + 2 + 12 * i;
    if (entry + 12 > tiff.length) return null;
    if (view.getUint16(entry, little) === 0x0112 && view.getUint16(entry + 2, little) === SHORT) {
      const value = view.getUint16(entry + 8, little);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/**
 * The APP1 segment: marker, length, "Exif\0\0" and the TIFF structure.
 * @param {ExifFields} fields
 * @param {number | null} [orientation] IFD0's Orientation (1…8), kept from the camera's own Exif
 */
export function exifSegment(fields, orientation = null) {
  const tiff = tiffBytes(fields, orientation);
  const length = 2 + 6 + tiff.length;
  if (length > 0xffff) throw new RangeError('the Exif segment would be larger than 64 KiB');
  const segment = new Uint8Array(2 + length);
  segment.set([0xff, 0xe1, length >> 8, length & 0xff], 0);
  segment.set([0x45, 0x78, 0x69, 0x66, 0, 0], 4);
  segment.set(tiff, 10);
  return segment;
}

/** @param {ExifFields} fields @param {number | null} orientation */
function tiffBytes(fields, orientation) {
  const local = new Date(fields.takenAt + (fields.zoneOffsetMinutes ?? 0) * 60000);
  const utc = new Date(fields.takenAt);
  const pad = (/** @type {number} */ n, width = 2) => String(n).padStart(width, '0');
  const day = (/** @type {Date} */ d) => `${pad(d.getUTCFullYear(), 4)}:${pad(d.getUTCMonth() + 1)}:${pad(d.getUTCDate())}`;
  const time = (/** @type {Date} */ d) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

  /** @type {Entry[]} */
  const ifd0 = [];
  if (fields.attitude) {
    const { w, x, y, z } = fields.attitude;
    ifd0.push(text(0x010e, ATTITUDE_PREFIX + JSON.stringify({ w, x, y, z })));
  }
  if (orientation !== null) {
    const bytes = new Uint8Array(2);
    new DataView(bytes.buffer).setUint16(0, orientation, true);
    ifd0.push({ tag: 0x0112, type: SHORT, count: 1, bytes });
  }
  ifd0.push(text(0x0131, 'Waymark'));

  /** @type {Entry[]} */
  const exif = [
    { tag: 0x9000, type: UNDEFINED, count: 4, bytes: new TextEncoder().encode('0232') },
    text(0x9003, `${day(local)} ${time(local)}`),
  ];
  if (fields.zoneOffsetMinutes !== undefined && Number.isFinite(fields.zoneOffsetMinutes)) {
    const minutes = Math.round(fields.zoneOffsetMinutes);
    const sign = minutes < 0 ? '-' : '+';
    exif.push(text(0x9011, `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`));
  }

  /** @type {Entry[]} */
  const gps = [{ tag: 0x0000, type: BYTE, count: 4, bytes: Uint8Array.of(2, 3, 0, 0) }];
  const hasPlace = isNumber(fields.latitude) && isNumber(fields.longitude);
  if (hasPlace) {
    const latitude = /** @type {number} */ (fields.latitude), longitude = /** @type {number} */ (fields.longitude);
    gps.push(text(0x0001, latitude < 0 ? 'S' : 'N'), rationals(0x0002, sexagesimal(latitude)),
      text(0x0003, longitude < 0 ? 'W' : 'E'), rationals(0x0004, sexagesimal(longitude)));
  }
  if (hasPlace && isNumber(fields.altitude)) {
    const altitude = /** @type {number} */ (fields.altitude);
    gps.push({ tag: 0x0005, type: BYTE, count: 1, bytes: Uint8Array.of(altitude < 0 ? 1 : 0) },
      rationals(0x0006, [[Math.round(Math.abs(altitude) * 1000), 1000]]));
  }
  gps.push(rationals(0x0007, [[utc.getUTCHours(), 1], [utc.getUTCMinutes(), 1], [utc.getUTCSeconds() * 1000 + utc.getUTCMilliseconds(), 1000]]));
  if (isNumber(fields.heading)) {
    let hundredths = Math.round(/** @type {number} */ (fields.heading) * 100) % 36000;
    if (hundredths < 0) hundredths += 36000;
    gps.push(text(0x0010, 'T'), rationals(0x0011, [[hundredths, 100]]));
  }
  gps.push(text(0x001d, day(utc)));
  if (hasPlace && isNumber(fields.accuracy) && /** @type {number} */ (fields.accuracy) >= 0) {
    gps.push(rationals(0x001f, [[Math.round(/** @type {number} */ (fields.accuracy) * 100), 100]]));
  }

  // Layout: header (8), IFD0 and its values, the Exif IFD and its values, the GPS IFD and its values.
  const ifd0Size = ifdSize(ifd0.length + 2, ifd0);
  const exifAt = 8 + ifd0Size;
  const gpsAt = exifAt + ifdSize(exif.length, exif);
  ifd0.push(long(0x8769, exifAt), long(0x8825, gpsAt));
  const total = gpsAt + ifdSize(gps.length, gps);
  const buffer = new Uint8Array(total);
  const view = new DataView(buffer.buffer);
  buffer.set([0x49, 0x49], 0);
  view.setUint16(2, 42, true);
  view.setUint32(4, 8, true);
  writeIfd(view, buffer, 8, ifd0);
  writeIfd(view, buffer, exifAt, exif);
  writeIfd(view, buffer, gpsAt, gps);
  return buffer;
}

/** @param {unknown} value @returns {boolean} */
function isNumber(value) {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * A NUL-terminated ASCII entry (characters outside ASCII become "?").
 * @param {number} tag @param {string} value
 * @returns {Entry}
 */
function text(tag, value) {
  const bytes = new Uint8Array(value.length + 1);
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    bytes[i] = code < 0x80 ? code : 0x3f;
  }
  return { tag, type: ASCII, count: bytes.length, bytes };
}

/**
 * @param {number} tag @param {number} value
 * @returns {Entry}
 */
function long(tag, value) {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value, true);
  return { tag, type: LONG, count: 1, bytes };
}

/**
 * Unsigned rationals, each [numerator, denominator].
 * @param {number} tag @param {Array<[number, number]>} values
 * @returns {Entry}
 */
function rationals(tag, values) {
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  values.forEach(([numerator, denominator], i) => {
    view.setUint32(i * 8, numerator, true);
    view.setUint32(i * 8 + 4, denominator, true);
  });
  return { tag, type: RATIONAL, count: values.length, bytes };
}

/**
 * Degrees, minutes and seconds of |angle| as Exif rationals, seconds to 1/10,000″ (3 mm), carried
 * over so that rounding never gives 60 seconds or 60 minutes.
 * @param {number} angle
 * @returns {Array<[number, number]>}
 */
export function sexagesimal(angle) {
  const tenThousandths = Math.round(Math.abs(angle) * 3600 * 10000);
  const degrees = Math.floor(tenThousandths / 36000000);
  const minutes = Math.floor((tenThousandths - degrees * 36000000) / 600000);
  const seconds = tenThousandths - degrees * 36000000 - minutes * 600000;
  return [[degrees, 1], [minutes, 1], [seconds, 10000]];
}

/**
 * The bytes an IFD takes with `count` entries: the count, 12 bytes an entry, the next-IFD offset
 * and the values that do not fit in 4 bytes (each at an even offset).
 * @param {number} count @param {Entry[]} entries
 */
function ifdSize(count, entries) {
  let size = 2 + 12 * count + 4;
  for (const entry of entries) if (entry.bytes.length > 4) size += entry.bytes.length + (entry.bytes.length % 2);
  return size;
}

/**
 * Writes an IFD at `at` (entries sorted by tag, as TIFF requires) with its values after it; no next IFD.
 * @param {DataView} view @param {Uint8Array} buffer @param {number} at @param {Entry[]} entries
 */
function writeIfd(view, buffer, at, entries) {
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  view.setUint16(at, sorted.length, true);
  let values = at + 2 + 12 * sorted.length + 4;
  sorted.forEach((entry, i) => {
    const place = at + 2 + 12 * i;
    view.setUint16(place, entry.tag, true);
    view.setUint16(place + 2, entry.type, true);
    view.setUint32(place + 4, entry.count, true);
    if (entry.bytes.length !== entry.count * SIZES[entry.type]) throw new RangeError(`tag ${entry.tag}: count and bytes disagree`);
    if (entry.bytes.length <= 4) {
      buffer.set(entry.bytes, place + 8);
    } else {
      view.setUint32(place + 8, values, true);
      buffer.set(entry.bytes, values);
      values += entry.bytes.length + (entry.bytes.length % 2);
    }
  });
  view.setUint32(at + 2 + 12 * sorted.length, 0, true);
}
