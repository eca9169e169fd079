// The recording in progress in this page (SRR-02…19), apart from its screen: the browser's
// position (watchPosition, high accuracy) goes into the RecorderEngine, every accepted fix is
// saved to IndexedDB at once and the engine's state at least every second, the alert is polled,
// the screen is kept on, and a hidden page is a gap. It lives as long as the page does, so the
// recording goes on while the person looks at another page of the app (or switches language);
// the /record page only draws it. After a reload, `resume` continues it from IndexedDB.
import * as routes from '../routes.js';
import { RecorderEngine } from '../engine.js';
import { beep } from './beep.js';
import { keepScreenOn } from './wake-lock.js';

/** @typedef {import('../engine.js').Instant} Instant */
/** @typedef {import('../engine.js').Fix} Fix */
/**
 * A stopped recording, as engine.stop() returns it.
 * @typedef {{nonce: string, qrPeriod: number, tracks: Fix[][]}} Route
 */
/** @typedef {{from: number, to: number}} Gap */
/**
 * What the screen tells besides the engine's snapshot; keys of Web/i18n, so that a language
 * switch redraws them.
 * @typedef {{alert: {key: 'record.alert' | 'record.alertSilent', seconds: number} | null,
 *   gap: {gap: Gap, key: 'record.gapHidden' | 'record.gapReload'} | null,
 *   position: 'record.noGeolocation' | 'record.positionDenied' | 'record.positionUnavailable' | null,
 *   awake: boolean | null, saveFailed: boolean}} Notices
 */

/** How often the clock, the alert and the saving are looked at. */
const TICK = 200;

/** @returns {Instant} now on both clocks */
export function now() {
  return { uptime: performance.now() / 1000, wall: Date.now() / 1000 };
}

export class LiveRecording {
  /**
   * @param {string} id the local route's id (routes.beginRoute)
   * @param {RecorderEngine} engine
   * @param {Gap[]} gaps
   */
  constructor(id, engine, gaps = []) {
    this.id = id;
    this.engine = engine;
    this.gaps = gaps;
    /** @type {Notices} */
    this.notices = { alert: null, gap: null, position: null, awake: null, saveFailed: false };
    /**
     * Told after every change (a fix, a tick, a notice); the screen sets it while shown.
     * @type {(() => void) | null}
     */
    this.onChange = null;
    /** @type {number | null} */
    this.watch = null;
    /** @type {Promise<void>} */
    this.saving = Promise.resolve();
    this.lastSaved = -Infinity;
    /** @type {{release: () => void} | null} */
    this.awake = null;
    /**
     * Wall seconds when the page was hidden while recording.
     * @type {number | null}
     */
    this.hiddenAt = null;
    this.ended = false;
    this.visibility = () => this.#visibilityChanged();
    document.addEventListener('visibilitychange', this.visibility);
    this.timer = setInterval(() => this.#tick(), TICK);
    if (this.recording) this.#run();
    void this.saveProgress(now());
  }

  /**
   * Continues a recording that IndexedDB holds as unfinished (after a reload, a crash or a closed
   * tab): the engine from its saved state, and the time the page was closed as a gap.
   * @param {any} route routes.getRoute()'s answer for the unfinished route: its record and saved tracks
   */
  static resume(route) {
    // A tab closed between starting the route and saving its first state left none (and a page
    // of an older version saved another form): the route goes on from its saved fixes with the
    // settings it was started with.
    const state = route.engine?.version === 2 ? route.engine : new RecorderEngine({
      settings: route.settings ?? undefined, nonce: route.nonce, sourceIsLive: true, start: now(),
    }).toState();
    const engine = RecorderEngine.fromState(state, now(), route.tracks);
    const gaps = Array.isArray(route.gaps) ? [...route.gaps] : [];
    const live = new LiveRecording(route.id, engine, gaps);
    const lastFix = engine.tracks.at(-1)?.at(-1);
    if (live.recording && lastFix) {
      const gap = { from: lastFix.time, to: Date.now() / 1000 };
      live.gaps.push(gap);
      live.notices.gap = { gap, key: 'record.gapReload' };
      void live.saveProgress(now());
    }
    return live;
  }

  /** Whether positions are being taken (recording, or waiting for the first accurate one). */
  get recording() {
    return this.engine.phase === 'recording' || this.engine.phase === 'waitingForFix';
  }

  /** @param {() => Promise<unknown>} write */
  #enqueue(write) {
    this.saving = this.saving.then(write).then(() => {}, (failure) => {
      console.warn('Waymark: could not save the recording:', failure);
      this.notices.saveFailed = true;
      this.#changed();
    });
    return this.saving;
  }

