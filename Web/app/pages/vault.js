// `/vault` (seed 002): the Login screen while no data vault is signed in to, else the Module
// list. Locations go to the vault from /vault/user; where the browser says it is on Wi-Fi, the
// cached ones are also uploaded when this page opens. The vault code lives in Web/vault/.
import { vaultCache, onWifi, uploadNow } from '../../vault/connection.js';
import { loginScreen } from '../../vault/ui/login.js';
import { moduleList } from '../../vault/ui/modules.js';

/** @typedef {import('../router.js').PageContext} PageContext */

export const titleKey = 'vault.title';

/**
 * @param {HTMLElement} root
 * @param {PageContext} context
 */
export async function render(root, context) {
  const session = await vaultCache().session();
  if (!session) {
    return loginScreen(root, () => context.refresh());
  }
  if (onWifi()) void uploadNow(session).catch((error) => console.warn('Waymark: automatic vault upload failed:', error));
  await moduleList(root, session);
  return undefined;
}
