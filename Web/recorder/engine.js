// The recording screen's logic in the browser: a faithful port of WaymarkCore's RecorderEngine
// (Sources/WaymarkCore/Recording/RecorderEngine*.swift, RecorderFormat.swift, Geodesy.swift).
// Fixes in; tracks, distance, elapsed time, GPS status, alerts and QR codes out (SRR-04…17).
//
// It never reads a clock and never waits: every method takes the instant it happens at, so the
// page drives it from `performance.now()` and `Date.now()`, and tests from instants written by
// hand. Both engines run the rule book in Tests/Conformance/recorder/; what one does, the other
// must do too. Durations (elapsed time, alerts, sanity checks) use the monotonic `uptime`; the
// wall clock only serves the QR code's date and the checks that need a date.

import { geodesicDistance } from '../app/geodesy.js';

export { geodesicDistance };

/**
 * One reading of the recorder's two clocks, in seconds: `uptime` is monotonic (only measures
 * durations), `wall` is Unix time (tells the date, may be wrong or stepped).
 * @typedef {{uptime: number, wall: number}} Instant
 */
/**
 * A position from the receiver. `time` is the GPS fix time (Unix seconds), never the wall clock.
 * @typedef {{latitude: number, longitude: number, altitude: number | null, accuracy: number | null, time: number}} Fix
 */
/** @typedef {{fix: Fix} | {noFix: true}} LocationEvent */
/** @typedef {'metric' | 'imperial'} Units */
/**
 * The recorder's settings (SSN-01): threshold (m), alert delay (s), QR period (s), Wi-Fi only, units.
 * @typedef {{accuracyThreshold: number, alertDelay: number, qrPeriod: number, wifiOnly: boolean, units: Units}} Settings
 */
/** @typedef {'waitingForFix' | 'recording' | 'paused' | 'stopped'} Phase */
/** @typedef {'none' | 'green' | 'blue' | 'orange' | 'red'} GPSStatus */
/**
 * @typedef {'paused' | 'stopped' | 'noFix' | 'inaccurate' | 'duplicate' | 'outOfOrder' | 'future'
 *   | 'weekRollover' | 'timeJump' | 'invalidPosition'} IgnoredReason
 */
/**
 * Why an event added nothing; `accuracy` only for `inaccurate`.
 * @typedef {{reason: IgnoredReason, accuracy?: number}} Ignored
 */
/** @typedef {{accepted: {track: number, startsTrack: boolean}} | {ignored: Ignored}} Verdict */
/** @typedef {{time: number, nonce: string, text: string, secondsLeft: number, period: number}} QRCode */
/**
 * Everything the recording screen shows at one instant (SRR-01).
 * @typedef {{phase: Phase, status: GPSStatus, lastAccuracy: number | null, distance: number, elapsed: number,
 *   distanceText: string, elapsedText: string, qr: QRCode, trackCount: number, fixCount: number,
 *   clockCorrection: number | null, lastIgnored: Ignored | null}} Snapshot
 */
/**
 * A stopped recording: its non-empty tracks in order.
 * @typedef {{nonce: string, qrPeriod: number, tracks: Fix[][]}} Route
 */
/**
 * The engine as plain data (structured-clone-able), for IndexedDB, without its tracks: those are
 * saved fix by fix as they are accepted, so the state stays small however long the recording is.
 * `at` is the last instant the engine was told of, against which its uptimes are measured.
 * @typedef {{version: 2, settings: Settings, nonce: string, sourceIsLive: boolean, phase: Phase,
 *   elapsedBefore: number, runningSince: number | null, trackOpen: boolean,
 *   lastAccepted: {fix: Fix, at: Instant} | null, lastEvent: {event: LocationEvent, uptime: number} | null,
 *   lastIgnored: Ignored | null, clockSamples: number[], nextAlert: number,
 *   timeStreak: {fix: Fix, at: Instant, count: number} | null, at: Instant}} EngineState
 */

/** @type {Readonly<Settings>} */
export const defaultSettings = Object.freeze({
  accuracyThreshold: 100, alertDelay: 30, qrPeriod: 5, wifiOnly: false, units: /** @type {Units} */ ('metric'),
});

