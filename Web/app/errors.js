// What a person reads when the API says no: every code the API can answer has its own message
// in every language (i18n key `error.<code>`); the server's `reason` is for developers and logs
// and is never shown (it is English, and may name fields a person never sees).
import { errorCodes } from './contract.js';

/** The codes with a message of their own (the API's and the app's `offline`); a unit test checks each has `error.<code>` in both languages. */
/** @type {readonly string[]} */
export const KNOWN_ERRORS = Object.freeze([...errorCodes, 'offline']);

/**
 * @param {{status: number, code: string, retryAfter?: number | null}} error an ApiError, or a refusal an outbox kept
 * @param {(key: string, params?: Record<string, string | number>) => string} t
 * @returns {string}
 */
export function describeError(error, t) {
  if (error.code === 'too_many_attempts') {
    const minutes = Math.max(1, Math.ceil((error.retryAfter ?? 900) / 60));
    return t('error.too_many_attempts', { minutes });
  }
  if (KNOWN_ERRORS.includes(error.code)) return t(`error.${error.code}`);
  if (error.status >= 500) return t('error.server', { status: String(error.status) });
  return t('error.unknown', { status: String(error.status) });
}
