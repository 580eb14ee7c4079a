// Error codes are a promise to clients: a code keeps its status and its meaning for good. This file
// pins the table (changing a code's status or meaning, or dropping one, fails here: add a new code
// instead), checks that the guide and the OpenAPI document list every code, and provokes each kind
// of error over HTTP to see its code and its `docs` link. (harness.ts holds every error answer of
// every test to the same rules.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ERROR_CODES, type ErrorCode, MB, NOT_FOUND_SUBJECTS, notFoundCode } from '@mindservice/contract';
import { marked } from 'marked';
import type { Response } from 'supertest';
import { setMindDisabled } from '../src/minds/store.js';
import { bearer, useService } from './harness.js';

/** Every code as published: [status, meaning]. Only ever add to it. */
const PUBLISHED: Record<string, [number, string]> = {
  validation_failed: [
    400,
    'A path parameter, query parameter or body field is missing or invalid; `details` names each one and says what is allowed.',
  ],
  json_invalid: [400, 'The body is not valid JSON.'],
  json_too_deep: [400, 'The JSON is nested deeper than 64 levels.'],
  cursor_invalid: [
    400,
    '`cursor` is not a `next_cursor` the server gave for this list with these filters (cursors are opaque: send them back unchanged).',
  ],
  import_duplicate: [
    400,
    'An import document holds two items with one id, two memories with one category and key, or two scripts with one name.',
  ],
  install_code_unknown: [400, 'No install code is like this one.'],
  install_code_used: [400, 'The install code has registered a computer already; each code registers one.'],
  install_code_expired: [400, 'The install code is older than 15 minutes.'],
  host_invalid: [400, 'The `Host` header is not a host name or address with an optional port (1-65535).'],
  credential_missing: [401, 'The route needs a credential and the request carries none.'],
  credential_malformed: [
    401,
    'The `Authorization` header is not `Bearer <credential>`, `?key=` is not one value, or the token is no Mind Key, JWT or Computer Token.',
  ],
  credential_wrong_kind: [401, 'A credential of a kind the route does not take (a Mind Key where a JWT is needed, or the reverse).'],
  mind_key_invalid: [401, "No mind has this Mind Key (a deleted mind's key stops working)."],
  mind_key_expired: [401, 'The Mind Key was made with an `expires_at` that has passed; make a new key.'],
  mind_key_revoked: [401, "The mind's owner revoked this Mind Key; ask them for a new one."],
  jwt_invalid: [401, 'The JWT is not one this server signed, or its user no longer exists.'],
  jwt_expired: [401, 'The JWT is older than 7 days; log in again.'],
  computer_token_invalid: [401, 'No computer has this Computer Token (or its computer was disabled or deleted).'],
  login_failed: [401, 'Wrong email or password (which one is not said).'],
  mind_disabled: [403, "The credential's mind is disabled by the operator; its data is kept."],
  mind_not_owned: [403, 'The mind belongs to another user.'],
  key_read_only: [403, 'The Mind Key has scope `read`: it reads the mind but changes nothing; use a key of scope `full`.'],
  jwt_required: [
    403,
    "The operation needs the owning human's JWT, not a Mind Key (verifying or unverifying a memory, exporting with include_credentials=true).",
  ],
  key_not_found: [404, 'No such Mind Key of this mind (a revoked key is no longer listed).'],
  route_not_found: [404, 'No route has this path; `GET /endpoints` lists every route.'],
  mind_not_found: [404, "No such mind among the caller's (another user's is not revealed)."],
  task_not_found: [404, "No such task in the mind (another mind's is not revealed)."],
  memory_not_found: [404, "No such memory in the mind (another mind's is not revealed)."],
  message_not_found: [404, 'No such chat message in the mind (`before` names none of its messages).'],
  script_not_found: [404, "No such script in the mind (another mind's is not revealed)."],
  webhook_not_found: [404, "No such webhook in the mind (another mind's is not revealed)."],
  delivery_not_found: [404, 'No such delivery of this webhook.'],
  computer_not_found: [404, "No such computer the caller can see (another user's or mind's is not revealed)."],
  command_not_found: [404, 'No such command of this computer.'],
  screenshot_not_found: [404, 'The command carries no screenshot (it is no finished screenshot command).'],
  method_not_allowed: [405, 'The path exists but not with this method; the `Allow` header lists its methods.'],
  mind_keys_limit_reached: [409, 'The mind has as many Mind Keys as it may have (100); revoke one first.'],
  email_taken: [409, 'An account with this email exists already.'],
  minds_limit_reached: [409, 'The user has as many minds as one may have (MIND_MAX_MINDS_PER_USER).'],
  webhook_url_taken: [409, 'Another webhook of the mind has this URL.'],
  webhooks_limit_reached: [409, 'The mind has 20 webhooks, the most one may have.'],
  webhook_disabled: [409, 'The webhook is disabled; enable it before testing or redelivering.'],
  memory_key_taken: [409, 'Another memory of the mind has this category and key.'],
  memory_superseded: [409, 'The memory named by `supersedes` was superseded already; supersede the latest of its chain.'],
  script_name_taken: [409, 'Another script of the mind has this name.'],
  import_conflict: [409, 'The mind changed while the import was written, so nothing was imported; send it again.'],
  install_codes_limit_reached: [
    409,
    'The mind (or account) has as many open install codes as it may have (MIND_MAX_INSTALL_CODES_PER_MIND).',
  ],
  computers_limit_reached: [409, 'The account has as many computers as it may have (MIND_MAX_COMPUTERS_PER_USER).'],
  mind_computers_limit_reached: [
    409,
    "A Mind Key's install codes set up as many computers for its mind as they may, open codes counted (MIND_MAX_COMPUTERS_PER_MIND).",
  ],
  computer_disabled: [409, 'The computer is disabled; it takes no commands.'],
  command_queue_full: [409, 'The computer has as many queued commands as it may have (MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER).'],
  command_not_queued: [409, 'Only a queued command can be cancelled; this one was handed to the agent or is finished.'],
  command_finished: [409, 'The command is finished; its result cannot change.'],
  command_cancelled: [409, 'The command was cancelled while the request waited for it.'],
  memory_changed: [
    412,
    'The memory changed since the version named in `If-Match` (its `ETag`); nothing was written: read it again and redo the edit.',
  ],
  memory_key_exists: [
    412,
    'A store with `If-None-Match: *` (create only) names a category and key the mind already has a memory with; nothing was written.',
  ],
  body_too_large: [
    413,
    'The body is larger than the route takes (1 MB; 25 MB for results and imports), counted after Content-Encoding is undone.',
  ],
  result_too_large: [413, 'A command result holds more JSON besides the screenshot than MIND_MAX_RESULT_BYTES.'],
  import_too_large: [413, 'An import document holds more items than MIND_IMPORT_MAX_ITEMS.'],
  content_type_unsupported: [415, 'A body sent without `Content-Type: application/json`.'],
  encoding_unsupported: [415, 'A charset other than UTF-8, or a Content-Encoding other than gzip, deflate or br.'],
  rate_limited: [429, 'Over 60 `?key=` requests a minute from one address; `Retry-After` says when to retry.'],
  login_attempts_exceeded: [429, 'Too many failed logins from this address or for this account; `Retry-After` says when to retry.'],
  registration_attempts_exceeded: [429, 'Too many refused install codes from this address; `Retry-After` says when to retry.'],
  oauth_clients_exceeded: [
    429,
    'Too many OAuth client metadata documents fetched for this address, or the server holds as many OAuth clients as it takes.',
  ],
  imports_busy: [429, 'The account or the server imports as much as it may at once; retry after `Retry-After`.'],
  request_aborted: [499, 'The client closed the request before its answer (only the server log shows it).'],
  internal_error: [500, 'An unexpected failure; its request id finds it in the server log.'],
  encryption_key_changed: [500, "A credentials memory cannot be decrypted: the server's encryption key changed since it was stored."],
  agent_failed: [502, "The computer's agent reported that it could not carry out the command."],
  shutting_down: [503, 'The service is shutting down; retry in a few seconds.'],
  database_busy: [503, 'The database is busy; retry after `Retry-After`.'],
  screenshot_timeout: [504, 'The computer sent no screenshot in time (is its agent running?).'],
};

