// `/`: photos near me (seed 004's Browse screen): the position from the phone, a grid nearest
// first with distance and day, Update, a radius and a time filter, and More for the next page.
// Works without an account; a signed-in person also sees their private photos.
import { t, language } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { call, ApiError } from '../api.js';
import { describeError } from '../errors.js';
import { announce } from '../status.js';
import { currentUser } from '../session.js';
import { currentPosition, positionMessageKey } from '../../photos/position.js';
import { unitSystem, radiusChoices, formatRadius, formatDistance, timeRange, nearbyQuery, DEFAULT_RADIUS } from '../../photos/format.js';
import { rememberResults, takeResultsChanged } from '../../photos/browse.js';
import { photoCard } from '../../photos/photo-card.js';

/** @typedef {import('../../photos/photo-card.js').Photo} Photo */
/** @typedef {import('../../photos/position.js').Position} Position */
/** @typedef {import('../../photos/format.js').TimeChoice} TimeChoice */

export const titleKey = 'page.home.title';

/**
 * What the page showed last, so that coming back from a photo shows the same results (searched
 * again, at the same place, when they are five minutes old or a photo was uploaded since).
 * @type {{position: Position | null, radius: number, time: TimeChoice, from: string, to: string, items: Photo[], next: string | null, at: number}}
 */
const state = { position: null, radius: DEFAULT_RADIUS, time: 'any', from: '', to: '', items: [], next: null, at: 0 };
const FRESH = 5 * 60 * 1000;

