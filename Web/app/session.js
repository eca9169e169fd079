// Who is signed in: asked once from GET /api/v1/session (an anonymous visitor is answered with
// null, not an error), then kept up to date by the pages that sign in and out. The web pages
// rely on the HttpOnly session cookie; no token is stored here.
import { call, ApiError } from './api.js';

/** @typedef {import('./contract.js').User} User an account as the API answers it */

/** The roles an account can have (DESIGN §3.5); each has an i18n key `role.<role>`. */
export const ROLES = Object.freeze(['user', 'officer', 'admin']);

/** @type {Promise<User | null> | null} */
let known = null;

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
}
