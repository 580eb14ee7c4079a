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
import { bearer, startService, type TestService, useService } from './harness.js';
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
    messageId: string;
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
  'memories.memoryHistory': { request: (f) => ({ params: { id: f.a.memoryId }, query: {} }), ok: { status: 200 }, foreign: 404 },
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
  'chat.postChatMessage': { request: () => ({ body: { role: 'agent', content: 'hello' } }), ok: { status: 201 }, foreign: 201 },
  'chat.listChatMessages': { request: () => ({ query: {} }), ok: { status: 200 }, foreign: 200 },
  'chat.searchChat': { request: () => ({ query: { q: 'hello' } }), ok: { status: 200 }, foreign: 200 },
  'chat.deleteChatMessage': { request: (f) => ({ params: { id: f.a.messageId } }), ok: { status: 204 }, foreign: 404 },
  'chat.clearChatThread': { request: (f) => ({ query: { thread: `empty-${f.marker}` } }), ok: { status: 200 }, foreign: 200 },
  'scripts.listScripts': { request: () => ({}), ok: { status: 200 }, foreign: 200 },
  'scripts.createScript': { request: (f) => ({ body: { name: f.unique(), content: 'echo hi' } }), ok: { status: 201 }, foreign: 201 },
  'scripts.getScript': { request: (f) => ({ params: { id: f.a.scriptId } }), ok: { status: 200 }, foreign: 404 },
  'scripts.updateScript': {
    request: (f) => ({ params: { id: f.a.scriptId }, body: { content: 'taken' } }),
    ok: { status: 200 },
    foreign: 404,
  },
  'scripts.deleteScript': { request: (f) => ({ params: { id: f.a.scriptId } }), ok: { status: 204 }, foreign: 404 },

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
  const message = await post('/mind/chat', { role: 'human', content: marker });
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
      messageId: message.id,
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
          f.a.messageId,
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

// ---- Every list bounded in bytes ----

/** The byte bound the lists are checked against: small, so a few large items fill a page. */
const PAGE_BOUND = 4096;
/** Room for a page's envelope (`{"scripts":[...],"next_cursor":"..."}`) beyond its items. */
const ENVELOPE = 512;

interface Lister {
  svc: TestService;
  /** A fresh user with a mind of its own. */
  owner: Awaited<ReturnType<TestService['mind']>>;
}
type Query = Record<string, string>;
interface ListRequest {
  path: string;
  query?: Query;
  auth: Record<string, string>;
}
interface PagedList {
  /** Fills the list with items larger than a third of the bound; resolves with their ids in list order. */
  fill(l: Lister): Promise<string[]>;
  /** The first page's request and the credential that reads it. */
  request(l: Lister): ListRequest;
  /** The answer's array and its items' id field (default `id`). */
  items: string;
  id?: string;
  /** How the next page is asked: the answer's field, and the query parameter it goes in. */
  next: { field: 'next_cursor' | 'next_before'; param: 'cursor' | 'before' };
}
/** Not paged: the newest that fit the bound, newest first. */
interface RecentList {
  fill(l: Lister): Promise<string[]>;
  request(l: Lister): ListRequest;
  items: string;
  recent: true;
}
/** A list bounded by its schema: why, and a check of that bound where one can be made. */
interface BoundedList {
  bounded: string;
  check?(l: Lister): Promise<void>;
}
type ListSpec = PagedList | RecentList | BoundedList;

const big = (word: string, chars = 1500) => `${word} ${'x'.repeat(chars)}`;
const TAGS = 'its tags: at most 50 of at most 100 characters';

async function fillScripts({ svc, owner }: Lister): Promise<string[]> {
  const ids: string[] = [];
  // The third script's text is two bytes a character: the store's estimate counts characters, the cut counts bytes.
  for (const [i, content] of [big('a'), big('b'), 'é'.repeat(1500), big('d'), big('e'), big('f'), 'small'].entries()) {
    ids.push(
      (
        await svc.http
          .post('/mind/scripts')
          .set(owner.auth)
          .send({ name: `script-${i}`, content })
          .expect(201)
      ).body.id,
    );
  }
  return ids;
}

