// `/paths` (issue #15 point 4, DESIGN §3.10): walk round a field and measure it. Record (with an
// optional name) takes a point about every second from the phone's position while the page is
// open, drawn on the map as a line with a pin per point (a tone per point and following the
// position are switches remembered on the phone); Stop closes the walk into a polygon and shows
// its area (m² and ha) and perimeter. Every path is kept on the phone first (IndexedDB, after
// every point) and sent when the network is there, each with its own Idempotency-Key however
// often it is resent; unsent ones carry a badge and a Send button. The list shows each path's
// area, date and state, its KML file (from the server) and Delete, which asks first.
import { t, language, formatDate } from '../i18n.js';
import { el, uniqueId } from '../dom.js';
import { call, target, ApiError } from '../api.js';
import { announce } from '../status.js';
import { describeError } from '../errors.js';
import { currentUser } from '../session.js';
import { loadLeaflet, tileSource, tileLayer } from '../../photos/leaflet.js';
import { beep, unlockSound } from '../../recorder/ui/beep.js';
import { createPathQueue, formatArea, formatLength, measurePath, pointFromFix } from '../../paths/model.js';
import { loadPathSettings, pathStorage, savePathSettings, sendPath } from '../../paths/local.js';

/** @typedef {import('../../paths/model.js').LocalPath} LocalPath */
/** @typedef {import('../../paths/model.js').PathMeasure} PathMeasure */
/**
 * A path of the list: on the phone (`local`), on the server (`server`), or both.
 * @typedef {{local: LocalPath | null, server: any | null}} Entry
 */

export const titleKey = 'paths.title';

/** @type {Record<string, string>} */
const STATE_KEYS = { unsent: 'paths.state.unsent', sending: 'paths.state.sending', sent: 'paths.state.sent', failed: 'paths.state.failed' };

/**
 * "10,000 m² · 1.0000 ha" (or that the path encloses no area).
 * @param {number | null} area
 */
