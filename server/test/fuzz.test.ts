// Schema-driven fuzz of every operation of docs/openapi.json against a real service (SQLite, and
// PostgreSQL in the second run): requests generated from the document (json-schema-faker, seeded: the
// same requests every run), valid ones with real credentials and real ids, and mutated ones. Asserts:
// no 5xx; only statuses the operation documents; every JSON answer valid against the document (ajv);
// no secret and nothing of another tenant in any answer; every request valid by the document accepted,
// every invalid one a 400.
// JSON-RPC batches on /mcp (arrays of random calls, nested, empty, huge) are fuzzed in mcp.fuzz.test.ts.
//
// Rules the document cannot state as a schema, so the generator knows them (each one is said in the
// operation's description too):
// - state: a path id must name a real resource of the caller (real ids are used); an install code,
//   a login's password, a `next_cursor` (recall, a memory's history, chat search, tasks, scripts, commands, minds, computers), a chat `before` id and an export's `mind_id` must be real
//   ones; e-mail addresses, webhook URLs, script names and memory keys unique; import ids, memory keys and script names unique
//   within the document;
// - the configuration: a webhook URL must not be the service itself (`http://127.0.0.1:9/...` is used);
// - credentials: the export with a JWT names its mind; `include_credentials` needs the JWT;
// - time: a key's `expires_at` lies in the future;
// - recall: a `min_score` above 0 needs a `q` (without one every score is 0); a chat search's `q` has a
//   letter or digit;
// - run time: the agent's poll waits `wait=0`, a screenshot is answered by a test agent at once;
// - the screen: the agent reports a 100,000-pixel screen and a zoom's region lies on it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { generateSync } from 'json-schema-faker';
import { SPACE } from '@mindservice/contract';
import type { Response } from 'supertest';
import { AGENT_INFO, PNG_1X1 } from './computers/helpers.js';
import { bearer, startService, type TestService } from './harness.js';

type Schema = Record<string, unknown>;
type Json = unknown;

const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema: Schema;
}
interface Operation {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

/** The document's schemas with every `$ref` replaced by what it names (the generator and ajv then need no resolver). */
function deref(node: Json): Json {
  if (Array.isArray(node)) return node.map(deref);
  if (!node || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as Schema;
  const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, deref(v)]));
  if (typeof $ref !== 'string') return own;
  const target = document.components.schemas[$ref.replace('#/components/schemas/', '')];
  assert.ok(target, `unresolved ${$ref}`);
  return { ...(deref(target) as Schema), ...own };
}

interface Op {
  id: string;
  method: string;
  path: string;
  auth: 'none' | 'jwt' | 'mindKey' | 'mindKeyOrJwt' | 'computerToken';
  pathParams: string[];
  pathSchemas: Record<string, Schema>;
  /** The plain query parameters as one object schema. */
  query: Schema | undefined;
  /** Form-exploded object parameters (a query whose parameters go together): each a schema over the same query object. */
  queryForms: Schema[];
  /** Every query field's schema, from both. */
  queryFields: Record<string, Schema>;
  body: Schema | undefined;
  statuses: Set<number>;
  responses: Map<number, { schema?: Schema; contentType?: string }>;
}

function authOf(op: Operation): Op['auth'] {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.length === 0) return 'none';
  if (schemes.includes('ComputerToken')) return 'computerToken';
  if (schemes.includes('JWT')) return schemes.includes('MindKey') ? 'mindKeyOrJwt' : 'jwt';
  return 'mindKey';
}