async function fillMemories({ svc, owner }: Lister): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const body = { category: 'fact', key: `fact-${i}`, content: big(`alpha fact ${i}`) };
    ids.push((await svc.http.post('/memory').set(owner.auth).send(body).expect(201)).body.id);
  }
  return ids;
}

async function fillChat({ svc, owner }: Lister): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const body = { role: 'human', content: big(`alpha message ${i}`) };
    ids.push((await svc.http.post('/mind/chat').set(owner.auth).send(body).expect(201)).body.id);
  }
  return ids;
}

async function fillComputers({ svc, owner }: Lister): Promise<string[]> {
  const ids: string[] = [];
  const long = 'p'.repeat(200);
  for (let i = 0; i < 9; i++) {
    const code = await installCode(svc, owner.mindKey);
    const body = { code, computer_name: `${i}-${long}`.slice(0, 200), platform: long, platform_release: long, python: long };
    ids.push((await svc.http.post('/computers/register').send(body).expect(201)).body.computer_id);
  }
  return ids;
}

let commandComputer = '';
async function fillCommands({ svc, owner }: Lister): Promise<string[]> {
  const computer = await registerComputer(svc, owner.mindKey);
  commandComputer = computer.computerId;
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const id = await queue(svc, owner.mindKey, computer.computerId, { type: 'type', payload: { text: `command ${i}` } });
    assert.equal((await poll(svc, computer.token)).length, 1);
    const body = { status: 'done', result: { output: big(`result ${i}`) } };
    await svc.http.post(`/computers/me/commands/${id}/result`).set(bearer(computer.token)).send(body).expect(200);
    ids.push(id);
  }
  return ids.reverse(); // the list is newest first
}

let historyMemory = '';
/** A supersede chain of seven large memories; the history of the fourth lists them all. */
async function fillHistory({ svc, owner }: Lister): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const body = { category: 'fact', content: big(`link ${i}`), ...(i > 0 ? { supersedes: ids[i - 1] } : {}) };
    ids.push((await svc.http.post('/memory').set(owner.auth).send(body).expect(201)).body.id);
  }
  historyMemory = ids[3]!;
  return ids;
}

let deliveryHook = '';
async function fillDeliveries({ svc, owner }: Lister): Promise<string[]> {
  const url = `${receiver.url}/pages-${randomBytes(3).toString('hex')}`;
  const hook = await svc.http.post('/webhooks').set(owner.auth).send({ url, events: 'task.created', secret: 'pages-secret' }).expect(201);
  deliveryHook = hook.body.id;
  for (let i = 0; i < 30; i++)
    await svc.http
      .post('/mind/task')
      .set(owner.auth)
      .send({ title: `task ${i}` })
      .expect(201);
  // Every delivery, newest first (the log's order).
  return eventually(async () => {
    const rows: Array<{ id: string }> = await svc.ctx
      .db('webhook_deliveries')
      .where({ webhook_id: deliveryHook })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .select('id');
    return rows.length === 30 ? rows.map((r) => r.id) : undefined;
  });
}

