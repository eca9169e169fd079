// What a person reads when the API says no: known error codes have their own message in every
// language (i18n key `error.<code>`); only an unknown code shows the server's English reason.

/** The codes with a message of their own; a unit test checks each has `error.<code>` in both languages. */
export const KNOWN_ERRORS = Object.freeze([
  'wrong_credentials', 'too_many_attempts', 'username_taken', 'invalid_username', 'invalid_password',
  'invalid_email', 'registration_closed', 'not_signed_in', 'invalid_name', 'cross_site_request', 'offline',
]);

/**
 * @param {{status: number, code: string, reason: string, retryAfter: number | null}} error an ApiError
 * @param {(key: string, params?: Record<string, string | number>) => string} t
 * @returns {string}
 */
export function describeError(error, t) {
  if (error.code === 'too_many_attempts') {
    const minutes = Math.max(1, Math.ceil((error.retryAfter ?? 900) / 60));
    return t('error.too_many_attempts', { minutes });
  }
  if (KNOWN_ERRORS.includes(error.code)) return t(`error.${error.code}`);
  if (error.reason) return error.reason;
  if (error.status >= 500) return t('error.server', { status: String(error.status) });
  return t('error.unknown', { status: String(error.status) });
}
