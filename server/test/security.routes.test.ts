// One security suite over every route of the contract: no credential, the wrong kind of credential,
// another user's or another mind's credentials on user A's data, a disabled mind, a `read` Mind Key. A route added to the
// contract does not compile here until it has an entry in ROUTES saying how to call it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type AuthKind, type Contract, contract, isWrite, listRoutes } from '@mindservice/contract';
import { type AppRoute, insertParamsIntoPath, type PartialClientInferRequest } from '@ts-rest/core';
import jwt from 'jsonwebtoken';
import type { Response } from 'supertest';
import type { z } from 'zod';
import { setMindDisabled } from '../src/minds/store.js';
import { AGENT_INFO, installCode, PNG_1X1, poll, queue, registerComputer } from './computers/helpers.js';
import { bearer, useService } from './harness.js';
import { eventually, type Receiver, startReceiver } from './webhooks/receiver.js';

// ---- The route table's types: every key of the contract, each with its own request shape ----

/** `tasks.createTask` | `tasks.listTasks` | ...: the keys listRoutes(contract) gives, from the contract's type. */
type KeysOf<R, P extends string = ''> = {
  [K in keyof R & string]: R[K] extends AppRoute ? `${P}${K}` : KeysOf<R[K], `${P}${K}.`>;
}[keyof R & string];
type RouteKey = KeysOf<Contract>;
type RouteAt<R, K extends string> = K extends `${infer Head}.${infer Tail}`
  ? Head extends keyof R
    ? RouteAt<R[Head], Tail>
    : never
  : K extends keyof R
    ? R[K]
    : never;

/** Path params and query as the contract types them for a client; the body as its schema's input. */
type RequestOf<R extends AppRoute> = Pick<PartialClientInferRequest<R>, Extract<keyof PartialClientInferRequest<R>, 'params' | 'query'>> &
  (R extends { body: z.ZodTypeAny } ? { body: z.input<R['body']> } : { body?: undefined });

/** The kinds of credential (the route metadata's `auth` names which it takes). */
type Kind = 'mindKey' | 'jwt' | 'computerToken';
const ACCEPTS: Record<AuthKind, Kind[]> = {
  none: [],
  jwt: ['jwt'],
  mindKey: ['mindKey'],
  mindKeyOrJwt: ['mindKey', 'jwt'],
  computerToken: ['computerToken'],
};

interface RouteSpec<R extends AppRoute> {
  /** A valid request on user A's data. Called once per attempt, so `f.unique()` gives each its own names. */
  request(f: Fixture): RequestOf<R>;
  /**
   * What A's own credential gets (`as`: which kind, where the route takes two). It shows the request is
   * valid, so the refusals mean something; it runs last, since it may change or delete A's data.
   */
  ok: { status: number; as?: Kind };
  /**
   * What another user's and another mind's credentials get with the same request: 404 where it names
   * A's data (its existence is not revealed), the ok status where the route acts on the caller's own
   * data; by kind of credential where that differs. Whatever the status, A's data stays as it was and
   * nothing of it shows in the answer. Routes that take no credential have none.
   */
  foreign?: number | Partial<Record<Kind, number>>;
  /** Other answers to A's own credentials: a rule of this route, e.g. 403 for a Mind Key on verify. */
  own?: Partial<Record<Kind, number>>;
}

type RouteSpecs = { [K in RouteKey]: RouteSpec<RouteAt<Contract, K>> };
/** Any entry, as the loop reads it. */
type AnySpec = Omit<RouteSpec<AppRoute>, 'request'> & { request(f: Fixture): { params?: object; query?: object; body?: unknown } };

// ---- The fixture: user A with a mind and one of everything, another mind of A, user B ----

const PASSWORD = 'correct horse';

interface Party {
  jwt: string;
  userId: string;
  mindId: string;
  mindKey: string;
  computerId: string;
  computerToken: string;
}

