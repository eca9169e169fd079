// The pure parts of the retake camera and its comparison (issue #14 point 4, seed 001 §4.3 and
// §5): where the navigation rectangle sits on the camera view (eq. 4.17 through attitude.js) and
// whether the attitude matches the reference's, and what the comparison slider does to the two
// pictures — the new one laid over the reference with an opacity, or a side-by-side wipe.
// Web/app/pages/scene-retake.js draws them; Tests/Web/unit/scenes-compare.test.mjs checks them.
import { navigationRectangleCentre } from './attitude.js';

/** @typedef {import('./attitude.js').Quaternion} Quaternion */

/** How close to the middle, as a fraction of the view's smaller side, counts as matching. */
export const MATCH_FRACTION = 0.02;

/**
 * The navigation rectangle on a view of width × height: its centre (eq. 4.17), how far that is
 * from the middle in pixels, and whether that is close enough to say the attitude matches.
 * @param {Quaternion} reference @param {Quaternion} current @param {number} width @param {number} height
 * @returns {{x: number, y: number, dx: number, dy: number, matched: boolean}}
 */
export function rectangleOnView(reference, current, width, height) {
  const { x, y } = navigationRectangleCentre(reference, current, width, height);
  const dx = x - width / 2, dy = y - height / 2;
  return { x, y, dx, dy, matched: Math.hypot(dx, dy) <= MATCH_FRACTION * Math.min(width, height) };
}

/**
 * A slider's value (0…100) as a fraction 0…1; anything else (empty, not a number) is the middle.
 * @param {string | number} value
 */
export function sliderFraction(value) {
  const number = Number(value);
  if (!Number.isFinite(number) || (typeof value === 'string' && value.trim() === '')) return 0.5;
  return Math.min(1, Math.max(0, number / 100));
}

/**
 * What the comparison shows for a slider value: in `overlay` mode the new picture lies over the
 * reference with `opacity`; in `wipe` mode it is shown fully opaque right of `split` (a fraction
 * of the width from the left) and the reference left of it.
 * @param {'overlay' | 'wipe'} mode @param {string | number} value the slider, 0…100
 * @returns {{opacity: number, split: number}}
 */
export function comparisonLayers(mode, value) {
  const fraction = sliderFraction(value);
  return mode === 'wipe' ? { opacity: 1, split: fraction } : { opacity: fraction, split: 0 };
}
