// The shell: what the service worker caches is exactly what the app ships, the manifest makes
// the app installable, and nothing in Web/ needs what the CSP forbids (inline script, inline
// styles, inline handlers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { WEB, webFiles } from './helpers.mjs';
import { createHash } from 'node:crypto';
import { SHELL_FILES, SHELL_INTEGRITY, VERSION, CACHE_PREFIX } from '../../../Web/app/shell.js';
import { SHELL_MANIFEST } from '../../../Web/app/shell-manifest.js';
import { deriveShell, NOT_SHELL } from '../../../scripts/shell-version.mjs';

test('the service worker caches every file the app ships, and only files that exist', () => {
  const shipped = webFiles().filter((file) => !NOT_SHELL.some((pattern) => pattern.test(file)));
  const listed = SHELL_FILES.filter((path) => path !== '/' && path !== '/app/shell-manifest.js');
  assert.deepEqual([...listed].sort(), shipped, 'a file was added to or removed from Web/: run node scripts/shell-version.mjs and commit Web/app/shell-manifest.js');
  assert.ok(SHELL_FILES.includes('/') && SHELL_FILES.includes('/app/shell-manifest.js'), 'the shell document and the manifest the pages import');
  assert.ok(existsSync(join(WEB, 'index.html')));
  assert.ok(VERSION.startsWith(CACHE_PREFIX));
});

test('the manifest is the files\' own: each hash and VERSION are what the files make now (run node scripts/shell-version.mjs)', () => {
  const shell = deriveShell();
  const match = /^(.*)(\d{4}-\d{2}-\d{2})-([0-9a-f]{16})$/.exec(VERSION);
  assert.ok(match && match[1] === CACHE_PREFIX, `VERSION ${VERSION} is ${CACHE_PREFIX}<day>-<hash>`);
  assert.deepEqual(SHELL_MANIFEST.map(([path, integrity]) => [path, integrity]), shell.files,
    'a file of the shell changed: run node scripts/shell-version.mjs and commit Web/app/shell-manifest.js');
  assert.equal(match[3], shell.hash, 'a file of the shell changed: run node scripts/shell-version.mjs and commit Web/app/shell-manifest.js');
});

test('each integrity is the SHA-256 of the file the server sends for that path', () => {
  for (const [path, integrity] of SHELL_MANIFEST) {
    const file = join(WEB, path === '/' ? 'index.html' : path.slice(1));
    assert.equal(integrity, `sha256-${createHash('sha256').update(readFileSync(file)).digest('base64')}`, path);
    assert.equal(SHELL_INTEGRITY[path], integrity);
  }
});

test('the manifest makes the app installable: name, start_url, standalone, 192 and 512 icons, maskable', () => {
  const manifest = JSON.parse(readFileSync(join(WEB, 'manifest.webmanifest'), 'utf8'));
  assert.equal(manifest.name, 'Waymark');
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.display, 'standalone');
  assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/i);
  assert.match(manifest.background_color, /^#[0-9a-f]{6}$/i);
  const size = (icon) => {
    const png = readFileSync(join(WEB, icon.src));
    assert.equal(png.subarray(1, 4).toString(), 'PNG', `${icon.src} is a PNG`);
    return `${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`;
  };
  for (const icon of manifest.icons) assert.equal(size(icon), icon.sizes, `${icon.src} has the size it claims`);
  const any = manifest.icons.filter((icon) => (icon.purpose ?? 'any').split(' ').includes('any')).map((icon) => icon.sizes);
  assert.ok(any.includes('192x192') && any.includes('512x512'));
  assert.ok(manifest.icons.some((icon) => icon.purpose.split(' ').includes('maskable')));
});

test('index.html links the manifest, the stylesheet and main.js as a module, and has the shell’s parts', () => {
  const html = readFileSync(join(WEB, 'index.html'), 'utf8');
  assert.match(html, /<link rel="manifest" href="\/manifest.webmanifest">/);
  assert.match(html, /<link rel="stylesheet" href="\/styles\/app.css">/);
  assert.match(html, /<script type="module" src="\/app\/main.js"><\/script>/);
  assert.match(html, /<main id="main"/);
  assert.match(html, /aria-live="polite"/);
  assert.match(html, /<meta name="viewport"/);
});

test('nothing in Web/ needs what the CSP forbids', () => {
  for (const file of webFiles().filter((f) => /\.(html|js)$/.test(f))) {
    const text = readFileSync(join(WEB, file), 'utf8');
    assert.doesNotMatch(text, /<script(?![^>]*\bsrc=)[^>]*>/, `${file}: inline script`);
    assert.doesNotMatch(text, /<style\b/, `${file}: inline <style>`);
    assert.doesNotMatch(text, /\sstyle=/, `${file}: style attribute`);
    assert.doesNotMatch(text, /\son[a-z]+="/, `${file}: inline event handler`);
    assert.doesNotMatch(text, /\.innerHTML\s*=|insertAdjacentHTML|document\.write|\beval\(|new Function\(/, `${file}: HTML or code from strings`);
    assert.doesNotMatch(text, /\.style\.|setAttribute\(\s*['"]style/, `${file}: inline style from script`);
    assert.doesNotMatch(text, /(fetch|import)\(\s*['"`]https?:/, `${file}: code or data from another origin`);
  }
});