interface Fixture {
  /** User A, mind A, and A's data the requests name. */
  a: Party & {
    email: string;
    taskId: string;
    memoryId: string;
    scriptId: string;
    webhookId: string;
    deliveryId: string;
    /** A command the computer was handed (status `sent`), and one still `queued`. */
    sentCommandId: string;
    queuedCommandId: string;
    /** A screenshot command the agent finished, with its PNG. */
    screenshotCommandId: string;
    /** An unused install code of mind A. */
    installCode: string;
    /** A Mind Key of mind A with scope `read`, and its id. */
    readKey: string;
    readKeyId: string;
  };
  /** Another mind of user A (with a computer of its own): a stranger to mind A's data. */
  sibling: Party;
  /** Another user with a mind and a computer. */
  b: Party;
  /** Text in A's data that no answer to a stranger may contain. */
  marker: string;
  /** Where A's webhook delivers (a path of the suite's receiver). */
  hookPath: string;
  /** A new name on every call (new scripts, webhook URLs, emails...). */
  unique(): string;
}

const EXPORT_BODY = () => ({
  format: 'mind-export/1' as const,
  exported_at: new Date().toISOString(),
  mind: { id: 'imported', name: 'imported', description: null },
  memories: [],
  tasks: [],
  chat: [],
  scripts: [],
  webhooks: [],
});

// ---- How to call every route ----

