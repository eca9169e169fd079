// Waymark's icons on a 24 × 24 grid in the text's colour, built as SVG elements (no icon font,
// no file to fetch, no inline markup for the CSP): the modules' line drawings for the bar and
// the More sheet; the recorder's eye and eye-slash of the passphrase field (SCO-04/05), GPS
// status dish (SRR-08) and settings gear; the routes list's filled Material-style shapes (its
// menu, the cloud status of a route, the map's buttons). They are decoration: the words beside
// each icon, or its button's label, say what it is.

/**
 * @typedef {import('./jobs.js').ModuleId | 'more' | 'close' | 'eye' | 'eye-slash' | 'gps' | 'gear'
 *   | 'menu' | 'delete' | 'queued' | 'stored' | 'failed' | 'recording' | 'back' | 'layers' | 'key' | 'start'} IconName
 */

const SVG = 'http://www.w3.org/2000/svg';

/**
 * Each icon as stroked paths (`d`), filled paths (`F d`) and circles (`c cx cy r`, a filled
 * one marked `f`).
 * @type {Record<IconName, string[]>}
 */
const DRAWINGS = {
  nearby: ['M12 21s-6.5-6-6.5-11a6.5 6.5 0 0 1 13 0c0 5-6.5 11-6.5 11z', 'c 12 10 2.25'],
  map: ['M3 6.5 9 4l6 2.5L21 4v13.5L15 20l-6-2.5L3 20z', 'M9 4v13.5', 'M15 6.5V20'],
  upload: ['M12 15.5V4', 'M7 9l5-5 5 5', 'M4 15v4.5h16V15'],
  record: ['c 12 12 8.5', 'c 12 12 4 f'],
  routes: ['M6.5 17.5C9 11 13 14 15 9.5s2-4 3.5-4', 'c 5 19 2', 'c 19 5 2'],
  scenes: ['M3 8h12v11H3z', 'M9 8V5h12v11h-6'],
  tasks: ['M10 6.5h10', 'M10 12h10', 'M10 17.5h10', 'M3.5 6.5 5 8l2.5-3', 'M3.5 12 5 13.5l2.5-3', 'M3.5 17.5 5 19l2.5-3'],
  paths: ['M5 18 8 6l9 3 2 9z', 'c 5 18 1.75 f', 'c 8 6 1.75 f', 'c 17 9 1.75 f', 'c 19 18 1.75 f'],
  inspection: ['c 10.5 10.5 6.5', 'M15.5 15.5 21 21', 'M7.5 10.5l2 2 4-4'],
  sky: ['M3.5 7.5 7.5 3.5 11 7 7 11z', 'M13 17l4-4 3.5 3.5-4 4z', 'M9 9l6 6', 'c 12 12 2.25', 'M4 14.5A5.5 5.5 0 0 0 9.5 20'],
  vault: ['M5 10.5h14v10H5z', 'M8 10.5V8a4 4 0 0 1 8 0v2.5', 'c 12 15.5 1.5 f'],
  settings: ['M4 7h9', 'M18 7h2', 'M4 17h3', 'M12 17h8', 'c 15.5 7 2.25', 'c 9.5 17 2.25'],
  account: ['c 12 8 4', 'M4 21a8 8 0 0 1 16 0'],
  more: ['c 5 12 1.75 f', 'c 12 12 1.75 f', 'c 19 12 1.75 f'],
  close: ['M6 6l12 12', 'M18 6 6 18'],
  eye: ['M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z', 'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z'],
  'eye-slash': ['M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z', 'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z', 'M3 3l18 18'],
  gps: ['M12 2v3', 'M12 19v3', 'M2 12h3', 'M19 12h3', 'M12 5a7 7 0 1 0 0 14 7 7 0 0 0 0-14z', 'M12 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4z'],
  menu: ['F M3 18h18v-2H3v2zm0-5h18v-2H3v2zm0-7v2h18V6H3z'],
  delete: ['F M6 19c0 1.1.9 2 2 2h8c1.1 0 2-.9 2-2V7H6v12zM19 4h-3.5l-1-1h-5l-1 1H5v2h14V4z'],
  queued: ['F M11.99 2C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2zM12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8zm.5-13H11v6l5.25 3.15.75-1.23-4.5-2.67z'],
  stored: ['F M19.35 10.04C18.67 6.59 15.64 4 12 4 9.11 4 6.6 5.64 5.35 8.04 2.34 8.36 0 10.91 0 14c0 3.31 2.69 6 6 6h13c2.76 0 5-2.24 5-5 0-2.64-2.05-4.78-4.65-4.96zM10 17l-3.5-3.5 1.41-1.41L10 14.17 15.18 9l1.42 1.41L10 17z'],
  failed: ['F M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm1 15h-2v-2h2v2zm0-4h-2V7h2v6z'],
  recording: ['F M12 4a8 8 0 1 0 0 16 8 8 0 1 0 0-16z'],
  back: ['F M20 11H7.83l5.59-5.59L12 4l-8 8 8 8 1.41-1.41L7.83 13H20v-2z'],
  layers: ['F M11.99 18.54l-7.37-5.73L3 14.07l9 7 9-7-1.63-1.27-7.38 5.74zM12 16l7.36-5.73L21 9l-9-7-9 7 1.63 1.27L12 16z'],
  key: ['F M12.65 10C11.83 7.67 9.61 6 7 6c-3.31 0-6 2.69-6 6s2.69 6 6 6c2.61 0 4.83-1.67 5.65-4H17v4h4v-4h2v-4H12.65zM7 14c-1.1 0-2-.9-2-2s.9-2 2-2 2 .9 2 2-.9 2-2 2z'],
  start: ['F M8 5v14l11-7z'],
  gear: ['M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z', 'M19 12l2-1-1-3-2 .3-1.3-1.3.3-2-3-1-1 2h-2l-1-2-3 1 .3 2L6 7.3 4 7 3 10l2 1v2l-2 1 1 3 2-.3 1.3 1.3-.3 2 3 1 1-2h2l1 2 3-1-.3-2 1.3-1.3 2 .3 1-3-2-1z'],
};

/**
 * @param {IconName} name
 * @returns {SVGSVGElement}
 */
export function icon(name) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', `icon icon-${name}`);
  svg.setAttribute('fill', 'none');
  svg.setAttribute('stroke', 'currentColor');
  svg.setAttribute('stroke-width', '2');
  svg.setAttribute('stroke-linecap', 'round');
  svg.setAttribute('stroke-linejoin', 'round');
  for (const part of DRAWINGS[name]) {
    if (part.startsWith('c ')) {
      const [, cx, cy, r, filled] = part.split(' ');
      const circle = document.createElementNS(SVG, 'circle');
      circle.setAttribute('cx', cx);
      circle.setAttribute('cy', cy);
      circle.setAttribute('r', r);
      if (filled) circle.setAttribute('fill', 'currentColor');
      svg.append(circle);
    } else {
      const path = document.createElementNS(SVG, 'path');
      if (part.startsWith('F ')) {
        path.setAttribute('d', part.slice(2));
        path.setAttribute('fill', 'currentColor');
        path.setAttribute('stroke', 'none');
      } else {
        path.setAttribute('d', part);
      }
      svg.append(path);
    }
  }
  return svg;
}
