// Web/scenes/exif.js: the Exif segment a scene's photo gets, read back by two tools nobody here
// wrote — exiftool and exiv2 — from a real JPEG made by ImageMagick (with a JFIF header, and one
// that already has an Exif segment, which must be replaced, not doubled).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webModule } from './helpers.mjs';

const { withExif, sexagesimal, ATTITUDE_PREFIX, NotJpegError } = await webModule('/scenes/exif.js');

const folder = mkdtempSync(join(tmpdir(), 'waymark-exif-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** A JPEG from ImageMagick; `exif` adds an Exif segment of its own (a comment and an orientation). */
function jpeg(name, exif = false) {
  const path = join(folder, name);
  execFileSync('convert', ['-size', '64x48', 'gradient:skyblue-darkgreen', '-quality', '85', path]);
  if (exif) execFileSync('exiftool', ['-q', '-overwrite_original', '-Artist=Someone else', '-GPSLatitude=1', '-GPSLatitudeRef=N', path]);
  return new Uint8Array(readFileSync(path));
}

function exiftool(path) {
  return JSON.parse(execFileSync('exiftool', ['-json', '-n', '-a', '-G1', path], { encoding: 'utf8' }))[0];
}

function exiv2(path) {
  const lines = execFileSync('exiv2', ['-Pkv', path], { encoding: 'utf8' }).trim().split('\n');
  return Object.fromEntries(lines.map((line) => {
    const [key, ...value] = line.trim().split(/\s+/);
    return [key, value.join(' ')];
  }));
}

const fields = {
  takenAt: Date.UTC(2026, 10, 25, 6, 59, 30, 250),
  zoneOffsetMinutes: 60,
  latitude: 49.1951234,
  longitude: -16.6068765,
  altitude: 237.4,
  accuracy: 4.5,
  heading: 123.456,
  attitude: { w: 0.5, x: 0.5, y: -0.5, z: 0.5 },
};

test('exiftool reads the position, altitude, direction, times and attitude back', () => {
  for (const [name, exif] of [['plain.jpg', false], ['had-exif.jpg', true]]) {
    const path = join(folder, `out-${name}`);
    writeFileSync(path, withExif(jpeg(name, exif), fields));
    const tags = exiftool(path);
    assert.ok(Math.abs(tags['GPS:GPSLatitude'] - 49.1951234) < 1e-7, `${name}: ${tags['GPS:GPSLatitude']}`);
    assert.equal(tags['GPS:GPSLatitudeRef'], 'N');
    // -n gives the signed longitude only with the reference; the number itself is unsigned.
    assert.ok(Math.abs(tags['GPS:GPSLongitude'] - 16.6068765) < 1e-7, `${name}: ${tags['GPS:GPSLongitude']}`);
    assert.equal(tags['GPS:GPSLongitudeRef'], 'W');
    assert.equal(tags['GPS:GPSAltitude'], 237.4);
    assert.equal(tags['GPS:GPSAltitudeRef'], 0);
    assert.equal(tags['GPS:GPSImgDirection'], 123.46);
    assert.equal(tags['GPS:GPSImgDirectionRef'], 'T', 'true north');
    assert.equal(tags['GPS:GPSHPositioningError'], 4.5);
    assert.equal(tags['GPS:GPSDateStamp'], '2026:11:25');
    assert.equal(tags['GPS:GPSTimeStamp'], '06:59:30.25');
    assert.equal(tags['ExifIFD:DateTimeOriginal'], '2026:11:25 07:59:30');
    assert.equal(tags['ExifIFD:OffsetTimeOriginal'], '+01:00');
    assert.equal(tags['IFD0:Software'], 'Waymark');
    const description = String(tags['IFD0:ImageDescription']);
    assert.ok(description.startsWith(ATTITUDE_PREFIX), description);
    assert.deepEqual(JSON.parse(description.slice(ATTITUDE_PREFIX.length)), fields.attitude);
    // The Exif segment the file had is gone, not kept beside the new one; the image is intact.
    assert.equal(tags['IFD0:Artist'], undefined, `${name}: the old Exif segment is still there`);
    assert.equal(tags['File:ImageWidth'], 64);
    assert.deepEqual(tags['ExifTool:Warning'], undefined, `${name}: ${tags['ExifTool:Warning']}`);
  }
});

test('exiv2 reads the same tags without complaint', () => {
  const path = join(folder, 'out-exiv2.jpg');
  writeFileSync(path, withExif(jpeg('exiv2.jpg'), { ...fields, latitude: -33.8567844, longitude: 151.2152967, altitude: -3.25 }));
  const tags = exiv2(path);
  assert.equal(tags['Exif.GPSInfo.GPSLatitudeRef'], 'S');
  assert.equal(tags['Exif.GPSInfo.GPSLatitude'], '33/1 51/1 244238/10000');
  assert.equal(tags['Exif.GPSInfo.GPSLongitudeRef'], 'E');
  assert.equal(tags['Exif.GPSInfo.GPSLongitude'], '151/1 12/1 550681/10000');
  assert.equal(tags['Exif.GPSInfo.GPSAltitudeRef'], '1');
  assert.equal(tags['Exif.GPSInfo.GPSAltitude'], '3250/1000');
  assert.equal(tags['Exif.GPSInfo.GPSImgDirection'], '12346/100');
  assert.equal(tags['Exif.Photo.DateTimeOriginal'], '2026:11:25 07:59:30');
  assert.ok(tags['Exif.Image.ImageDescription'].startsWith(ATTITUDE_PREFIX));
  // exiv2 exits non-zero and writes to stderr for a malformed file; execFileSync would have thrown.
});

test('without a position or heading only the time and attitude are written', () => {
  const path = join(folder, 'out-bare.jpg');
  writeFileSync(path, withExif(jpeg('bare.jpg'), { takenAt: fields.takenAt, attitude: fields.attitude }));
  const tags = exiftool(path);
  assert.equal(tags['GPS:GPSLatitude'], undefined);
  assert.equal(tags['GPS:GPSImgDirection'], undefined);
  assert.equal(tags['GPS:GPSDateStamp'], '2026:11:25');
  assert.equal(tags['ExifIFD:DateTimeOriginal'], '2026:11:25 06:59:30');
});

test('the camera\'s own Orientation is kept, in either byte order', () => {
  for (const order of ['II', 'MM']) {
    const input = join(folder, `turned-${order}.jpg`);
    writeFileSync(input, jpeg(`turned-${order}-source.jpg`));
    execFileSync('exiftool', ['-q', '-overwrite_original', `-ExifByteOrder=${order === 'II' ? 'Little-endian' : 'Big-endian'}`, '-Orientation#=6', '-Artist=Camera', input]);
    const path = join(folder, `out-turned-${order}.jpg`);
    writeFileSync(path, withExif(new Uint8Array(readFileSync(input)), fields));
    const tags = exiftool(path);
    assert.equal(tags['IFD0:Orientation'], 6, order);
    assert.equal(tags['IFD0:Artist'], undefined, order);
    assert.ok(Math.abs(tags['GPS:GPSLatitude'] - 49.1951234) < 1e-7, order);
  }
});

test('seconds are rounded without ever giving 60', () => {
  assert.deepEqual(sexagesimal(10.99999999999), [[11, 1], [0, 1], [0, 10000]]);
  assert.deepEqual(sexagesimal(-0.5), [[0, 1], [30, 1], [0, 10000]]);
});

test('a file that is not a JPEG is refused with a reason', () => {
  assert.throws(() => withExif(new TextEncoder().encode('\x89PNG....'), fields), NotJpegError);
  assert.throws(() => withExif(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 0x10, 0x00), fields), /runs past the end/);
});
