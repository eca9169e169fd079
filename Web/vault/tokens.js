// The vault's access token as the pages use it (seed 002 "Login": a token lives `expires_in`
// seconds, 7,200 in the seed): the kept token while it has more than a minute left, else a new
// sign-in with the credentials kept on this phone — as the Swift library's VaultConnection does.
// A kept login the vault no longer accepts becomes `unauthorized` (log out and in again). The
// client, the place the session is kept and the clock are passed in, so node's tests drive the
// expiry without waiting. Nothing here touches the DOM.
import { VaultError } from './client.js';

/**
 * @typedef {import('./client.js').VaultToken} VaultToken
 * @typedef {import('./client.js').VaultCredentials} VaultCredentials
 * @typedef {import('./push.js').TokenSource} TokenSource
 */

/** A token is renewed this long before it expires (ms), as the Swift VaultConnection does. */
export const RENEWAL_MARGIN = 60_000;

/**
 * The tokens of a session.
 * @param {{session: {credentials: VaultCredentials, token: VaultToken | null},
 *   client: {signIn: (credentials: VaultCredentials) => Promise<VaultToken>},
 *   save: () => Promise<void>, now?: () => number}} options  `session` is changed in place when a
 *   new token comes, then `save` keeps it; `now` in ms since 1970
 * @returns {TokenSource}
 */
export function createTokenSource({ session, client, save, now = Date.now }) {
  /** @type {Promise<VaultToken> | null} one sign-in for callers that ask at the same time */
  let signingIn = null;
  const renew = () => {
    if (!signingIn) {
      signingIn = (async () => {
        try {
          session.token = await client.signIn(session.credentials);
        } catch (error) {
          // The kept login no longer works: to the caller that is a refused token.
          if (error instanceof VaultError && error.kind === 'invalidCredentials') throw new VaultError('unauthorized', 'sign-in refused', 401);
          throw error;
        }
        await save();
        return session.token;
      })().finally(() => { signingIn = null; });
    }
    return signingIn;
  };
  return {
    token: async () => (session.token && session.token.expires - RENEWAL_MARGIN > now() ? session.token : renew()),
    renew,
  };
}
