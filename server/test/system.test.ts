import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { contract, listRoutes } from '@mindservice/contract';
import { buildOpenApiDocument } from '@mindservice/contract/openapi';
import { Validator } from '@seriousme/openapi-schema-validator';
import { useService } from './harness.js';

describe('system routes and docs', () => {
  const svc = useService();

  test('GET /health answers ok with version, uptime and database', async () => {
    const res = await svc.http.get('/health').expect(200);
    assert.equal(res.body.status, 'ok');
    assert.equal(res.body.database, 'ok');
    assert.equal(typeof res.body.version, 'string');
    assert.equal(typeof res.body.uptime_s, 'number');
  });

  test('GET /health is 503 while the service is not ready', async () => {
    svc.ctx.state = 'draining';
    try {
      const res = await svc.http.get('/health').expect(503);
      assert.equal(res.body.status, 'draining');
    } finally {
      svc.ctx.state = 'ready';
    }
  });

  test('GET /endpoints lists every contract route with its credential', async () => {
    const res = await svc.http.get('/endpoints').expect(200);
    const routes = listRoutes(contract);
    assert.equal(res.body.endpoints.length, routes.length);
    const find = (method: string, path: string) =>
      res.body.endpoints.find((e: { method: string; path: string }) => e.method === method && e.path === path);
    assert.deepEqual(find('POST', '/register'), { method: 'POST', path: '/register', auth: 'none', summary: 'Create an account' });
    assert.equal(find('GET', '/mind/tasks').auth, 'mindKey');
    assert.equal(find('GET', '/computers/list').auth, 'mindKeyOrJwt');
    assert.equal(find('GET', '/computers/me/poll').auth, 'computerToken');
    assert.equal(find('POST', '/minds').auth, 'jwt');
  });

  test("every route of the spec's section 4 is in the contract", () => {
    const have = new Set(listRoutes(contract).map(({ route }) => `${route.method} ${route.path}`));
    const spec = [
      'POST /register',
      'POST /login',
      'POST /minds',
      'GET /minds',
      'DELETE /minds/:id',
      'GET /mind/tasks',
      'POST /mind/task',
      'GET /mind/task',
      'PUT /mind/task/:id',
      'GET /mind/task/:id/complete',
      'GET /mind/task/:id/delete',
      'POST /webhooks',
      'GET /webhooks',
      'GET /webhooks/:id',
      'PUT /webhooks/:id',
      'POST /webhooks/:id/enable',
      'POST /webhooks/:id/disable',
      'POST /webhooks/:id/test',
      'DELETE /webhooks/:id',
      'GET /computers/list',
      'GET /computers/:id',
      'POST /computers/install-code',
      'POST /computers/:id/commands',
      'GET /computers/:id/command',
      'GET /computers/:id/commands',
      'GET /computers/:id/commands/:cid',
      'GET /computers/:id/screenshot',
      'POST /computers/:id/disable',
      'DELETE /computers/:id',
      'POST /computers/register',
      'GET /computers/me/poll',
      'POST /computers/me/commands/:cid/result',
      'GET /endpoints',
      'GET /health',
      'GET /memory/recall',
      'GET /memory/stats',
      'POST /memory',
      'DELETE /memory/:id',
      'GET /memory/mind-export',
    ];
    for (const route of spec) assert.ok(have.has(route), `missing ${route}`);
  });

  test('the committed docs/openapi.json matches the contract and is a valid OpenAPI document', async () => {
    const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    const generated = buildOpenApiDocument();
    assert.deepEqual(JSON.parse(committed), JSON.parse(JSON.stringify(generated)), 'docs/openapi.json drifted: run pnpm openapi');
    const result = await new Validator().validate(JSON.parse(committed));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  test('every operation has an operationId, summary, description, security, and described parameters', () => {
    const doc = buildOpenApiDocument() as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId?: string;
            summary?: string;
            description?: string;
            security?: unknown[];
            parameters?: { name: string; description?: string }[];
          }
        >
      >;
      components: { securitySchemes: Record<string, unknown> };
    };
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['ComputerToken', 'JWT', 'MindKey', 'MindKeyQuery']);
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        operations++;
        const where = `${method.toUpperCase()} ${path}`;
        assert.ok(op.operationId, `${where} operationId`);
        assert.ok(op.summary, `${where} summary`);
        assert.ok(op.description, `${where} description`);
        assert.ok(Array.isArray(op.security), `${where} security`);
        for (const p of op.parameters ?? []) assert.ok(p.description, `${where} parameter ${p.name} description`);
      }
    }
    assert.equal(operations, listRoutes(contract).length);
  });

  test('GET /openapi.json serves the document', async () => {
    const res = await svc.http.get('/openapi.json').expect(200).expect('Content-Type', /json/);
    assert.equal(res.body.openapi, '3.1.0');
    assert.ok(res.body.paths['/mind/tasks']);
  });

  test('Swagger UI is served at /docs/api with its assets', async () => {
    const page = await svc.http.get('/docs/api').expect(200).expect('Content-Type', /html/);
    assert.match(page.text, /swagger-ui/);
    await svc.http.get('/docs/api/assets/swagger-ui-bundle.js').expect(200);
    await svc.http.get('/docs/api/assets/swagger-ui.css').expect(200);
    const init = await svc.http.get('/docs/api/swagger-init.js').expect(200);
    assert.match(init.text, /\/openapi\.json/);
  });

  test('the guides are served as HTML, including the page the 401 links to', async () => {
    const auth = await svc.http.get('/docs/getting-started/authentication').expect(200).expect('Content-Type', /html/);
    assert.match(auth.text, /Mind Key/);
    assert.match(auth.text, /<h1/);
    await svc.http.get('/docs').expect(200).expect('Content-Type', /html/);
    await svc.http.get('/docs/no-such-guide').expect(404);
    await svc.http.get('/docs/..%2Fpackage').expect(404);
  });

  test('the account flow works with the example values Swagger UI fills in', async () => {
    // Swagger UI builds each request body from the schema's examples; walk register -> login ->
    // create mind -> list -> delete with exactly those bodies and the security schemes it offers.
    const doc = (await svc.http.get('/openapi.json').expect(200)).body;
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, { example?: unknown }> }>;
    const exampleBody = (path: string, method: string) => {
      const ref: string = doc.paths[path][method].requestBody.content['application/json'].schema.$ref;
      const schema = schemas[ref.split('/').pop()!];
      return Object.fromEntries(Object.entries(schema.properties).map(([name, prop]) => [name, prop.example]));
    };
    const registered = await svc.http.post('/register').send(exampleBody('/register', 'post')).expect(201);
    const login = await svc.http.post('/login').send(exampleBody('/login', 'post')).expect(200);
    assert.equal(login.body.user.id, registered.body.user.id);
    assert.deepEqual(doc.paths['/minds'].post.security, [{ JWT: [] }]);
    const auth = { Authorization: `Bearer ${login.body.jwt}` };
    const mind = await svc.http.post('/minds').set(auth).send(exampleBody('/minds', 'post')).expect(201);
    const list = await svc.http.get('/minds').set(auth).expect(200);
    assert.deepEqual(
      list.body.minds.map((m: { id: string }) => m.id),
      [mind.body.id],
    );
    await svc.http.delete(`/minds/${mind.body.id}`).set(auth).expect(204);
    assert.deepEqual((await svc.http.get('/minds').set(auth).expect(200)).body.minds, []);
  });
});
