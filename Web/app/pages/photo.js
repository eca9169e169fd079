// `/photos/:id`: the photo, large, with its title, day and owner, its place on a small map,
// Save (the large image as a download), PDF (the server's report: the photo, its data, receipt
// and a map, GET /api/v1/photos/{id}.pdf), stepping to the next/previous result of the search it
// came from (arrow keys, swipe, links), and for its owner: title, visibility and delete.
import { t, formatDate } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { call, target, ApiError } from '../api.js';
import { describeError } from '../errors.js';
import { announce } from '../status.js';
import { currentUser } from '../session.js';
import { neighbours, swipeDirection } from '../../photos/format.js';
import { rememberedResults, resultsChanged } from '../../photos/browse.js';
import { loadLeaflet, tileSource, tileLayer } from '../../photos/leaflet.js';

/** @typedef {import('../../photos/photo-card.js').Photo} Photo */
/** @typedef {import('../router.js').PageContext} PageContext */

export const titleKey = 'page.photo.title';

/**
 * @param {HTMLElement} root
 * @param {PageContext} context
 */
export async function render(root, context) {
  const id = context.params.id ?? '';
  /** @type {Photo} */
  let photo;
  try {
    photo = await call('getPhoto', { path: { photo_id: id } });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    root.replaceChildren(
      el('h1', {}, t(error.status === 404 ? 'photo.notFound' : 'photo.failed')),
      error.status === 404 ? '' : el('p', { class: 'form-error' }, describeError(error, t)),
      el('p', {}, el('a', { href: '/' }, t('photo.back'))));
    return;
  }
  const user = await currentUser();
  const mine = user !== null && user.id.toLowerCase() === photo.owner.id.toLowerCase();
  context.title(photo.title);

  const results = rememberedResults();
  const steps = neighbours(results, photo.id);
  /** @param {string | null} other */
  const go = (other) => { if (other) context.navigate(`/photos/${encodeURIComponent(other)}`); };

  const image = el('img', {
    class: 'photo-large', src: photo.urls.medium, alt: photo.title,
    srcset: `${photo.urls.medium} 1024w, ${photo.urls.large} 2048w`, sizes: '(min-width: 40rem) 40rem, 100vw',
    width: photo.width, height: photo.height, decoding: 'async',
  });
  const figure = el('figure', { class: 'photo-view' }, image);
  // Tapping the photo shows it full screen (seed 004: "tap on a marker to view full screen
  // photos"); tapping again, or Escape, comes back.
  if (document.fullscreenEnabled) {
    image.classList.add('zoomable');
    image.addEventListener('click', () => {
      if (document.fullscreenElement) void document.exitFullscreen();
      else void figure.requestFullscreen().catch(() => {});
    });
  }
  /** @type {{x: number, y: number} | null} */
  let touch = null;
  figure.addEventListener('touchstart', (event) => {
    const first = event.touches[0];
    touch = event.touches.length === 1 && first ? { x: first.clientX, y: first.clientY } : null;
  }, { passive: true });
  figure.addEventListener('touchend', (event) => {
    const last = event.changedTouches[0];
    if (!touch || !last) return;
    const direction = swipeDirection(last.clientX - touch.x, last.clientY - touch.y);
    touch = null;
    if (direction) go(direction === 'next' ? steps.next : steps.previous);
  });

  /** @param {KeyboardEvent} event */
  const onKey = (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (target && target.closest('input, textarea, select, [contenteditable], dialog')) return;
    if (event.key === 'ArrowRight' && steps.next) { event.preventDefault(); go(steps.next); }
    if (event.key === 'ArrowLeft' && steps.previous) { event.preventDefault(); go(steps.previous); }
  };
  document.addEventListener('keydown', onKey);

  const stepper = steps.index >= 0 && results.length > 1
    ? el('nav', { class: 'photo-steps', 'aria-label': t('photo.steps') },
        steps.previous ? el('a', { class: 'button', rel: 'prev', href: `/photos/${encodeURIComponent(steps.previous)}` }, t('photo.previous')) : el('span'),
        el('span', { class: 'hint' }, t('photo.position', { index: steps.index + 1, count: results.length })),
        steps.next ? el('a', { class: 'button', rel: 'next', href: `/photos/${encodeURIComponent(steps.next)}` }, t('photo.next')) : el('span'))
    : null;

  const hasPlace = typeof photo.latitude === 'number' && typeof photo.longitude === 'number';
  const owner = photo.owner.displayName || photo.owner.username;
  const save = el('a', { class: 'button primary', href: photo.urls.large, download: downloadName(photo.title) }, t('photo.save'));
  // The server names the file (Content-Disposition) and decides what the viewer may see in it.
  const pdf = el('a', { class: 'button', href: target('getPhoto', { path: { photo_id: `${photo.id}.pdf` } }), download: '', 'aria-label': t('photo.pdf.label') }, t('photo.pdf'));
  const mapBox = hasPlace ? el('div', { class: 'photo-map', role: 'img', 'aria-label': t('photo.mapLabel') }) : null;

  const heading = el('h1', { class: 'photo-title' }, photo.title);
  const badge = el('span', { class: 'badge', hidden: photo.visibility !== 'private' }, t('photo.private'));
  root.replaceChildren(
    figure,
    heading,
    el('p', { class: 'photo-meta' },
      el('time', { datetime: photo.capturedAt }, formatDate(photo.capturedAt)),
      ' · ', t('photo.by', { name: owner }),
      badge),
    el('p', { class: 'actions' }, save, pdf,
      hasPlace ? el('a', { class: 'button', href: `/map?lat=${photo.latitude}&lon=${photo.longitude}&z=17` }, t('photo.onMap')) : null),
    stepper ?? '',
    mapBox ?? el('p', { class: 'hint' }, t('photo.noPlace')),
    mine ? ownerTools(photo, { heading, badge }, context) : '');

  if (mapBox && hasPlace) void smallMap(mapBox, /** @type {number} */ (photo.latitude), /** @type {number} */ (photo.longitude));
  return () => {
    document.removeEventListener('keydown', onKey);
    if (document.fullscreenElement) void document.exitFullscreen();
  };
}