/** Every route whose answer holds an array: paged in bytes, cut in bytes, or bounded by its schema. */
const LISTS: Record<string, ListSpec> = {
  'system.listEndpoints': { bounded: "the contract's routes: a fixed list, the same for every caller" },
  'minds.listMindKeys': { bounded: 'at most 100 live keys a mind, each a few hundred bytes (label 200 characters, no secret)' },
  'minds.listMinds': {
    fill: async ({ svc, owner }) => {
      const ids = [owner.mindId];
      for (let i = 0; i < 6; i++) {
        const body = { name: `mind ${i}`, description: big('mind') };
        ids.push((await svc.http.post('/minds').set(bearer(owner.jwt)).send(body).expect(201)).body.id);
      }
      return ids;
    },
    request: ({ owner }) => ({ path: '/minds', auth: bearer(owner.jwt) }),
    items: 'minds',
    next: { field: 'next_cursor', param: 'cursor' },
  },
  'tasks.listTasks': {
    fill: async ({ svc, owner }) => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const body = { title: `task ${i}`, description: big('task') };
        ids.push((await svc.http.post('/mind/task').set(owner.auth).send(body).expect(201)).body.id);
      }
      return ids;
    },
    request: ({ owner }) => ({ path: '/mind/tasks', auth: owner.auth }),
    items: 'tasks',
    next: { field: 'next_cursor', param: 'cursor' },
  },
  'memories.storeMemory': { bounded: TAGS },
  'memories.getMemory': { bounded: TAGS },
  'memories.updateMemory': { bounded: TAGS },
  'memories.verifyMemory': { bounded: TAGS },
  'memories.unverifyMemory': { bounded: TAGS },
  'memories.memoryHistory': {
    fill: fillHistory,
    request: ({ owner }) => ({ path: `/memory/${historyMemory}/history`, auth: owner.auth }),
    items: 'chain',
    next: { field: 'next_cursor', param: 'cursor' },
  },
  'memories.recallMemories': {
    fill: fillMemories,
    request: ({ owner }) => ({ path: '/memory/recall', query: { q: 'alpha', mode: 'keyword', limit: '100' }, auth: owner.auth }),
    items: 'memories',
    next: { field: 'next_cursor', param: 'cursor' },
  },
  'memories.exportMind': {
    bounded: 'a download of the whole mind by design (the import limits bound it), written to the client in pieces',
  },
  'chat.listChatMessages': {
    fill: fillChat,
    request: ({ owner }) => ({ path: '/mind/chat', query: { limit: '100' }, auth: owner.auth }),
    items: 'messages',
    next: { field: 'next_before', param: 'before' },
  },
  'chat.searchChat': {
    fill: fillChat,
    request: ({ owner }) => ({ path: '/mind/chat/search', query: { q: 'alpha', mode: 'keyword', limit: '100' }, auth: owner.auth }),
    items: 'messages',
    next: { field: 'next_cursor', param: 'cursor' },
  },
  'scripts.listScripts': {
    fill: fillScripts,
    request: ({ owner }) => ({ path: '/mind/scripts', auth: owner.auth }),
    items: 'scripts',
    next: { field: 'next_cursor', param: 'cursor' },
  },
  'webhooks.listWebhooks': {
    bounded: 'at most 20 webhooks a mind, each of a few KB (url 2,000 characters, events 500)',
    check: async ({ svc, owner }) => {
      const url = `${receiver.url}/${'u'.repeat(1900)}`;
      const create = (i: number) =>
        svc.http
          .post('/webhooks')
          .set(owner.auth)
          .send({ url: `${url}${i}`, events: '*', secret: 'long-enough-secret' });
      for (let i = 0; i < 20; i++) await create(i).expect(201);
      await create(20).expect(409);
      const res = await svc.http.get('/webhooks').set(owner.auth).expect(200);
      assert.equal(res.body.length, 20);
      assert.ok(res.text.length < 100_000, `20 webhooks of the largest kind answer ${res.text.length} bytes`);
    },
  },
  'webhooks.redeliver': { bounded: "one delivery's attempts: one for each time of MIND_WEBHOOK_RETRY_SCHEDULE and the first" },
  'webhooks.listDeliveries': {
    fill: fillDeliveries,
    request: ({ owner }) => ({ path: `/webhooks/${deliveryHook}/deliveries`, query: { limit: '100' }, auth: owner.auth }),
    items: 'deliveries',
    recent: true,
  },
  'computers.listComputers': {
    fill: fillComputers,
    request: ({ owner }) => ({ path: '/computers/list', auth: owner.auth }),
    items: 'computers',
    next: { field: 'next_cursor', param: 'cursor' },
  },
  'computers.pollCommands': {
    bounded: 'at most 20 commands an answer (POLL_BATCH), each payload of at most 10,000 characters of text',
  },
  'computers.listCommands': {
    fill: fillCommands,
    request: ({ owner }) => ({ path: `/computers/${commandComputer}/commands`, query: { limit: '200' }, auth: owner.auth }),
    items: 'commands',
    id: 'command_id',
    next: { field: 'next_cursor', param: 'cursor' },
  },
};

