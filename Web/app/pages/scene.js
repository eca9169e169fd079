// `/scenes/:id` (seed 001, fig. 4.2): the reference photo with the scene's name and date, Retake
// (the camera of /scenes/:id/retake; signed out, a sign-in first), the address line from the
// server's gazetteer, Navigate (directions in the phone's own map app), the distance from the
// phone, the feet shot (where the photographer stood), the rephotographs in a horizontal strip,
// the timeline oldest first (GET …/timeline), and View on map (the reference above a small map,
// which the testers used more than Navigate). The creator can delete the scene, an author (or
// the creator) a rephotograph; both ask first.
import { t, language, formatDate } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { call, ApiError } from '../api.js';
import { describeError } from '../errors.js';
import { announce } from '../status.js';
import { currentUser } from '../session.js';
import { currentPosition } from '../../photos/position.js';
import { unitSystem } from '../../photos/format.js';
import { loadLeaflet, tileSource, tileLayer } from '../../photos/leaflet.js';
import {
  sceneTitle, distanceTo, distanceText, addressLine, streetLine, mapPlatform, directionsLink, isCreator,
  mayRemoveRephotograph, oldestFirst,
} from '../../scenes/format.js';

/** @typedef {import('../../scenes/format.js').Scene} Scene */
/** @typedef {import('../../scenes/format.js').Rephotograph} Rephotograph */
/** @typedef {import('../../scenes/format.js').TimelineEntry} TimelineEntry */
/** @typedef {import('../../photos/photo-card.js').Photo} Photo */
/** @typedef {import('../router.js').PageContext} PageContext */

export const titleKey = 'scenes.detail.title';

/** How near (m) the phone must be for View on map to show it beside the scene. */
const WALK = 3000;

/**
 * @param {HTMLElement} root
 * @param {PageContext} context
 */