const TIME_CHOICES = /** @type {Array<[TimeChoice, string]>} */ ([
  ['any', 'near.time.any'], ['day', 'near.time.day'], ['week', 'near.time.week'], ['year', 'near.time.year'], ['custom', 'near.time.custom'],
]);

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export async function render(root, { signal }) {
  const user = await currentUser();
  const lang = language();
  const system = unitSystem(navigator.language);

  const radiusId = uniqueId('radius');
  const radius = el('select', { id: radiusId, name: 'radius' },
    ...radiusChoices(system).map((meters) => el('option', { value: String(meters), selected: Math.abs(meters - state.radius) < 1 }, formatRadius(meters, lang, system))));
  const timeId = uniqueId('time');
  const time = el('select', { id: timeId, name: 'time' },
    ...TIME_CHOICES.map(([value, key]) => el('option', { value, selected: value === state.time }, t(key))));
  const fromInput = el('input', { id: uniqueId('from'), name: 'from', type: 'date', value: state.from });
  const toInput = el('input', { id: uniqueId('to'), name: 'to', type: 'date', value: state.to });
  const custom = el('div', { class: 'date-range', hidden: state.time !== 'custom' },
    el('div', { class: 'field' }, el('label', { for: fromInput.id }, t('near.from')), fromInput),
    el('div', { class: 'field' }, el('label', { for: toInput.id }, t('near.to')), toInput));
  const update = el('button', { type: 'submit', class: 'primary' }, t('near.update'));
  const form = el('form', { class: 'search card', 'aria-label': t('near.searchLabel') },
    el('div', { class: 'search-fields' },
      el('div', { class: 'field' }, el('label', { for: radiusId }, t('near.radius')), radius),
      el('div', { class: 'field' }, el('label', { for: timeId }, t('near.time')), time)),
    custom, update);

  const message = el('div', { class: 'near-message', 'aria-live': 'polite' });
  const grid = el('ul', { class: 'photo-grid', 'aria-label': t('near.results') });
  const more = el('button', { type: 'button', class: 'more', hidden: true }, t('near.more'));

  const readForm = () => {
    state.radius = Number(radius.value) || DEFAULT_RADIUS;
    state.time = /** @type {TimeChoice} */ (time.value);
    state.from = fromInput.value;
    state.to = toInput.value;
  };
  time.addEventListener('change', () => { custom.hidden = time.value !== 'custom'; });
  for (const control of [radius, time, fromInput, toInput]) {
    control.addEventListener('change', () => { readForm(); if (state.position) void search(state.position); });
  }
  form.addEventListener('submit', (event) => { event.preventDefault(); readForm(); void locateAndSearch(); });
  more.addEventListener('click', () => { if (state.position) void search(state.position, state.next); });

  /** @param {string} text @param {HTMLElement | null} [action] @param {boolean} [problem] */
  function say(text, action = null, problem = false) {
    message.replaceChildren(el('p', { class: problem ? 'form-error' : 'hint' }, text), action ?? '');
  }

  function showItems() {
    grid.replaceChildren(...state.items.map((photo) => photoCard(photo, system)));
    more.hidden = !state.next;
    rememberResults(state.items.map((photo) => photo.id));
  }

  /** How many searches were started: the newest is the one shown. */
  let searches = 0;

  async function locateAndSearch() {
    update.disabled = true;
    say(t('position.finding'));
    try {
      const position = await currentPosition({ maximumAge: 0 });
      if (signal.aborted) return;
      state.position = position;
      await search(position);
    } catch (error) {
      if (signal.aborted) return;
      const retry = el('button', { type: 'button', onclick: () => void locateAndSearch() }, t('position.retry'));
      say(t(positionMessageKey(error)), el('p', { class: 'actions' }, retry), true);
    } finally {
      update.disabled = false;
    }
  }

  /**
   * @param {Position} position
   * @param {string | null} [cursor] the next page of the same search, appended
   */
  async function search(position, cursor = null) {
    // Only the newest search may show its answer: a slower earlier one (the time filter changed
    // twice quickly) must not draw its photos over the newer search's.
    const mine = ++searches;
    const range = timeRange(state.time, { from: state.from, to: state.to });
    const query = nearbyQuery({ latitude: position.latitude, longitude: position.longitude, radius: state.radius, ...range, cursor });
    const where = formatRadius(state.radius, lang, system);
    grid.setAttribute('aria-busy', 'true');
    more.disabled = true;
    try {
      /** @type {{items: Photo[], next: string | null}} */
      const answer = await call('photosNearby', { query });
      if (signal.aborted || mine !== searches) return;
      state.items = cursor ? [...state.items, ...answer.items] : answer.items;
      state.next = answer.next;
      state.at = Date.now();
      showItems();
      if (state.items.length === 0) {
        say(t('near.empty', { radius: where }), el('p', {}, el('a', { href: '/upload' }, t('near.uploadLink'))));
      } else {
        say(t('near.found', { count: state.items.length, radius: where, accuracy: formatDistance(position.accuracy, lang, system) }));
      }
      announce(t('near.announce', { count: state.items.length }));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (!signal.aborted && mine === searches) say(describeError(error, t), el('p', { class: 'actions' }, el('button', { type: 'button', onclick: () => void search(position, cursor) }, t('position.retry'))), true);
    } finally {
      if (mine === searches) {
        grid.removeAttribute('aria-busy');
        more.disabled = false;
      }
    }
  }

  const account = user
    ? el('div', { class: 'card account-line' },
        el('p', { class: 'signed-in' }, t('home.signedInAs', { name: user.displayName || user.username })),
        el('p', { class: 'actions' }, el('a', { class: 'button primary', href: '/upload' }, t('home.uploadLink'))))
    : el('div', { class: 'card account-line' },
        el('p', {}, t('home.signedOut')),
        el('p', { class: 'actions' },
          el('a', { class: 'button primary', href: '/account#sign-in' }, t('home.signIn')),
          el('a', { class: 'button', href: '/account#sign-up' }, t('home.signUp'))));
  root.replaceChildren(
    el('h1', {}, t('home.heading')),
    form, message, grid, more, account);

  const stale = takeResultsChanged() || Date.now() - state.at > FRESH;
  if (state.position && state.items.length > 0) {
    showItems();
    say(t('near.found', { count: state.items.length, radius: formatRadius(state.radius, lang, system), accuracy: formatDistance(state.position.accuracy, lang, system) }));
    if (stale) void search(state.position);
  } else if (state.position && stale) {
    void search(state.position);
  } else {
    void locateAndSearch();
  }
}
