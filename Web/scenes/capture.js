// The scene cameras' capture (issue #14 points 4 and 5, DESIGN §3.9), shared by a new scene
// (Web/app/pages/scene-new.js) and a retake (Web/app/pages/scene-retake.js): the live back
// camera, the phone's attitude as a quaternion from the absolute device orientation
// (Web/scenes/attitude.js), the position (Web/inspection/fixes.js, as the evidence camera), the
// picture at the camera's full resolution (ImageCapture.takePhoto where the browser has it, else
// the video frame — the same order as Web/app/pages/camera.js), the moment the shutter fired
// written into the JPEG's Exif (Web/scenes/exif.js) and into the upload's metadata (the upload
// itself, kept on the phone until the server has it, is Web/scenes/uploads.js'). The heading is
// against true north, as DESIGN §3.9 documents it: the compass's magnetic heading plus the
// magnetic declination of the World Magnetic Model at the fix (Web/inspection/declination.js);
// without a fix it is not known (null), rather than magnetic.
// The pure parts (the metadata, the capture time, the true heading) have node tests in
// Tests/Web/unit/scenes-capture.test.mjs; the rest is exercised by the browser test.
import { fromDeviceOrientation, compassHeading } from './attitude.js';
import { withExif } from './exif.js';
import { absoluteAlpha } from '../inspection/camera-model.js';
import { magneticDeclination, trueFromMagnetic } from '../inspection/declination.js';
import { watchFixes } from '../inspection/fixes.js';

/** @typedef {import('./attitude.js').Quaternion} Quaternion */
/** @typedef {import('../inspection/fixes.js').Fix} Fix */

/**
 * Where the phone was and how it was held when the shutter fired.
 * @typedef {object} Moment
 * @property {number} takenAt ms since 1970
 * @property {number} zoneOffsetMinutes the phone's zone, minutes east of UTC
 * @property {Fix | null} fix
 * @property {Quaternion | null} attitude the camera frame in east-north-up (screen rotation included)
 * @property {number | null} heading where the back camera looks, degrees clockwise from true
 *   north (null without a fix: see trueHeading)
 */

/** A position older than this is not the position of a photo, ms (as the evidence camera). */
export const FIX_MAX_AGE_MS = 30000;
/** How long ImageCapture.takePhoto may take before the video frame is used instead, ms. */
const TAKE_PHOTO_LIMIT_MS = 8000;

/**
 * The capture time as the server wants it: ISO 8601 with the phone's zone, e.g.
 * 2026-06-01T10:00:00.250+02:00.
 * @param {number} takenAt ms since 1970 @param {number} zoneOffsetMinutes minutes east of UTC
 */