export async function render(root, context) {
  const { signal } = context;
  const id = context.params.id ?? '';
  /** @type {Scene} */
  let scene;
  try {
    // The street address (when the server has a geocoder) comes in the page's language.
    scene = await call('getScene', { path: { scene_id: id }, headers: { 'Accept-Language': language() } });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const missing = error.status === 404;
    root.replaceChildren(
      el('h1', {}, t(missing ? 'scenes.detail.notFound' : 'scenes.detail.failed')),
      el('p', { class: missing ? 'hint' : 'form-error' }, missing ? t('scenes.detail.notFoundHint') : describeError(error, t)),
      el('p', { class: 'actions' }, el('a', { class: 'button primary', href: '/scenes' }, t('scenes.detail.back'))));
    return;
  }
  const user = await currentUser();
  const lang = language();
  const system = unitSystem(navigator.language);
  const title = sceneTitle(scene, lang);
  context.title(title);
  const base = `/scenes/${encodeURIComponent(scene.id)}`;
  const error = el('p', { class: 'form-error', role: 'alert' });

  // The reference, edge to edge, with its name and date.
  const reference = scene.reference;
  const header = el('figure', { class: 'scene-hero' },
    el('img', {
      class: 'scene-reference', src: reference.urls.medium, alt: t('scenes.detail.referenceAlt', { title }),
      srcset: `${reference.urls.medium} 1024w, ${reference.urls.large} 2048w`, sizes: '(min-width: 40rem) 40rem, 100vw',
      width: reference.width, height: reference.height, decoding: 'async',
    }));
  const creator = scene.creator.displayName || scene.creator.username;

  // Retake: the camera for people who are signed in; the others are asked to sign in first.
  const retake = user
    ? el('a', { class: 'button primary', href: `${base}/retake` }, t('scenes.detail.retake'))
    : el('a', { class: 'button primary', href: '/account#sign-in' }, t('scenes.detail.signInToRetake'));
  const platform = mapPlatform(navigator.userAgent, navigator.maxTouchPoints);
  const navigate = el('a', {
    class: 'button', href: directionsLink({ latitude: scene.latitude, longitude: scene.longitude, label: title }, platform),
    rel: 'noopener', target: platform === 'other' ? '_blank' : null, 'data-platform': platform,
  }, t('scenes.detail.navigate'));
  const mapToggle = el('button', { type: 'button', 'aria-expanded': 'false' }, t('scenes.detail.viewOnMap'));

  const address = addressLine(scene, lang,
    { near: t('scenes.address.near'), remote: t('scenes.address.remote'), compass: t('scenes.address.compass').split(',') });
  const street = streetLine(scene);
  const distance = el('p', { class: 'scene-distance', 'aria-live': 'polite', hidden: true });

  const onMap = el('section', { class: 'scene-on-map', id: uniqueId('scene-place-map'), hidden: true, 'aria-label': t('scenes.detail.mapHeading') },
    el('img', { class: 'scene-on-map-reference', src: reference.urls.medium, alt: t('scenes.detail.referenceAlt', { title }), width: reference.width, height: reference.height }),
    el('div', { class: 'scene-place-map', role: 'img', 'aria-label': t('scenes.detail.mapLabel', { title }) }));
  mapToggle.setAttribute('aria-controls', onMap.id);
  /** @type {(() => void) | null} */
  let removeMap = null;
  /** @type {{latitude: number, longitude: number} | null} where the phone is, once known */
  let here = null;
  mapToggle.addEventListener('click', () => {
    const open = onMap.hidden;
    onMap.hidden = !open;
    mapToggle.setAttribute('aria-expanded', String(open));
    mapToggle.textContent = t(open ? 'scenes.detail.hideMap' : 'scenes.detail.viewOnMap');
    if (open && !removeMap) {
      const box = /** @type {HTMLElement} */ (onMap.querySelector('.scene-place-map'));
      removeMap = () => {};
      void smallMap(box, scene, here).then((remove) => { if (!signal.aborted) removeMap = remove; else remove(); });
    }
    if (open) onMap.scrollIntoView({ block: 'start', behavior: 'smooth' });
  });

  const feet = scene.feetShot
    ? el('figure', { class: 'scene-feet-shot' },
        el('img', { src: scene.feetShot.urls.medium, alt: t('scenes.detail.feetAlt'), width: scene.feetShot.width, height: scene.feetShot.height, loading: 'lazy', decoding: 'async' }),
        el('figcaption', { class: 'hint' }, t('scenes.detail.feetHint')))
    : el('p', { class: 'hint' }, t('scenes.detail.noFeet'));

  const rephotographs = scene.rephotographs ?? [];
  const strip = el('ul', { class: 'scene-strip', 'aria-label': t('scenes.detail.rephotographs') });
  const stripHeading = el('h2', { id: uniqueId('rephotographs') }, t('scenes.detail.rephotographsCount', { count: rephotographs.length }));
  const timeline = el('ol', { class: 'scene-timeline', 'aria-busy': 'true' });
  const timelineMessage = el('p', { class: 'hint', 'aria-live': 'polite' }, t('scenes.detail.timelineLoading'));

  /** @param {Rephotograph} item */
  const stripItem = (item) => {
    const by = item.photo.owner.displayName || item.photo.owner.username;
    const remove = mayRemoveRephotograph(user, scene, item)
      ? el('button', { type: 'button', class: 'danger small', 'aria-label': t('scenes.detail.removeLabel', { name: by, date: formatDate(item.photo.capturedAt, lang) }) }, t('scenes.detail.remove'))
      : null;
    remove?.addEventListener('click', () => confirmThen(t('scenes.detail.removeConfirm', { name: by }), t('scenes.detail.removeYes'), async () => {
      await call('removeRephotograph', { path: { scene_id: scene.id, photo_id: item.photo.id } });
      announce(t('scenes.detail.removed'));
      context.refresh();
    }));
    return el('li', { class: 'scene-strip-item' },
      el('a', { href: `/photos/${encodeURIComponent(item.photo.id)}`, 'aria-label': t('scenes.detail.rephotographLabel', { name: by, date: formatDate(item.photo.capturedAt, lang) }) },
        el('img', { src: item.photo.urls.thumb, alt: '', width: 256, height: 256, loading: 'lazy', decoding: 'async' }),
        el('span', { class: 'scene-strip-meta' },
          el('time', { datetime: item.photo.capturedAt }, formatDate(item.photo.capturedAt, lang)),
          el('span', {}, by))),
      remove);
  };
  strip.append(...oldestFirst(rephotographs).map(stripItem));

  // Asking before anything is deleted: one dialog for the page.
  const confirmText = el('p', { id: uniqueId('confirm-text') });
  const yes = el('button', { type: 'button', class: 'danger' });
  const no = el('button', { type: 'button' }, t('scenes.detail.keep'));
  const dialog = el('dialog', { 'aria-labelledby': confirmText.id }, confirmText, el('p', { class: 'actions' }, no, yes));
  /** @type {(() => Promise<void>) | null} */
  let pending = null;
  /** @param {string} question @param {string} yesText @param {() => Promise<void>} action */
  function confirmThen(question, yesText, action) {
    confirmText.textContent = question;
    yes.textContent = yesText;
    pending = action;
    dialog.showModal();
    no.focus();
  }
  no.addEventListener('click', () => { pending = null; dialog.close(); });
  yes.addEventListener('click', async () => {
    const action = pending;
    pending = null;
    dialog.close();
    if (!action) return;
    error.textContent = '';
    try {
      await action();
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      error.textContent = describeError(failure, t);
    }
  });

  const deleteScene = isCreator(user, scene)
    ? el('section', { class: 'card scene-owner', 'aria-labelledby': 'scene-owner-heading' },
        el('h2', { id: 'scene-owner-heading' }, t('scenes.detail.ownerHeading')),
        el('p', { class: 'hint' }, t('scenes.detail.deleteHint')),
        el('p', { class: 'actions' }, el('button', {
          type: 'button', class: 'danger',
          onclick: () => confirmThen(
            scene.rephotographCount > 0 ? t('scenes.detail.deleteConfirm', { title, count: scene.rephotographCount }) : t('scenes.detail.deleteConfirmNone', { title }),
            t('scenes.detail.deleteYes'), async () => {
              await call('deleteScene', { path: { scene_id: scene.id } });
              announce(t('scenes.detail.deleted', { title }));
              context.navigate('/me/scenes');
            }),
        }, t('scenes.detail.delete'))))
    : '';

  root.replaceChildren(
    header,
    el('h1', { class: 'scene-title' }, title),
    el('p', { class: 'scene-meta' },
      el('time', { datetime: scene.capturedAt }, formatDate(scene.capturedAt, lang)),
      ' · ', t('scenes.detail.by', { name: creator })),
    el('p', { class: 'actions' }, retake, navigate, mapToggle),
    user ? '' : el('p', { class: 'hint' }, t('scenes.detail.signInHint')),
    street ? el('p', { class: 'scene-street' }, el('span', { class: 'visually-hidden' }, t('scenes.detail.street')), street.line) : '',
    el('p', { class: 'scene-address' }, el('span', { class: 'visually-hidden' }, t('scenes.detail.address')), address.line),
    address.source || street
      ? el('p', { class: 'hint scene-attribution' },
        [address.source ? t('scenes.detail.attribution', { source: address.source }) : '', street ? t('scenes.detail.streetAttribution', { source: street.source }) : '']
          .filter(Boolean).join(' · '))
      : '',
    distance,
    error,
    onMap,
    el('section', { 'aria-labelledby': 'scene-feet-shot-heading' }, el('h2', { id: 'scene-feet-shot-heading' }, t('scenes.detail.feet')), feet),
    el('section', { 'aria-labelledby': stripHeading.id }, stripHeading,
      rephotographs.length > 0 ? strip : el('p', { class: 'hint' }, t('scenes.detail.noRephotographs'))),
    el('section', { 'aria-labelledby': 'scene-timeline-heading' }, el('h2', { id: 'scene-timeline-heading' }, t('scenes.detail.timeline')), timelineMessage, timeline),
    deleteScene,
    dialog);

  // The timeline, oldest first.
  void call('sceneTimeline', { path: { scene_id: scene.id } }).then(
    (/** @type {{items: TimelineEntry[]}} */ answer) => {
      if (signal.aborted) return;
      const items = oldestFirst(answer.items);
      timeline.replaceChildren(...items.map((entry) => {
        const by = entry.photo.owner.displayName || entry.photo.owner.username;
        return el('li', { class: `scene-timeline-item ${entry.kind}` },
          el('a', { href: `/photos/${encodeURIComponent(entry.photo.id)}` },
            el('img', { src: entry.photo.urls.thumb, alt: '', width: 256, height: 256, loading: 'lazy', decoding: 'async' }),
            el('span', { class: 'scene-timeline-text' },
              el('time', { datetime: entry.photo.capturedAt }, formatDate(entry.photo.capturedAt, lang)),
              el('span', { class: 'scene-timeline-kind' }, t(entry.kind === 'reference' ? 'scenes.detail.kindReference' : 'scenes.detail.kindRephotograph')),
              el('span', { class: 'hint' }, by))));
      }));
      timelineMessage.textContent = t('scenes.detail.timelineCount', { count: items.length });
    },
    (failure) => {
      if (!(failure instanceof ApiError)) throw failure;
      if (!signal.aborted) { timelineMessage.textContent = describeError(failure, t); timelineMessage.className = 'form-error'; }
    },
  ).finally(() => timeline.removeAttribute('aria-busy'));

  // The distance from the phone, when the browser tells the position (a refusal only leaves it out).
  void currentPosition({ maximumAge: 60000, timeout: 15000 }).then((position) => {
    if (signal.aborted) return;
    here = position;
    const text = distanceText(distanceTo(scene, position), lang, system);
    if (!text) return;
    distance.textContent = t('scenes.detail.distance', { distance: text });
    distance.hidden = false;
    navigate.setAttribute('href', directionsLink({ latitude: scene.latitude, longitude: scene.longitude, label: title }, platform, position));
  }, () => {});

  return () => {
    removeMap?.();
    if (dialog.open) dialog.close();
  };
}

