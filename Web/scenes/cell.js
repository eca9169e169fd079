// One cell of a grid of scenes, as /scenes and /me/scenes show it.
import { t, language } from '../app/i18n.js';
import { el } from '../app/dom.js';
import { sceneTitle, distanceText } from './format.js';

/** @typedef {import('./format.js').Scene} Scene */

/**
 * One cell of a scene grid: the reference thumbnail, square, with the scene's name (or day) and
 * its distance when known; the whole cell links to the scene. Also used by /me/scenes.
 * @param {Scene} scene
 * @param {import('../photos/format.js').UnitSystem} system
 */
export function sceneCell(scene, system) {
  const lang = language();
  const title = sceneTitle(scene, lang);
  const distance = distanceText(typeof scene.distance === 'number' ? scene.distance : null, lang, system);
  const label = distance ? t('scenes.cell.label', { title, distance }) : title;
  return el('li', { class: 'scene-cell' },
    el('a', { href: `/scenes/${encodeURIComponent(scene.id)}`, 'aria-label': label, 'data-scene': scene.id },
      el('img', { src: scene.reference.urls.thumb, alt: '', width: 256, height: 256, loading: 'lazy', decoding: 'async' }),
      el('span', { class: 'scene-cell-text' },
        el('span', { class: 'scene-cell-title' }, title),
        distance ? el('span', { class: 'scene-cell-distance' }, distance) : null)));
}
