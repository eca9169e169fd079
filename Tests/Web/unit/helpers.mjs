// Shared by the web app's unit tests: where the repository and Web/ are, and Web/'s files.
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { webcrypto } from 'node:crypto';

// Node 18 (Debian 12's nodejs) has WebCrypto only as node:crypto's webcrypto, not as the
// browser's global `crypto` that api.js uses; newer versions have both.
if (!globalThis.crypto) globalThis.crypto = /** @type {Crypto} */ (webcrypto);

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const WEB = join(REPO, 'Web');
/** The shared real-world files: WAYMARK_FIXTURES (as `make test` sets it), else ../shared/fixtures beside the repository. */
export const FIXTURES = process.env.WAYMARK_FIXTURES || join(REPO, '..', 'shared', 'fixtures');

/** Every file under Web/, as its URL path (`/app/main.js`): the one listing the service worker's manifest is made from. */
export { webFiles } from '../../../scripts/shell-version.mjs';

/** Imports a module of Web/ by its URL path. */
export function webModule(urlPath) {
  return import(join(WEB, urlPath));
}
