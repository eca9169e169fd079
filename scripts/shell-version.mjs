#!/usr/bin/env node
// Derives the service worker's manifest from the files in Web/ and writes it to
// Web/app/shell-manifest.js: every file the app ships (NOT_SHELL names the few it does not), each
// with its SHA-256 as a Subresource Integrity string, and VERSION, the cache's name, made from
// them: `waymark-shell-<day>-<hash>`, the day being the one the files last changed. Nobody keeps
// the list by hand. `make run` writes it before the server starts; a unit test
// (Tests/Web/unit/shell.test.mjs) fails while the committed one is stale, so no change to a file
// of the shell reaches installed apps without a new VERSION.
//
//   node scripts/shell-version.mjs
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const WEB = join(dirname(fileURLToPath(import.meta.url)), '..', 'Web');
export const MANIFEST = join(WEB, 'app', 'shell-manifest.js');
export const CACHE_PREFIX = 'waymark-shell-';

/** Files in Web/ that the browser never needs offline: the worker itself (the browser keeps it),
 * the manifest (the worker's own import), type-checking configuration, notes and generators. */
export const NOT_SHELL = [/^\/app\/sw\.js$/, /^\/app\/shell-manifest\.js$/, /^\/tsconfig(\.\w+)?\.json$/, /README\.md$/, /\.py$/, /^\/index\.html$/];

/** Every file under `folder`, as its URL path (`/app/main.js`), sorted. @param {string} [folder] @returns {string[]} */
export function webFiles(folder = WEB) {
  const found = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...webFiles(path));
    else found.push('/' + relative(WEB, path).split('\\').join('/'));
  }
  return found.sort();
}

/** The file a URL path of the shell is: `/` is index.html. @param {string} path */
const fileOf = (path) => join(WEB, path === '/' ? 'index.html' : path.slice(1));

/**
 * The shell as the files in Web/ make it now: URL path → `sha256-<base64>`, sorted by path, and
 * the hash part of its VERSION.
 * @returns {{files: Array<[string, string]>, hash: string}}
 */
export function deriveShell() {
  const paths = ['/', ...webFiles().filter((path) => !NOT_SHELL.some((pattern) => pattern.test(path)))].sort();
  const whole = createHash('sha256');
  /** @type {Array<[string, string]>} */
  const listed = [];
  for (const path of paths) {
    const bytes = readFileSync(fileOf(path));
    listed.push([path, `sha256-${createHash('sha256').update(bytes).digest('base64')}`]);
    whole.update(`${path}\n`).update(bytes).update('\n');
  }
  return { files: listed, hash: whole.digest('hex').slice(0, 16) };
}

/** The text of shell-manifest.js for `shell`, named `version`. @param {{files: Array<[string, string]>}} shell @param {string} version */
export function manifestText(shell, version) {
  const rows = shell.files.map(([path, integrity]) => `  ['${path}', '${integrity}'],`).join('\n');
  return `// Written by \`node scripts/shell-version.mjs\` from the files in Web/: do not edit. The files the
// service worker keeps for offline use, each with its SHA-256 (checked as it is cached), and the
// cache's name, made from them.

export const VERSION = '${version}';

/** @type {ReadonlyArray<readonly [string, string]>} URL path, Subresource Integrity */
export const SHELL_MANIFEST = Object.freeze([
${rows}
]);
`;
}

/** The VERSION written now. @returns {string} */
export function writtenVersion() {
  if (!existsSync(MANIFEST)) return '';
  return /export const VERSION = '([^']*)';/.exec(readFileSync(MANIFEST, 'utf8'))?.[1] ?? '';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const shell = deriveShell();
  const current = writtenVersion();
  const day = new Date().toISOString().slice(0, 10);
  const version = current.endsWith(`-${shell.hash}`) ? current : `${CACHE_PREFIX}${day}-${shell.hash}`;
  const text = manifestText(shell, version);
  if (existsSync(MANIFEST) && readFileSync(MANIFEST, 'utf8') === text) {
    console.log(`shell-version: ${version} (unchanged)`);
  } else {
    writeFileSync(MANIFEST, text);
    console.log(`shell-version: ${version} written to Web/app/shell-manifest.js`);
  }
}
