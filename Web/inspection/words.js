// A position and a fix's time as the inspection pages write them, in the page's language.
import { t, language } from '../app/i18n.js';
import { coordinateParts } from './status.js';

/**
 * "38.110501° N, 122.626923° W" in the page's language.
 * @param {number} latitude @param {number} longitude
 */
export function positionText(latitude, longitude) {
  const parts = coordinateParts(latitude, longitude, language());
  const letters = { N: t('sky.north'), S: t('sky.south'), E: t('sky.east'), W: t('sky.west') };
  return t('inspection.position.coordinates', { latitude: parts.latitude, ns: letters[parts.ns], longitude: parts.longitude, ew: letters[parts.ew] });
}

/** @param {number} milliseconds */
export function fixTimeText(milliseconds) {
  return new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(milliseconds));
}