const ROUTES = {
  'system.health': { request: () => ({}), ok: { status: 200 } },
  'system.listEndpoints': { request: () => ({}), ok: { status: 200 } },
  'accounts.register': { request: (f) => ({ body: { email: `${f.unique()}@example.com`, password: PASSWORD } }), ok: { status: 201 } },
  'accounts.login': { request: (f) => ({ body: { email: f.a.email, password: PASSWORD } }), ok: { status: 200 } },

  'minds.createMind': { request: () => ({ body: { name: 'another' } }), ok: { status: 201 }, foreign: 201 },
  'minds.listMinds': { request: () => ({}), ok: { status: 200 }, foreign: 200 },
  // DESIGN 3: another user's mind is 403 on delete (not 404).
  'minds.deleteMind': { request: (f) => ({ params: { id: f.a.mindId } }), ok: { status: 204 }, foreign: 403 },
  // Another user's mind is not revealed.
  'minds.createMindKey': {
    request: (f) => ({ params: { id: f.a.mindId }, body: { label: f.unique(), scope: 'read' } }),
    ok: { status: 201 },
    foreign: 404,
  },
  'minds.listMindKeys': { request: (f) => ({ params: { id: f.a.mindId } }), ok: { status: 200 }, foreign: 404 },
  'minds.revokeMindKey': { request: (f) => ({ params: { id: f.a.mindId, key_id: f.a.readKeyId } }), ok: { status: 204 }, foreign: 404 },

  'tasks.listTasks': { request: () => ({ query: { status: 'all' } }), ok: { status: 200 }, foreign: 200 },
  'tasks.createTask': { request: () => ({ body: { title: 'new task' } }), ok: { status: 201 }, foreign: 201 },
  'tasks.createTaskFromQuery': { request: () => ({ query: { title: 'new task' } }), ok: { status: 201 }, foreign: 201 },
  'tasks.getTask': { request: (f) => ({ params: { id: f.a.taskId } }), ok: { status: 200 }, foreign: 404 },
  'tasks.updateTask': {
    request: (f) => ({ params: { id: f.a.taskId }, body: { title: 'taken', status: 'cancelled', due_at: null } }),
    ok: { status: 200 },
    foreign: 404,
  },
  'tasks.completeTask': { request: (f) => ({ params: { id: f.a.taskId } }), ok: { status: 200 }, foreign: 404 },
  'tasks.deleteTask': { request: (f) => ({ params: { id: f.a.taskId } }), ok: { status: 200 }, foreign: 404 },

  'memories.storeMemory': { request: () => ({ body: { category: 'note', content: 'new memory' } }), ok: { status: 201 }, foreign: 201 },
  'memories.recallMemories': { request: () => ({ query: {} }), ok: { status: 200 }, foreign: 200 },
  'memories.memoryStats': { request: () => ({}), ok: { status: 200 }, foreign: 200 },
  'memories.exportMind': { request: (f) => ({ query: { mind_id: f.a.mindId } }), ok: { status: 200, as: 'jwt' }, foreign: 404 },
  'memories.importMind': { request: () => ({ query: {}, body: EXPORT_BODY() }), ok: { status: 200 }, foreign: 200 },
  'memories.getMemory': { request: (f) => ({ params: { id: f.a.memoryId } }), ok: { status: 200 }, foreign: 404 },
  'memories.updateMemory': {
    request: (f) => ({ params: { id: f.a.memoryId }, body: { content: 'taken' } }),
    ok: { status: 200 },
    foreign: 404,
  },
  'memories.deleteMemory': { request: (f) => ({ params: { id: f.a.memoryId } }), ok: { status: 204 }, foreign: 404 },
  // Spec 5.5 and DESIGN 5: verifying needs the owner's JWT; any Mind Key is 403, whosever it is.
  'memories.verifyMemory': {
    request: (f) => ({ params: { id: f.a.memoryId } }),
    ok: { status: 200, as: 'jwt' },
    own: { mindKey: 403 },
    foreign: { mindKey: 403, jwt: 404 },
  },
  'memories.unverifyMemory': {
    request: (f) => ({ params: { id: f.a.memoryId } }),
    ok: { status: 200, as: 'jwt' },
    own: { mindKey: 403 },
    foreign: { mindKey: 403, jwt: 404 },
  },
  'memories.postChatMessage': { request: () => ({ body: { role: 'agent', content: 'hello' } }), ok: { status: 201 }, foreign: 201 },
  'memories.listChatMessages': { request: () => ({ query: {} }), ok: { status: 200 }, foreign: 200 },
  'memories.searchChat': { request: () => ({ query: { q: 'hello' } }), ok: { status: 200 }, foreign: 200 },
  'memories.listScripts': { request: () => ({}), ok: { status: 200 }, foreign: 200 },
  'memories.createScript': { request: (f) => ({ body: { name: f.unique(), content: 'echo hi' } }), ok: { status: 201 }, foreign: 201 },
  'memories.getScript': { request: (f) => ({ params: { id: f.a.scriptId } }), ok: { status: 200 }, foreign: 404 },
  'memories.updateScript': {
    request: (f) => ({ params: { id: f.a.scriptId }, body: { content: 'taken' } }),
    ok: { status: 200 },
    foreign: 404,
  },
  'memories.deleteScript': { request: (f) => ({ params: { id: f.a.scriptId } }), ok: { status: 204 }, foreign: 404 },

  'webhooks.createWebhook': {
    request: (f) => ({ body: { url: `${receiver.url}/${f.unique()}`, events: '*', secret: 'another-secret' } }),
    ok: { status: 201 },
    foreign: 201,
  },
  'webhooks.listWebhooks': { request: () => ({}), ok: { status: 200 }, foreign: 200 },
  'webhooks.getWebhook': { request: (f) => ({ params: { id: f.a.webhookId } }), ok: { status: 200 }, foreign: 404 },
  'webhooks.updateWebhook': {
    request: (f) => ({
      params: { id: f.a.webhookId },
      body: { url: `${receiver.url}/${f.unique()}`, events: '*', secret: 'taken-secret' },
    }),
    ok: { status: 200 },
    foreign: 404,
  },
  'webhooks.enableWebhook': { request: (f) => ({ params: { id: f.a.webhookId } }), ok: { status: 200 }, foreign: 404 },
  'webhooks.disableWebhook': { request: (f) => ({ params: { id: f.a.webhookId } }), ok: { status: 200 }, foreign: 404 },
  'webhooks.testWebhook': { request: (f) => ({ params: { id: f.a.webhookId } }), ok: { status: 200 }, foreign: 404 },
  'webhooks.deleteWebhook': { request: (f) => ({ params: { id: f.a.webhookId } }), ok: { status: 204 }, foreign: 404 },
  'webhooks.listDeliveries': { request: (f) => ({ params: { id: f.a.webhookId }, query: {} }), ok: { status: 200 }, foreign: 404 },
  'webhooks.redeliver': { request: (f) => ({ params: { id: f.a.webhookId, did: f.a.deliveryId } }), ok: { status: 202 }, foreign: 404 },

  // Naming mind A ties the computer to it: only A's Mind Key and A's JWT may.
  'computers.createInstallCode': { request: (f) => ({ body: { mind_id: f.a.mindId } }), ok: { status: 201, as: 'mindKey' }, foreign: 404 },
  'computers.listComputers': { request: () => ({}), ok: { status: 200, as: 'jwt' }, foreign: 200 },
  'computers.registerComputer': {
    request: (f) => ({ body: { code: f.a.installCode, computer_name: 'new-pc', ...AGENT_INFO } }),
    ok: { status: 201 },
  },
  // A poll answers the polling computer's own commands: strangers get an empty answer (wait=0: at once).
  'computers.pollCommands': { request: () => ({ query: { wait: 0 } }), ok: { status: 200 }, foreign: 200 },
  'computers.postCommandResult': {
    request: (f) => ({ params: { cid: f.a.sentCommandId }, body: { status: 'done', result: { ok: true } } }),
    ok: { status: 200 },
    foreign: 404,
  },
  // Acts on the token's own computer only: another tenant's token changes its own screen.
  'computers.reportScreen': { request: () => ({ body: { width: 1280, height: 800 } }), ok: { status: 200 }, foreign: 200 },
  'computers.getComputer': { request: (f) => ({ params: { id: f.a.computerId } }), ok: { status: 200, as: 'mindKey' }, foreign: 404 },
  'computers.queueCommand': {
    request: (f) => ({ params: { id: f.a.computerId }, body: { type: 'move', payload: { x: 1, y: 1 } } }),
    ok: { status: 201, as: 'jwt' },
    foreign: 404,
  },
  'computers.queueCommandFromQuery': {
    request: (f) => ({ params: { id: f.a.computerId }, query: { type: 'click', x: 1, y: 1 } }),
    ok: { status: 201, as: 'mindKey' },
    foreign: 404,
  },
  'computers.listCommands': {
    request: (f) => ({ params: { id: f.a.computerId }, query: {} }),
    ok: { status: 200, as: 'jwt' },
    foreign: 404,
  },
  'computers.getCommand': {
    request: (f) => ({ params: { id: f.a.computerId, cid: f.a.sentCommandId } }),
    ok: { status: 200, as: 'mindKey' },
    foreign: 404,
  },
  'computers.getCommandScreenshot': {
    request: (f) => ({ params: { id: f.a.computerId, cid: f.a.screenshotCommandId } }),
    ok: { status: 200, as: 'mindKey' },
    foreign: 404,
  },
  'computers.cancelCommand': {
    request: (f) => ({ params: { id: f.a.computerId, cid: f.a.queuedCommandId } }),
    ok: { status: 200, as: 'jwt' },
    foreign: 404,
  },
  // No agent answers in this suite: A's request queues a screenshot and waits MIND_SCREENSHOT_WAIT (200 ms)
  // for it, then 504. That it got that far shows the request reached the computer; strangers get 404 at once.
  'computers.screenshot': { request: (f) => ({ params: { id: f.a.computerId } }), ok: { status: 504, as: 'jwt' }, foreign: 404 },
  'computers.disableComputer': { request: (f) => ({ params: { id: f.a.computerId } }), ok: { status: 200, as: 'mindKey' }, foreign: 404 },
  'computers.deleteComputer': { request: (f) => ({ params: { id: f.a.computerId } }), ok: { status: 204, as: 'jwt' }, foreign: 404 },
} satisfies RouteSpecs;

