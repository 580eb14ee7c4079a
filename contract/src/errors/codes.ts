// Every error the service answers carries one of these codes beside the spec's fields. A code is a
// promise: once published it keeps its status and its meaning (server/test/errors.codes.test.ts pins
// them); a new case gets a new code. Each has a section in docs/errors.md (its anchor is the code),
// and the error's `docs` links there. This module imports nothing, so the server's ApiError can name
// its types and any layer can read the table.

export interface ErrorCodeInfo {
  /** The HTTP status the code is always answered with. */
  status: number;
  /** When it happens, in one sentence (the OpenAPI document lists it under each status that can answer it). */
  meaning: string;
}

export const ERROR_CODES = {
  validation_failed: {
    status: 400,
    meaning: 'A path parameter, query parameter or body field is missing or invalid; `details` names each one and says what is allowed.',
  },
  json_invalid: { status: 400, meaning: 'The body is not valid JSON.' },
  json_too_deep: { status: 400, meaning: 'The JSON is nested deeper than 64 levels.' },
  cursor_invalid: {
    status: 400,
    meaning:
      '`cursor` is not a `next_cursor` the server gave for this list with these filters (cursors are opaque: send them back unchanged).',
  },
  import_duplicate: {
    status: 400,
    meaning: 'An import document holds two items with one id, two memories with one category and key, or two scripts with one name.',
  },
  install_code_unknown: { status: 400, meaning: 'No install code is like this one.' },
  install_code_used: { status: 400, meaning: 'The install code has registered a computer already; each code registers one.' },
  install_code_expired: { status: 400, meaning: 'The install code is older than 15 minutes.' },
  host_invalid: { status: 400, meaning: 'The `Host` header is not a host name or address with an optional port (1-65535).' },

  credential_missing: { status: 401, meaning: 'The route needs a credential and the request carries none.' },
  credential_malformed: {
    status: 401,
    meaning:
      'The `Authorization` header is not `Bearer <credential>`, `?key=` is not one value, or the token is no Mind Key, JWT or Computer Token.',
  },
  credential_wrong_kind: {
    status: 401,
    meaning: 'A credential of a kind the route does not take (a Mind Key where a JWT is needed, or the reverse).',
  },
  mind_key_invalid: { status: 401, meaning: "No mind has this Mind Key (a deleted mind's key stops working)." },
  mind_key_expired: { status: 401, meaning: 'The Mind Key was made with an `expires_at` that has passed; make a new key.' },
  mind_key_revoked: { status: 401, meaning: "The mind's owner revoked this Mind Key; ask them for a new one." },
  jwt_invalid: { status: 401, meaning: 'The JWT is not one this server signed, or its user no longer exists.' },
  jwt_expired: { status: 401, meaning: 'The JWT is older than 7 days; log in again.' },
  computer_token_invalid: { status: 401, meaning: 'No computer has this Computer Token (or its computer was disabled or deleted).' },
  login_failed: { status: 401, meaning: 'Wrong email or password (which one is not said).' },

  mind_disabled: { status: 403, meaning: "The credential's mind is disabled by the operator; its data is kept." },
  mind_not_owned: { status: 403, meaning: 'The mind belongs to another user.' },
  key_read_only: {
    status: 403,
    meaning: 'The Mind Key has scope `read`: it reads the mind but changes nothing; use a key of scope `full`.',
  },
  jwt_required: {
    status: 403,
    meaning:
      "The operation needs the owning human's JWT, not a Mind Key (verifying or unverifying a memory, exporting with include_credentials=true).",
  },

  route_not_found: { status: 404, meaning: 'No route has this path; `GET /endpoints` lists every route.' },
  mind_not_found: { status: 404, meaning: "No such mind among the caller's (another user's is not revealed)." },
  task_not_found: { status: 404, meaning: "No such task in the mind (another mind's is not revealed)." },
  memory_not_found: { status: 404, meaning: "No such memory in the mind (another mind's is not revealed)." },
  message_not_found: { status: 404, meaning: 'No such chat message in the mind (`before` names none of its messages).' },
  script_not_found: { status: 404, meaning: "No such script in the mind (another mind's is not revealed)." },
  webhook_not_found: { status: 404, meaning: "No such webhook in the mind (another mind's is not revealed)." },
  delivery_not_found: { status: 404, meaning: 'No such delivery of this webhook.' },
  computer_not_found: { status: 404, meaning: "No such computer the caller can see (another user's or mind's is not revealed)." },
  command_not_found: { status: 404, meaning: 'No such command of this computer.' },
  key_not_found: { status: 404, meaning: 'No such Mind Key of this mind (a revoked key is no longer listed).' },
  screenshot_not_found: { status: 404, meaning: 'The command carries no screenshot (it is no finished screenshot command).' },

  method_not_allowed: { status: 405, meaning: 'The path exists but not with this method; the `Allow` header lists its methods.' },

  email_taken: { status: 409, meaning: 'An account with this email exists already.' },
  minds_limit_reached: { status: 409, meaning: 'The user has as many minds as one may have (MIND_MAX_MINDS_PER_USER).' },
  mind_keys_limit_reached: { status: 409, meaning: 'The mind has as many Mind Keys as it may have (100); revoke one first.' },
  webhook_url_taken: { status: 409, meaning: 'Another webhook of the mind has this URL.' },
  webhooks_limit_reached: { status: 409, meaning: 'The mind has 20 webhooks, the most one may have.' },
  webhook_disabled: { status: 409, meaning: 'The webhook is disabled; enable it before testing or redelivering.' },
  memory_key_taken: { status: 409, meaning: 'Another memory of the mind has this category and key.' },
  memory_superseded: {
    status: 409,
    meaning: 'The memory named by `supersedes` was superseded already; supersede the latest of its chain.',
  },
  script_name_taken: { status: 409, meaning: 'Another script of the mind has this name.' },
  import_conflict: { status: 409, meaning: 'The mind changed while the import was written, so nothing was imported; send it again.' },
  install_codes_limit_reached: {
    status: 409,
    meaning: 'The mind (or account) has as many open install codes as it may have (MIND_MAX_INSTALL_CODES_PER_MIND).',
  },
  computers_limit_reached: { status: 409, meaning: 'The account has as many computers as it may have (MIND_MAX_COMPUTERS_PER_USER).' },
  mind_computers_limit_reached: {
    status: 409,
    meaning:
      "A Mind Key's install codes set up as many computers for its mind as they may, open codes counted (MIND_MAX_COMPUTERS_PER_MIND).",
  },
  computer_disabled: { status: 409, meaning: 'The computer is disabled; it takes no commands.' },
  command_queue_full: {
    status: 409,
    meaning: 'The computer has as many queued commands as it may have (MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER).',
  },
  command_not_queued: { status: 409, meaning: 'Only a queued command can be cancelled; this one was handed to the agent or is finished.' },
  command_finished: { status: 409, meaning: 'The command is finished; its result cannot change.' },
  command_cancelled: { status: 409, meaning: 'The command was cancelled while the request waited for it.' },

  memory_changed: {
    status: 412,
    meaning: 'The memory changed since the version named in `If-Match` (its `ETag`); nothing was written: read it again and redo the edit.',
  },
  memory_key_exists: {
    status: 412,
    meaning:
      'A store with `If-None-Match: *` (create only) names a category and key the mind already has a memory with; nothing was written.',
  },

  body_too_large: {
    status: 413,
    meaning: 'The body is larger than the route takes (1 MB; 25 MB for results and imports), counted after Content-Encoding is undone.',
  },
  result_too_large: { status: 413, meaning: 'A command result holds more JSON besides the screenshot than MIND_MAX_RESULT_BYTES.' },
  import_too_large: { status: 413, meaning: 'An import document holds more items than MIND_IMPORT_MAX_ITEMS.' },

  content_type_unsupported: { status: 415, meaning: 'A body sent without `Content-Type: application/json`.' },
  encoding_unsupported: { status: 415, meaning: 'A charset other than UTF-8, or a Content-Encoding other than gzip, deflate or br.' },

  rate_limited: { status: 429, meaning: 'Over 60 `?key=` requests a minute from one address; `Retry-After` says when to retry.' },
  login_attempts_exceeded: {
    status: 429,
    meaning: 'Too many failed logins from this address or for this account; `Retry-After` says when to retry.',
  },
  registration_attempts_exceeded: {
    status: 429,
    meaning: 'Too many refused install codes from this address; `Retry-After` says when to retry.',
  },
  oauth_clients_exceeded: {
    status: 429,
    meaning: 'Too many OAuth client metadata documents fetched for this address, or the server holds as many OAuth clients as it takes.',
  },
  imports_busy: { status: 429, meaning: 'The account or the server imports as much as it may at once; retry after `Retry-After`.' },

  request_aborted: { status: 499, meaning: 'The client closed the request before its answer (only the server log shows it).' },

  internal_error: { status: 500, meaning: 'An unexpected failure; its request id finds it in the server log.' },
  encryption_key_changed: {
    status: 500,
    meaning: "A credentials memory cannot be decrypted: the server's encryption key changed since it was stored.",
  },
  agent_failed: { status: 502, meaning: "The computer's agent reported that it could not carry out the command." },
  shutting_down: { status: 503, meaning: 'The service is shutting down; retry in a few seconds.' },
  database_busy: { status: 503, meaning: 'The database is busy; retry after `Retry-After`.' },
  screenshot_timeout: { status: 504, meaning: 'The computer sent no screenshot in time (is its agent running?).' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes answered with HTTP status `S`. */
export type ErrorCodeOf<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'] extends S ? C : never;
}[ErrorCode];

/** What a 404 of a missing resource names; its code is `<subject in lower case>_not_found`. */
export const NOT_FOUND_SUBJECTS = [
  'Mind',
  'Task',
  'Memory',
  'Message',
  'Script',
  'Webhook',
  'Delivery',
  'Computer',
  'Command',
  'Key',
] as const;
export type NotFoundSubject = (typeof NOT_FOUND_SUBJECTS)[number];

/** The path of an error code's section among the guides (the server puts its public URL first). */
export const errorDocsPath = (code: ErrorCode) => `/docs/errors#${code}`;

/** How a 404 names what is missing: a subject, alone or with words after it (`Message given as \`before\``). */
export type NotFoundWhat = NotFoundSubject | `${NotFoundSubject} ${string}`;
type NotFoundCode = `${Lowercase<NotFoundSubject>}_not_found`;

/**
 * `Task` -> `task_not_found`: a missing resource's code, from the subject its message names. (The
 * return type checks that every subject has its code in the table, with status 404.)
 */
export const notFoundCode = (what: NotFoundWhat): ErrorCodeOf<404> => `${what.split(' ', 1)[0]!.toLowerCase()}_not_found` as NotFoundCode;