export function capturedAtText(takenAt, zoneOffsetMinutes) {
  const minutes = Math.round(zoneOffsetMinutes);
  const local = new Date(takenAt + minutes * 60000).toISOString().slice(0, 23);
  const sign = minutes < 0 ? '-' : '+';
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${local}${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/**
 * A compass heading against magnetic north turned into one against true north: plus the WMM's
 * declination at the fix (its altitude, or the ellipsoid when it has none) at the moment. Null
 * without a heading, without a fix, or where the model has no declination (a pole).
 * @param {number | null} magnetic degrees clockwise from magnetic north
 * @param {{latitude: number, longitude: number, altitude: number | null} | null} fix
 * @param {number} at ms since 1970
 * @returns {number | null}
 */
export function trueHeading(magnetic, fix, at) {
  if (magnetic === null || !Number.isFinite(magnetic) || !fix) return null;
  const declination = magneticDeclination(fix.latitude, fix.longitude, fix.altitude ?? 0, new Date(at));
  return declination.ok ? trueFromMagnetic(magnetic, declination.value.declination) : null;
}

/**
 * The `metadata` part of a scene or a rephotograph (SceneAPIDocument's NewSceneMetadata and
 * RephotographMetadata): the capture time, attitude and heading of the moment, and the place —
 * `place` when the user moved the pin, else the fix of the moment (none for a retake without one).
 * @param {Moment} moment
 * @param {{name?: string, place?: {latitude: number, longitude: number} | null}} [extra]
 * @returns {Record<string, unknown>}
 */
export function metadataOf(moment, extra = {}) {
  if (!moment.attitude) throw new Error('a scene photo needs the attitude of the moment it was taken');
  const { w, x, y, z } = moment.attitude;
  /** @type {Record<string, unknown>} */
  const metadata = {
    capturedAt: capturedAtText(moment.takenAt, moment.zoneOffsetMinutes),
    attitude: { w, x, y, z },
    heading: moment.heading === null ? null : Math.min(360, Math.max(0, moment.heading)),
  };
  const place = extra.place ?? (moment.fix ? { latitude: moment.fix.latitude, longitude: moment.fix.longitude } : null);
  if (place) {
    metadata.latitude = place.latitude;
    metadata.longitude = place.longitude;
  }
  // The fix's accuracy says how well the phone knew where it was; a moved pin says it better.
  if (moment.fix && !extra.place) metadata.accuracy = Math.min(100000, moment.fix.accuracy);
  const name = extra.name?.trim();
  if (name) metadata.name = name;
  return metadata;
}

/**
 * The Exif fields of a moment (the pin's place when the user moved it).
 * @param {Moment} moment @param {{latitude: number, longitude: number} | null} [place]
 * @returns {import('./exif.js').ExifFields}
 */
export function exifFieldsOf(moment, place = null) {
  const fix = moment.fix;
  return {
    takenAt: moment.takenAt,
    zoneOffsetMinutes: moment.zoneOffsetMinutes,
    latitude: place?.latitude ?? fix?.latitude ?? null,
    longitude: place?.longitude ?? fix?.longitude ?? null,
    altitude: fix?.altitude ?? null,
    accuracy: place ? null : fix?.accuracy ?? null,
    heading: moment.heading,
    attitude: moment.attitude,
  };
}

/**
 * The phone's sensors for a scene camera: the position and the attitude, kept up to date until
 * `stop`; `moment()` is what they say now. `onChange` is called after every reading.
 * @param {{onChange?: () => void, onPositionError?: (error: {code: number, message: string}) => void}} [listeners]
 */
export function watchSensors(listeners = {}) {
  /** @type {Fix | null} */
  let fix = null;
  /** @type {Quaternion | null} */
  let attitude = null;
  /** @type {number | null} */
  let heading = null;
  const stopFixes = watchFixes((next) => { fix = next; listeners.onChange?.(); }, (error) => listeners.onPositionError?.(error));

  // Only an absolute orientation (alpha from north) can be compared with another person's days later.
  const absoluteEvents = 'ondeviceorientationabsolute' in window;
  const eventName = absoluteEvents ? 'deviceorientationabsolute' : 'deviceorientation';
  /** @param {Event} event */
  const onOrientation = (event) => {
    const reading = /** @type {DeviceOrientationEvent & {webkitCompassHeading?: number}} */ (event);
    const alpha = event.type === 'deviceorientationabsolute' ? reading.alpha : absoluteAlpha(reading);
    const next = fromDeviceOrientation(alpha, reading.beta, reading.gamma, screenAngle());
    // A browser without the sensor (or one not yet reading it) sends nulls between real
    // readings: they say nothing, so the last reading stands.
    if (!next) return;
    attitude = next;
    heading = compassHeading(alpha, reading.beta, reading.gamma);
    listeners.onChange?.();
  };
  window.addEventListener(eventName, onOrientation);

  return {
    /** @returns {Moment} */
    moment() {
      const now = Date.now();
      const current = fix && now - fix.time <= FIX_MAX_AGE_MS ? fix : null;
      return {
        takenAt: now,
        zoneOffsetMinutes: -new Date(now).getTimezoneOffset(),
        fix: current,
        attitude,
        heading: trueHeading(heading, current, now),
      };
    },
    stop() {
      stopFixes();
      window.removeEventListener(eventName, onOrientation);
    },
  };
}

/** The screen's rotation, degrees (0 in portrait). */
export function screenAngle() {
  const angle = screen.orientation?.angle ?? Number(/** @type {any} */ (window).orientation ?? 0);
  return Number.isFinite(angle) ? angle : 0;
}

/** Whether the browser asks before it gives orientation data (Safari on iOS 13 and later). */
export function needsOrientationPermission() {
  return typeof (/** @type {any} */ (globalThis.DeviceOrientationEvent))?.requestPermission === 'function';
}

/** Asks for the orientation sensor (must follow a tap); true when granted. */
export async function requestOrientationPermission() {
  try {
    return (await /** @type {any} */ (DeviceOrientationEvent).requestPermission()) === 'granted';
  } catch {
    return false;
  }
}

/**
 * Opens the back camera into `video`. Resolves to the stream, or to the message key of why there
 * is none (refused, no camera, failed: `sceneCamera.camera.*`).
 * @param {HTMLVideoElement} video
 * @returns {Promise<{stream: MediaStream} | {problem: string, reason?: string}>}
 */
export async function openCamera(video) {
  if (!navigator.mediaDevices?.getUserMedia) return { problem: 'sceneCamera.camera.unavailable' };
  try {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: 'environment' }, width: { ideal: 4096 }, height: { ideal: 3072 } },
    });
    video.srcObject = stream;
    await video.play().catch(() => { /* autoplay starts it */ });
    return { stream };
  } catch (failure) {
    const name = failure instanceof DOMException ? failure.name : '';
    if (name === 'NotAllowedError' || name === 'SecurityError') return { problem: 'sceneCamera.camera.denied' };
    if (name === 'NotFoundError' || name === 'OverconstrainedError') return { problem: 'sceneCamera.camera.none' };
    return { problem: 'sceneCamera.camera.failed', reason: name || String(failure) };
  }
}