/** Whether a schema holds an array (its own fields', not inside its arrays' items). */
function holdsArray(schema: unknown): boolean {
  type Def = { _def?: Record<string, unknown>; shape?: Record<string, unknown> };
  let s = schema as Def | undefined;
  while (s?._def && (s._def.innerType || s._def.schema || s._def.in)) s = (s._def.innerType ?? s._def.schema ?? s._def.in) as Def;
  if (!s?._def) return false;
  if (s._def.typeName === 'ZodArray') return true;
  if (s._def.typeName === 'ZodObject') return Object.values(s.shape ?? {}).some(holdsArray);
  if (s._def.typeName === 'ZodUnion' || s._def.typeName === 'ZodDiscriminatedUnion') return (s._def.options as unknown[]).some(holdsArray);
  return false;
}

const pageQuery = (spec: PagedList | RecentList, first: ListRequest, next: string | null): Query =>
  next === null || 'recent' in spec ? { ...first.query } : { ...first.query, [spec.next.param]: next };

/** Each item's JSON size as the answers show them. */
async function itemSizes(l: Lister, spec: PagedList | RecentList): Promise<number[]> {
  const sizes: number[] = [];
  const first = spec.request(l);
  let next: string | null = null;
  do {
    const res: Response = await l.svc.http
      .get(first.path)
      .query(pageQuery(spec, first, next))
      .set(first.auth)
      .expect(200);
    for (const item of res.body[spec.items]) sizes.push(Buffer.byteLength(JSON.stringify(item)));
    next = 'recent' in spec ? null : (res.body[spec.next.field] ?? null);
  } while (next !== null && sizes.length < 1000);
  return sizes;
}

describe(`security: every list is bounded in bytes (MIND_PAGE_MAX_BYTES=${PAGE_BOUND})`, () => {
  let pages: TestService;
  before(async () => {
    pages = await startService({ MIND_PAGE_MAX_BYTES: String(PAGE_BOUND), MIND_WEBHOOK_RETRY_SCHEDULE: '10ms' });
  });
  after(() => pages.stop());

  test('every route whose answer holds an array is in the table, and nothing else', () => {
    const lists = listRoutes(contract)
      .filter(({ route }) => Object.entries(route.responses).some(([status, schema]) => Number(status) < 300 && holdsArray(schema)))
      .map((r) => r.key);
    assert.deepEqual(Object.keys(LISTS).sort(), lists.sort());
  });

  for (const [key, spec] of Object.entries(LISTS)) {
    const what = 'bounded' in spec ? `bounded by its schema: ${spec.bounded}` : 'each page within the bound and one item';
    test(`${key}: ${what}`, async () => {
      const l: Lister = { svc: pages, owner: await pages.mind() };
      if ('bounded' in spec) return spec.check?.(l);
      const ids = await spec.fill(l);
      const largest = Math.max(...(await itemSizes(l, spec)));
      const first = spec.request(l);
      const backwards = 'next' in spec && spec.next.param === 'before';
      const seen: string[] = [];
      let next: string | null = null;
      let pagesRead = 0;
      do {
        const res: Response = await pages.http
          .get(first.path)
          .query(pageQuery(spec, first, next))
          .set(first.auth)
          .expect(200);
        const items = res.body[spec.items] as Array<Record<string, string>>;
        const bytes = Buffer.byteLength(res.text);
        assert.ok(items.length >= 1, `${key}: a page holds at least one item`);
        assert.ok(
          bytes <= PAGE_BOUND + largest + ENVELOPE,
          `${key}: a page of ${bytes} bytes (${items.length} items), one item at most ${largest}`,
        );
        const pageIds = items.map((item) => item[('id' in spec && spec.id) || 'id']!);
        // History pages back: each page is older than the one before, oldest first within it.
        seen.push(...(backwards ? pageIds.reverse() : pageIds));
        pagesRead++;
        if ('recent' in spec) {
          assert.ok(items.length < ids.length, `${key}: the bound cut the answer (${items.length} of ${ids.length})`);
          assert.deepEqual(seen, ids.slice(0, items.length), `${key}: the newest that fit, newest first`);
          return;
        }
        // A list without the field (no paging) ends here, and fails below if its one page held everything.
        next = res.body[spec.next.field] ?? null;
      } while (next !== null && pagesRead < 50);
      assert.ok(pagesRead > 1, `${key}: the bound split the list (one page held all ${ids.length})`);
      assert.equal(new Set(seen).size, seen.length, `${key}: no item twice`);
      assert.deepEqual([...seen].sort(), [...ids].sort(), `${key}: following the cursor shows every item`);
    });
  }
});
