// Shared by the web app's unit tests: where the repository and Web/ are, and Web/'s files.
import { readdirSync, statSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const WEB = join(REPO, 'Web');

/** Every file under Web/, as its URL path (`/app/main.js`). */
export function webFiles(folder = WEB) {
  const found = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...webFiles(path));
    else found.push('/' + relative(WEB, path).split('\\').join('/'));
  }
  return found.sort();
}

/** Imports a module of Web/ by its URL path. */
export function webModule(urlPath) {
  return import(join(WEB, urlPath));
}
