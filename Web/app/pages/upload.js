// `/upload` (seed 004's Camera screen): take a photo with the phone's camera, see it, name it
// (empty: the server's `PShare: …` title), choose whether its place is published and who sees
// it, and send it with the phone's position. Every upload goes through the queue: offline it
// waits in IndexedDB and goes when the network is back; one the server refused offers Try
// again or Discard.
import { t, language } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { currentUser } from '../session.js';
import { announce } from '../status.js';
import { currentPosition, positionMessageKey } from '../../photos/position.js';
import { formatDistance, unitSystem, captureTime } from '../../photos/format.js';
import { uploads, onUploadEvent, describeUploadError } from '../../photos/uploads.js';

/** @typedef {import('../../photos/upload-queue.js').QueuedUpload} QueuedUpload */
/** @typedef {import('../../photos/position.js').Position} Position */

export const titleKey = 'page.upload.title';

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export async function render(root, { signal }) {
  const user = await currentUser();
  // Offline, who is signed in cannot be asked: the form is shown, and a photo taken now waits
  // in the queue (the server says not_signed_in when it is sent, if so).
  if (!user && navigator.onLine) {
    root.replaceChildren(
      el('h1', {}, t('upload.heading')),
      el('div', { class: 'card' },
        el('p', {}, t('upload.signInFirst')),
        el('p', { class: 'actions' },
          el('a', { class: 'button primary', href: '/account#sign-in' }, t('home.signIn')),
          el('a', { class: 'button', href: '/account#sign-up' }, t('home.signUp')))));
    return;
  }
  const queue = uploads();
  const system = unitSystem(navigator.language);
  /** @type {Position | null} */
  let position = null;
  let positionAt = 0;
  /** @type {number | null} when the chosen photo was picked */
  let pickedAt = null;
  /** @type {string | null} */
  let previewUrl = null;

  const fileId = uniqueId('photo-file');
  const file = el('input', { id: fileId, name: 'photo', type: 'file', accept: 'image/*', capture: 'environment', class: 'file-input', required: true });
  const preview = el('img', { class: 'upload-preview', alt: t('upload.previewAlt'), hidden: true });
  const pick = el('label', { for: fileId, class: 'button camera' }, t('upload.take'));
  const titleId = uniqueId('title');
  const title = el('input', { id: titleId, name: 'title', maxlength: 200, autocomplete: 'off', placeholder: t('upload.titlePlaceholder'), 'aria-describedby': `${titleId}-hint` });
  const placeId = uniqueId('place');
  const place = el('input', { id: placeId, name: 'place', type: 'checkbox', checked: true, 'aria-describedby': `${placeId}-hint` });
  const radio = /** @param {'public' | 'private'} value @param {string} key */ (value, key) => {
    const radioId = uniqueId(`visibility-${value}`);
    return el('div', { class: 'choice' },
      el('input', { type: 'radio', id: radioId, name: 'visibility', value, checked: value === 'public' }),
      el('label', { for: radioId }, t(key)));
  };
  const where = el('p', { class: 'hint position-line', 'aria-live': 'polite' }, t('position.finding'));
  const error = el('p', { class: 'form-error', role: 'alert' });
  const send = el('button', { type: 'submit', class: 'primary' }, t('upload.submit'));
  const form = el('form', { class: 'upload card', novalidate: true },
    el('div', { class: 'field' }, pick, file, preview),
    el('div', { class: 'field' },
      el('label', { for: titleId }, t('upload.title')), title,
      el('p', { class: 'hint', id: `${titleId}-hint` }, t('upload.titleHint'))),
    el('div', { class: 'field check' },
      el('div', { class: 'choice' }, place, el('label', { for: placeId }, t('upload.place'))),
      el('p', { class: 'hint', id: `${placeId}-hint` }, t('upload.placeHint'))),
    el('fieldset', { class: 'choices' }, el('legend', {}, t('upload.visibility')), radio('public', 'upload.public'), radio('private', 'upload.private')),
    where, error, send);

  file.addEventListener('change', () => {
    const chosen = file.files?.[0];
    pickedAt = chosen ? Date.now() : null;
    if (previewUrl) URL.revokeObjectURL(previewUrl);
    previewUrl = chosen ? URL.createObjectURL(chosen) : null;
    preview.hidden = !previewUrl;
    if (previewUrl) preview.src = previewUrl; else preview.removeAttribute('src');
    pick.textContent = t(chosen ? 'upload.retake' : 'upload.take');
    error.textContent = '';
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) { error.textContent = t('upload.noPhoto'); pick.focus(); return; }
    /** @type {Record<string, string>} */
    const fields = {};
    if (title.value.trim()) fields.title = title.value.trim();
    const visibility = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name=visibility]:checked'))?.value ?? 'public';
    fields.visibility = visibility;
    const taken = captureTime(chosen.lastModified, pickedAt ?? Date.now());
    if (taken) fields.capturedAt = taken;
    send.disabled = true;
    if (place.checked && Date.now() - positionAt > 60000) {
      // The position is a minute old or missing: ask once more, briefly (it works offline too).
      try { await locate({ maximumAge: 10000, timeout: 5000 }); } catch { /* the last one known, or none */ }
    }
    if (place.checked) {
      fields.usePhotoPlace = 'true';
      if (position) {
        fields.latitude = String(position.latitude);
        fields.longitude = String(position.longitude);
        fields.accuracy = String(Math.round(position.accuracy * 10) / 10);
        if (position.altitude !== null) fields.altitude = String(position.altitude);
      }
    }
    try {
      const data = await chosen.arrayBuffer();
      await queue.add({ data, name: chosen.name || 'image.jpg', type: chosen.type || 'application/octet-stream', fields });
      form.reset();
      file.dispatchEvent(new Event('change'));
      void queue.drain();
    } catch (failure) {
      error.textContent = t('upload.storeFailed');
      console.warn('Waymark: could not queue the upload:', failure);
    } finally {
      send.disabled = false;
    }
  });

  const pending = el('ul', { class: 'uploads' });
  const pendingSection = el('section', { class: 'card', 'aria-labelledby': 'uploads-heading', hidden: true },
    el('h2', { id: 'uploads-heading' }, t('upload.queue.heading')), pending);
  /** @type {Map<string, number>} */
  const progress = new Map();

  /** @param {QueuedUpload} item */
  function row(item) {
    const words = item.state === 'failed' && item.error ? t('upload.state.failed', { reason: describeUploadError(item.error) })
      : item.state === 'sending' ? t('upload.state.sending', { percent: Math.round((progress.get(item.id) ?? 0) * 100) })
      : t('upload.state.waiting');
    const name = item.fields.title || item.name;
    return el('li', { class: `upload-item ${item.state}` },
      el('span', { class: 'upload-name' }, name),
      el('span', { class: 'upload-state' }, words),
      item.state === 'failed'
        ? el('span', { class: 'actions' },
            el('button', { type: 'button', 'aria-label': t('upload.retryLabel', { name }), onclick: () => void queue.retry(item.id) }, t('upload.retry')),
            el('button', { type: 'button', class: 'danger', 'aria-label': t('upload.discardLabel', { name }), onclick: () => void queue.discard(item.id) }, t('upload.discard')))
        : item.state === 'sending' ? el('progress', { max: 100, value: Math.round((progress.get(item.id) ?? 0) * 100), 'aria-label': t('upload.progressLabel', { name }) }) : null);
  }

  const done = el('ul', { class: 'uploads done' });
  async function redraw() {
    const items = await queue.list();
    if (signal.aborted) return;
    pending.replaceChildren(...items.map(row));
    pendingSection.hidden = items.length === 0;
  }

  const stop = onUploadEvent((event) => {
    if (event.type === 'progress') progress.set(event.item.id, event.fraction ?? 0);
    if (event.type === 'sent' && event.photo?.id) {
      done.prepend(el('li', {}, el('a', { href: `/photos/${encodeURIComponent(event.photo.id)}` }, t('upload.sentLink', { title: event.photo.title }))));
    }
    void redraw();
  });

  // What is waiting, failed or just arrived comes first: on a phone it is seen without scrolling.
  root.replaceChildren(
    el('h1', {}, t('upload.heading')),
    pendingSection, done, form);
  void redraw();

  /** @param {{maximumAge?: number, timeout?: number}} [options] */
  async function locate(options = {}) {
    const found = await currentPosition(options);
    if (signal.aborted) return;
    position = found;
    positionAt = Date.now();
    where.textContent = t('upload.positionFound', { accuracy: formatDistance(found.accuracy, language(), system) });
  }
  locate().catch((failure) => {
    if (signal.aborted || position) return;
    where.textContent = t('upload.positionMissing', { reason: t(positionMessageKey(failure)) });
    announce(where.textContent);
  });

  return () => { stop(); if (previewUrl) URL.revokeObjectURL(previewUrl); };
}