/** The wall clock is trusted for date checks only from 2025-01-01T00:00:00Z on. */
const PLAUSIBLE_WALL_CLOCK = 1_735_689_600;
/** A fix this far ahead of a plausible wall clock is absurd. */
const FUTURE_LIMIT = 86_400;
/** A fix this far behind a plausible wall clock comes from a receiver hit by the GPS week rollover. */
const ROLLOVER_LIMIT = 1000 * 7 * 86_400;
/** A fix this far ahead of the time predicted from the last accepted fix is a glitch. */
const JUMP_LIMIT = 3600;
/** Consecutive fixes refused for their time that agree with each other, after which they are believed. */
const TIME_STREAK_LIMIT = 5;
/** Seconds without any event after which the receiver counts as silent (status 'none'). */
const SILENCE_LIMIT = 10;
/** How many of the latest accepted fixes the clock correction is taken over. */
const CLOCK_SAMPLE_COUNT = 30;

export class RecorderEngine {
  /**
   * Starts a recording at once: the clock runs, and the first acceptable fix opens track 0.
   * @param {{settings?: Partial<Settings>, nonce: string, sourceIsLive: boolean, start: Instant}} options
   *   `sourceIsLive`: fix times are live GPS time and may correct the wall clock for the QR code.
   */
  constructor({ settings = defaultSettings, nonce, sourceIsLive, start }) {
    /**
     * The settings the recording runs with; only the units change while recording (SRR-10).
     * @type {Settings}
     */
    this.settings = { ...defaultSettings, ...settings };
    /** The session nonce every QR code of this recording carries (SRR-11). */
    this.nonce = nonce;
    this.sourceIsLive = sourceIsLive;
    /** @type {Phase} */
    this.phase = 'waitingForFix';
    /**
     * Accepted fixes per track, in order; only non-empty tracks (SRR-05).
     * @type {Fix[][]}
     */
    this.tracks = [];
    /** Metres recorded, summed within tracks only, never across a pause or a gap. */
    this.distance = 0;
    /** Seconds recorded before the running stretch began. */
    this.elapsedBefore = 0;
    /**
     * Uptime at which the running stretch (start or resume) began; null while paused or stopped.
     * @type {number | null}
     */
    this.runningSince = start.uptime;
    /** Whether the last track is still being extended; false after a pause or a gap. */
    this.trackOpen = false;
    /** @type {{fix: Fix, at: Instant} | null} */
    this.lastAccepted = null;
    /**
     * The latest event (paused and stopped ones aside) and its uptime, for the GPS status.
     * @type {{event: LocationEvent, uptime: number} | null}
     */
    this.lastEvent = null;
    /** @type {Ignored | null} */
    this.lastIgnored = null;
    /**
     * GPS time minus wall clock for the last 30 accepted fixes of a live source.
     * @type {number[]}
     */
    this.clockSamples = [];
    /** Uptime of the next sound alert (SRR-09). */
    this.nextAlert = start.uptime + this.settings.alertDelay;
    /**
     * Consecutive fixes rejected for their time that agree with each other.
     * @type {{fix: Fix, at: Instant, count: number} | null}
     */
    this.timeStreak = null;
    /**
     * The last instant the engine was told of (for toState).
     * @type {Instant}
     */
    this.lastInstant = start;
  }

