// The field-inspection settings of this phone (seed 003's Settings screen, issue #15 point 7):
// whether evidence photos average the position over the last N fixes (the centroid of their
// convex hull, DESIGN §3.10) and how many, the accuracy a fix needs before the shutter is enabled,
// and how still the phone must be. Kept in localStorage; SET DEFAULT VALUES restores DEFAULTS.
// The evidence camera reads them; the settings page writes them.

const KEY = 'waymark.inspection.settings';

/**
 * @typedef {object} InspectionSettings
 * @property {boolean} centroid average the position of a photo over `samples` fixes
 * @property {number} samples the centroid sampling number N (2…100)
 * @property {number} accuracy the largest horizontal accuracy (m) a fix may have for the shutter
 * @property {number} stillness the largest device acceleration (m/s², gravity removed) that
 *   counts as still; the phone must stay under it for 2 s
 */

/** @type {Readonly<InspectionSettings>} */
export const DEFAULTS = Object.freeze({ centroid: false, samples: 10, accuracy: 10, stillness: 0.6 });

export const SAMPLES_RANGE = Object.freeze({ min: 2, max: 100 });
/** The largest accuracy threshold (m) and stillness threshold (m/s²) the settings accept. */
export const ACCURACY_MAX = 1000;
export const STILLNESS_MAX = 20;

/**
 * The settings checked as the page and the camera need them: anything missing or out of range
 * takes its default, so a damaged entry never disables the camera.
 * @param {unknown} value
 * @returns {InspectionSettings}
 */
export function normalizeSettings(value) {
  const saved = /** @type {Record<string, unknown>} */ (value && typeof value === 'object' ? value : {});
  const number = (/** @type {unknown} */ candidate, /** @type {number} */ fallback, /** @type {(n: number) => boolean} */ valid) =>
    (typeof candidate === 'number' && Number.isFinite(candidate) && valid(candidate) ? candidate : fallback);
  return {
    centroid: typeof saved.centroid === 'boolean' ? saved.centroid : DEFAULTS.centroid,
    samples: number(saved.samples, DEFAULTS.samples, (n) => Number.isInteger(n) && n >= SAMPLES_RANGE.min && n <= SAMPLES_RANGE.max),
    accuracy: number(saved.accuracy, DEFAULTS.accuracy, (n) => n > 0 && n <= ACCURACY_MAX),
    stillness: number(saved.stillness, DEFAULTS.stillness, (n) => n > 0 && n <= STILLNESS_MAX),
  };
}

/**
 * The settings as written in the settings page's form (a decimal comma is read as a point).
 * Unlike normalizeSettings, nothing is replaced silently: each field that is wrong gets the key
 * of a message that says what to enter, and nothing is saved.
 * @param {{centroid: boolean, samples: string, accuracy: string, stillness: string}} form
 * @returns {{settings: InspectionSettings} | {errors: Partial<Record<'samples' | 'accuracy' | 'stillness', string>>}}
 */
export function readSettingsForm(form) {
  /** @type {Partial<Record<'samples' | 'accuracy' | 'stillness', string>>} */
  const errors = {};
  const number = (/** @type {string} */ text) => {
    const trimmed = text.trim().replace(',', '.');
    return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(trimmed) ? Number(trimmed) : NaN;
  };
  const samples = number(form.samples);
  if (!(Number.isInteger(samples) && samples >= SAMPLES_RANGE.min && samples <= SAMPLES_RANGE.max)) errors.samples = 'inspection.settings.samples.invalid';
  const accuracy = number(form.accuracy);
  if (!(accuracy > 0 && accuracy <= ACCURACY_MAX)) errors.accuracy = 'inspection.settings.accuracy.invalid';
  const stillness = number(form.stillness);
  if (!(stillness > 0 && stillness <= STILLNESS_MAX)) errors.stillness = 'inspection.settings.stillness.invalid';
  if (Object.keys(errors).length > 0) return { errors };
  return { settings: { centroid: form.centroid, samples, accuracy, stillness } };
}

/** @returns {InspectionSettings} */
export function loadInspectionSettings() {
  try {
    return normalizeSettings(JSON.parse(localStorage.getItem(KEY) ?? '{}'));
  } catch {
    return { ...DEFAULTS };
  }
}

/** @param {InspectionSettings} settings */
export function saveInspectionSettings(settings) {
  try { localStorage.setItem(KEY, JSON.stringify(normalizeSettings(settings))); } catch { /* private mode: not remembered */ }
}
