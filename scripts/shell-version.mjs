#!/usr/bin/env node
// The service worker's cache name (VERSION in Web/app/shell.js) is made from the shell's own
// files: the day they last changed and a SHA-256 over each listed file's path and bytes
// (shell.js itself, whose VERSION line is what changes, left out), `waymark-shell-2026-12-03-
// aa1ab7bccba0af0d`. The pages show it without the prefix as the app's version. `node scripts/shell-version.mjs` writes it; a unit test
// (Tests/Web/unit/shell.test.mjs) fails while the written one is stale, so a change to any file
// of the shell can no longer reach installed apps without a new VERSION.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const WEB = join(dirname(fileURLToPath(import.meta.url)), '..', 'Web');
const SHELL = join(WEB, 'app', 'shell.js');

/**
 * The hash part of the VERSION the shell's files make.
 * @param {readonly string[]} files SHELL_FILES: URL paths, `/` being index.html
 */
export function shellHash(files) {
  const hash = createHash('sha256');
  for (const path of [...files].sort()) {
    if (path === '/app/shell.js') continue;
    const file = path === '/' ? 'index.html' : path.slice(1);
    hash.update(`${path}\n`);
    hash.update(readFileSync(join(WEB, file)));
    hash.update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { SHELL_FILES, CACHE_PREFIX } = await import(pathToFileURL(SHELL).href);
  const hash = shellHash(SHELL_FILES);
  const text = readFileSync(SHELL, 'utf8');
  const current = /export const VERSION = '([^']*)';/.exec(text)?.[1] ?? '';
  const day = new Date().toISOString().slice(0, 10);
  const version = current.endsWith(`-${hash}`) ? current : `${CACHE_PREFIX}${day}-${hash}`;
  const next = text.replace(/export const VERSION = '[^']*';/, `export const VERSION = '${version}';`);
  if (next === text) {
    console.log(`shell-version: ${version} (unchanged)`);
  } else {
    writeFileSync(SHELL, next);
    console.log(`shell-version: ${version} written to Web/app/shell.js`);
  }
}
