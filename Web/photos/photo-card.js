// One photo of a result list: its thumbnail, title, distance and day, linking to its page.
import { el } from '../app/dom.js';
import { t, language } from '../app/i18n.js';
import { formatDistance, formatDay } from './format.js';

/** @typedef {import('../app/contract.js').Photo} Photo a photo as the API answers it */

/**
 * @param {Photo} photo
 * @param {import('./format.js').UnitSystem} system
 */
export function photoCard(photo, system) {
  const lang = language();
  const distance = typeof photo.distance === 'number' ? formatDistance(photo.distance, lang, system) : null;
  const day = formatDay(photo.capturedAt, lang);
  return el('li', { class: 'photo-card' },
    el('a', { href: `/photos/${encodeURIComponent(photo.id)}`, 'aria-label': distance ? t('near.cardLabel', { title: photo.title, distance, day }) : photo.title },
      el('img', { src: photo.urls.thumb, alt: '', width: 256, height: 256, loading: 'lazy', decoding: 'async' }),
      el('span', { class: 'photo-card-title' }, photo.title),
      el('span', { class: 'photo-card-meta' },
        distance ? el('span', { class: 'distance' }, distance) : null,
        el('time', { datetime: photo.capturedAt }, day),
        photo.visibility === 'private' ? el('span', { class: 'badge' }, t('photo.private')) : null)));
}