  /** @param {Instant} instant */
  #saw(instant) {
    if (instant.uptime >= this.lastInstant.uptime) this.lastInstant = instant;
  }

  /**
   * Pauses the recording (SRR-15): the clock stops, the current track ends, events are ignored.
   * Does nothing unless recording or waiting for a fix.
   * @param {Instant} instant
   */
  pause(instant) {
    this.#saw(instant);
    if (this.phase !== 'recording' && this.phase !== 'waitingForFix') return;
    this.elapsedBefore = this.elapsed(instant);
    this.runningSince = null;
    this.trackOpen = false;
    this.phase = 'paused';
  }

  /**
   * Resumes a paused recording (SRR-16): the clock runs again, and the next acceptable fix starts
   * a new track (SRR-05, SRR-07). Does nothing unless paused.
   * @param {Instant} instant
   */
  resume(instant) {
    this.#saw(instant);
    if (this.phase !== 'paused') return;
    this.runningSince = instant.uptime;
    this.phase = 'waitingForFix';
    this.nextAlert = instant.uptime + this.settings.alertDelay;
    // What the receiver said before the pause says nothing about now.
    this.lastEvent = null;
    this.lastIgnored = null;
  }

  /**
   * A gap in the recording (the page was hidden, the receiver unheard): the clock keeps running,
   * but the next acceptable fix starts a new track, so no distance bridges the gap. What the
   * receiver said before says nothing about now: the status is 'none' until the next event.
   * Does nothing unless recording or waiting for a fix.
   * @param {Instant} instant
   */
  breakTrack(instant) {
    this.#saw(instant);
    if (this.phase !== 'recording' && this.phase !== 'waitingForFix') return;
    this.trackOpen = false;
    this.phase = 'waitingForFix';
    this.lastEvent = null;
    this.lastIgnored = null;
  }

  /**
   * Stops the recording for good (SRR-17) and returns the route: its non-empty tracks in order.
   * Later events are ignored as 'stopped'; stopping again returns the same route.
   * @param {Instant} instant
   * @returns {Route}
   */
  stop(instant) {
    this.#saw(instant);
    if (this.phase !== 'stopped') {
      this.elapsedBefore = this.elapsed(instant);
      this.runningSince = null;
      this.trackOpen = false;
      this.phase = 'stopped';
    }
    return { nonce: this.nonce, qrPeriod: this.settings.qrPeriod, tracks: this.tracks.map((track) => track.slice()) };
  }

  /** Switches distances between metric and imperial units (SRR-10). */
  toggleUnits() {
    this.settings.units = this.settings.units === 'metric' ? 'imperial' : 'metric';
  }

  /**
   * Seconds recorded at `instant`, pauses excluded (SRR-04, SRR-15).
   * @param {Instant} instant
   */
  elapsed(instant) {
    if (this.runningSince === null) return this.elapsedBefore;
    return this.elapsedBefore + Math.max(0, instant.uptime - this.runningSince);
  }

  /** Accepted fixes over all tracks. */
  get fixCount() {
    return this.tracks.reduce((sum, track) => sum + track.length, 0);
  }

  /**
   * Adds a location event to the recording and says what became of it (see RecorderEngine+Fixes.swift).
   *
   * A fix is accepted when the recording runs, its position is valid, its accuracy is no worse
   * than the threshold (SRR-06; a fix without accuracy is accepted) and its GPS time is sane: not
   * a repeat of or earlier than the last accepted fix, not more than a day ahead of or 1000 weeks
   * behind a plausible wall clock, not more than an hour ahead of what the last accepted fix and
   * the time since its arrival predict. Five consecutive fixes refused for their time that agree
   * with each other are believed over the last accepted one, and start a new track.
   * @param {LocationEvent} event
   * @param {Instant} instant
   * @returns {Verdict}
   */
  handle(event, instant) {
    this.#saw(instant);
    if (this.phase === 'stopped') return this.#ignore({ reason: 'stopped' });
    if (this.phase === 'paused') return this.#ignore({ reason: 'paused' });
    this.lastEvent = { event, uptime: instant.uptime };
    if (!('fix' in event)) return this.#ignore({ reason: 'noFix' });
    const fix = event.fix;
    const problem = this.#problem(fix, instant);
    if (problem === null) return this.#accept(fix, instant, false);
    if ((problem.reason === 'outOfOrder' || problem.reason === 'timeJump') && this.#extendTimeStreak(fix, instant)) {
      this.clockSamples = []; // taken against the time line just abandoned
      return this.#accept(fix, instant, true);
    }
    return this.#ignore(problem);
  }

  /**
   * Why `fix` cannot be accepted at `instant`, or null when it can.
   * @param {Fix} fix
   * @param {Instant} instant
   * @returns {Ignored | null}
   */
  #problem(fix, instant) {
    if (!isValidFix(fix)) return { reason: 'invalidPosition' };
    if (fix.accuracy != null && fix.accuracy > this.settings.accuracyThreshold) {
      return { reason: 'inaccurate', accuracy: fix.accuracy };
    }
    if (instant.wall >= PLAUSIBLE_WALL_CLOCK) {
      const ahead = fix.time - instant.wall;
      if (ahead > FUTURE_LIMIT) return { reason: 'future' };
      if (ahead < -ROLLOVER_LIMIT) return { reason: 'weekRollover' };
    }
    const last = this.lastAccepted;
    if (last !== null) {
      if (fix.time === last.fix.time) return { reason: 'duplicate' };
      if (fix.time < last.fix.time) return { reason: 'outOfOrder' };
      if (fix.time - predictedTime(last.fix, last.at, instant) > JUMP_LIMIT) return { reason: 'timeJump' };
    }
    return null;
  }

  /**
   * Counts `fix`, refused for its time, into the streak of refused fixes that agree with each
   * other; true when the streak is long enough to be believed.
   * @param {Fix} fix
   * @param {Instant} instant
   */
  #extendTimeStreak(fix, instant) {
    const streak = this.timeStreak;
    if (streak !== null && fix.time === streak.fix.time) return false; // a repeat neither counts nor breaks it
    if (streak !== null && fix.time > streak.fix.time
        && fix.time - predictedTime(streak.fix, streak.at, instant) <= JUMP_LIMIT) {
      this.timeStreak = { fix, at: instant, count: streak.count + 1 };
    } else {
      this.timeStreak = { fix, at: instant, count: 1 };
    }
    return this.timeStreak.count >= TIME_STREAK_LIMIT;
  }

  /**
   * Adds an acceptable fix, opening a track when none is open or `newTrack` asks for one.
   * @param {Fix} fix
   * @param {Instant} instant
   * @param {boolean} newTrack
   * @returns {Verdict}
   */
  #accept(fix, instant, newTrack) {
    const startsTrack = newTrack || !this.trackOpen || this.tracks.length === 0;
    if (startsTrack) {
      this.tracks.push([fix]);
    } else {
      const track = this.tracks[this.tracks.length - 1];
      const previous = track[track.length - 1];
      const step = geodesicDistance(previous, fix);
      if (Number.isFinite(step)) this.distance += step;
      track.push(fix);
    }
    this.trackOpen = true;
    this.phase = 'recording';
    this.lastAccepted = { fix, at: instant };
    this.lastIgnored = null;
    this.timeStreak = null;
    this.nextAlert = instant.uptime + this.settings.alertDelay;
    if (this.sourceIsLive) {
      this.clockSamples.push(fix.time - instant.wall);
      if (this.clockSamples.length > CLOCK_SAMPLE_COUNT) {
        this.clockSamples.splice(0, this.clockSamples.length - CLOCK_SAMPLE_COUNT);
      }
    }
    return { accepted: { track: this.tracks.length - 1, startsTrack } };
  }

  /**
   * Remembers why an event was ignored and says so.
   * @param {Ignored} ignored
   * @returns {Verdict}
   */
  #ignore(ignored) {
    this.lastIgnored = ignored;
    return { ignored };
  }

  /**
   * The GPS status icon at `instant` (SRR-08), from the latest event: green up to a tenth of the
   * threshold, blue up to half, orange up to the threshold (and without accuracy), red beyond,
   * without a fix or for an impossible one; none before any event or after 10 s of silence.
   * @param {Instant} instant
   * @returns {GPSStatus}
   */
  status(instant) {
    const last = this.lastEvent;
    if (last === null || !(instant.uptime - last.uptime <= SILENCE_LIMIT)) return 'none';
    if (!('fix' in last.event)) return 'red';
    const fix = last.event.fix;
    if (!isValidFix(fix)) return 'red';
    const threshold = this.settings.accuracyThreshold;
    if (fix.accuracy == null) return 'orange';
    if (fix.accuracy <= threshold / 10) return 'green';
    if (fix.accuracy <= threshold / 2) return 'blue';
    if (fix.accuracy <= threshold) return 'orange';
    return 'red';
  }

  /** The accuracy (metres) of the latest event, when it reported one. */
  get lastAccuracy() {
    const last = this.lastEvent;
    return last !== null && 'fix' in last.event ? last.event.fix.accuracy ?? null : null;
  }

  /**
   * Whether the sound alert is due at `instant` (SRR-09); true once per alert, so poll it.
   *
   * Due when no acceptable fix has arrived for `alertDelay` seconds since the later of the last
   * acceptable fix and the start (or resume), then again every `alertDelay` seconds. Never while
   * paused or stopped, nor with a non-positive delay; a late poll gets one alert, not one per
   * missed period.
   * @param {Instant} instant
   */
  alertDue(instant) {
    this.#saw(instant);
    const delay = this.settings.alertDelay;
    if ((this.phase !== 'recording' && this.phase !== 'waitingForFix') || !(delay > 0) || !Number.isFinite(delay)
        || !(instant.uptime >= this.nextAlert)) return false;
    const missed = Math.floor((instant.uptime - this.nextAlert) / delay);
    this.nextAlert += (missed + 1) * delay;
    return true;
  }

  /**
   * GPS time minus the wall clock (seconds): the largest over the last 30 accepted fixes of a live
   * source, null for a replay and before the first fix.
   * @returns {number | null}
   */
  get clockCorrection() {
    return this.clockSamples.length === 0 ? null : Math.max(...this.clockSamples);
  }

  /**
   * The time-sync QR code to show at `instant` (SRR-11…14, DESIGN §3.1): the wall clock corrected by
   * GPS time, aligned on multiples of the period in Unix time.
   * @param {Instant} instant
   * @returns {QRCode}
   */
  qrCode(instant) {
    return qrCodeAt(instant.wall + (this.clockCorrection ?? 0), this.settings.qrPeriod, this.nonce);
  }

  /**
   * Everything the recording screen shows at `instant`.
   * @param {Instant} instant
   * @returns {Snapshot}
   */
  snapshot(instant) {
    this.#saw(instant);
    const elapsed = this.elapsed(instant);
    return {
      phase: this.phase, status: this.status(instant), lastAccuracy: this.lastAccuracy, distance: this.distance,
      elapsed, distanceText: formatDistance(this.distance, this.settings.units), elapsedText: formatDuration(elapsed),
      qr: this.qrCode(instant), trackCount: this.tracks.length, fixCount: this.fixCount,
      clockCorrection: this.clockCorrection, lastIgnored: this.lastIgnored,
    };
  }

  /**
   * The engine as plain data, to keep in IndexedDB while recording; its tracks are not in it (the
   * page saves each accepted fix as it comes, and gives them back to `fromState`).
   * @returns {EngineState}
   */
  toState() {
    return structuredClone({
      version: /** @type {2} */ (2), settings: this.settings, nonce: this.nonce, sourceIsLive: this.sourceIsLive,
      phase: this.phase, elapsedBefore: this.elapsedBefore,
      runningSince: this.runningSince, trackOpen: this.trackOpen, lastAccepted: this.lastAccepted,
      lastEvent: this.lastEvent, lastIgnored: this.lastIgnored, clockSamples: this.clockSamples,
      nextAlert: this.nextAlert, timeStreak: this.timeStreak, at: this.lastInstant,
    });
  }

  /**
   * An engine that continues a recording kept by `toState()`, after a page reload at `instant`.
   *
   * The page's monotonic clock starts anew, so every uptime is carried over relative to the last
   * instant the old engine knew of. The elapsed time recorded up to that instant is kept; the
   * time the page was closed is not counted (nobody measured it). A running recording runs on
   * from `instant` and its next acceptable fix starts a new track, as after `breakTrack`; a paused
   * one stays paused, a stopped one stopped.
   *
   * The tracks are the fixes saved as they were accepted. They may hold a fix or two more than the
   * state knew of (saved in the second before the page closed): the distance is summed again from
   * them, and the fix checks go on from their last fix.
   * @param {EngineState} state
   * @param {Instant} instant
   * @param {Fix[][]} tracks the saved fixes per track, in order
   * @returns {RecorderEngine}
   */
  static fromState(state, instant, tracks) {
    if (state === null || typeof state !== 'object' || state.version !== 2) {
      throw new TypeError('not a recorder engine state of version 2');
    }
    if (!Array.isArray(tracks) || !tracks.every((track) => Array.isArray(track) && track.length > 0)) {
      throw new TypeError('the saved tracks must be a list of non-empty lists of fixes');
    }
    const s = structuredClone(state);
    const shift = instant.uptime - s.at.uptime;
    /** @param {Instant} at */
    const moved = (at) => ({ uptime: at.uptime + shift, wall: at.wall });
    const engine = new RecorderEngine({ settings: s.settings, nonce: s.nonce, sourceIsLive: s.sourceIsLive, start: instant });
    engine.phase = s.phase;
    engine.tracks = structuredClone(tracks);
    engine.distance = tracks.reduce((sum, track) => sum + trackLength(track), 0);
    const running = s.runningSince !== null;
    engine.elapsedBefore = running ? s.elapsedBefore + Math.max(0, s.at.uptime - s.runningSince) : s.elapsedBefore;
    engine.runningSince = running ? instant.uptime : null;
    engine.trackOpen = s.trackOpen;
    engine.lastAccepted = s.lastAccepted && { fix: s.lastAccepted.fix, at: moved(s.lastAccepted.at) };
    const lastSaved = tracks.at(-1)?.at(-1);
    if (lastSaved && (!engine.lastAccepted || lastSaved.time > engine.lastAccepted.fix.time)) {
      // Accepted after the state was saved: it arrived no later than the last instant known.
      engine.lastAccepted = { fix: structuredClone(lastSaved), at: moved(s.at) };
    }
    engine.lastEvent = s.lastEvent && { event: s.lastEvent.event, uptime: s.lastEvent.uptime + shift };
    engine.lastIgnored = s.lastIgnored;
    engine.clockSamples = s.clockSamples;
    engine.nextAlert = s.nextAlert + shift;
    engine.timeStreak = s.timeStreak && { fix: s.timeStreak.fix, at: moved(s.timeStreak.at), count: s.timeStreak.count };
    engine.lastInstant = instant;
    engine.breakTrack(instant);
    return engine;
  }
}

