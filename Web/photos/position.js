// The phone's position, asked once per page: a promise instead of callbacks, and why it failed
// as a code that has words of its own (`position.denied`, `position.unavailable`, `position.timeout`).

/** @typedef {{latitude: number, longitude: number, accuracy: number, altitude: number | null}} Position */

export class PositionError extends Error {
  /** @param {'denied' | 'unavailable' | 'timeout'} code */
  constructor(code) {
    super(code);
    this.code = code;
  }
}

/**
 * @param {{maximumAge?: number, timeout?: number}} options
 * @returns {Promise<Position>}
 */
export function currentPosition({ maximumAge = 30000, timeout = 20000 } = {}) {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) { reject(new PositionError('unavailable')); return; }
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({
        latitude: position.coords.latitude, longitude: position.coords.longitude,
        accuracy: position.coords.accuracy, altitude: position.coords.altitude,
      }),
      (error) => reject(new PositionError(error.code === error.PERMISSION_DENIED ? 'denied' : error.code === error.TIMEOUT ? 'timeout' : 'unavailable')),
      { enableHighAccuracy: true, maximumAge, timeout },
    );
  });
}

/**
 * The message key for a position error.
 * @param {unknown} error
 */
export function positionMessageKey(error) {
  const code = error instanceof PositionError ? error.code : 'unavailable';
  return code === 'denied' ? 'position.denied' : code === 'timeout' ? 'position.timeout' : 'position.unavailable';
}
