// The error examples of docs/openapi.json are what a real server answers: each documented error of
// each route is provoked (every route's 400, 401, 403 and 404; a sample of 409, 413, 415, 429, 503)
// and the whole answer must equal one of the examples documented for that route and status.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { type ContractRoute, contract, EXAMPLE_EMAIL, listRoutes, MB } from '@mindservice/contract';
import { badRequestOf, ERROR_MESSAGES } from '@mindservice/contract/openapi';
import type { Response, Test } from 'supertest';
import { setMindDisabled } from '../src/minds/store.js';
import { poll, postResult, queue, registerComputer } from './computers/helpers.js';
import { bearer, useService } from './harness.js';

type Json = unknown;
interface Example {
  name: string;
  summary: string;
  value: Json;
}
interface Media {
  schema?: Record<string, unknown>;
  examples?: Record<string, { $ref?: string; summary?: string; value?: Json }>;
}
const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, Media> }; responses: Record<string, { content?: Record<string, Media> }> }>
  >;
  components: { schemas: Record<string, Record<string, unknown>>; examples: Record<string, { summary: string; value: Json }> };
};

const routes = listRoutes(contract);
const routeByKey = (key: string) => {
  const found = routes.find((r) => r.key === key);
  assert.ok(found, key);
  return found;
};
const operationOf = (entry: ContractRoute) => {
  const op = document.paths[entry.route.path.replace(/:(\w+)/g, '{$1}')]?.[entry.route.method.toLowerCase()];
  assert.ok(op, `${entry.key} in the document`);
  return op;
};

/** The examples the document shows for a route's status, each `$ref` resolved. */
function documented(entry: ContractRoute, status: number): Example[] {
  const media = operationOf(entry).responses[String(status)]?.content?.['application/json'];
  return Object.entries(media?.examples ?? {}).map(([name, e]) => {
    const resolved = e.$ref ? document.components.examples[e.$ref.replace('#/components/examples/', '')] : e;
    assert.ok(resolved, `${entry.key} ${status} ${name}`);
    return { name, summary: resolved.summary ?? '', value: resolved.value };
  });
}

/** A value as Swagger UI builds it from a schema's examples (the request bodies a user sends from there). */
function sampleOf(schema: Json): Json {
  const s = schema as Record<string, unknown>;
  if (s.example !== undefined) return s.example;
  if (typeof s.$ref === 'string') return sampleOf(document.components.schemas[s.$ref.split('/').pop()!]);
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((part) => sampleOf(part) as object));
  if (s.properties) {
    return Object.fromEntries(Object.entries(s.properties as Record<string, Json>).map(([name, property]) => [name, sampleOf(property)]));
  }
  if (Array.isArray(s.enum)) return s.enum[0];
  throw new Error(`no example to build a value from: ${JSON.stringify(s).slice(0, 200)}`);
}
const exampleBody = (entry: ContractRoute) => sampleOf(operationOf(entry).requestBody?.content['application/json']?.schema);

/** The server's `docs` URL starts with its MIND_PUBLIC_URL, the example's with the default one. */
const comparable = (body: Json) => {
  const value = body as { docs?: string };
  return value && typeof value.docs === 'string' ? { ...value, docs: value.docs.replace(/^https?:\/\/[^/]+/, '<public url>') } : body;
};

