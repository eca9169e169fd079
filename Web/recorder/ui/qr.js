// The recording screen's QR code (SRR-12): Debian's node-qrcode-generator, which the server
// serves under /vendor/ (DESIGN §3.8), drawn on a canvas with its quiet zone. The library is a
// classic script that defines the global `qrcode`, so it is loaded as a script element
// (same origin: the CSP allows it) once, on the first page that draws a code.

const SCRIPT = '/vendor/qrcode-generator/qrcode.js';

/**
 * What the library's `qrcode(typeNumber, level)` returns (the parts used here).
 * @typedef {{addData: (data: string, mode?: string) => void, make: () => void, getModuleCount: () => number, isDark: (row: number, column: number) => boolean}} QrCode
 * @typedef {(typeNumber: number, level: 'L' | 'M' | 'Q' | 'H') => QrCode} QrFactory
 */

/** @type {Promise<QrFactory> | null} */
let loading = null;

/**
 * The library's factory, loaded once.
 * @returns {Promise<QrFactory>}
 */
export function loadQrLibrary() {
  const ready = () => /** @type {QrFactory | undefined} */ (/** @type {any} */ (window).qrcode);
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const present = ready();
      if (present) { resolve(present); return; }
      const script = document.createElement('script');
      script.src = SCRIPT;
      script.addEventListener('load', () => {
        const factory = ready();
        if (factory) resolve(factory); else reject(new Error(`${SCRIPT} did not define qrcode`));
      });
      script.addEventListener('error', () => reject(new Error(`${SCRIPT} could not be loaded`)));
      document.head.append(script);
    });
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** The four modules of white around the code that a reader needs (ISO/IEC 18004). */
const QUIET = 4;

/**
 * The dark modules of `text` as a QR code of level Q, the smallest version that holds it (type 0).
 * @param {QrFactory} factory
 * @param {string} text in 'Alphanumeric' mode only 0-9, A-Z, space and $%*+-./: (the recorder's
 *   payload is `<time>-<NONCE>`); in 'Byte' mode anything (an address)
 * @param {'Alphanumeric' | 'Byte'} [mode]
 * @returns {boolean[][]}
 */
export function qrModules(factory, text, mode = 'Alphanumeric') {
  const code = factory(0, 'Q');
  code.addData(text, mode);
  code.make();
  const count = code.getModuleCount();
  return Array.from({ length: count }, (_, row) => Array.from({ length: count }, (_, column) => code.isDark(row, column)));
}

/**
 * Draws `modules` on `canvas`, sharp at the screen's pixel ratio: whole device pixels per
 * module, black on white whatever the colour scheme (a camera reads that best).
 * @param {HTMLCanvasElement} canvas
 * @param {boolean[][]} modules
 * @param {number} cssSize the canvas's width and height in CSS pixels
 */
export function drawQr(canvas, modules, cssSize) {
  const count = modules.length + 2 * QUIET;
  const ratio = window.devicePixelRatio || 1;
  const scale = Math.max(1, Math.floor((cssSize * ratio) / count));
  const size = scale * count;
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (!context) return;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size, size);
  context.fillStyle = '#000000';
  modules.forEach((row, y) => row.forEach((dark, x) => {
    if (dark) context.fillRect((x + QUIET) * scale, (y + QUIET) * scale, scale, scale);
  }));
}
