// Reading the login QR code with the camera where the browser has the BarcodeDetector API
// (Chrome on Android, Safari on macOS and iOS 17+); elsewhere the page offers a photo instead.

/** Whether this browser can read QR codes from the camera by itself. */
export function cameraScanning() {
  return typeof (/** @type {any} */ (globalThis).BarcodeDetector) === 'function'
    && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

/**
 * Shows the camera in `video` and calls `onTexts` with the texts of the first QR codes seen.
 * @param {HTMLVideoElement} video
 * @param {(texts: string[]) => void} onTexts
 * @returns {Promise<() => void>} stops the camera
 * @throws when there is no camera or it may not be used
 */
export async function scanWithCamera(video, onTexts) {
  const Detector = /** @type {any} */ (globalThis).BarcodeDetector;
  const formats = typeof Detector.getSupportedFormats === 'function' ? await Detector.getSupportedFormats() : ['qr_code'];
  if (!formats.includes('qr_code')) throw new Error('this browser’s BarcodeDetector does not read QR codes');
  const detector = new Detector({ formats: ['qr_code'] });
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  let stopped = false;
  const stop = () => {
    stopped = true;
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
  video.srcObject = stream;
  await video.play().catch(() => undefined);
  const look = async () => {
    if (stopped) return;
    try {
      const codes = /** @type {Array<{rawValue: string}>} */ (await detector.detect(video));
      const texts = codes.map((code) => code.rawValue).filter((text) => typeof text === 'string' && text !== '');
      if (texts.length > 0 && !stopped) { stop(); onTexts(texts); return; }
    } catch { /* a frame that could not be read: the next one */ }
    setTimeout(() => void look(), 250);
  };
  void look();
  return stop;
}