describe('error codes keep their meaning', () => {
  test('the table is the published one: no code changed its status or meaning, none went away', () => {
    const table = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { status, meaning }]) => [code, [status, meaning]]));
    assert.deepEqual(table, PUBLISHED);
  });

  test('codes are snake_case, answered with error statuses', () => {
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      assert.match(code, /^[a-z]+(_[a-z]+)+$/, code);
      assert.ok(status >= 400 && status < 600, code);
    }
  });

  test("a missing resource's code is its subject's, a 404", () => {
    for (const subject of NOT_FOUND_SUBJECTS) assert.equal(ERROR_CODES[notFoundCode(subject)].status, 404, subject);
    assert.equal(notFoundCode('Message given as `before`'), 'message_not_found');
  });

  test('docs/errors.md has a section per code, under its status, and none for a code not in the table', () => {
    const guide = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const sections = new Map<string, number>();
    let status = 0;
    for (const token of marked.lexer(guide)) {
      if (token.type !== 'heading') continue;
      if (token.depth === 3) status = Number(/^(\d{3})\b/.exec(token.text)?.[1] ?? 0);
      if (token.depth === 4) sections.set(token.text, status);
    }
    assert.deepEqual(
      [...sections.keys()].sort(),
      Object.keys(ERROR_CODES).sort(),
      'one `#### code` heading per code (its anchor is the code, where `docs` links)',
    );
    for (const [code, { status: expected }] of Object.entries(ERROR_CODES)) assert.equal(sections.get(code), expected, code);
  });

  test('the OpenAPI document lists, under each error status of each operation, the codes it answers there', () => {
    type Media = { schema?: { allOf?: Array<{ properties?: { code?: { enum?: string[] } } }> } };
    const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string; content?: Record<string, Media> }> }>>;
    };
    const listed = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, { responses }] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(responses)) {
          const codes = response.content?.['application/json']?.schema?.allOf?.[1]?.properties?.code?.enum;
          if (Number(status) < 400 || (path === '/health' && status === '503')) continue;
          assert.ok(codes && codes.length > 0, `${method} ${path} ${status} lists no codes`);
          for (const code of codes) {
            assert.equal(ERROR_CODES[code as ErrorCode]?.status, Number(status), `${method} ${path} ${status}: ${code}`);
            assert.ok(response.description.includes(`\`${code}\`: `), `${method} ${path} ${status} describes ${code}`);
            listed.add(code);
          }
        }
      }
    }
    // Answered whatever the operation, or by none: a path no route has, a method a path does not take, a client gone,
    // a Host header no URL can hold (checked before any route is looked up); the OAuth consent page's
    // call, which is no contract route (docs/architecture.md).
    const elsewhere = ['route_not_found', 'method_not_allowed', 'request_aborted', 'host_invalid', 'oauth_clients_exceeded'];
    assert.deepEqual(
      Object.keys(ERROR_CODES).filter((code) => !listed.has(code) && !elsewhere.includes(code)),
      [],
    );
  });
});