describe('the error examples of docs/openapi.json are what the server answers', () => {
  const svc = useService();
  /** `key status example-name` of every documented example a real answer equalled. */
  const matched = new Set<string>();
  let a: Awaited<ReturnType<typeof svc.mind>>;
  let computer: { computerId: string; token: string };
  let disabled: { mindKey: string; token: string };

  before(async () => {
    a = await svc.mind();
    computer = await registerComputer(svc, a.mindKey);
    const d = await svc.mind();
    disabled = { mindKey: d.mindKey, token: (await registerComputer(svc, d.mindKey)).token };
    await setMindDisabled(svc.ctx.db, d.mindId, new Date().toISOString());
  });
  after(() => {
    // What was provoked, for whoever reads the log.
    console.log(`${matched.size} documented error examples provoked`);
  });

  interface Req {
    params?: Record<string, string>;
    query?: Record<string, string>;
    body?: Json;
    credential?: string;
    headers?: Record<string, string>;
  }
  function send(entry: ContractRoute, { params = {}, query, body, credential, headers }: Req = {}): Test {
    const path = entry.route.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? randomUUID());
    const method = entry.route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    let req = svc.http[method](path);
    if (credential) req = req.set(bearer(credential));
    if (headers) req = req.set(headers);
    if (query) req = req.query(query);
    if (body !== undefined) req = req.send(body as object);
    return req;
  }

  /** The answer has the status and equals one of the examples documented for it (the matching one is returned). */
  async function answersAsDocumented(entry: ContractRoute, status: number, res: Response | Test, summary?: string) {
    const answer = await res;
    assert.equal(answer.status, status, `${entry.key}: ${JSON.stringify(answer.body)}`);
    const examples = documented(entry, status);
    assert.ok(examples.length > 0, `${entry.key} documents no example for ${status}`);
    const found = examples.find((e) => JSON.stringify(comparable(e.value)) === JSON.stringify(comparable(answer.body)));
    assert.ok(
      found,
      `${entry.key} ${status}: the answer\n  ${JSON.stringify(answer.body)}\nis none of the documented examples\n  ${examples.map((e) => JSON.stringify(e.value)).join('\n  ')}`,
    );
    if (summary) assert.equal(found.summary, summary, `${entry.key} ${status}`);
    matched.add(`${entry.key} ${status} ${found.name}`);
    return found;
  }

  /** A credential the route takes, of user A (the JWT where only the human succeeds). */
  const credentialFor = (entry: ContractRoute) =>
    entry.metadata.preferJwt
      ? a.jwt
      : { none: undefined, jwt: a.jwt, mindKey: a.mindKey, mindKeyOrJwt: a.mindKey, computerToken: computer.token }[entry.metadata.auth];

  test("the spec's fixed texts are the messages the server writes (section 7)", () => {
    assert.equal(ERROR_MESSAGES.unauthorized, 'Mind Key fehlt oder ungültig.');
    assert.equal(ERROR_MESSAGES.rateLimited, 'Rate limit exceeded. Use Authorization header for unlimited access.');
    assert.equal(ERROR_MESSAGES.routeNotFound('GET', '/x'), 'Route GET /x not found');
  });

  describe('400: the request the example was made from', () => {
    for (const entry of routes.filter((r) => operationOf(r).responses['400'])) {
      test(entry.key, async () => {
        const bad = badRequestOf(entry);
        const credential = credentialFor(entry);
        if (bad.body !== undefined) return void (await answersAsDocumented(entry, 400, send(entry, { credential, body: bad.body })));
        if (bad.query !== undefined) return void (await answersAsDocumented(entry, 400, send(entry, { credential, query: bad.query })));
        if (entry.key === 'memories.exportMind') {
          return void (await answersAsDocumented(entry, 400, send(entry, { credential: a.jwt })));
        }
        if (entry.key === 'computers.queueCommandFromQuery') {
          const query = { type: 'click', x: '1', y: '1', text: 'hi' };
          return void (await answersAsDocumented(entry, 400, send(entry, { credential, query })));
        }
        const name = /:(\w+)/.exec(entry.route.path)?.[1];
        assert.ok(name, `${entry.key}: how to provoke its 400`);
        await answersAsDocumented(entry, 400, send(entry, { credential, params: { [name]: '%E0' } }));
      });
    }
  });

  describe('401: no credential (login: a wrong password)', () => {
    for (const entry of routes.filter((r) => operationOf(r).responses['401'])) {
      test(entry.key, async () => {
        if (entry.key === 'accounts.login') {
          return void (await answersAsDocumented(entry, 401, send(entry, { body: { email: a.email, password: 'not the password' } })));
        }
        await answersAsDocumented(entry, 401, send(entry));
      });
    }
  });

  describe("403: a disabled mind's credential, and each route's own refusal", () => {
    for (const entry of routes.filter((r) => operationOf(r).responses['403'])) {
      test(entry.key, async () => {
        const auth = entry.metadata.auth;
        if (auth === 'mindKey' || auth === 'mindKeyOrJwt') {
          await answersAsDocumented(entry, 403, send(entry, { credential: disabled.mindKey }), "The credential's mind is disabled");
        }
        if (auth === 'computerToken') {
          await answersAsDocumented(entry, 403, send(entry, { credential: disabled.token }), "The credential's mind is disabled");
        }
        if (entry.key === 'minds.deleteMind') {
          const other = await svc.mind();
          await answersAsDocumented(entry, 403, send(entry, { credential: a.jwt, params: { id: other.mindId } }));
        }
        if (entry.key === 'memories.verifyMemory' || entry.key === 'memories.unverifyMemory') {
          await answersAsDocumented(entry, 403, send(entry, { credential: a.mindKey }));
        }
        if (entry.key === 'memories.exportMind') {
          await answersAsDocumented(entry, 403, send(entry, { credential: a.mindKey, query: { include_credentials: 'true' } }));
        }
      });
    }
  });

  describe('404: ids that name nothing of the caller', () => {
    for (const entry of routes.filter((r) => operationOf(r).responses['404'])) {
      test(entry.key, async () => {
        const credential = credentialFor(entry);
        const body = 'body' in entry.route && typeof entry.route.body === 'object' ? exampleBody(entry) : undefined;
        const query = entry.key === 'computers.queueCommandFromQuery' ? { type: 'screenshot' } : undefined;
        switch (entry.key) {
          case 'computers.createInstallCode':
            return void (await answersAsDocumented(entry, 404, send(entry, { credential: a.jwt, body: { mind_id: randomUUID() } })));
          case 'memories.exportMind':
            return void (await answersAsDocumented(entry, 404, send(entry, { credential, query: { mind_id: randomUUID() } })));
          case 'minds.revokeMindKey': {
            await answersAsDocumented(entry, 404, send(entry, { credential }), "No such mind (or another user's)");
            const params = { id: a.mindId };
            return void (await answersAsDocumented(
              entry,
              404,
              send(entry, { credential, params }),
              'No such key of this mind (or revoked already)',
            ));
          }
          case 'chat.listChatMessages':
            return void (await answersAsDocumented(entry, 404, send(entry, { credential, query: { before: randomUUID() } })));
          case 'memories.storeMemory':
            return void (await answersAsDocumented(
              entry,
              404,
              send(entry, { credential, body: { ...(body as object), supersedes: randomUUID() } }),
            ));
          case 'webhooks.redeliver': {
            await answersAsDocumented(entry, 404, send(entry, { credential }), "No such webhook (or another's)");
            const hook = await svc.http
              .post('/webhooks')
              .set(a.auth)
              .send({ url: `https://example.com/hooks/${randomUUID()}`, events: '*', secret: 'whsec-example-secret' })
              .expect(201);
            const params = { id: hook.body.id as string };
            return void (await answersAsDocumented(entry, 404, send(entry, { credential, params }), 'No such delivery of this webhook'));
          }
        }
        await answersAsDocumented(entry, 404, send(entry, { credential, body, query }));
        if (entry.route.path.startsWith('/computers/:id/commands/:cid')) {
          const params = { id: computer.computerId };
          await answersAsDocumented(entry, 404, send(entry, { credential, params }), 'No such command of this computer');
        }
        if (entry.key === 'computers.getCommandScreenshot') {
          const cid = await queue(svc, a.mindKey, computer.computerId, { type: 'click', payload: { x: 1, y: 1 } });
          await poll(svc, computer.token);
          await postResult(svc, computer.token, cid, { status: 'done', result: { ok: true } });
          const params = { id: computer.computerId, cid };
          await answersAsDocumented(entry, 404, send(entry, { credential, params }), 'The command carries no screenshot');
        }
      });
    }
  });

  describe('409: a sample of conflicts', () => {
    test('register: an email registered already (the example body twice)', async () => {
      const entry = routeByKey('accounts.register');
      const body = exampleBody(entry) as { email: string };
      assert.equal(body.email, EXAMPLE_EMAIL);
      await send(entry, { body }).expect(201);
      await answersAsDocumented(entry, 409, send(entry, { body }));
    });

    test('createMind: MIND_MAX_MINDS_PER_USER minds (100) already', async () => {
      const entry = routeByKey('minds.createMind');
      const user = await svc.user();
      for (let i = 0; i < 100; i++) await svc.addMind(user.jwt, `mind ${i}`);
      await answersAsDocumented(entry, 409, send(entry, { credential: user.jwt, body: exampleBody(entry) }));
    });

    test('memories and scripts: a key or a name the mind has', async () => {
      const m = await svc.mind();
      const memory = (key: string) => ({ category: 'preference', key, content: 'Prefers short sentences.' });
      await svc.http.post('/memory').set(m.auth).send(memory('writing-style')).expect(201);
      const other = await svc.http.post('/memory').set(m.auth).send(memory('reading-list')).expect(201);
      const storeMemory = routeByKey('memories.storeMemory');
      await answersAsDocumented(
        storeMemory,
        409,
        send(storeMemory, { credential: m.mindKey, body: { ...memory('writing-style'), supersedes: other.body.id } }),
        '`supersedes` with a key another memory of the category has',
      );
      const updateMemory = routeByKey('memories.updateMemory');
      await answersAsDocumented(
        updateMemory,
        409,
        send(updateMemory, { credential: m.mindKey, params: { id: other.body.id }, body: { key: 'writing-style' } }),
      );

      const createScript = routeByKey('scripts.createScript');
      await send(createScript, { credential: m.mindKey, body: exampleBody(createScript) }).expect(201);
      await answersAsDocumented(createScript, 409, send(createScript, { credential: m.mindKey, body: exampleBody(createScript) }));
      const second = await send(createScript, { credential: m.mindKey, body: { name: 'second', content: 'print(2)' } }).expect(201);
      const updateScript = routeByKey('scripts.updateScript');
      await answersAsDocumented(
        updateScript,
        409,
        send(updateScript, { credential: m.mindKey, params: { id: second.body.id }, body: { name: 'fetch-arxiv' } }),
      );
    });

    test('webhooks: a url the mind has, 20 webhooks, a disabled one tested or redelivered', async () => {
      const m = await svc.mind();
      const createWebhook = routeByKey('webhooks.createWebhook');
      const body = exampleBody(createWebhook) as Record<string, string>;
      const first = await send(createWebhook, { credential: m.mindKey, body }).expect(201);
      await answersAsDocumented(
        createWebhook,
        409,
        send(createWebhook, { credential: m.mindKey, body }),
        'The mind has a webhook with this url',
      );
      const other = await send(createWebhook, { credential: m.mindKey, body: { ...body, url: 'http://127.0.0.1:9/other' } }).expect(201);
      const updateWebhook = routeByKey('webhooks.updateWebhook');
      await answersAsDocumented(
        updateWebhook,
        409,
        send(updateWebhook, { credential: m.mindKey, params: { id: other.body.id }, body: { url: body.url } }),
      );
      for (let i = 2; i < 20; i++) {
        await send(createWebhook, { credential: m.mindKey, body: { ...body, url: `https://example.com/hooks/${i}` } }).expect(201);
      }
      await answersAsDocumented(
        createWebhook,
        409,
        send(createWebhook, { credential: m.mindKey, body: { ...body, url: 'https://example.com/hooks/21st' } }),
        'The mind has 20 webhooks',
      );

      // A delivery (to a closed port), then the webhook disabled.
      await svc.http.post('/mind/task').set(m.auth).send({ title: 'an event' }).expect(201);
      const deliveries = await svc.http.get(`/webhooks/${first.body.id}/deliveries`).set(m.auth).expect(200);
      const did = deliveries.body.deliveries[0].id as string;
      await svc.http.post(`/webhooks/${first.body.id}/disable`).set(m.auth).expect(200);
      const params = { id: first.body.id as string, did };
      await answersAsDocumented(
        routeByKey('webhooks.testWebhook'),
        409,
        send(routeByKey('webhooks.testWebhook'), { credential: m.mindKey, params }),
      );
      await answersAsDocumented(
        routeByKey('webhooks.redeliver'),
        409,
        send(routeByKey('webhooks.redeliver'), { credential: m.mindKey, params }),
      );
    });

    test('computers: open install codes, a full queue, a disabled computer, a command no longer queued or finished', async () => {
      const m = await svc.mind();
      const createInstallCode = routeByKey('computers.createInstallCode');
      const pc = await registerComputer(svc, m.mindKey);
      for (let i = 0; i < 9; i++) await send(createInstallCode, { credential: m.mindKey, body: {} }).expect(201);
      await answersAsDocumented(
        createInstallCode,
        409,
        send(createInstallCode, { credential: m.mindKey, body: {} }),
        'The mind has MIND_MAX_COMPUTERS_PER_MIND computers and open codes of its Mind Key',
      );
      // The owner's JWT is not held to the mind's share; the mind's open codes are capped all the same.
      const forTheMind = { credential: m.jwt, body: { mind_id: m.mindId } };
      for (let i = 0; i < 11; i++) await send(createInstallCode, forTheMind).expect(201);
      await answersAsDocumented(
        createInstallCode,
        409,
        send(createInstallCode, forTheMind),
        'The mind has MIND_MAX_INSTALL_CODES_PER_MIND open codes',
      );

      const queueCommand = routeByKey('computers.queueCommand');
      const params = { id: pc.computerId };
      const first = await queue(svc, m.mindKey, pc.computerId, { type: 'move', payload: { x: 1, y: 1 } });
      await poll(svc, pc.token);
      const cancelCommand = routeByKey('computers.cancelCommand');
      await answersAsDocumented(cancelCommand, 409, send(cancelCommand, { credential: m.mindKey, params: { ...params, cid: first } }));
      await postResult(svc, pc.token, first, { status: 'done' });
      const postCommandResult = routeByKey('computers.postCommandResult');
      await answersAsDocumented(
        postCommandResult,
        409,
        send(postCommandResult, { credential: pc.token, params: { cid: first }, body: exampleBody(postCommandResult) }),
      );
      for (let i = 0; i < 100; i++) await queue(svc, m.mindKey, pc.computerId, { type: 'move', payload: { x: i, y: 1 } });
      await answersAsDocumented(
        queueCommand,
        409,
        send(queueCommand, { credential: m.mindKey, params, body: exampleBody(queueCommand) }),
        'The queue is full',
      );

      await svc.http.post(`/computers/${pc.computerId}/disable`).set(m.auth).expect(200);
      await answersAsDocumented(
        queueCommand,
        409,
        send(queueCommand, { credential: m.mindKey, params, body: exampleBody(queueCommand) }),
        'The computer is disabled',
      );
      const fromQuery = routeByKey('computers.queueCommandFromQuery');
      await answersAsDocumented(
        fromQuery,
        409,
        send(fromQuery, { credential: m.mindKey, params, query: { type: 'screenshot' } }),
        'The computer is disabled',
      );
      const screenshot = routeByKey('computers.screenshot');
      await answersAsDocumented(screenshot, 409, send(screenshot, { credential: m.mindKey, params }), 'The computer is disabled');
    });
  });

  describe('413, 415: bodies the server does not read', () => {
    test('a body over the route limit (1 MB; 25 MB for an import)', async () => {
      const createTask = routeByKey('tasks.createTask');
      const big = JSON.stringify({ title: 'big', description: 'x'.repeat(MB) });
      await answersAsDocumented(
        createTask,
        413,
        send(createTask, { credential: a.mindKey, headers: { 'Content-Type': 'application/json' }, body: big }),
      );
      const importMind = routeByKey('memories.importMind');
      const huge = JSON.stringify({ format: 'mind-export/1', padding: 'x'.repeat(25 * MB) });
      await answersAsDocumented(
        importMind,
        413,
        send(importMind, { credential: a.mindKey, headers: { 'Content-Type': 'application/json' }, body: huge }),
      );
    });

    test("a result over MIND_MAX_RESULT_BYTES besides the screenshot (70000 bytes, the example's size)", async () => {
      const cid = await queue(svc, a.mindKey, computer.computerId, { type: 'move', payload: { x: 1, y: 1 } });
      await poll(svc, computer.token);
      const filler = 70_000 - JSON.stringify({ log: '' }).length;
      const result = { log: 'x'.repeat(filler) };
      assert.equal(Buffer.byteLength(JSON.stringify(result)), 70_000);
      const entry = routeByKey('computers.postCommandResult');
      await answersAsDocumented(
        entry,
        413,
        send(entry, { credential: computer.token, params: { cid }, body: { status: 'done', result } }),
        'A result over MIND_MAX_RESULT_BYTES besides the screenshot',
      );
    });

    test('a charset other than UTF-8, a Content-Encoding the server does not undo', async () => {
      const entry = routeByKey('tasks.createTask');
      const body = JSON.stringify({ title: 'Summarise the three papers' });
      await answersAsDocumented(
        entry,
        415,
        send(entry, { credential: a.mindKey, headers: { 'Content-Type': 'application/json; charset=latin1' }, body }),
        'A charset other than UTF-8',
      );
      await answersAsDocumented(
        entry,
        415,
        send(entry, { credential: a.mindKey, headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'compress' }, body }),
        'A Content-Encoding other than gzip, deflate or br',
      );
    });
  });

  describe('429 and 503', () => {
    test('the 61st `?key=` request of a minute', async () => {
      const entry = routeByKey('tasks.listTasks');
      for (let i = 0; i < 60; i++) await send(entry, { query: { key: a.mindKey } }).expect(200);
      await answersAsDocumented(entry, 429, send(entry, { query: { key: a.mindKey } }));
    });

    test('a request while the service shuts down', async () => {
      svc.ctx.state = 'draining';
      try {
        const entry = routeByKey('memories.memoryStats');
        await answersAsDocumented(entry, 503, send(entry, { credential: a.mindKey }), 'The service is shutting down');
      } finally {
        svc.ctx.state = 'ready';
      }
    });
  });

  test('every documented 400, 401, 403 and 404 example was provoked', () => {
    const missing: string[] = [];
    for (const entry of routes) {
      for (const status of [400, 401, 403, 404]) {
        for (const { name } of documented(entry, status)) {
          if (!matched.has(`${entry.key} ${status} ${name}`)) missing.push(`${entry.key} ${status} ${name}`);
        }
      }
    }
    assert.deepEqual(missing, []);
  });
});