const operations: Op[] = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, raw]): Op => {
    const parameters = (raw.parameters ?? []).map((p) => ({ ...p, schema: deref(p.schema) as Schema }));
    const isForm = (p: Parameter) =>
      p.in === 'query' && p.style === 'form' && p.explode === true && p.schema.type !== 'string' && !p.schema.enum;
    const queryParams = parameters.filter((p) => p.in === 'query' && !isForm(p));
    const queryForms = parameters.filter(isForm).map((p) => p.schema);
    const queryFields: Record<string, Schema> = Object.fromEntries(queryParams.map((p) => [p.name, p.schema]));
    for (const form of queryForms) {
      for (const variant of [form, ...((form.oneOf ?? form.anyOf ?? []) as Schema[])]) {
        for (const [name, field] of Object.entries((variant.properties ?? {}) as Record<string, Schema | boolean>)) {
          if (typeof field === 'object') queryFields[name] ??= field;
        }
      }
    }
    const query: Schema | undefined = queryParams.length
      ? {
          type: 'object',
          properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
          required: queryParams.filter((p) => p.required).map((p) => p.name),
          additionalProperties: true,
        }
      : undefined;
    const responses = new Map<number, { schema?: Schema; contentType?: string }>();
    for (const [code, r] of Object.entries(raw.responses)) {
      const [contentType, media] = Object.entries(r.content ?? {})[0] ?? [];
      responses.set(Number(code), { contentType, schema: media ? (deref(media.schema) as Schema) : undefined });
    }
    const body = raw.requestBody?.content['application/json']?.schema;
    return {
      id: raw.operationId,
      method: method.toUpperCase(),
      path,
      auth: authOf(raw),
      pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
      pathSchemas: Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.schema])),
      query,
      queryForms,
      queryFields,
      body: body ? (deref(body) as Schema) : undefined,
      statuses: new Set(responses.keys()),
      responses,
    };
  }),
);

// ajv over the same document: answers checked against their response schema, requests classified valid or not.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule;
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
ajv.addFormat('binary', true);
const compiled = new Map<Schema, ReturnType<typeof ajv.compile>>();
function check(schema: Schema, value: unknown): string | null {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

// Seeded pseudo-random choices of the test itself (mulberry32).
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** A UUID v4 made from a seed (the same every run). */
function seededUuid(seed: number): string {
  const next = rng(seed);
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(next() * 4)]!;
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
const seedOf = (text: string) => [...text].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

/**
 * The generator reads the escapes of a character class as letters (`[\t\f]` gives "t" and "f"): it is
 * given the patterns with their white-space classes as a plain space (what it makes is then still valid).
 */
function forGenerator(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forGenerator);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === 'pattern' && typeof value === 'string' ? value.split(SPACE.slice(0, -1)).join('[ ') : forGenerator(value),
    ]),
  );
}
const fake = (schema: Schema, seed: number) =>
  generateSync(forGenerator(schema) as never, { seed, optionalsProbability: 0.5, maxDefaultItems: 2, maxItems: 3, maxLength: 40 }) as Json;

const NO_BODY = Symbol('no body');
interface Request {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Json | typeof NO_BODY;
  credential: string | undefined;
  /** Send the Mind Key as `?key=` instead of the header. */
  keyInQuery?: boolean;
}
interface Case {
  label: string;
  request: Request;
  /** A request with real ids generated from the document: it must succeed (2xx). */
  valid: boolean;
  /** The statuses this case may answer, when the case says more than its validity. */
  expect?: number[];
}

const VALID_PER_OPERATION = 5;
const MUTATIONS_PER_OPERATION = 6;
const BAD_INTEGERS = ['0x10', '1e1', ' 5', '5.0', '+5', '１'];

