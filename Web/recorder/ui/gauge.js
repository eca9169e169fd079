// The gauge beside the QR code (SRR-14): a ring that empties as the code's time runs out, with
// the seconds left in its middle. The ring is SVG drawn with attributes (the CSP forbids inline
// styles); the element is a role="meter" so a screen reader hears the value.
const SVG = 'http://www.w3.org/2000/svg';
const RADIUS = 20;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/**
 * @param {string} label what the meter measures, e.g. "Next code in"
 * @returns {{element: HTMLElement, update: (secondsLeft: number, period: number, text: string) => void}}
 */
export function makeGauge(label) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 48 48');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'gauge-ring');
  const track = document.createElementNS(SVG, 'circle');
  const arc = document.createElementNS(SVG, 'circle');
  for (const circle of [track, arc]) {
    circle.setAttribute('cx', '24');
    circle.setAttribute('cy', '24');
    circle.setAttribute('r', String(RADIUS));
    circle.setAttribute('fill', 'none');
    circle.setAttribute('stroke-width', '5');
  }
  track.setAttribute('class', 'gauge-track');
  arc.setAttribute('class', 'gauge-arc');
  arc.setAttribute('stroke-dasharray', CIRCUMFERENCE.toFixed(2));
  arc.setAttribute('transform', 'rotate(-90 24 24)');
  svg.append(track, arc);
  const number = document.createElement('span');
  number.className = 'gauge-number';
  const element = document.createElement('div');
  element.className = 'gauge';
  element.setAttribute('role', 'meter');
  element.setAttribute('aria-label', label);
  element.setAttribute('aria-valuemin', '0');
  element.append(svg, number);
  return {
    element,
    update(secondsLeft, period, text) {
      const left = Math.max(0, Math.min(period, secondsLeft));
      const fraction = period > 0 ? left / period : 0;
      arc.setAttribute('stroke-dashoffset', (CIRCUMFERENCE * (1 - fraction)).toFixed(2));
      number.textContent = String(Math.ceil(left));
      element.setAttribute('aria-valuemax', String(period));
      element.setAttribute('aria-valuenow', String(Math.ceil(left)));
      element.setAttribute('aria-valuetext', text);
    },
  };
}
