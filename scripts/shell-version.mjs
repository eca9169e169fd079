#!/usr/bin/env node
// The service worker's cache name (VERSION in Web/app/shell.js) is made from the shell's own
// files: a SHA-256 over each listed file's path and bytes (shell.js itself, whose VERSION line
// is what changes, left out). `node scripts/shell-version.mjs` writes it; a unit test
// (Tests/Web/unit/shell.test.mjs) fails while the written one is stale, so a change to any file
// of the shell can no longer reach installed apps without a new VERSION.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const WEB = join(dirname(fileURLToPath(import.meta.url)), '..', 'Web');
const SHELL = join(WEB, 'app', 'shell.js');

/**
 * The VERSION the shell's files make.
 * @param {readonly string[]} files SHELL_FILES: URL paths, `/` being index.html
 * @param {string} prefix CACHE_PREFIX
 */
export function shellVersion(files, prefix) {
  const hash = createHash('sha256');
  for (const path of [...files].sort()) {
    if (path === '/app/shell.js') continue;
    const file = path === '/' ? 'index.html' : path.slice(1);
    hash.update(`${path}\n`);
    hash.update(readFileSync(join(WEB, file)));
    hash.update('\n');
  }
  return `${prefix}${hash.digest('hex').slice(0, 16)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { SHELL_FILES, CACHE_PREFIX } = await import(pathToFileURL(SHELL).href);
  const version = shellVersion(SHELL_FILES, CACHE_PREFIX);
  const text = readFileSync(SHELL, 'utf8');
  const next = text.replace(/export const VERSION = '[^']*';/, `export const VERSION = '${version}';`);
  if (next === text) {
    console.log(`shell-version: ${version} (unchanged)`);
  } else {
    writeFileSync(SHELL, next);
    console.log(`shell-version: ${version} written to Web/app/shell.js`);
  }
}
