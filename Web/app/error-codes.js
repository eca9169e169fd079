// Every code an error answer of the API can carry: the contract's Error schema and APIErrorCode
// in Sources/WaymarkAPI list the same ones, and a Swift test (APIContractTests) fails when this
// list differs from theirs. Each has words of its own in every language (`error.<code>`).

/** @type {readonly string[]} */
export const API_ERROR_CODES = Object.freeze([
  'bad_request', 'bad_signature', 'broken_image', 'busy', 'conflict', 'cross_site_request', 'forbidden',
  'headers_too_large', 'idempotency_key_reused', 'internal_error', 'invalid_assignee', 'invalid_cursor',
  'invalid_delete_token', 'invalid_delete_token_hash', 'invalid_display_name', 'invalid_due_date',
  'invalid_email', 'invalid_envelope', 'invalid_field', 'invalid_idempotency_key', 'invalid_instructions',
  'invalid_json', 'invalid_lookup', 'invalid_metadata', 'invalid_multipart', 'invalid_name',
  'invalid_note', 'invalid_password', 'invalid_path', 'invalid_place', 'invalid_query', 'invalid_reason',
  'invalid_request', 'invalid_title', 'invalid_username', 'invalid_visibility', 'method_not_allowed',
  'missing_image', 'missing_metadata', 'missing_photo', 'missing_signature', 'no_orbit_data', 'no_receipt',
  'not_an_image', 'not_deletable', 'not_found', 'not_signed_in', 'part_of_scene', 'payload_too_large',
  'photo_sent', 'raw_without_preview', 'registration_closed', 'replayed_request', 'signature_version',
  'stale_timestamp', 'task_already_sent', 'task_busy', 'task_not_editable', 'task_not_sent',
  'too_many_attempts', 'too_many_pixels', 'too_many_points', 'unauthorized', 'unknown_assignee',
  'unknown_host', 'unknown_key', 'unsigned_header', 'unsupported_media_type', 'uri_too_long',
  'username_taken', 'wrong_credentials', 'wrong_delete_token',
]);
