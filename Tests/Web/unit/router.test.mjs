// Which page a URL shows, matched against the real Web/app/pages.json — the same file the
// server reads to decide which paths answer with the shell.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { WEB } from './helpers.mjs';
import { matchPath, matchPage, handlesLink } from '../../../Web/app/router.js';

const pages = JSON.parse(readFileSync(join(WEB, 'app', 'pages.json'), 'utf8'));

test('pages.json lists each page once, with a module that exists and exports render', async () => {
  assert.ok(Array.isArray(pages) && pages.length >= 2);
  const paths = pages.map((page) => page.path);
  assert.equal(new Set(paths).size, paths.length, 'a path is listed twice');
  for (const page of pages) {
    assert.deepEqual(Object.keys(page).sort(), ['module', 'path']);
    assert.match(page.path, /^\/([a-z0-9-]+|:[a-zA-Z]+)?(\/([a-z0-9-]+|:[a-zA-Z]+))*$/, `pattern ${page.path}`);
    assert.match(page.module, /^\/app\/pages\/[a-z0-9-]+\.js$/);
    assert.ok(existsSync(join(WEB, page.module)), `${page.module} is missing`);
    const source = readFileSync(join(WEB, page.module), 'utf8');
    assert.match(source, /export (async )?function render\(/, `${page.module} exports no render`);
    assert.match(source, /export const titleKey = '/, `${page.module} exports no titleKey`);
  }
  assert.ok(paths.includes('/') && paths.includes('/account'));
});

test('the home and account pages match their paths, and nothing else does', () => {
  assert.equal(matchPage(pages, '/')?.page.module, '/app/pages/home.js');
  assert.equal(matchPage(pages, '/account')?.page.module, '/app/pages/account.js');
  assert.equal(matchPage(pages, '/account/')?.page.module, '/app/pages/account.js', 'a trailing slash is the same page');
  assert.equal(matchPage(pages, '/accounts'), null);
  assert.equal(matchPage(pages, '/account/extra'), null);
  assert.equal(matchPage(pages, '/app/main.js'), null);
  assert.equal(matchPage(pages, '/api/v1/me'), null);
  assert.equal(matchPage(pages, '/ACCOUNT'), null, 'paths are case-sensitive, as on the server');
});

test('the photo pages of seed 004 match their paths', () => {
  assert.equal(matchPage(pages, '/map')?.page.module, '/app/pages/map.js');
  assert.equal(matchPage(pages, '/upload')?.page.module, '/app/pages/upload.js');
  assert.deepEqual(matchPage(pages, '/photos/AB81B43D-1792-4B30')?.params, { id: 'AB81B43D-1792-4B30' });
  assert.equal(matchPage(pages, '/photos/AB81B43D-1792-4B30')?.page.module, '/app/pages/photo.js');
  assert.equal(matchPage(pages, '/photos'), null);
  assert.equal(matchPage(pages, '/photos/a/b'), null);
  const here = { origin: 'http://127.0.0.1:8080', pathname: '/', search: '' };
  assert.equal(handlesLink({ href: '/map?lat=52.5&lon=13.4&z=17', target: '', hasDownload: false, modified: false, button: 0 }, here, pages), true);
  assert.equal(handlesLink({ href: '/api/v1/photos/x/image/large', target: '', hasDownload: true, modified: false, button: 0 }, here, pages), false, 'Save downloads');
});

test('parameters are taken from :name segments, percent-decoded', () => {
  assert.deepEqual(matchPath('/photos/:id', '/photos/42'), { id: '42' });
  assert.deepEqual(matchPath('/routes/:id/edit', '/routes/a%20b/edit'), { id: 'a b' });
  assert.deepEqual(matchPath('/scenes/:scene/photos/:photo', '/scenes/s1/photos/p2'), { scene: 's1', photo: 'p2' });
  assert.equal(matchPath('/photos/:id', '/photos'), null);
  assert.equal(matchPath('/photos/:id', '/photos/1/2'), null);
  assert.equal(matchPath('/photos/:id', '/photos/%E0%A4%A'), null, 'a broken escape matches nothing');
  assert.deepEqual(matchPath('/', '/'), {});
  const more = [...pages, { path: '/scenes/:scene/photos/:photo', module: '/app/pages/scene-photo.js' }];
  assert.deepEqual(matchPage(more, '/scenes/s1/photos/p2'), { page: more[more.length - 1], params: { scene: 's1', photo: 'p2' } });
});

test('only plain clicks on same-origin links to a known page stay in the app', () => {
  const here = { origin: 'http://127.0.0.1:8080', pathname: '/map', search: '?z=3' };
  const click = (href, extra = {}) => handlesLink({ href, target: '', hasDownload: false, modified: false, button: 0, ...extra }, here, pages);
  assert.equal(click('http://127.0.0.1:8080/account'), true);
  assert.equal(click('/account#sign-up'), true);
  assert.equal(click('/?x=1'), true);
  assert.equal(click('http://localhost:8080/account'), false, 'another origin loads normally');
  assert.equal(click('/api/v1/me'), false, 'not a page');
  assert.equal(click('/icons/icon-512.png'), false);
  assert.equal(click('/account', { modified: true }), false, 'ctrl/cmd-click opens a tab');
  assert.equal(click('/account', { button: 1 }), false);
  assert.equal(click('/account', { target: '_blank' }), false);
  assert.equal(click('/account', { target: '_self' }), true);
  assert.equal(click('/account', { hasDownload: true }), false);
  assert.equal(click('#main'), false, 'the skip link: a place on this page, which the browser scrolls to');
  assert.equal(click('http://127.0.0.1:8080/map?z=3#main'), false);
  assert.equal(click('/map?z=4'), true, 'the same page with another query is drawn again');
  assert.equal(click('/map#main'), true);
});
