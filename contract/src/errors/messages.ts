// The messages the server answers, written once: the server throws with them and the OpenAPI
// examples show them (server/test/openapi.error-examples.test.ts provokes each example on a real
// server and compares the whole answer). The spec's fixed texts are here exactly as the spec writes
// them: the 401, the 429 and the 404 form.

const MB = 1024 * 1024;

export const ERROR_MESSAGES = {
  // The spec's own (section 7).
  unauthorized: 'Mind Key fehlt oder ungültig.',
  rateLimited: 'Rate limit exceeded. Use Authorization header for unlimited access.',
  routeNotFound: (method: string, path: string) => `Route ${method} ${path} not found`,

  // Every route's.
  notFound: (what: string) => `${what} not found`,
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    `${method} is not allowed on ${path}; it takes ${allowed.join(', ')}`,
  mindDisabled: 'This mind is disabled. Its data is kept; the operator can enable it again.',
  hostInvalid: 'The Host header is not a host name or address with an optional port (1-65535); send the name the server is reached by.',
  internal: 'Internal server error. The request id identifies it in the server log.',
  shuttingDown: 'The service is shutting down. Retry in a few seconds.',
  databaseBusy: 'The database is busy. Retry in a few seconds.',
  jsonInvalid: (parserMessage: string) => `Request body is not valid JSON: ${parserMessage}`,
  jsonTooDeep: (location: string, depth: number) => `Request ${location} is nested deeper than ${depth} levels`,
  bodyTooLarge: (limitBytes: number | undefined) =>
    `Request body is larger than ${limitBytes ? `${Math.round(limitBytes / MB)} MB` : 'the limit'}`,
  encodingUnsupported: (parserMessage: string) => `Unsupported request body encoding: ${parserMessage}`,
  contentTypeUnsupported: (contentType: string | undefined) =>
    `Request body must be JSON, sent with Content-Type: application/json (this one ${contentType ? `is ${contentType}` : 'has no Content-Type'})`,

  // Accounts and minds.
  emailTaken: (email: string) => `An account with the email ${email} already exists`,
  loginFailed: 'Email or password is wrong.',
  mindsLimitReached: (max: number) => `A user can have at most ${max} minds; delete one before creating another`,
  mindNotOwned: 'This mind belongs to another user',
  keyReadOnly:
    "This Mind Key has scope `read`: it reads the mind but cannot change anything. Use a key of scope `full` (the mind's owner makes one in the console's Keys tab or with POST /minds/:id/keys); an assistant connected through OAuth connects again without Read only.",
  mindKeysLimitReached: (max: number) =>
    `A mind can have at most ${max} Mind Keys; revoke one (DELETE /minds/:id/keys/:key_id) before making another`,

  // Webhooks.
  webhookUrlTaken: 'A webhook with this url already exists in this mind',
  webhooksLimitReached: (max: number) => `A mind can have at most ${max} webhooks; delete one before adding another`,
  webhookDisabledForTest: 'The webhook is disabled; enable it before sending a test event',
  webhookDisabledForRedelivery: 'The webhook is disabled; enable it before redelivering',

  // Computers and commands.
  computerDisabled: 'This computer is disabled; it takes no commands',
  commandQueueFull: (cap: number) =>
    `This computer already has ${cap} commands queued, the most it may have (MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER); wait until its agent takes some or cancel some`,
  computersLimitReached: (cap: number) =>
    `This account already has ${cap} computers, the most it may have (MIND_MAX_COMPUTERS_PER_USER); delete one with DELETE /computers/:id first`,
  mindComputersLimitReached: (cap: number) =>
    `This mind already has ${cap} computers and open install codes, the most its Mind Key may set up (MIND_MAX_COMPUTERS_PER_MIND); delete one of its computers, let its open codes expire, or have the account's owner (JWT) create the code`,
  installCodesLimitReached: (owner: 'This mind' | 'This account', cap: number) =>
    `${owner} already has ${cap} open install codes, the most it may have (MIND_MAX_INSTALL_CODES_PER_MIND); use one or wait until they expire (15 minutes)`,
  commandFinished: (status: string) => `This command is already ${status}; its result cannot change`,
  commandNotQueued: (status: string) => `Only a queued command can be cancelled; this one is ${status}`,
  screenshotCancelled: 'The screenshot command was cancelled',
  agentFailed: (reason: string) => `The agent could not take the screenshot: ${reason}`,
  screenshotNotFound: (type: string, status: string) => `Screenshot not found: this ${type} command (${status}) carries no screenshot`,
  screenshotTimeout: (wait: string) =>
    `The computer did not send a screenshot within ${wait}. Is its agent running? GET /computers/:id shows whether it is online.`,
  resultTooLarge: (size: number, max: number) =>
    `body.result: ${size} bytes of JSON besides the screenshot; at most ${max} are kept (MIND_MAX_RESULT_BYTES). Send a PNG as result.screenshot_b64.`,
  resultTooLargeDetail: (max: number) => `at most ${max} bytes of JSON (MIND_MAX_RESULT_BYTES)`,

  // Memories, scripts and transfer.
  memoryKeyTaken: (key: string, category: string) => `body.key: another memory of this mind already has the key "${key}" in ${category}`,
  memorySuperseded: (id: string, by: string) =>
    `body.supersedes: memory ${id} is already superseded by ${by}; supersede the latest memory of its chain instead`,
  memoryChanged: (etag: string) =>
    `headers.if-match: the memory changed since version ${etag}; nothing was written. Read it again (GET /memory/:id gives its ETag) and redo the edit.`,
  memoryKeyExists: (key: string, category: string) =>
    `headers.if-none-match: a memory with the key "${key}" exists in ${category} already; nothing was written (leave If-None-Match out to update it).`,
  scriptNameTaken: (name: string) => `body.name: this mind already has a script named "${name}"`,
  verifyNeedsJwt: (verified: boolean) =>
    `${verified ? 'Verifying' : 'Unverifying'} a memory needs the owning human's JWT (Authorization: Bearer <JWT>), not a Mind Key`,
  includeCredentialsNeedsJwt: "include_credentials=true needs the owning human's JWT (with mind_id), not a Mind Key",
  importConflict: 'The mind changed while this import was being written, so nothing was imported. Send the import again.',
} as const;
