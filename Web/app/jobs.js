// What a person uses Waymark for, and so what the bottom bar shows (issue #33 points 1 and 2).
// Every module is listed once here, with its icon and its words; a job picks four of them for
// the bar, and the "More" sheet lists them all. The job is chosen on the first screen and in
// Account, and kept on this device; until then it follows from the account (a task given to
// the user, or an officer's role, means field inspection). Pure apart from localStorage.

/**
 * @typedef {'nearby' | 'map' | 'upload' | 'record' | 'routes' | 'scenes' | 'tasks' | 'paths'
 *   | 'inspection' | 'sky' | 'vault' | 'settings' | 'account'} ModuleId
 * @typedef {{id: ModuleId, path: string, name: string, line: string}} Module
 *   `name` and `line` are i18n keys: the short name on the bar and in the sheet, and one line
 *   that says what the module is for
 * @typedef {'photos' | 'geotag' | 'scenes' | 'fieldwork' | 'vault'} JobId
 * @typedef {{id: JobId, name: string, line: string, bar: ModuleId[]}} Job
 */

/**
 * Every module, in the order the More sheet lists them.
 * @type {readonly Module[]}
 */
export const MODULES = Object.freeze([
  { id: 'nearby', path: '/', name: 'nav.home', line: 'module.nearby.line' },
  { id: 'map', path: '/map', name: 'nav.map', line: 'module.map.line' },
  { id: 'upload', path: '/upload', name: 'nav.upload', line: 'module.upload.line' },
  { id: 'record', path: '/record', name: 'nav.record', line: 'module.record.line' },
  { id: 'routes', path: '/routes', name: 'nav.routes', line: 'module.routes.line' },
  { id: 'scenes', path: '/scenes', name: 'nav.scenes', line: 'module.scenes.line' },
  { id: 'tasks', path: '/tasks', name: 'nav.tasks', line: 'module.tasks.line' },
  { id: 'paths', path: '/paths', name: 'nav.paths', line: 'module.paths.line' },
  { id: 'inspection', path: '/inspection', name: 'nav.inspection', line: 'module.inspection.line' },
  { id: 'sky', path: '/sky', name: 'nav.sky', line: 'module.sky.line' },
  { id: 'vault', path: '/vault', name: 'nav.vault', line: 'module.vault.line' },
  { id: 'settings', path: '/settings', name: 'nav.settings', line: 'module.settings.line' },
  { id: 'account', path: '/account', name: 'nav.account', line: 'module.account.line' },
]);

/**
 * The jobs, in the order the first screen offers them. Each bar ends with Account.
 * @type {readonly Job[]}
 */
export const JOBS = Object.freeze([
  { id: 'photos', name: 'job.photos.name', line: 'job.photos.line', bar: ['nearby', 'map', 'upload', 'account'] },
  { id: 'geotag', name: 'job.geotag.name', line: 'job.geotag.line', bar: ['record', 'routes', 'sky', 'account'] },
  { id: 'scenes', name: 'job.scenes.name', line: 'job.scenes.line', bar: ['scenes', 'map', 'nearby', 'account'] },
  { id: 'fieldwork', name: 'job.fieldwork.name', line: 'job.fieldwork.line', bar: ['tasks', 'inspection', 'paths', 'account'] },
  { id: 'vault', name: 'job.vault.name', line: 'job.vault.line', bar: ['vault', 'record', 'routes', 'account'] },
]);

/** The job of a visitor nobody knows anything about. */
export const DEFAULT_JOB = /** @type {JobId} */ ('photos');

const STORAGE_KEY = 'waymark.job';

/**
 * @param {string | null | undefined} id
 * @returns {Job | null}
 */
export function jobById(id) {
  return JOBS.find((job) => job.id === id) ?? null;
}

/**
 * @param {ModuleId} id
 * @returns {Module}
 */
export function moduleById(id) {
  const found = MODULES.find((module) => module.id === id);
  if (!found) throw new RangeError(`no module ${id}`);
  return found;
}

/**
 * The modules on the bar for `job`, in order.
 * @param {JobId} job
 * @returns {Module[]}
 */
export function barModules(job) {
  return (jobById(job) ?? /** @type {Job} */ (jobById(DEFAULT_JOB))).bar.map(moduleById);
}

/**
 * The module a page belongs to: the one whose path is the page's pattern or begins it
 * (`/tasks/:id/camera` is Tasks'); `/` only for itself. Null for a page of no module.
 * @param {string | null} pattern a page's pattern from pages.json
 * @returns {ModuleId | null}
 */
export function moduleOfPage(pattern) {
  if (!pattern) return null;
  const found = MODULES.find((module) => module.path === pattern || (module.path !== '/' && pattern.startsWith(`${module.path}/`)));
  return found ? found.id : null;
}

/**
 * The job this account suggests when none has been chosen: an officer, or a user who was given
 * a task, does field inspection; everyone else shares photos.
 * @param {{role: string} | null} user
 * @param {number} tasksGiven how many tasks the account's list holds (0 when unknown)
 * @returns {JobId}
 */
export function suggestedJob(user, tasksGiven) {
  if (user && (user.role === 'officer' || tasksGiven > 0)) return 'fieldwork';
  return DEFAULT_JOB;
}

/** @type {Set<(job: JobId) => void>} */
const listeners = new Set();
/**
 * The choice of this visit, for a browser that keeps no storage.
 * @type {JobId | null}
 */
let chosenHere = null;

/**
 * The job chosen on this device, or null before the first choice.
 * @returns {JobId | null}
 */
export function chosenJob() {
  let stored = null;
  try { stored = localStorage.getItem(STORAGE_KEY); } catch { /* storage may be off */ }
  return jobById(stored)?.id ?? chosenHere;
}

/**
 * Keeps `job` as this device's choice and tells the listeners (the bar redraws).
 * @param {JobId} job
 */
export function chooseJob(job) {
  if (!jobById(job)) throw new RangeError(`no job ${job}`);
  chosenHere = job;
  try { localStorage.setItem(STORAGE_KEY, job); } catch { /* chosen for this visit only */ }
  for (const listener of listeners) listener(job);
}

/**
 * @param {(job: JobId) => void} listener called after every choice
 * @returns {() => void} stops listening
 */
export function onJobChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