describe('the error examples of failed logins and registrations are what the server answers', () => {
  const svc = useService({ MIND_LOGIN_MAX_FAILURES_PER_ADDRESS: '2', MIND_INSTALL_CODE_MAX_FAILURES_PER_ADDRESS: '2' });

  const documentedMessages = (key: string, status: number) => {
    const entry = routes.find((r) => r.key === key)!;
    return documented(entry, status).map((e) => JSON.stringify(comparable(e.value)));
  };

  test('429: too many failed logins from this address', async () => {
    const login = { email: 'nobody@example.com', password: 'wrong password' };
    for (let i = 0; i < 2; i++) await svc.http.post('/login').send(login).expect(401);
    const res = await svc.http.post('/login').send(login).expect(429);
    assert.ok(documentedMessages('accounts.login', 429).includes(JSON.stringify(comparable(res.body))), JSON.stringify(res.body));
  });

  test('429: too many refused install codes from this address', async () => {
    const body = { code: 'AAAA-AAAA', computer_name: 'office-desktop', platform: 'linux', platform_release: '6.1.0', python: 'node v20' };
    for (let i = 0; i < 2; i++) await svc.http.post('/computers/register').send(body).expect(400);
    const res = await svc.http.post('/computers/register').send(body).expect(429);
    assert.ok(
      documentedMessages('computers.registerComputer', 429).includes(JSON.stringify(comparable(res.body))),
      JSON.stringify(res.body),
    );
  });
});