/**
 * The small map of View on map: the scene's place as a dot, to be moved and zoomed for a look
 * around (the page scrolls past it: the wheel does not zoom).
 * @param {HTMLElement} box
 * @param {Scene} scene
 * @param {{latitude: number, longitude: number} | null} here the phone, shown too when known and near
 * @returns {Promise<() => void>} removes the map
 */
async function smallMap(box, scene, here) {
  try {
    const [L, source] = await Promise.all([loadLeaflet(), tileSource()]);
    if (!box.isConnected) return () => {};
    const map = L.map(box, { zoomControl: true, scrollWheelZoom: false, dragging: true, tap: false });
    map.attributionControl.setPrefix('');
    tileLayer(L, source).addTo(map);
    map.setView([scene.latitude, scene.longitude], 17);
    L.marker([scene.latitude, scene.longitude], { keyboard: false, interactive: false, icon: L.divIcon({ className: 'place-dot', iconSize: [18, 18] }) }).addTo(map);
    // Within walking distance the map shows the phone too, so that the way there can be seen.
    const away = here ? distanceTo({ latitude: scene.latitude, longitude: scene.longitude }, here) : null;
    if (here && away !== null && away < WALK) {
      L.marker([here.latitude, here.longitude], { keyboard: false, interactive: false, zIndexOffset: -1000, icon: L.divIcon({ className: 'place-dot me', iconSize: [18, 18] }) }).addTo(map);
      map.fitBounds(L.latLngBounds([[scene.latitude, scene.longitude], [here.latitude, here.longitude]]), { padding: [32, 32], maxZoom: 17 });
    }
    return () => map.remove();
  } catch (error) {
    box.replaceWith(el('p', { class: 'hint' }, t('map.unavailable')));
    console.warn('Waymark: no map:', error);
    return () => {};
  }
}