describe('each kind of error answers its code and its docs link', () => {
  const svc = useService({ MIND_LOGIN_MAX_FAILURES_PER_ADDRESS: '1' });

  /** The error object with the code's status, the code, and `docs` at the code's section (or the one given). */
  function assertError(res: Response, code: ErrorCode, docs = `${svc.config.publicUrl}/docs/errors#${code}`) {
    assert.equal(res.status, ERROR_CODES[code].status, JSON.stringify(res.body));
    assert.equal(res.body.statusCode, res.status);
    assert.equal(res.body.code, code, JSON.stringify(res.body));
    assert.equal(res.body.docs, docs);
    assert.equal(typeof res.body.message, 'string');
  }

  test('400: the schema, a service rule, broken JSON, JSON too deep, a cursor the server did not give', async () => {
    const { auth } = await svc.mind();
    assertError(await svc.http.post('/mind/task').set(auth).send({ title: 'x', priority: 'urgent' }), 'validation_failed');
    const rule = await svc.http.post('/mind/task').set(auth).send({ title: 'x', due_at: '+010000-01-01T00:00:00Z' });
    assertError(rule, 'validation_failed');
    const json = await svc.http.post('/mind/task').set(auth).set('Content-Type', 'application/json').send('{"title": ');
    assertError(json, 'json_invalid');
    const deep = `${'['.repeat(70)}${']'.repeat(70)}`;
    const tooDeep = await svc.http.post('/mind/task').set(auth).set('Content-Type', 'application/json').send(`{"title": ${deep}}`);
    assertError(tooDeep, 'json_too_deep');
    assertError(await svc.http.get('/mind/tasks?cursor=bm90LWEtY3Vyc29y').set(auth), 'cursor_invalid');
  });

  test('401: the spec message and guide; the code says what was wrong', async () => {
    const { jwt, mindKey } = await svc.mind();
    const guide = `${svc.config.publicUrl}/docs/getting-started/authentication`;
    const cases: Array<[Record<string, string>, ErrorCode]> = [
      [{}, 'credential_missing'],
      [{ Authorization: 'Basic abc' }, 'credential_malformed'],
      [bearer(jwt), 'credential_wrong_kind'],
      [bearer(`mk_${'A'.repeat(43)}`), 'mind_key_invalid'],
    ];
    for (const [headers, code] of cases) {
      const res = await svc.http.get('/mind/tasks').set(headers);
      assertError(res, code, guide);
      assert.equal(res.body.message, 'Mind Key fehlt oder ungültig.');
    }
    assertError(await svc.http.get('/minds').set(bearer(mindKey)), 'credential_wrong_kind', guide);
    assertError(await svc.http.get('/minds').set(bearer('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln')), 'jwt_invalid', guide);
  });

  test('403, 404 (a route and a resource), 405, 409', async () => {
    const a = await svc.mind();
    const b = await svc.mind();
    assertError(await svc.http.delete(`/minds/${b.mindId}`).set(bearer(a.jwt)), 'mind_not_owned');
    const route = await svc.http.get('/no/such/route');
    assertError(route, 'route_not_found');
    assert.equal(route.body.message, 'Route GET /no/such/route not found');
    assert.match(JSON.stringify(route.body.details), /GET \/endpoints/);
    assertError(await svc.http.get('/mind/task/0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10').set(a.auth), 'task_not_found');
    const wrongMethod = await svc.http.patch('/mind/tasks').set(a.auth).send({});
    assertError(wrongMethod, 'method_not_allowed');
    assert.equal(wrongMethod.headers.allow, 'GET, HEAD, OPTIONS');
    const hook = { url: 'https://example.com/hooks/codes', events: '*', secret: 'whsec-example-secret' };
    await svc.http.post('/webhooks').set(a.auth).send(hook).expect(201);
    assertError(await svc.http.post('/webhooks').set(a.auth).send(hook), 'webhook_url_taken');
    await setMindDisabled(svc.ctx.db, b.mindId, new Date().toISOString());
    assertError(await svc.http.get('/mind/tasks').set(b.auth), 'mind_disabled');
  });

  test('413, 415: a body over the limit, a body that is not JSON, a charset the server does not read', async () => {
    const { auth } = await svc.mind();
    const big = JSON.stringify({ title: 'big', description: 'x'.repeat(MB) });
    assertError(await svc.http.post('/mind/task').set(auth).set('Content-Type', 'application/json').send(big), 'body_too_large');
    // No Content-Type was `body: is required`; now it says what is wrong.
    const untyped = await svc.http.post('/mind/task').set(auth).set('Content-Type', '').send(Buffer.from('{"title":"x"}'));
    assertError(untyped, 'content_type_unsupported');
    assert.match(untyped.body.message, /must be JSON, sent with Content-Type: application\/json \(this one has no Content-Type\)/);
    const text = await svc.http.post('/mind/task').set(auth).set('Content-Type', 'text/plain').send('{"title":"x"}');
    assertError(text, 'content_type_unsupported');
    const latin1 = await svc.http
      .post('/mind/task')
      .set(auth)
      .set('Content-Type', 'application/json; charset=latin1')
      .send(JSON.stringify({ title: 'x' }));
    assertError(latin1, 'encoding_unsupported');
  });

  test('429: failed logins; 503: draining', async () => {
    const login = { email: 'nobody@example.com', password: 'wrong password' };
    assertError(await svc.http.post('/login').send(login), 'login_failed');
    const limited = await svc.http.post('/login').send(login);
    assertError(limited, 'login_attempts_exceeded');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    svc.ctx.state = 'draining';
    try {
      assertError(await svc.http.get('/endpoints'), 'shutting_down');
    } finally {
      svc.ctx.state = 'ready';
    }
  });

  test("every code's `docs` link lands on its section of the served guide", async () => {
    const page = await svc.http.get('/docs/errors').expect(200);
    for (const code of Object.keys(ERROR_CODES)) assert.ok(page.text.includes(`id="${code}"`), code);
  });

  test('one message style for invalid fields: what is wrong and what is allowed', async () => {
    const { auth } = await svc.mind();
    const priority = await svc.http.post('/mind/task').set(auth).send({ title: 'x', priority: 'urgent' });
    assert.deepEqual(priority.body.details, [
      { path: 'body.priority', message: 'must be one of: low, normal, high, critical (got "urgent")' },
    ]);
    const category = await svc.http.post('/memory').set(auth).send({ category: 'hobby', content: 'Plays the cello.' });
    assert.deepEqual(category.body.details, [
      {
        path: 'body.category',
        message: 'must be one of: identity, preference, fact, project, skill, mistake, context, note, credentials (got "hobby")',
      },
    ]);
    const type = await svc.http.post('/mind/task').set(auth).send({ title: 5 });
    assert.equal(type.body.message, 'body.title: must be a string (got a number)');
    const long = await svc.http
      .post('/mind/task')
      .set(auth)
      .send({ title: 'x'.repeat(501) });
    assert.equal(long.body.message, 'body.title: must be at most 500 characters');
    const missing = await svc.http.post('/mind/task').set(auth).send({});
    assert.equal(missing.body.message, 'body.title: is required');
    // None of zod's own English reaches a client.
    for (const res of [priority, category, type, long, missing]) {
      assert.doesNotMatch(res.body.message, /Invalid enum value|Expected|received|String must contain/);
    }
  });
});
