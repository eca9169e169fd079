// `/sky` (#15 point 6): where the GPS, Galileo, GLONASS and BeiDou satellites should be in the
// sky above the phone (or `?latitude=&longitude=`), now or at `?time=`, from the orbit data the
// server was started with (GET /api/v1/sky). A polar plot (north up, east right, rings at 0°, 30°
// and 60° elevation, the zenith in the centre), the counts per constellation and a table of the
// same satellites for reading. Says so when the server has no orbit data, when the elements are
// too old to trust, and when there is no position. Works without an account.
import { t, language } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { call, ApiError } from '../api.js';
import { describeError } from '../errors.js';
import { currentPosition, positionMessageKey } from '../../photos/position.js';
import {
  CHOICES, CONSTELLATIONS, RINGS, REFRESH_MS, plotPoint, ringRadius, shortLabel, placeLabels, countByConstellation,
  elementsAge, elementsOld, readAddress, skyQuery,
} from '../../sky/plot.js';

/** @typedef {import('../../sky/plot.js').Sky} Sky */
/** @typedef {import('../../sky/plot.js').Satellite} Satellite */
/** @typedef {import('../../sky/plot.js').Choice} Choice */
/** @typedef {import('../../sky/plot.js').Constellation} Constellation */

export const titleKey = 'sky.title';

/** The words of each choice (literal keys, so the i18n test sees them used). */
const CHOICE_KEYS = /** @type {Record<Choice, string>} */ ({
  all: 'sky.all', gps: 'sky.gps', galileo: 'sky.galileo', glonass: 'sky.glonass', beidou: 'sky.beidou',
});

const SVG = 'http://www.w3.org/2000/svg';
/** The plot in SVG units: the horizon ring's radius, and room around it for N, E, S and W. */
const PLOT = { cx: 0, cy: 0, radius: 100 };
const MARGIN = 14;

/**
 * An SVG element (el() makes HTML ones).
 * @param {string} tag
 * @param {Record<string, string | number>} [attributes]
 * @param {...(Node | string)} children
 * @returns {SVGElement}
 */
function svg(tag, attributes = {}, ...children) {
  const element = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** @param {number} value @param {number} digits */
function number(value, digits) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** @param {{latitude: number, longitude: number}} place */
function placeText({ latitude, longitude }) {
  const ns = latitude >= 0 ? t('sky.north') : t('sky.south');
  const ew = longitude >= 0 ? t('sky.east') : t('sky.west');
  return `${number(Math.abs(latitude), 4)}° ${ns}, ${number(Math.abs(longitude), 4)}° ${ew}`;
}

/** @param {string} iso */
function timeText(iso) {
  return new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeStyle: 'long' }).format(new Date(iso));
}

/**
 * The polar plot of these satellites.
 * @param {readonly Satellite[]} satellites
 * @param {string} labelId the element that describes the plot
 */
