// Web/ is built in floors (#33): shared machinery on the ground (Web/app/*.js: api, store,
// outbox, i18n, router, DOM helpers …), each area's logic above it (Web/recorder/, photos/,
// scenes/, tasks/, paths/, inspection/, sky/, vault/), and on top the pages (Web/app/pages/) and
// the app's frame (main.js, nav.js, sw.js). A module imports only from its own floor or below,
// no page imports another page (what two pages share belongs to their area), and no two
// modules import each other round a circle. This test reads every import of every module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname, normalize } from 'node:path/posix';
import { WEB, webFiles } from './helpers.mjs';

const FRAME = new Set(['/app/main.js', '/app/nav.js', '/app/sw.js']);
const FLOORS = ['ground', 'area', 'top'];

/** The floor of a module, by where it lives. @param {string} path a URL path, `/app/api.js` */
export function floorOf(path) {
  if (path.startsWith('/app/pages/') || FRAME.has(path)) return 'top';
  if (path.startsWith('/app/')) return 'ground';
  return 'area';
}

/**
 * Every module another names: static imports and re-exports, dynamic `import()`, and JSDoc's
 * `import('…')` types (a type from a page is as much an upward dependency as a function).
 * @param {string} path @param {string} text
 */
export function importsOf(path, text) {
  const found = new Set();
  const patterns = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const target = match[1];
      if (!target.startsWith('.') && !target.startsWith('/')) continue;
      found.add(target.startsWith('/') ? target : normalize(join(dirname(path), target)));
    }
  }
  return [...found].sort();
}

/**
 * What breaks the floors in an import graph: upward imports, a page importing a page, circles,
 * and imports of modules that do not exist.
 * @param {Map<string, string[]>} graph module → the modules it imports
 */
export function floorProblems(graph) {
  const problems = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (!graph.has(to)) { problems.push(`${from} imports ${to}, which is not a module of Web/`); continue; }
      if (FLOORS.indexOf(floorOf(to)) > FLOORS.indexOf(floorOf(from))) problems.push(`${from} (${floorOf(from)}) imports upward: ${to} (${floorOf(to)})`);
      if (from.startsWith('/app/pages/') && to.startsWith('/app/pages/')) problems.push(`page ${from} imports page ${to}`);
      if (from.startsWith('/app/pages/') && FRAME.has(to)) problems.push(`page ${from} imports the app's frame: ${to}`);
    }
  }
  // Circles: a depth-first walk that meets a module still on its path.
  const state = new Map();
  /** @param {string} module @param {string[]} trail */
  const visit = (module, trail) => {
    state.set(module, 'open');
    for (const next of graph.get(module) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') problems.push(`circle: ${[...trail.slice(trail.indexOf(next)), next].join(' → ')}`);
      else if (!state.has(next)) visit(next, [...trail, next]);
    }
    state.set(module, 'done');
  };
  for (const module of graph.keys()) if (!state.has(module)) visit(module, [module]);
  return problems;
}

function webGraph() {
  const graph = new Map();
  for (const path of webFiles().filter((file) => file.endsWith('.js'))) {
    graph.set(path, importsOf(path, readFileSync(join(WEB, path), 'utf8')));
  }
  return graph;
}

test('every module imports only from its own floor or below, no page imports a page, and no imports go round a circle', () => {
  const graph = webGraph();
  assert.ok(graph.size > 100 && graph.get('/app/pages/task.js')?.includes('/tasks/words.js'), 'the imports are read');
  assert.deepEqual(floorProblems(graph), []);
});

test('the check finds each kind of break', () => {
  const graph = new Map([
    ['/app/api.js', ['/tasks/model.js']],
    ['/tasks/model.js', ['/app/api.js', '/app/pages/tasks.js']],
    ['/app/pages/tasks.js', ['/app/pages/task.js', '/app/main.js']],
    ['/app/pages/task.js', ['/app/gone.js']],
    ['/app/main.js', ['/app/pages/tasks.js']],
  ]);
  assert.deepEqual(floorProblems(graph).sort(), [
    '/app/api.js (ground) imports upward: /tasks/model.js (area)',
    '/app/pages/task.js imports /app/gone.js, which is not a module of Web/',
    '/tasks/model.js (area) imports upward: /app/pages/tasks.js (top)',
    'circle: /app/api.js → /tasks/model.js → /app/api.js',
    'circle: /app/pages/tasks.js → /app/main.js → /app/pages/tasks.js',
    'page /app/pages/tasks.js imports page /app/pages/task.js',
    "page /app/pages/tasks.js imports the app's frame: /app/main.js",
  ].sort());
});

test('imports are read in every form a module writes them', () => {
  const text = `import { a } from './a.js';\nexport { b } from "../b.js";\nimport './c.js';\nconst d = await import('./d.js');\n/** @typedef {import('../router.js').PageContext} P */\nimport x from 'node:fs';`;
  assert.deepEqual(importsOf('/app/pages/x.js', text), ['/app/b.js', '/app/pages/a.js', '/app/pages/c.js', '/app/pages/d.js', '/app/router.js']);
});