/**
 * Stops every track of a stream and empties the video.
 * @param {MediaStream | null} stream @param {HTMLVideoElement} video
 */
export function closeCamera(stream, video) {
  if (stream) for (const track of stream.getTracks()) track.stop();
  video.srcObject = null;
}

/**
 * The picture at the camera's full resolution as a JPEG: ImageCapture where the browser has it
 * (its PNG or other format re-encoded as JPEG at the same size, since Exif needs a JPEG), else
 * the video frame.
 * @param {MediaStream} stream @param {HTMLVideoElement} video
 * @returns {Promise<Blob>}
 */
export async function takePicture(stream, video) {
  const track = stream.getVideoTracks()[0];
  if (!track) throw new Error('no camera');
  const ImageCaptureClass = /** @type {any} */ (window).ImageCapture;
  if (ImageCaptureClass) {
    try {
      const photo = await Promise.race([
        new ImageCaptureClass(track).takePhoto(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('takePhoto took too long')), TAKE_PHOTO_LIMIT_MS))]);
      if (photo instanceof Blob && photo.size > 0) {
        if (photo.type === 'image/jpeg') return photo;
        const bitmap = await createImageBitmap(photo);
        return jpegOf(bitmap, bitmap.width, bitmap.height);
      }
    } catch { /* the video frame below */ }
  }
  if (video.videoWidth === 0) throw new Error('no picture');
  return jpegOf(video, video.videoWidth, video.videoHeight);
}

/**
 * @param {CanvasImageSource} source @param {number} width @param {number} height
 * @returns {Promise<Blob>}
 */
function jpegOf(source, width, height) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const drawing = canvas.getContext('2d');
  if (!drawing) return Promise.reject(new Error('no canvas'));
  drawing.drawImage(source, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((made) => (made ? resolve(made) : reject(new Error('no JPEG'))), 'image/jpeg', 0.92));
}

/**
 * The JPEG with the moment (and the pin's place, when moved) in its Exif.
 * @param {Blob} jpeg @param {Moment} moment @param {{latitude: number, longitude: number} | null} [place]
 * @returns {Promise<Blob>}
 */
export async function stamped(jpeg, moment, place = null) {
  const bytes = withExif(new Uint8Array(await jpeg.arrayBuffer()), exifFieldsOf(moment, place));
  return new Blob([bytes], { type: 'image/jpeg' });
}

/**
 * The back camera in `video`, opened and closed as the page's steps need it: `open` (again after
 * `close`) reports a problem through `onProblem` (a message key and a reason), `close` stops
 * every track, `picture` takes the photo; after `dispose` nothing opens it again (a page that was
 * left while the browser still asked for the camera stops the stream it gets).
 * @param {HTMLVideoElement} video
 * @param {(key: string, reason: string) => void} onProblem
 */
export function liveCamera(video, onProblem) {
  /** @type {MediaStream | null} */
  let stream = null;
  /** @type {Promise<void> | null} */
  let opening = null;
  let wanted = false;
  let disposed = false;
  return {
    /** @returns {Promise<void>} */
    open() {
      wanted = true;
      if (stream || opening || disposed) return opening ?? Promise.resolve();
      opening = openCamera(video).then((opened) => {
        opening = null;
        if ('problem' in opened) { onProblem(opened.problem, opened.reason ?? ''); return; }
        if (!wanted || disposed || !video.isConnected) { closeCamera(opened.stream, video); return; }
        stream = opened.stream;
      });
      return opening;
    },
    close() {
      wanted = false;
      closeCamera(stream, video);
      stream = null;
    },
    dispose() {
      disposed = true;
      this.close();
    },
    /** Whether the camera shows a picture. */
    shows() {
      return stream !== null && stream.getVideoTracks().some((track) => track.readyState === 'live') && video.videoWidth > 0;
    },
    /** Whether any track of the camera is still live (for the test: leaving the page stops it). */
    live() {
      return stream !== null && stream.getTracks().some((track) => track.readyState === 'live');
    },
    /** @returns {Promise<Blob>} */
    picture() {
      if (!stream) return Promise.reject(new Error('no camera'));
      return takePicture(stream, video);
    },
  };
}

/**
 * An SVG element with attributes (the guides are SVG so that they are placed by attributes, not styles).
 * @param {string} tag @param {Record<string, string | number>} attributes
 * @returns {SVGElement}
 */
export function svgElement(tag, attributes) {
  const element = /** @type {SVGElement} */ (document.createElementNS('http://www.w3.org/2000/svg', tag));
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}