/**
 * Metres along one track, summed fix to fix as the engine sums them while recording.
 * @param {Fix[]} track
 */
function trackLength(track) {
  let metres = 0;
  for (let index = 1; index < track.length; index++) {
    const step = geodesicDistance(track[index - 1], track[index]);
    if (Number.isFinite(step)) metres += step;
  }
  return metres;
}

/**
 * Whether a fix describes a place on Earth at a time: finite values, latitude within ±90°,
 * longitude within ±180°, and an accuracy, if any, that is not negative (NaN fails too). A missing
 * (undefined) altitude or accuracy counts as none, like null.
 * @param {Fix} fix
 */
function isValidFix(fix) {
  return Number.isFinite(fix.latitude) && Number.isFinite(fix.longitude)
    && Math.abs(fix.latitude) <= 90 && Math.abs(fix.longitude) <= 180
    && (fix.altitude == null || Number.isFinite(fix.altitude)) && Number.isFinite(fix.time)
    && (fix.accuracy == null || fix.accuracy >= 0);
}

/**
 * The GPS time expected at `now` after `fix` arrived at `arrival`: measured on the monotonic
 * clock, or on the wall clock when that advanced more (a sleeping computer's uptime may stop).
 * @param {Fix} fix
 * @param {Instant} arrival
 * @param {Instant} now
 */