/**
 * A file name for the download: the title without characters file systems refuse.
 * @param {string} title
 */
function downloadName(title) {
  const name = title.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '-').replace(/\s+/g, ' ').trim().slice(0, 100);
  return `${name || 'photo'}.jpg`;
}

/**
 * @param {HTMLElement} box
 * @param {number} latitude
 * @param {number} longitude
 */
async function smallMap(box, latitude, longitude) {
  try {
    const [L, source] = await Promise.all([loadLeaflet(), tileSource()]);
    if (!box.isConnected) return;
    const map = L.map(box, { zoomControl: false, dragging: false, scrollWheelZoom: false, touchZoom: false, doubleClickZoom: false, boxZoom: false, keyboard: false, tap: false });
    map.attributionControl.setPrefix('');
    tileLayer(L, source).addTo(map);
    map.setView([latitude, longitude], 16);
    L.marker([latitude, longitude], { keyboard: false, interactive: false, icon: L.divIcon({ className: 'place-dot', iconSize: [18, 18] }) }).addTo(map);
  } catch (error) {
    box.replaceWith(el('p', { class: 'hint' }, t('map.unavailable')));
    console.warn('Waymark: no map:', error);
  }
}

/**
 * The owner's controls: title and visibility, and delete with confirmation.
 * @param {Photo} photo
 * @param {{heading: HTMLElement, badge: HTMLElement}} shown the parts of the page that show what is edited
 * @param {PageContext} context
 */