// ---- The suite ----

const svc = useService({ MIND_SCREENSHOT_WAIT: '200ms', MIND_WEBHOOK_RETRY_SCHEDULE: '10ms', TRUST_PROXY: '1' });
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(() => receiver.close());

const AUTH_MESSAGE = 'Mind Key fehlt oder ungültig.';
let addresses = 0;
/**
 * Each request comes from its own client address (the suite runs with TRUST_PROXY=1), so the
 * `?key=` rate limit of 60 a minute per address, which has tests of its own, never answers here.
 */
const nextAddress = () => `198.18.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;
let fixtures = 0;

async function party(credential: string): Promise<Pick<Party, 'computerId' | 'computerToken'>> {
  const { computerId, token } = await registerComputer(svc, credential);
  return { computerId, computerToken: token };
}

async function fixture(): Promise<Fixture> {
  const id = `${++fixtures}-${randomBytes(3).toString('hex')}`;
  const marker = `only-for-a-${id}`;
  const hookPath = `/fixture-${id}`;
  const a = await svc.mind();
  const siblingMind = await svc.addMind(a.jwt, 'sibling');
  const b = await svc.mind();
  const [aComputer, siblingComputer, bComputer] = await Promise.all([party(a.mindKey), party(siblingMind.mindKey), party(b.mindKey)]);
  const post = async (path: string, body: object) => (await svc.http.post(path).set(a.auth).send(body).expect(201)).body as { id: string };
  const webhook = await post('/webhooks', { url: `${receiver.url}${hookPath}`, events: 'task.created', secret: 'fixture-secret' });
  const task = await post('/mind/task', { title: `task ${marker}`, description: marker });
  const memory = await post('/memory', { category: 'fact', key: marker, content: marker });
  await post('/mind/chat', { role: 'human', content: marker });
  const script = await post('/mind/scripts', { name: marker, content: marker });
  const screenshotCommandId = await queue(svc, a.mindKey, aComputer.computerId, { type: 'screenshot', payload: {} });
  assert.equal((await poll(svc, aComputer.computerToken)).length, 1);
  await svc.http
    .post(`/computers/me/commands/${screenshotCommandId}/result`)
    .set(bearer(aComputer.computerToken))
    .send({ status: 'done', result: { screenshot_b64: PNG_1X1.toString('base64'), width: 1, height: 1 } })
    .expect(200);
  const sentCommandId = await queue(svc, a.mindKey, aComputer.computerId, { type: 'type', payload: { text: marker } });
  assert.equal((await poll(svc, aComputer.computerToken)).length, 1);
  const queuedCommandId = await queue(svc, a.mindKey, aComputer.computerId, { type: 'type', payload: { text: marker } });
  const code = await installCode(svc, a.mindKey);
  const readKey = (await svc.http.post(`/minds/${a.mindId}/keys`).set(bearer(a.jwt)).send({ label: 'reader', scope: 'read' }).expect(201))
    .body as { id: string; mind_key: string };
  // The task's delivery has arrived and is recorded, so A's data stands still from here on.
  const deliveryId = await eventually(async () => {
    const [delivery] = (await svc.http.get(`/webhooks/${webhook.id}/deliveries`).set(a.auth)).body.deliveries;
    const hook = (await svc.http.get(`/webhooks/${webhook.id}`).set(a.auth)).body;
    return delivery?.status === 'succeeded' && hook.last_status === 200 ? (delivery.id as string) : undefined;
  });
  let names = 0;
  return {
    a: {
      ...a,
      ...aComputer,
      taskId: task.id,
      memoryId: memory.id,
      scriptId: script.id,
      webhookId: webhook.id,
      deliveryId,
      sentCommandId,
      queuedCommandId,
      screenshotCommandId,
      installCode: code,
      readKey: readKey.mind_key,
      readKeyId: readKey.id,
    },
    sibling: { ...siblingMind, jwt: a.jwt, userId: a.userId, ...siblingComputer },
    b: { ...b, ...bComputer },
    marker,
    hookPath,
    unique: () => `n${id}-${++names}`,
  };
}

/** Everything of mind A, read as A: any change a refused request made shows as a difference. */
async function snapshot(f: Fixture) {
  const asKey = bearer(f.a.mindKey);
  const asUser = bearer(f.a.jwt);
  const read = async (path: string, auth: Record<string, string>) => {
    const res = await svc.http.get(path).set(auth);
    assert.equal(res.status, 200, `reading ${path} as A: ${res.text}`);
    return res.body;
  };
  const [exported, minds, keys, webhooks, deliveries, computer, commands] = await Promise.all([
    read('/memory/mind-export', asKey),
    read('/minds', asUser),
    read(`/minds/${f.a.mindId}/keys`, asUser),
    read('/webhooks', asKey),
    read(`/webhooks/${f.a.webhookId}/deliveries`, asKey),
    read(`/computers/${f.a.computerId}`, asUser),
    read(`/computers/${f.a.computerId}/commands`, asUser),
  ]);
  const { exported_at: _at, ...mind } = exported;
  // `last_used_at` moves with the snapshot's own reads.
  const keyList = keys.keys.map(({ last_used_at: _used, ...key }: { last_used_at: string | null }) => key);
  return {
    mind,
    minds: minds.minds.filter((m: { id: string }) => m.id === f.a.mindId),
    keys: keyList,
    webhooks,
    deliveries,
    computer,
    commands,
  };
}

/**
 * Events of one mind, or of every mind of the fixture (the only minds its credentials reach; earlier
 * tests' fixtures may still record events of their own, for example when a handed-over command's
 * lease runs out in a slow run).
 */
const countEvents = async (minds: string | Fixture) =>
  Number(
    (
      await svc.ctx
        .db('events')
        .whereIn('mind_id', typeof minds === 'string' ? [minds] : [minds.a.mindId, minds.sibling.mindId, minds.b.mindId])
        .count({ n: '*' })
    )[0]!.n,
  );

interface Credential {
  name: string;
  /** The whole Authorization header. */
  header?: string;
  /** Sent as `?key=`. */
  key?: string;
}

function send(route: AppRoute, request: { params?: object; query?: object; body?: unknown }, credential: Credential): Promise<Response> {
  const path = insertParamsIntoPath({ path: route.path, params: (request.params ?? {}) as never });
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  let req = svc.http[method](path).set('X-Forwarded-For', nextAddress());
  const query = { ...request.query, ...(credential.key === undefined ? {} : { key: credential.key }) };
  if (Object.keys(query).length) req = req.query(query);
  if (credential.header !== undefined) req = req.set('Authorization', credential.header);
  return request.body === undefined ? req : req.send(request.body as object);
}

const show = (res: Response) => `${res.status} ${(res.text ?? `(${res.type})`).slice(0, 300)}`;

/** Credentials that are none of the kinds the route takes, or no valid one of them: each is a 401. */
function refusedCredentials(accepts: Kind[], f: Fixture): Credential[] {
  const own: Record<Kind, { name: string; value: string }> = {
    mindKey: { name: "A's Mind Key", value: f.a.mindKey },
    jwt: { name: "A's JWT", value: f.a.jwt },
    computerToken: { name: "A's Computer Token", value: f.a.computerToken },
  };
  const forged = jwt.sign({}, 'not-the-service-secret-not-the-service-secret', {
    algorithm: 'HS256',
    subject: f.a.userId,
    expiresIn: '1h',
  });
  const acceptedOwn = own[accepts[0]!];
  return [
    { name: 'no credential' },
    ...(Object.keys(own) as Kind[])
      .filter((k) => !accepts.includes(k))
      .map((k) => ({ name: own[k].name, header: `Bearer ${own[k].value}` })),
    { name: 'an unknown Mind Key', header: `Bearer mk_${randomBytes(32).toString('base64url')}` },
    { name: 'an unknown Computer Token', header: `Bearer ct_${randomBytes(32).toString('base64url')}` },
    { name: 'a JWT for A signed with another secret', header: `Bearer ${forged}` },
    { name: 'garbage', header: 'Bearer garbage' },
    { name: `${acceptedOwn.name} without "Bearer"`, header: acceptedOwn.value },
    ...(accepts.includes('mindKey')
      ? [
          { name: 'an unknown Mind Key as ?key=', key: `mk_${randomBytes(32).toString('base64url')}` },
          { name: "A's JWT as ?key=", key: f.a.jwt },
        ]
      : [{ name: "A's Mind Key as ?key= (this route takes no Mind Key)", key: f.a.mindKey }]),
  ];
}

/** Valid credentials of others: another user's, and another mind's of the same user. */
function strangerCredentials(accepts: Kind[], f: Fixture): Array<Credential & { kind: Kind }> {
  const all: Array<Credential & { kind: Kind }> = [
    { kind: 'mindKey', name: "B's Mind Key", header: `Bearer ${f.b.mindKey}` },
    { kind: 'mindKey', name: "B's Mind Key as ?key=", key: f.b.mindKey },
    { kind: 'mindKey', name: "the Mind Key of A's other mind", header: `Bearer ${f.sibling.mindKey}` },
    { kind: 'jwt', name: "B's JWT", header: `Bearer ${f.b.jwt}` },
    { kind: 'computerToken', name: "B's Computer Token", header: `Bearer ${f.b.computerToken}` },
    { kind: 'computerToken', name: "the Computer Token of A's other mind's computer", header: `Bearer ${f.sibling.computerToken}` },
  ];
  return all.filter((c) => accepts.includes(c.kind));
}

function ownCredential(kind: Kind, f: Fixture): Credential {
  return {
    mindKey: { name: "A's Mind Key", header: `Bearer ${f.a.mindKey}` },
    jwt: { name: "A's JWT", header: `Bearer ${f.a.jwt}` },
    computerToken: { name: "A's Computer Token", header: `Bearer ${f.a.computerToken}` },
  }[kind];
}

const covered = new Set<string>();

describe('security: every route of the contract', () => {
  for (const { key, route, metadata } of listRoutes(contract)) {
    const spec: AnySpec | undefined = (ROUTES as Record<RouteKey, AnySpec>)[key as RouteKey];
    const accepts = ACCEPTS[metadata.auth];

    test(`${route.method} ${route.path} (${key}, auth ${metadata.auth})`, async () => {
      assert.ok(spec, `ROUTES has no entry for ${key}`);
      const f = await fixture();
      const request = () => spec.request(f);

      if (accepts.length === 0) {
        assert.equal(spec.foreign, undefined, 'a route without credentials has no strangers');
        const res = await send(route, request(), { name: 'no credential' });
        assert.equal(res.status, spec.ok.status, `reachable without a credential: ${show(res)}`);
        covered.add(key);
        return;
      }
      assert.notEqual(spec.foreign, undefined, `ROUTES.${key} must say what strangers get`);
      const okAs = spec.ok.as ?? accepts[0]!;
      assert.ok(accepts.includes(okAs), `ROUTES.${key}.ok.as must be a credential the route takes`);

      const initial = await snapshot(f);
      const allEvents = await countEvents(f);
      const eventsOfA = await countEvents(f.a.mindId);
      const deliveredToA = receiver.at(f.hookPath).length;
      const assertUntouched = async (after: string) => {
        assert.deepEqual(await snapshot(f), initial, `A's data changed after ${after}`);
        assert.equal(await countEvents(f.a.mindId), eventsOfA, `an event of mind A was recorded after ${after}`);
        assert.equal(receiver.at(f.hookPath).length, deliveredToA, `A's webhook was called after ${after}`);
      };

      // No credential, the wrong kind, or an invalid one: 401 with the spec's error object.
      for (const credential of refusedCredentials(accepts, f)) {
        const res = await send(route, request(), credential);
        assert.equal(res.status, 401, `${credential.name}: ${show(res)}`);
        assert.equal(res.body.statusCode, 401, credential.name);
        assert.equal(res.body.error, 'Unauthorized', credential.name);
        assert.equal(res.body.message, AUTH_MESSAGE, credential.name);
        assert.equal(res.body.docs, `${svc.config.publicUrl}/docs/getting-started/authentication`, credential.name);
      }
      await assertUntouched('the 401s');
      assert.equal(await countEvents(f), allEvents, 'a refused request recorded an event');

      // Strangers: A's data is not revealed, not changed, and nothing of A shows in the answer.
      for (const credential of strangerCredentials(accepts, f)) {
        const expected: number = typeof spec.foreign === 'number' ? spec.foreign : (spec.foreign?.[credential.kind] ?? 404);
        const req = request();
        const eventsNow = await countEvents(f);
        const res = await send(route, req, credential);
        assert.equal(res.status, expected, `${credential.name}: ${show(res)}`);
        if (expected >= 400) {
          assert.equal(res.body.statusCode, expected, credential.name);
          assert.equal(await countEvents(f), eventsNow, `${credential.name}: a refused request recorded an event`);
        }
        // Not found is all it says: the kind of thing, no id, nothing about whose it is.
        if (expected === 404) assert.match(res.body.message, /^[A-Z][a-z]+ not found$/, credential.name);
        const sent = JSON.stringify(req);
        const secrets = [
          f.marker,
          f.a.taskId,
          f.a.memoryId,
          f.a.scriptId,
          f.a.webhookId,
          f.a.deliveryId,
          f.a.computerId,
          f.a.sentCommandId,
          f.a.queuedCommandId,
          f.a.mindId,
        ];
        for (const secret of secrets.filter((s) => !sent.includes(s))) {
          assert.equal(res.text.includes(secret), false, `${credential.name}: the answer shows A's ${secret}: ${show(res)}`);
        }
        await assertUntouched(credential.name);
      }

      // This route's own rules for A's credentials.
      for (const [kind, status] of Object.entries(spec.own ?? {}) as Array<[Kind, number]>) {
        const credential = ownCredential(kind, f);
        const res = await send(route, request(), credential);
        assert.equal(res.status, status, `${credential.name}: ${show(res)}`);
        await assertUntouched(credential.name);
      }

      // A disabled mind: its Mind Key is 403 (its data is kept and nothing happens).
      if (accepts.includes('mindKey')) {
        const eventsNow = await countEvents(f);
        await setMindDisabled(svc.ctx.db, f.a.mindId, new Date().toISOString());
        for (const credential of [ownCredential('mindKey', f), { name: "A's Mind Key as ?key=", key: f.a.mindKey }]) {
          const res = await send(route, request(), credential);
          assert.equal(res.status, 403, `disabled mind, ${credential.name}: ${show(res)}`);
          assert.equal(res.body.statusCode, 403);
          assert.match(res.body.message, /disabled/);
        }
        assert.equal(await countEvents(f), eventsNow, 'a disabled mind recorded an event');
        await setMindDisabled(svc.ctx.db, f.a.mindId, null);
        await assertUntouched('the requests of the disabled mind');
      }

      // A `read` key of mind A: refused on every route that writes (nothing changes), and on a route
      // that only reads it gets what A's full key gets.
      if (accepts.includes('mindKey')) {
        const readKeys: Credential[] = [
          { name: "A's read key", header: `Bearer ${f.a.readKey}` },
          { name: "A's read key as ?key=", key: f.a.readKey },
        ];
        if (isWrite(route)) {
          const eventsNow = await countEvents(f);
          for (const credential of readKeys) {
            const res = await send(route, request(), credential);
            assert.equal(res.status, 403, `${credential.name}: ${show(res)}`);
            assert.equal(res.body.code, 'key_read_only', credential.name);
            assert.match(res.body.message, /scope `read`/, credential.name);
          }
          assert.equal(await countEvents(f), eventsNow, 'a read key recorded an event');
          await assertUntouched("A's read key");
        } else {
          const full = await send(route, request(), ownCredential('mindKey', f));
          for (const credential of readKeys) {
            const res = await send(route, request(), credential);
            assert.equal(res.status, full.status, `${credential.name} (a full key gets ${full.status}): ${show(res)}`);
          }
          assert.equal(full.status, spec.own?.mindKey ?? spec.ok.status, `A's full key: ${show(full)}`);
        }
      }

      // A's own request works: the requests above were valid ones.
      const res = await send(route, request(), ownCredential(okAs, f));
      assert.equal(res.status, spec.ok.status, `${ownCredential(okAs, f).name}: ${show(res)}`);
      covered.add(key);
    });
  }

  test("DESIGN 13: a disabled mind's computers are refused too (403 to their Computer Tokens)", async () => {
    const f = await fixture();
    await setMindDisabled(svc.ctx.db, f.a.mindId, new Date().toISOString());
    for (const { key, route } of listRoutes(contract).filter((r) => r.metadata.auth === 'computerToken')) {
      const spec: AnySpec = (ROUTES as Record<RouteKey, AnySpec>)[key as RouteKey];
      const res = await send(route, spec.request(f), ownCredential('computerToken', f));
      assert.equal(res.status, 403, `${key}: ${show(res)}`);
    }
  });

  test('every route of the contract was checked', () => {
    const keys = listRoutes(contract).map((r) => r.key);
    assert.deepEqual(Object.keys(ROUTES).sort(), [...keys].sort(), 'ROUTES lists exactly the routes of the contract');
    assert.equal(
      covered.size,
      keys.length,
      `checked ${covered.size} of ${keys.length} routes; missing: ${keys.filter((k) => !covered.has(k)).join(', ')}`,
    );
  });
});