function predictedTime(fix, arrival, now) {
  return fix.time + Math.max(0, now.uptime - arrival.uptime, now.wall - arrival.wall);
}

/**
 * The time-sync QR code to show at Unix time `now` (DESIGN §3.1): its time aligned on multiples
 * of the period, and the seconds until the next one. The recorder's screen and /clock (an
 * OwnTracks device's code, DESIGN §3.13) both show this.
 * @param {number} now Unix seconds with fractions (the recorder's corrected by GPS time)
 * @param {number} qrPeriod seconds; below 1 counts as 1
 * @param {string} nonce
 * @returns {QRCode}
 */
export function qrCodeAt(now, qrPeriod, nonce) {
  const period = Math.max(1, qrPeriod);
  const start = Math.floor(now / period) * period;
  const time = Math.trunc(start);
  return { time, nonce, text: qrPayloadText(time, nonce), secondsLeft: start + period - now, period };
}

/**
 * The text of a time-sync QR code: `"<unix-seconds>-<nonce>"` (DESIGN §3.1, SRR-12).
 * @param {number} time whole Unix seconds
 * @param {string} nonce
 */
export function qrPayloadText(time, nonce) {
  return `${time}-${nonce}`;
}

const NONCE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const NONCE_LENGTH = 12;

/**
 * A new session nonce: 12 characters of 0-9A-Z from the browser's secure generator, each drawn
 * without bias (bytes of 252 and above, beyond the last whole multiple of 36, are drawn again).
 */