function plot(satellites, labelId) {
  const size = PLOT.radius + MARGIN;
  const rings = RINGS.map((elevation) => svg('circle', {
    class: elevation === 0 ? 'sky-ring sky-horizon' : 'sky-ring', cx: PLOT.cx, cy: PLOT.cy,
    r: ringRadius(elevation, PLOT.radius), 'data-elevation': elevation,
  }));
  const axes = [0, 90].map((azimuth) => {
    const from = plotPoint(azimuth, 0, PLOT);
    const to = plotPoint(azimuth + 180, 0, PLOT);
    return svg('line', { class: 'sky-axis', x1: from.x, y1: from.y, x2: to.x, y2: to.y });
  });
  const ringLabels = RINGS.filter((elevation) => elevation > 0).map((elevation) => {
    const point = plotPoint(0, elevation, PLOT);
    return svg('text', { class: 'sky-ring-label', x: point.x + 2, y: point.y - 2 }, `${elevation}°`);
  });
  const compassPoints = /** @type {Array<[number, string]>} */ ([[0, 'sky.north'], [90, 'sky.east'], [180, 'sky.south'], [270, 'sky.west']])
    .map(([azimuth, key]) => ({ ...plotPoint(azimuth, 0, { ...PLOT, radius: PLOT.radius + MARGIN / 2 }), text: t(key) }));
  const compass = compassPoints.map(({ x, y, text }) =>
    svg('text', { class: 'sky-compass', x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, text));
  const letters = compassPoints.map(({ x, y }) => ({ left: x - 8, top: y - 7, right: x + 8, bottom: y + 7 }));
  const points = satellites.map((satellite) => ({
    ...plotPoint(satellite.azimuth, satellite.elevation, PLOT), label: shortLabel(satellite.name, satellite.constellation),
  }));
  const places = placeLabels(points, { left: -size, top: -size, right: size, bottom: size }, letters);
  const dots = satellites.map((satellite, index) => {
    const point = points[index];
    const place = places[index];
    return svg('g', { class: `sky-satellite sky-${satellite.constellation}` },
      svg('circle', { class: 'sky-dot', cx: point.x.toFixed(3), cy: point.y.toFixed(3), r: 4, 'data-name': satellite.name },
        svg('title', {}, t('sky.dotTitle', { name: satellite.name, azimuth: number(satellite.azimuth, 1), elevation: number(satellite.elevation, 1) }))),
      svg('text', { class: 'sky-label', x: place.x.toFixed(2), y: place.y.toFixed(2), 'text-anchor': place.anchor }, point.label));
  });
  return svg('svg', {
    class: 'sky-plot', viewBox: `${-size} ${-size} ${2 * size} ${2 * size}`, role: 'img', 'aria-labelledby': labelId,
  }, ...rings, ...axes, ...ringLabels, ...compass, ...dots);
}

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export function render(root, { signal }) {
  const address = readAddress(location.search);
  let choice = address.constellation;
  /** @type {{latitude: number, longitude: number, altitude: number | null} | null} */
  let place = address.place ? { ...address.place, altitude: null } : null;
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  let asked = 0;

  const choiceName = 'sky-constellation';
  const choices = el('fieldset', { class: 'sky-choices' }, el('legend', {}, t('sky.show')),
    ...CHOICES.map((value) => {
      const id = uniqueId(`sky-${value}`);
      return el('span', { class: `sky-choice sky-${value}` },
        el('input', { type: 'radio', id, name: choiceName, value, checked: value === choice }),
        el('label', { for: id }, t(CHOICE_KEYS[value])));
    }));
  const message = el('div', { class: 'sky-message', 'aria-live': 'polite' });
  const where = el('p', { class: 'sky-where hint' });
  const summaryId = uniqueId('sky-summary');
  const summary = el('p', { class: 'sky-summary', id: summaryId });
  const counts = el('ul', { class: 'sky-counts' });
  const figure = el('figure', { class: 'sky-figure card', hidden: true }, summary, counts);
  const table = el('table', { class: 'sky-table', hidden: true });

  root.replaceChildren(
    el('h1', {}, t('sky.title')),
    el('p', { class: 'lead' }, t('sky.lead')),
    choices, message, figure, where, table);

  /** @param {string} text @param {'hint' | 'warning' | 'form-error'} kind @param {HTMLElement | null} [action] */
  const say = (text, kind, action = null) => message.append(el('p', { class: kind }, text), action ?? '');
  const hideResults = () => { figure.hidden = true; table.hidden = true; where.textContent = ''; };

  choices.addEventListener('change', (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.name !== choiceName) return;
    choice = /** @type {Choice} */ (input.value);
    // The choice stays in the address, so a reload (or a shared link) shows the same.
    const query = new URLSearchParams(location.search);
    if (choice === 'all') query.delete('constellation'); else query.set('constellation', choice);
    const search = query.toString();
    history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
    void show();
  });

  /** @param {Sky} sky */
  function draw(sky) {
    message.replaceChildren();
    if (elementsOld(sky)) say(t('sky.old', { days: Math.round(elementsAge(sky) ?? 0) }), 'warning');
    if (place) where.textContent = t(address.time === null ? 'sky.whereNow' : 'sky.whereAt', { place: placeText(place), time: timeText(sky.time) });
    const satellites = sky.satellites;
    summary.textContent = satellites.length === 1 ? t('sky.countOne') : t('sky.count', { count: satellites.length });
    const tally = countByConstellation(satellites);
    const shown = choice === 'all' ? CONSTELLATIONS : CONSTELLATIONS.filter((constellation) => constellation === choice);
    counts.replaceChildren(...shown.map((constellation) => el('li', { class: `sky-count sky-${constellation}` },
      el('span', { class: 'sky-swatch', 'aria-hidden': 'true' }), `${t(CHOICE_KEYS[constellation])} `, el('strong', {}, String(tally[constellation])))));
    figure.querySelector('svg')?.remove();
    figure.insertBefore(plot(satellites, summaryId), counts);
    figure.hidden = false;
    if (satellites.length === 0) {
      say(t('sky.none'), 'hint');
      table.hidden = true;
      return;
    }
    table.replaceChildren(
      el('caption', {}, t('sky.tableCaption')),
      el('thead', {}, el('tr', {},
        el('th', { scope: 'col' }, t('sky.label')), el('th', { scope: 'col' }, t('sky.name')),
        el('th', { scope: 'col', class: 'number' }, t('sky.azimuth')), el('th', { scope: 'col', class: 'number' }, t('sky.elevation')))),
      el('tbody', {}, ...satellites.map((satellite) => el('tr', { class: `sky-${satellite.constellation}` },
        el('td', {}, el('span', { class: 'sky-tag' }, shortLabel(satellite.name, satellite.constellation))),
        el('td', { class: 'sky-name' }, satellite.name),
        el('td', { class: 'number' }, `${number(satellite.azimuth, 1)}°`),
        el('td', { class: 'number' }, `${number(satellite.elevation, 1)}°`)))));
    table.hidden = false;
  }

  function noData() {
    hideResults();
    choices.hidden = true;
    message.replaceChildren();
    say(t('sky.noData'), 'form-error');
  }

  /** Asks the server for the sky at the place, now or at the address's time. */
  async function show() {
    if (!place) return;
    const mine = ++asked;
    const query = skyQuery({ ...place, time: address.time, constellation: choice });
    try {
      /** @type {Sky} */
      const sky = await call('sky', { query });
      if (!signal.aborted && mine === asked) draw(sky);
    } catch (error) {
      if (signal.aborted || mine !== asked) return;
      if (error instanceof ApiError && error.code === 'no_orbit_data') { noData(); return; }
      console.warn('Waymark: could not read the sky:', error);
      hideResults();
      message.replaceChildren();
      const retry = el('button', { type: 'button', onclick: () => void show() }, t('position.retry'));
      say(error instanceof ApiError ? describeError(error, t) : t('sky.failed'), 'form-error', el('p', { class: 'actions' }, retry));
    }
  }

  async function locate() {
    message.replaceChildren();
    say(t('position.finding'), 'hint');
    try {
      const position = await currentPosition({ maximumAge: 60_000 });
      if (signal.aborted) return;
      place = { latitude: position.latitude, longitude: position.longitude, altitude: position.altitude };
      await show();
    } catch (error) {
      if (signal.aborted) return;
      message.replaceChildren();
      const retry = el('button', { type: 'button', onclick: () => void locate() }, t('position.retry'));
      say(t(positionMessageKey(error)), 'form-error');
      say(t('sky.noPosition'), 'hint', el('p', { class: 'actions' }, retry));
    }
  }

  async function start() {
    if (address.problems.length > 0) {
      if (address.problems.includes('place')) say(t('sky.badPlace'), 'form-error');
      if (address.problems.includes('time')) say(t('sky.badTime'), 'form-error');
      return;
    }
    // A server without orbit data says so in its configuration: then nobody is asked for a position.
    try {
      const config = await call('webAppConfig');
      if (signal.aborted) return;
      if (config && config.sky === false) { noData(); return; }
    } catch { /* the sky request below says what is wrong */ }
    if (place) await show(); else await locate();
    if (!signal.aborted && address.time === null) timer = setInterval(() => void show(), REFRESH_MS);
  }
  void start();

  return () => {
    if (timer !== null) clearInterval(timer);
  };
}