describe('fuzz: every operation of docs/openapi.json', () => {
  let svc: TestService;
  let counter = 0;
  const unique = () => `${++counter}`;
  /** Strings no answer may contain: other tenants' ids and data, every credential and secret sent. */
  const forbidden = new Set<string>();
  let a: { jwt: string; userId: string; mindId: string; mindKey: string };
  let loginUser: { email: string; password: string };
  const ids: Record<string, string> = {};
  let computerToken = '';
  let otherMindKey = '';
  let otherMarker = '';

  const as = (credential: string | undefined) => (credential ? bearer(credential) : {});

  async function ok(res: Response | Promise<Response>, status: number) {
    const r = await res;
    assert.equal(r.status, status, JSON.stringify(r.body));
    return r.body as Record<string, string>;
  }
  const post = (path: string, credential: string | undefined, body: object) => svc.http.post(path).set(as(credential)).send(body);

  async function newTask(mindKey = a.mindKey, title = 'fuzz task') {
    return (await ok(post('/mind/task', mindKey, { title }), 201)).id;
  }
  async function newMemory(mindKey = a.mindKey, content = 'fuzz memory') {
    return (await ok(post('/memory', mindKey, { category: 'fact', content, key: `k-${unique()}` }), 201)).id;
  }
  async function newScript(mindKey = a.mindKey, name = `script-${unique()}`) {
    return (await ok(post('/mind/scripts', mindKey, { name, content: 'print(1)' }), 201)).id;
  }
  async function newWebhook(mindKey = a.mindKey, path = `hook-${unique()}`) {
    const secret = `whsec-${randomUUID()}`;
    forbidden.add(secret);
    return (await ok(post('/webhooks', mindKey, { url: `http://127.0.0.1:9/${path}`, events: '*', secret }), 201)).id;
  }
  async function installCode(credential = a.mindKey) {
    return (await ok(post('/computers/install-code', credential, {}), 201)).install_code;
  }
  async function newComputer(credential = a.mindKey, name = `pc-${unique()}`) {
    const code = await installCode(credential);
    const body = await ok(post('/computers/register', undefined, { code, computer_name: name, ...AGENT_INFO }), 201);
    forbidden.add(body.computer_token);
    return { id: body.computer_id, token: body.computer_token };
  }
  async function queueClick(computerId = ids.computer) {
    return (await ok(post(`/computers/${computerId}/commands`, a.mindKey, { type: 'click', payload: { x: 1, y: 2 } }), 201)).command_id;
  }
  async function sentCommand() {
    const cid = await queueClick();
    await ok(svc.http.get('/computers/me/poll?wait=0').set(bearer(computerToken)), 200);
    return cid;
  }

  before(async () => {
    // Embeddings local (the default), so recall by meaning is fuzzed too; one Mind Key sets up a computer per fuzzed registration.
    svc = await startService({ MIND_SCREENSHOT_WAIT: '10s', MIND_EMBEDDINGS: 'local', MIND_MAX_COMPUTERS_PER_MIND: '100' });
    a = await svc.mind();
    forbidden.add(a.mindKey).add(a.jwt);
    const loginOnly = await svc.user();
    loginUser = { email: loginOnly.email, password: 'correct horse' };
    forbidden.add(loginUser.password);

    // The other tenant: a user with a mind holding one of everything, marked so any leak is found.
    const b = await svc.mind();
    otherMindKey = b.mindKey;
    const marker = `tenant-b-${randomUUID()}`;
    otherMarker = marker;
    const bComputer = await newComputer(b.mindKey, marker);
    const bIds = {
      user: b.userId,
      mind: b.mindId,
      task: await newTask(b.mindKey, marker),
      memory: await newMemory(b.mindKey, marker),
      script: await newScript(b.mindKey, marker),
      webhook: await newWebhook(b.mindKey, marker),
      computer: bComputer.id,
      command: (await ok(post(`/computers/${bComputer.id}/commands`, b.mindKey, { type: 'type', payload: { text: marker } }), 201))
        .command_id,
      chat: (await ok(post('/mind/chat', b.mindKey, { role: 'human', content: marker }), 201)).id,
    };
    for (const value of [b.mindKey, b.jwt, marker, ...Object.values(bIds)]) forbidden.add(value);
    for (const [k, v] of Object.entries(bIds)) ids[`other.${k}`] = v;

    // The caller's real data, for path parameters.
    const computer = await newComputer(a.mindKey);
    computerToken = computer.token;
    Object.assign(ids, {
      task: await newTask(),
      memory: await newMemory(),
      script: await newScript(),
      webhook: await newWebhook(),
      computer: computer.id,
      command: await queueClick(computer.id),
      chat: (await ok(post('/mind/chat', a.mindKey, { role: 'agent', content: 'hello' }), 201)).id,
    });
    // A screenshot the agent finished, for the route that answers its PNG.
    const shot = await ok(post(`/computers/${computer.id}/commands`, a.mindKey, { type: 'screenshot', payload: {} }), 201);
    await ok(svc.http.get('/computers/me/poll?wait=0').set(bearer(computerToken)), 200);
    await ok(
      svc.http
        .post(`/computers/me/commands/${shot.command_id}/result`)
        .set(bearer(computerToken))
        .send({ status: 'done', result: { screenshot_b64: PNG_1X1.toString('base64'), width: 1, height: 1 } }),
      200,
    );
    ids.screenshotCommand = shot.command_id;
    await newTask(); // an event, so the webhook has a delivery
    const deliveries = await ok(svc.http.get(`/webhooks/${ids.webhook}/deliveries`).set(bearer(a.mindKey)), 200);
    ids.delivery = (deliveries as unknown as { deliveries: Array<{ id: string }> }).deliveries[0]!.id;
  });
  after(() => svc?.stop());

  const DESTRUCTIVE = new Set([
    'deleteMind',
    'deleteTask',
    'deleteMemory',
    'deleteScript',
    'deleteWebhook',
    'disableWebhook',
    'deleteComputer',
    'disableComputer',
    'cancelCommand',
    'postCommandResult',
  ]);

  /** Real ids for an operation's path; a destructive operation gets a new resource each time. */
  async function realParams(op: Op): Promise<Record<string, string>> {
    const fresh = DESTRUCTIVE.has(op.id);
    const params: Record<string, string> = {};
    for (const name of op.pathParams) {
      if (op.path.startsWith('/minds/') && name === 'key_id') {
        params[name] = (await ok(post(`/minds/${params.id}/keys`, a.jwt, { label: 'doomed' }), 201)).id!;
      } else if (op.path.startsWith('/minds/')) params[name] = (await svc.addMind(a.jwt, 'doomed')).mindId;
      else if (op.path.startsWith('/mind/task/')) params[name] = fresh ? await newTask() : ids.task;
      else if (op.path.startsWith('/memory/')) params[name] = fresh ? await newMemory() : ids.memory;
      else if (op.path.startsWith('/mind/scripts/')) params[name] = fresh ? await newScript() : ids.script;
      else if (op.path.startsWith('/mind/chat/'))
        params[name] = (await ok(post('/mind/chat', a.mindKey, { role: 'human', content: 'doomed' }), 201)).id!;
      else if (op.path.startsWith('/webhooks/')) params[name] = name === 'did' ? ids.delivery : fresh ? await newWebhook() : ids.webhook;
      else if (op.path.startsWith('/computers/me/')) params[name] = await sentCommand();
      else if (op.path.startsWith('/computers/')) {
        if (name === 'cid')
          params[name] = op.id === 'getCommandScreenshot' ? ids.screenshotCommand! : fresh ? await queueClick(params.id) : ids.command;
        else params[name] = op.id === 'deleteComputer' || op.id === 'disableComputer' ? (await newComputer()).id : ids.computer;
      } else assert.fail(`no real id for ${op.id} ${name}`);
    }
    // A webhook another request disabled is a documented 409 for a test delivery: enable it first.
    if (op.id === 'testWebhook') await ok(svc.http.post(`/webhooks/${ids.webhook}/enable`).set(bearer(a.mindKey)), 200);
    return params;
  }

  const credentialFor = (op: Op): string | undefined =>
    ({
      none: undefined,
      jwt: a.jwt,
      mindKey: a.mindKey,
      // Verifying and the export with credentials are the human's (a Mind Key is a documented 403).
      mindKeyOrJwt: ['verifyMemory', 'unverifyMemory', 'exportMind'].includes(op.id) ? a.jwt : a.mindKey,
      computerToken,
    })[op.auth];

  /** What the generator must know that the document cannot say as a schema (see the top of the file). */
  async function adapt(op: Op, request: Request, n: number) {
    const body = request.body as Record<string, unknown>;
    const q = request.query;
    switch (op.id) {
      case 'register':
        body.email = `fuzz${unique()}@example.com`;
        break;
      // A key's expiry lies in the future (a time already past is a documented 400).
      case 'createMindKey':
        if (body.expires_at !== undefined) body.expires_at = new Date(Date.now() + 86_400_000).toISOString();
        break;
      case 'login':
        Object.assign(body, loginUser);
        break;
      case 'registerComputer':
        body.code = await installCode();
        break;
      case 'createInstallCode':
        if (body.mind_id !== undefined) body.mind_id = a.mindId;
        break;
      case 'createWebhook':
      case 'updateWebhook':
        if (body.url !== undefined) body.url = `http://127.0.0.1:9/fuzz-${unique()}`;
        if (typeof body.secret === 'string') forbidden.add(body.secret);
        break;
      case 'createScript':
      case 'updateScript':
        // Names are unique in a mind (409 otherwise).
        if (typeof body.name === 'string') body.name = `${body.name}-${unique()}`;
        break;
      case 'storeMemory':
        // `supersedes` must name a real memory of the mind that nothing superseded yet (404 / 409 otherwise).
        delete body.supersedes;
        break;
      case 'updateMemory':
        // A category and key are unique in a mind (409 otherwise).
        if (typeof body.key === 'string') body.key = `${body.key}-${unique()}`;
        break;
      case 'exportMind':
        q.mind_id = a.mindId;
        break;
      case 'listChatMessages':
        if (q.before !== undefined) q.before = ids.chat;
        break;
      // Cursors are the service's own (`next_cursor`): a made-up one is a documented 400.
      case 'recallMemories':
      case 'memoryHistory':
      case 'searchChat':
      case 'listTasks':
      case 'listScripts':
      case 'listCommands':
      case 'listMinds':
      case 'listComputers':
        delete q.cursor;
        if (op.id === 'recallMemories' && !/[\p{L}\p{N}]/u.test(String(q.q ?? ''))) delete q.min_score;
        // A search's words: at least one letter or digit (any script's, which no portable pattern states).
        if (op.id === 'searchChat' && !/[\p{L}\p{N}]/u.test(String(q.q))) q.q = `${String(q.q ?? '').slice(0, -1)}a`;
        break;
      case 'pollCommands':
        q.wait = 0;
        break;
      // The fuzz's computers report the largest screen; a zoom's region must lie on it.
      case 'reportScreen':
        Object.assign(body, { width: 100_000, height: 100_000 });
        break;
      case 'queueCommand':
      case 'queueCommandFromQuery': {
        const zoom = op.id === 'queueCommand' ? (body.type === 'zoom' ? (body.payload as Record<string, unknown>) : undefined) : q;
        if (zoom && (op.id === 'queueCommand' || q.type === 'zoom')) onTheScreen(zoom);
        break;
      }
      case 'importMind':
        for (const kind of ['memories', 'tasks', 'chat', 'scripts'] as const) {
          const items = (body[kind] ?? []) as Array<Record<string, unknown>>;
          items.forEach((item, i) => {
            item.id = seededUuid(n * 100 + i + kind.length * 10_000);
            if (kind === 'memories' && item.key != null) item.key = `${String(item.key).trim()}-${i}`;
            if (kind === 'scripts') item.name = `${String(item.name).trim()}-${i}`;
          });
        }
        break;
    }
  }

  /** A zoom's region moved onto a 100,000-pixel screen (query values are numbers in text). */
  function onTheScreen(region: Record<string, unknown>) {
    for (const [at, size] of [
      ['x', 'width'],
      ['y', 'height'],
    ] as const) {
      const start = Math.min(Number(region[at]), 99_999);
      const length = Math.min(Number(region[size]), 100_000 - start);
      if (Number.isNaN(start) || Number.isNaN(length)) continue;
      const asText = typeof region[at] === 'string';
      region[at] = asText ? String(start) : start;
      region[size] = asText ? String(length) : length;
    }
  }

  /**
   * Queueing a command: a valid request and two mutations of it for every command type (the five
   * random valid cases would meet a few of the thirteen types only).
   */
  async function commandTypeCases(op: Op, random: () => number): Promise<Case[]> {
    if (op.id !== 'queueCommand' && op.id !== 'queueCommandFromQuery') return [];
    const variants = ((op.id === 'queueCommand' ? op.body : op.queryForms[0])?.oneOf ?? []) as Schema[];
    assert.ok(variants.length >= 13, `${op.id}: a variant per command type`);
    const cases: Case[] = [];
    for (const [i, variant] of variants.entries()) {
      const { request } = await validCase(op, 100 + i);
      // The generator does not solve `not` (x without y, a path with fromX): the first seed whose request is valid.
      for (let attempt = 0; ; attempt++) {
        const seed = seedOf(op.id) + 1000 * attempt + i;
        if (op.id === 'queueCommand') request.body = fake(variant, seed);
        else request.query = fake(variant, seed) as Record<string, unknown>;
        await adapt(op, request, seed);
        if (documentProblem(op, request) === null) break;
        assert.ok(attempt < 50, `${op.id}: no valid request of variant ${i} in 50 seeds`);
      }
      const type = op.id === 'queueCommand' ? (request.body as { type?: string }).type : request.query.type;
      cases.push({ label: `valid ${String(type)}`, request, valid: true }, ...mutations(op, request, random).slice(0, 2));
    }
    const types = new Set(cases.filter((c) => c.valid).map((c) => c.label));
    assert.equal(types.size, variants.length, `${op.id}: every command type once (${[...types].join(', ')})`);
    return cases;
  }

  async function validCase(op: Op, n: number): Promise<Case> {
    const seed = seedOf(op.id) + n;
    const request: Request = {
      params: await realParams(op),
      query: Object.assign(
        op.query ? (fake(op.query, seed) as Record<string, unknown>) : {},
        ...op.queryForms.map((form, i) => fake(form, seed + 100 * (i + 1)) as Record<string, unknown>),
      ),
      body: op.body ? fake(op.body, seed + 1000) : NO_BODY,
      credential: credentialFor(op),
      keyInQuery: n === 0 && op.auth === 'mindKey' && seedOf(op.id) % 2 === 0,
    };
    await adapt(op, request, seed);
    return { label: `valid #${n}`, request, valid: true };
  }

  /** Changes that make a request invalid by the document (or aim it at another tenant's data). */
  function mutations(op: Op, base: Request, random: () => number): Case[] {
    const out: Case[] = [];
    /** Cases every run makes: another tenant's data, the wrong credential. */
    const always: Case[] = [];
    const clone = (): Request => ({
      ...base,
      params: { ...base.params },
      query: { ...base.query },
      body: base.body === NO_BODY ? NO_BODY : structuredClone(base.body),
    });
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
    const body = op.body;
    if (body) {
      const properties = Object.keys((body.properties ?? {}) as object);
      const required = (body.required ?? []) as string[];
      out.push({ label: 'no body', request: { ...clone(), body: NO_BODY }, valid: false });
      out.push({ label: 'body is an array', request: { ...clone(), body: [] }, valid: false });
      out.push({ label: 'body is {}', request: { ...clone(), body: {} }, valid: false });
      if (required.length) {
        const r = clone();
        const name = pick(required);
        delete (r.body as Record<string, unknown>)[name];
        out.push({ label: `body without ${name}`, request: r, valid: false });
      }
      if (properties.length) {
        const r = clone();
        const name = pick(properties);
        (r.body as Record<string, unknown>)[name] = pick([
          12345,
          { nested: true },
          ['x'],
          true,
          '',
          '\u0000',
          ' '.repeat(3),
          'x'.repeat(70_000),
        ]);
        out.push({ label: `body.${name} changed`, request: r, valid: false });
        // Text beyond ASCII: valid wherever the document allows the length, and then it must be stored.
        const text = clone();
        (text.body as Record<string, unknown>)[name] = pick(['Grüße, ça va? 🚀', 'Ωμέγα ✓ 東京', 'emoji 👩‍💻\u2028line']);
        out.push({ label: `body.${name} is unicode`, request: text, valid: false });
      }
    }
    if (op.query || op.queryForms.length) {
      const properties = op.queryFields;
      const integers = Object.keys(properties).filter((k) => properties[k]!.type === 'integer');
      const strings = Object.keys(properties).filter((k) => properties[k]!.type === 'string' && !properties[k]!.enum && k !== 'cursor'); // cursors are the service's own
      if (strings.length) {
        const r = clone();
        r.query[pick(strings)] = pick(['a\u0000b', 'Grüße 🚀']);
        out.push({ label: 'query string changed', request: r, valid: false });
      }
      const enums = Object.keys(properties).filter((k) => Array.isArray(properties[k]!.enum) || properties[k]!.allOf);
      if (integers.length) {
        const r = clone();
        r.query[pick(integers)] = pick(BAD_INTEGERS);
        out.push({ label: 'lenient integer', request: r, valid: false });
        const big = clone();
        big.query[pick(integers)] = 10_000_000;
        out.push({ label: 'integer out of range', request: big, valid: false });
      }
      if (enums.length) {
        const r = clone();
        r.query[pick(enums)] = 'bogus';
        out.push({ label: 'not in the enum', request: r, valid: false });
      }
    }
    if (op.pathParams.length) {
      const name = op.pathParams.at(-1)!;
      const kind =
        name === 'cid'
          ? 'command'
          : name === 'did'
            ? 'delivery'
            : op.path.split('/')[1] === 'mind'
              ? op.path.split('/')[2]!
              : op.path.split('/')[1]!;
      const otherKey = `other.${{ memory: 'memory', task: 'task', scripts: 'script', webhooks: 'webhook', computers: 'computer', minds: 'mind', command: 'command' }[kind] ?? kind}`;
      const other = ids[otherKey];
      if (other && op.id !== 'postCommandResult') {
        const r = clone();
        r.params[name] = other;
        always.push({ label: `another tenant's ${name}`, request: r, valid: false, expect: op.id === 'deleteMind' ? [403, 404] : [404] });
      }
      const nul = clone();
      nul.params[name] = 'a\u0000b';
      out.push({ label: `NUL in ${name}`, request: nul, valid: false });
      const r = clone();
      r.params[name] = pick([seededUuid(Math.floor(random() * 1e9)), 'not-a-uuid', '%E2%82%AC', '1'.repeat(300)]);
      out.push({ label: `unknown ${name}`, request: r, valid: false, expect: [404] });
    }
    if (op.id === 'importMind' && base.body !== NO_BODY) {
      // Another tenant's ids in the document: imported under ids of this mind, the other mind untouched.
      const r = clone();
      const doc = r.body as Record<string, Array<Record<string, unknown>>>;
      const now = '2026-01-01T00:00:00Z';
      doc.tasks = [{ id: ids['other.task'], title: 'imported', status: 'pending', created_at: now, updated_at: now, completed_at: null }];
      doc.memories = [{ id: ids['other.memory'], category: 'note', content: 'imported', tags: [], created_at: now, updated_at: now }];
      doc.scripts = [{ id: ids['other.script'], name: `imported-${random()}`, content: '', created_at: now, updated_at: now }];
      doc.chat = [{ id: ids['other.chat'], role: 'human', content: 'imported', created_at: now }];
      always.push({ label: "another tenant's ids in the document", request: r, valid: false, expect: [200] });
    }
    if (op.id === 'verifyMemory' || op.id === 'unverifyMemory') {
      always.push({ label: 'a Mind Key', request: { ...clone(), credential: a.mindKey }, valid: false, expect: [403] });
    }
    // Seeded choice of a few.
    const chosen: Case[] = [];
    while (chosen.length < MUTATIONS_PER_OPERATION && out.length) chosen.push(out.splice(Math.floor(random() * out.length), 1)[0]!);
    return [...always, ...chosen];
  }

  const encode = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : String(value));

  async function send(op: Op, request: Request): Promise<Response> {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(request.params[name] ?? '').replace(/%25([0-9A-F]{2})/g, '%$1'),
    );
    const pairs: string[] = [];
    for (const [k, v] of Object.entries(request.query)) {
      if (v === undefined) continue;
      for (const item of Array.isArray(v) ? v : [v]) pairs.push(`${encodeURIComponent(k)}=${encode(item)}`);
    }
    let headers = as(request.credential);
    if (request.keyInQuery && request.credential) {
      pairs.push(`key=${encodeURIComponent(request.credential)}`);
      headers = {};
    }
    const url = pairs.length ? `${path}?${pairs.join('&')}` : path;
    let req = svc.http[op.method.toLowerCase() as 'get'](url).set(headers);
    if (request.body !== NO_BODY) req = req.set('Content-Type', 'application/json').send(JSON.stringify(request.body));
    if (op.id === 'screenshot') {
      const answered = answerScreenshots();
      const res = await req;
      await answered.stop();
      return res;
    }
    return req;
  }

  /** A test agent: posts a PNG for every screenshot command while the screenshot request waits. */
  function answerScreenshots() {
    let running = true;
    const loop = (async () => {
      while (running) {
        const res = await svc.http.get('/computers/me/poll?wait=1').set(bearer(computerToken));
        for (const command of (res.body?.commands ?? []) as Array<{ command_id: string; type: string }>) {
          const result = command.type === 'screenshot' ? { screenshot_b64: PNG_1X1.toString('base64'), width: 1, height: 1 } : { ok: true };
          await svc.http
            .post(`/computers/me/commands/${command.command_id}/result`)
            .set(bearer(computerToken))
            .send({ status: 'done', result });
        }
      }
    })();
    return {
      stop: async () => {
        running = false;
        await loop;
      },
    };
  }

  /** Is the request valid by the document? (query values as a client sends them: integers as digits) */
  function documentProblem(op: Op, request: Request): string | null {
    for (const [name, schema] of Object.entries(op.pathSchemas)) {
      const problem = check(schema, request.params[name]);
      if (problem) return `params.${name}: ${problem}`;
    }
    const values: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(request.query)) {
      if (v === undefined) continue;
      values[k] = op.queryFields[k]?.type === 'integer' && typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
    }
    for (const schema of [op.query, ...op.queryForms]) {
      const problem = schema ? check(schema, values) : null;
      if (problem) return `query: ${problem}`;
    }
    if (op.body) {
      if (request.body === NO_BODY) return 'body: required';
      const problem = check(op.body, request.body);
      if (problem) return `body: ${problem}`;
    }
    return null;
  }

  function leaks(res: Response): string[] {
    const text = `${JSON.stringify(res.headers)}\n${Buffer.isBuffer(res.body) ? '' : (res.text ?? JSON.stringify(res.body))}`;
    return [...forbidden].filter((secret) => text.includes(secret));
  }

  // The import replaces what the mind holds: last, so the other operations meet their data.
  const ordered = [...operations].sort((x, y) => Number(x.id === 'importMind') - Number(y.id === 'importMind'));
  const timings: string[] = [];

  for (const op of ordered) {
    test(`${op.id}: ${op.method} ${op.path}`, async () => {
      const started = Date.now();
      const random = rng(seedOf(op.id));
      const cases: Case[] = [];
      for (let n = 0; n < VALID_PER_OPERATION; n++) cases.push(await validCase(op, n));
      cases.push(...mutations(op, (await validCase(op, VALID_PER_OPERATION)).request, random));
      cases.push(...(await commandTypeCases(op, random)));

      const problems: string[] = [];
      for (const c of cases) {
        const problem = documentProblem(op, c.request);
        const res = await send(op, c.request);
        const where = `${c.label} ${JSON.stringify({ params: c.request.params, query: c.request.query, body: c.request.body === NO_BODY ? undefined : c.request.body }).slice(0, 600)} -> ${res.status} ${(res.text ?? '').slice(0, 300)}`;
        const fail = (what: string) => problems.push(`${what}: ${where}`);

        if (res.status >= 500) fail('a 5xx');
        if (!op.statuses.has(res.status)) fail(`status ${res.status} not documented (documented: ${[...op.statuses].join(', ')})`);
        if (problem === null && [400, 413, 415].includes(res.status)) fail('refused a request valid by the document');
        if (problem !== null && res.status !== 400 && !c.expect?.includes(res.status))
          fail(`accepted a request invalid by the document (${problem})`);
        if (c.valid && problem !== null) fail(`the generator made a request invalid by the document (${problem})`);
        if (c.valid && problem === null && (res.status < 200 || res.status > 299)) fail('a valid request with real ids failed');
        if (c.expect && problem === null && !c.expect.includes(res.status)) fail(`expected ${c.expect.join(' or ')}`);

        const declared = op.responses.get(res.status);
        if (declared?.contentType === 'application/json' && declared.schema) {
          const invalid = check(declared.schema, res.body);
          if (invalid) fail(`answer not valid against the document (${invalid})`);
        } else if (declared?.contentType) {
          if (!String(res.headers['content-type'] ?? '').startsWith(declared.contentType))
            fail(`content type ${res.headers['content-type']}`);
        } else if (declared && (res.text ?? '') !== '') fail('a body where the document says none');
        const leaked = leaks(res);
        if (leaked.length)
          fail(`answer contains ${leaked.length} forbidden value(s): ${leaked.map((s) => `${s.slice(0, 6)}…`).join(', ')}`);
      }
      timings.push(`${op.id} ${Date.now() - started} ms`);
      // The other tenant's data is as it was.
      const other = await svc.http.get(`/mind/task/${ids['other.task']}`).set(bearer(otherMindKey));
      if (other.status !== 200 || other.body.title !== otherMarker)
        problems.push(`the other tenant's task changed: ${other.status} ${other.text}`);
      const otherMemory = await svc.http.get(`/memory/${ids['other.memory']}`).set(bearer(otherMindKey));
      if (otherMemory.status !== 200 || otherMemory.body.content !== otherMarker)
        problems.push(`the other tenant's memory changed: ${otherMemory.status}`);
      assert.deepEqual(problems, [], problems.join('\n\n'));
    });
  }
});