export function makeNonce() {
  let nonce = '';
  const limit = 256 - (256 % NONCE_ALPHABET.length);
  while (nonce.length < NONCE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < limit && nonce.length < NONCE_LENGTH) nonce += NONCE_ALPHABET[byte % NONCE_ALPHABET.length];
    }
  }
  return nonce;
}

const METRES_PER_YARD = 0.9144;
const METRES_PER_MILE = 1609.344;

/**
 * A distance as the recording screen writes it (SRR-01, SRR-10): metres (yards) under 1 km
 * (1 mile), else kilometres (miles) with two decimals, one from 10 on: `523 m`, `1.23 km`,
 * `12.3 km`, `572 yd`, `1.23 mi`. The unit is chosen after rounding, so 999.6 m reads `1.00 km`.
 * The decimal separator is the language's (`1,23 km` in German); no digits are grouped.
 * @param {number} metres
 * @param {Units} units
 * @param {string} [language] a BCP 47 tag
 */
export function formatDistance(metres, units, language = 'en') {
  // Clamped as in Swift, where integer arithmetic would overflow on absurd input.
  const m = Number.isFinite(metres) ? Math.min(Math.max(0, metres), 1e12) : 0;
  const separator = decimalSeparator(language);
  if (units === 'imperial') return formatUnits(m / METRES_PER_YARD, 'yd', 1760, m / METRES_PER_MILE, 'mi', separator);
  return formatUnits(m, 'm', 1000, m / 1000, 'km', separator);
}