function ownerTools(photo, { heading, badge }, context) {
  const titleId = uniqueId('photo-title');
  const titleInput = el('input', { id: titleId, name: 'title', value: photo.title, maxlength: 200, autocomplete: 'off' });
  const radio = /** @param {'public' | 'private'} value @param {string} key */ (value, key) => {
    const radioId = uniqueId(`visibility-${value}`);
    return el('div', { class: 'choice' },
      el('input', { type: 'radio', id: radioId, name: 'visibility', value, checked: photo.visibility === value }),
      el('label', { for: radioId }, t(key)));
  };
  // A private photo with a place that is made public: its place is published only if the owner
  // ticks this (seed 004's consent, as on upload); unticked, the photo goes public without it.
  const hadPlace = typeof photo.latitude === 'number';
  const placeId = uniqueId('publish-place');
  const placeBox = el('input', { id: placeId, name: 'usePhotoPlace', type: 'checkbox', 'aria-describedby': `${placeId}-hint` });
  const placeField = el('div', { class: 'place-consent', hidden: true },
    el('div', { class: 'choice' }, placeBox, el('label', { for: placeId }, t('upload.place'))),
    el('p', { class: 'hint', id: `${placeId}-hint` }, t('photo.edit.placeHint')));
  const chosenVisibility = () => /** @type {Photo['visibility']} */ (/** @type {HTMLInputElement | null} */ (form.querySelector('input[name=visibility]:checked'))?.value ?? photo.visibility);
  const asksForPlace = () => hadPlace && photo.visibility === 'private' && chosenVisibility() === 'public';
  const error = el('p', { class: 'form-error', role: 'alert' });
  const saveButton = el('button', { type: 'submit', class: 'primary' }, t('photo.edit.save'));
  const form = el('form', { class: 'photo-edit', novalidate: true },
    el('div', { class: 'field' }, el('label', { for: titleId }, t('photo.edit.title')), titleInput),
    el('fieldset', { class: 'choices' }, el('legend', {}, t('upload.visibility')),
      radio('public', 'upload.public'), radio('private', 'upload.private'), placeField),
    error, saveButton);
  form.addEventListener('change', () => { placeField.hidden = !asksForPlace(); });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const visibility = chosenVisibility();
    /** @type {import('../api.js').Operations['editPhoto']['body']} */
    const edit = { title: titleInput.value.trim(), visibility };
    if (asksForPlace()) edit.usePhotoPlace = placeBox.checked;
    error.textContent = '';
    saveButton.disabled = true;
    try {
      /** @type {Photo} */
      const changed = await call('editPhoto', { path: { photo_id: photo.id }, body: edit });
      if (hadPlace && typeof changed.latitude !== 'number') {
        // The place was withdrawn: draw the page anew, without its map.
        resultsChanged();
        announce(t('photo.edit.saved'));
        context.refresh();
        return;
      }
      Object.assign(photo, changed);
      placeField.hidden = !asksForPlace();
      resultsChanged();
      heading.textContent = changed.title;
      badge.hidden = changed.visibility !== 'private';
      titleInput.value = changed.title;
      context.title(changed.title);
      announce(t('photo.edit.saved'));
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      error.textContent = describeError(failure, t);
    } finally {
      saveButton.disabled = false;
    }
  });

  const confirmText = el('p', { id: uniqueId('delete-text') }, t('photo.delete.confirm', { title: photo.title }));
  const yes = el('button', { type: 'button', class: 'danger' }, t('photo.delete.yes'));
  const no = el('button', { type: 'button' }, t('photo.delete.no'));
  const dialog = el('dialog', { 'aria-labelledby': confirmText.id }, confirmText, el('p', { class: 'actions' }, no, yes));
  const remove = el('button', {
    type: 'button', class: 'danger',
    onclick: () => { confirmText.textContent = t('photo.delete.confirm', { title: photo.title }); dialog.showModal(); no.focus(); },
  }, t('photo.delete'));
  no.addEventListener('click', () => dialog.close());
  yes.addEventListener('click', async () => {
    dialog.close();
    try {
      await call('deletePhoto', { path: { photo_id: photo.id } });
      resultsChanged();
      announce(t('photo.deleted', { title: photo.title }));
      context.navigate('/');
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      error.textContent = describeError(failure, t);
    }
  });

  return el('section', { class: 'card', 'aria-labelledby': 'owner-heading' },
    el('h2', { id: 'owner-heading' }, t('photo.edit.heading')),
    form, el('p', { class: 'actions' }, remove), dialog);
}