function areaText(area) {
  if (area == null) return t('paths.noArea');
  const { squareMetres, hectares } = formatArea(area, language());
  return `${squareMetres} · ${hectares}`;
}

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export async function render(root, { signal }) {
  const queue = createPathQueue({ storage: pathStorage(), send: sendPath });
  let settings = loadPathSettings();
  /** @type {LocalPath | null} */
  let recording = null;
  /** @type {number | null} */
  let watch = null;
  /** @type {any} */
  let L = null;
  /** @type {any} */
  let map = null;
  /** @type {any} */
  let drawing = null;
  let signedIn = false;

  const nameId = uniqueId('path-name');
  const nameInput = el('input', { id: nameId, name: 'name', type: 'text', maxlength: 200, autocomplete: 'off', 'aria-describedby': `${nameId}-hint` });
  const recordButton = el('button', { type: 'button', class: 'primary' }, t('paths.record'));
  const stopButton = el('button', { type: 'button', disabled: true }, t('paths.stop'));
  const live = el('p', { class: 'path-live', 'aria-live': 'polite' });
  const result = el('div', { class: 'path-result', hidden: true });
  const problem = el('p', { class: 'form-error', role: 'alert' });
  const mapBox = el('div', { class: 'path-map', role: 'img', 'aria-label': t('paths.map'), hidden: true });
  const toneId = uniqueId('path-tone');
  const followId = uniqueId('path-follow');
  const tone = el('input', { id: toneId, type: 'checkbox', checked: settings.tone });
  const follow = el('input', { id: followId, type: 'checkbox', checked: settings.follow });
  const list = el('ul', { class: 'path-list' });
  const empty = el('p', { class: 'hint path-empty' }, t('paths.empty'));
  const accountNote = el('p', { class: 'hint', hidden: true }, t('paths.signInToSend'), ' ', el('a', { href: '/account' }, t('paths.signIn')));

  root.replaceChildren(
    el('h1', {}, t('paths.title')),
    el('p', { class: 'lead' }, t('paths.lead')),
    el('section', { class: 'card path-recorder', 'aria-labelledby': 'path-recorder-heading' },
      el('h2', { id: 'path-recorder-heading' }, t('paths.recorder')),
      el('div', { class: 'field' },
        el('label', { for: nameId }, t('paths.name')),
        nameInput,
        el('p', { class: 'hint', id: `${nameId}-hint` }, t('paths.name.hint'))),
      el('p', { class: 'actions' }, recordButton, ' ', stopButton),
      live, problem, result, mapBox,
      el('div', { class: 'field check' }, el('div', { class: 'choice' }, tone, el('label', { for: toneId }, t('paths.tone')))),
      el('div', { class: 'field check' }, el('div', { class: 'choice' }, follow, el('label', { for: followId }, t('paths.follow'))))),
    el('section', { class: 'card', 'aria-labelledby': 'path-list-heading' },
      el('h2', { id: 'path-list-heading' }, t('paths.list')),
      accountNote, empty, list));

  tone.addEventListener('change', () => { settings = { ...settings, tone: tone.checked }; savePathSettings(settings); if (tone.checked) unlockSound(); });
  follow.addEventListener('change', () => { settings = { ...settings, follow: follow.checked }; savePathSettings(settings); });

  // ---- The map ----

  async function ensureMap() {
    if (map || signal.aborted) return;
    try {
      const [leaflet, source] = await Promise.all([loadLeaflet(), tileSource()]);
      if (signal.aborted || map) return;
      L = leaflet;
      mapBox.hidden = false; // shown before Leaflet measures it
      map = L.map(mapBox, { zoomControl: true, attributionControl: true, minZoom: 2, maxZoom: 19 });
      tileLayer(L, source).addTo(map);
      drawing = L.featureGroup().addTo(map);
      map.setView([0, 0], 2);
    } catch {
      mapBox.hidden = true; // the walk is measured without a map too
    }
  }

  /**
   * Draws the walk: a line with a pin per point, or the closed polygon once stopped.
   * @param {LocalPath} path
   * @param {boolean} closed
   */
  function draw(path, closed) {
    if (!map || !drawing) return;
    drawing.clearLayers();
    const places = path.points.map((point) => [point.latitude, point.longitude]);
    if (places.length === 0) return;
    if (closed && places.length >= 3) L.polygon(places, { className: 'path-polygon', weight: 3, interactive: false }).addTo(drawing);
    else L.polyline(places, { className: 'path-line', weight: 3, interactive: false }).addTo(drawing);
    for (const place of places) L.circleMarker(place, { className: 'path-pin', radius: 3, interactive: false }).addTo(drawing);
    const last = places[places.length - 1];
    if (closed) map.fitBounds(drawing.getBounds(), { padding: [24, 24], maxZoom: 19 });
    else if (settings.follow) map.setView(last, Math.max(map.getZoom(), 17));
  }

  // ---- Recording ----

  /** @param {LocalPath} path */
  function showLive(path) {
    const measure = measurePath(path.points);
    live.textContent = t('paths.live', { points: path.points.length, length: formatLength(measure.length, language()) });
  }

  /** @param {PathMeasure} measure */
  function showResult(measure) {
    result.hidden = false;
    result.replaceChildren(
      el('dl', { class: 'facts' },
        el('dt', {}, t('paths.area')), el('dd', { class: 'path-area' }, areaText(measure.area)),
        el('dt', {}, t('paths.perimeter')), el('dd', { class: 'path-perimeter' }, measure.perimeter == null ? '—' : formatLength(measure.perimeter, language())),
        el('dt', {}, t('paths.length')), el('dd', {}, formatLength(measure.length, language()))));
  }

  /** @param {GeolocationPosition} position */
  async function onPosition(position) {
    const path = recording;
    if (!path || signal.aborted) return;
    const point = pointFromFix(path.points, {
      latitude: position.coords.latitude, longitude: position.coords.longitude, altitude: position.coords.altitude, timestamp: position.timestamp,
    });
    if (!point) return;
    path.points.push(point);
    problem.textContent = '';
    showLive(path);
    draw(path, false);
    if (settings.tone) beep();
    await queue.save(path);
  }

  function startWatching() {
    if (!('geolocation' in navigator)) { problem.textContent = t('position.unavailable'); return; }
    watch = navigator.geolocation.watchPosition((position) => void onPosition(position),
      (error) => { problem.textContent = t(error.code === 1 ? 'position.denied' : error.code === 3 ? 'position.timeout' : 'position.unavailable'); },
      { enableHighAccuracy: true, maximumAge: 0, timeout: 30000 });
  }

  function stopWatching() {
    if (watch !== null) navigator.geolocation.clearWatch(watch);
    watch = null;
  }

  function showButtons() {
    const going = watch !== null;
    recordButton.disabled = going;
    recordButton.textContent = recording && !going ? t('paths.continue') : t('paths.record');
    stopButton.disabled = !recording;
    nameInput.disabled = recording !== null;
  }

  recordButton.addEventListener('click', async () => {
    if (settings.tone) unlockSound();
    result.hidden = true;
    if (!recording) {
      recording = await queue.start(nameInput.value);
      showLive(recording);
    }
    await ensureMap();
    startWatching();
    showButtons();
    announce(t('paths.status.recording'));
  });

  stopButton.addEventListener('click', async () => {
    stopWatching();
    const path = recording;
    recording = null;
    showButtons();
    if (!path) return;
    const closed = await queue.stop(path);
    nameInput.value = '';
    if (!closed) { live.textContent = t('paths.nothingRecorded'); return; }
    live.textContent = t('paths.stopped', { points: closed.points.length });
    showResult(closed.measure);
    draw(closed, true);
    announce(t('paths.status.stored'));
    await refresh();
    void sendAll();
  });

  // ---- The list ----

  /** @returns {Promise<Entry[]>} */
  async function entries() {
    const local = (await queue.list()).filter((path) => path.state !== 'recording');
    /** @type {import('../contract.js').FieldPathSummary[]} */
    let remote = [];
    if (signedIn && navigator.onLine) {
      try { remote = (await call('listFieldPaths', { cache: 'no-cache' })).items ?? []; } catch { remote = []; }
    }
    const byServerId = new Map(local.filter((path) => path.serverId).map((path) => [path.serverId, path]));
    /** @type {Entry[]} */
    const all = local.map((path) => ({ local: path, server: remote.find((item) => item.id === path.serverId) ?? null }));
    for (const item of remote) if (!byServerId.has(item.id)) all.push({ local: null, server: item });
    const when = /** @param {Entry} entry */ (entry) => entry.local ? entry.local.createdAt : Date.parse(entry.server.createdAt);
    return all.sort((a, b) => when(b) - when(a));
  }

  /** @param {Entry} entry */
  function item(entry) {
    const { local, server } = entry;
    const state = server ? 'sent' : (local?.state ?? 'unsent');
    const name = (local ? local.name.trim() : server?.name ?? '') || t('paths.unnamed');
    const measure = server ? { area: server.area, perimeter: server.perimeter, length: server.length } : local?.measure;
    const started = local && local.points.length > 0 ? new Date(local.points[0].time * 1000) : server ? server.startedAt : new Date(0);
    const serverId = server?.id ?? local?.serverId ?? null;
    const actions = el('p', { class: 'actions' });
    if (state !== 'sent' && local) {
      actions.append(el('button', { type: 'button', class: 'path-send', onclick: () => void sendOne(local.id) }, t('paths.send')), ' ');
    }
    if (serverId) {
      actions.append(el('a', { class: 'button path-kml', href: target('getFieldPath', { path: { path_id: `${serverId}.kml` } }), download: '' }, t('paths.kml')), ' ');
    }
    actions.append(el('button', { type: 'button', class: 'path-delete', onclick: () => void remove(entry, name) }, t('paths.delete')));
    const error = local?.state === 'failed' && local.error ? el('p', { class: 'form-error' }, describeError({ ...local.error, retryAfter: null }, t)) : null;
    return el('li', { class: `path-item path-${state}`, 'data-id': local?.id ?? serverId ?? '' },
      el('p', { class: 'path-title' }, el('strong', {}, name), ' ', el('span', { class: `path-badge path-badge-${state}` }, t(STATE_KEYS[state] ?? STATE_KEYS.unsent))),
      el('p', { class: 'path-item-area' }, measure ? areaText(measure.area) : ''),
      el('p', { class: 'hint' }, formatDate(started), measure?.perimeter != null ? ` · ${t('paths.perimeter')} ${formatLength(measure.perimeter, language())}` : ''),
      error, actions);
  }

  async function refresh() {
    const all = await entries();
    if (signal.aborted) return;
    list.replaceChildren(...all.map(item));
    empty.hidden = all.length > 0;
  }

  /** @param {boolean} [afterRunning] the network came back: a round after any running one (see createDrain) */
  async function sendAll(afterRunning = false) {
    if (!navigator.onLine) return;
    // Opened offline, the page could not ask who is signed in: ask again now.
    if (!signedIn) {
      signedIn = (await currentUser({ refresh: true })) !== null;
      accountNote.hidden = signedIn;
      if (!signedIn) return;
    }
    const counts = await (afterRunning ? queue.drainAfter() : queue.drain());
    if (counts.sent > 0) announce(t('paths.status.sent', { count: counts.sent }));
    if (!signal.aborted) await refresh();
  }

  /** @param {string} id */
  async function sendOne(id) {
    if (!signedIn && navigator.onLine) signedIn = (await currentUser({ refresh: true })) !== null;
    if (!signedIn) { announce(navigator.onLine ? t('paths.signInToSend') : t('paths.status.offline')); return; }
    const outcome = await queue.sendNow(id);
    if (outcome === 'sent') announce(t('paths.status.sent', { count: 1 }));
    else if (outcome === 'unsent') announce(t('paths.status.offline'));
    await refresh();
  }

  /** @param {Entry} entry @param {string} name */
  async function remove(entry, name) {
    if (!window.confirm(t('paths.deleteConfirm', { name }))) return;
    const serverId = entry.server?.id ?? entry.local?.serverId ?? null;
    if (serverId) {
      try {
        await call('deleteFieldPath', { path: { path_id: serverId } });
      } catch (failure) {
        // Gone already is gone; anything else (offline) keeps the path.
        if (!(failure instanceof ApiError && failure.status === 404)) {
          announce(describeError(/** @type {any} */ (failure), t));
          return;
        }
      }
    }
    if (entry.local) await queue.remove(entry.local.id);
    announce(t('paths.status.deleted', { name }));
    await refresh();
  }

  const online = () => void sendAll(true);
  window.addEventListener('online', online);

  // A walk whose tab was closed while recording is still here: continue it or stop it.
  recording = (await queue.list()).find((path) => path.state === 'recording') ?? null;
  if (recording) {
    nameInput.value = recording.name;
    showLive(recording);
    void ensureMap().then(() => { if (recording) draw(recording, false); });
  }
  showButtons();
  signedIn = (await currentUser()) !== null;
  accountNote.hidden = signedIn;
  await refresh();
  void sendAll();

  return () => {
    stopWatching();
    window.removeEventListener('online', online);
    if (map) map.remove();
  };
}