/**
 * The decimal separator of a language, as `Intl.NumberFormat` has it (CLDR's, as Swift's
 * `Locale.decimalSeparator`); `.` for a tag that is not one.
 * @param {string} language
 */
export function decimalSeparator(language) {
  try {
    return new Intl.NumberFormat(language).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
  } catch {
    return '.';
  }
}

/**
 * @param {number} small
 * @param {string} smallUnit
 * @param {number} smallPerLarge
 * @param {number} large
 * @param {string} largeUnit
 * @param {string} separator
 */
function formatUnits(small, smallUnit, smallPerLarge, large, largeUnit, separator) {
  // Math.round and Swift's rounded() agree on numbers that are not negative.
  const wholeSmall = Math.round(small);
  if (wholeSmall < smallPerLarge) return `${wholeSmall} ${smallUnit}`;
  const hundredths = Math.round(large * 100);
  if (hundredths < 1000) return `${Math.floor(hundredths / 100)}${separator}${twoDigits(hundredths % 100)} ${largeUnit}`;
  const tenths = Math.round(large * 10);
  return `${Math.floor(tenths / 10)}${separator}${tenths % 10} ${largeUnit}`;
}

/**
 * A duration, whole seconds shown (SRR-04): `42 s` under a minute, `12 min 05 s` under an hour,
 * else `2 h 07 min`.
 * @param {number} seconds
 */
export function formatDuration(seconds) {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(Math.min(seconds, 1e12)) : 0;
  if (total < 60) return `${total} s`;
  if (total < 3600) return `${Math.floor(total / 60)} min ${twoDigits(total % 60)} s`;
  return `${Math.floor(total / 3600)} h ${twoDigits(Math.floor((total % 3600) / 60))} min`;
}

/** @param {number} value */
function twoDigits(value) {
  return value < 10 ? `0${value}` : `${value}`;
}
