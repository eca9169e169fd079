// Who is signed in: asked once from GET /api/v1/session (an anonymous visitor is answered with
// null, not an error), then kept up to date by the pages that sign in and out. The web pages
// rely on the HttpOnly session cookie; no token is stored here.
import { call, ApiError } from './api.js';

/** @typedef {import('./contract.js').User} User an account as the API answers it */

/** The roles an account can have (DESIGN §3.5); each has an i18n key `role.<role>`. */
export const ROLES = Object.freeze(['user', 'officer', 'admin']);

/** @type {Promise<User | null> | null} */
let known = null;
/** @type {Set<(user: User | null) => void>} */
const listeners = new Set();

/**
 * The signed-in user, or null. Offline, or when the server cannot be reached, that is null too.
 * @param {{refresh?: boolean}} options ask the server again instead of using the last answer
 * @returns {Promise<User | null>}
 */
export function currentUser({ refresh = false } = {}) {
  if (!known || refresh) {
    known = call('currentSession').then(
      (answer) => answer.user,
      (error) => {
        if (error instanceof ApiError) {
          // No connection, or the server could not answer: ask again next time instead of remembering.
          known = null;
          return null;
        }
        throw error;
      },
    );
  }
  return known;
}

/**
 * What sign-in, sign-up and sign-out learned.
 * @param {User | null} user
 */
export function setUser(user) {
  known = Promise.resolve(user);
  for (const listener of listeners) listener(user);
}

/**
 * @param {(user: User | null) => void} listener called after every sign-in, sign-up and sign-out
 * @returns {() => void} stops listening
 */
export function onUserChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * How many tasks `user` was given: 0 for an anonymous visitor, an officer or an administrator
 * (whose list holds everyone's tasks), and when the list cannot be had.
 * @param {User | null} user
 * @returns {Promise<number>}
 */
export async function tasksGiven(user) {
  if (!user || user.role !== 'user') return 0;
  try {
    return (await call('listTasks', { query: {}, cache: 'no-cache' })).items.length;
  } catch (error) {
    if (error instanceof ApiError) return 0;
    throw error;
  }
}