  /**
   * Saves the engine's state and the route's summary (in order after the fixes saved before).
   * @param {Instant} instant
   */
  saveProgress(instant) {
    this.lastSaved = instant.uptime;
    const snapshot = this.engine.snapshot(instant);
    const progress = {
      engine: this.engine.toState(), distance: snapshot.distance, elapsed: snapshot.elapsed,
      trackCount: snapshot.trackCount, fixCount: snapshot.fixCount, gaps: [...this.gaps],
    };
    return this.#enqueue(() => routes.saveProgress(this.id, progress));
  }

  #changed() {
    if (this.onChange) this.onChange();
  }

  /** Listens to the position and keeps the screen on. */
  #run() {
    if (!this.awake) {
      this.awake = keepScreenOn((held) => { this.notices.awake = held; this.#changed(); });
    }
    if (this.watch !== null) return;
    if (!('geolocation' in navigator)) { this.notices.position = 'record.noGeolocation'; return; }
    this.watch = navigator.geolocation.watchPosition(
      (position) => this.#located(position), (failure) => this.#notLocated(failure),
      { enableHighAccuracy: true, maximumAge: 0 });
  }

  #halt() {
    if (this.watch !== null) navigator.geolocation.clearWatch(this.watch);
    this.watch = null;
    this.awake?.release();
    this.awake = null;
  }

  /** @param {GeolocationPosition} position */
  #located(position) {
    const { latitude, longitude, altitude, accuracy } = position.coords;
    /** @type {Fix} */
    const fix = {
      latitude, longitude, altitude: altitude ?? null,
      accuracy: Number.isFinite(accuracy) ? accuracy : null, time: position.timestamp / 1000,
    };
    this.notices.position = null;
    const instant = now();
    const verdict = this.engine.handle({ fix }, instant);
    if ('accepted' in verdict) {
      const track = verdict.accepted.track;
      void this.#enqueue(() => routes.saveFix(this.id, track, fix));
      void this.saveProgress(instant);
    }
    this.#changed();
  }

  /** @param {GeolocationPositionError} failure */
  #notLocated(failure) {
    if (failure.code === failure.PERMISSION_DENIED) {
      this.notices.position = 'record.positionDenied';
      if (this.watch !== null) navigator.geolocation.clearWatch(this.watch);
      this.watch = null;
    } else {
      this.engine.handle({ noFix: true }, now());
      this.notices.position = 'record.positionUnavailable';
    }
    this.#changed();
  }

  #tick() {
    const instant = now();
    if (this.engine.alertDue(instant)) {
      const played = beep();
      this.notices.alert = { key: played ? 'record.alert' : 'record.alertSilent', seconds: this.engine.settings.alertDelay };
    }
    const status = this.engine.status(instant);
    if (this.notices.alert && status !== 'red' && status !== 'none') this.notices.alert = null;
    if (this.recording && instant.uptime - this.lastSaved >= 1) void this.saveProgress(instant);
    this.#changed();
  }

  #visibilityChanged() {
    if (document.visibilityState === 'hidden') {
      if (this.recording) {
        this.hiddenAt = Date.now() / 1000;
        void this.saveProgress(now());
      }
      return;
    }
    if (this.hiddenAt === null) return;
    const instant = now();
    const gap = { from: this.hiddenAt, to: instant.wall };
    this.hiddenAt = null;
    if (!this.recording) return;
    this.engine.breakTrack(instant);
    this.gaps.push(gap);
    this.notices.gap = { gap, key: 'record.gapHidden' };
    void this.saveProgress(instant);
    this.#changed();
  }

  /** SRR-15: no positions, the clock stands still, the screen may turn off. */
  pause() {
    const instant = now();
    this.engine.pause(instant);
    this.#halt();
    void this.saveProgress(instant);
    this.#changed();
  }

  /** SRR-16: positions again, in a new track. */
  resume() {
    const instant = now();
    this.engine.resume(instant);
    this.#run();
    void this.saveProgress(instant);
    this.#changed();
  }

  /** SRR-10 */
  toggleUnits() {
    this.engine.toggleUnits();
    void this.saveProgress(now());
    this.#changed();
  }

  /**
   * SRR-17: stops for good and saves the stopped state; the caller seals and queues the route.
   * @returns {Promise<Route>}
   */
  async stop() {
    const instant = now();
    const route = this.engine.stop(instant);
    this.end();
    await this.saveProgress(instant);
    await this.saving;
    return route;
  }

  /**
   * The route of a stopped engine (one stopped before the page closed while sealing).
   * @returns {Route}
   */
  stoppedRoute() {
    return { nonce: this.engine.nonce, qrPeriod: this.engine.settings.qrPeriod, tracks: this.engine.tracks };
  }

  /** Lets go of the position, the screen, the clock and the page's events. */
  end() {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    this.#halt();
    document.removeEventListener('visibilitychange', this.visibility);
    this.onChange = null;
  }
}
