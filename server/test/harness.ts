// Test harness: a real service on a fresh SQLite file per test file, reached over HTTP with supertest.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before } from 'node:test';
import { ERROR_CODES, ERROR_MESSAGES, type ErrorCode } from '@mindservice/contract';
import knex from 'knex';
import supertest from 'supertest';
import { createApp, type AppOptions, type MindApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/lib/config.js';
import type { Clock } from '../src/lib/clock.js';

export interface TestService extends MindApp {
  http: ReturnType<typeof supertest>;
  dataDir: string;
  config: Config;
  /** Registers a new user and returns its JWT and id. */
  user(): Promise<{ jwt: string; userId: string; email: string }>;
  /** A new user with one mind: the JWT, the mind id, its Mind Key and the header that sends it. */
  mind(): Promise<{ jwt: string; userId: string; email: string; mindId: string; mindKey: string; auth: Record<string, string> }>;
  /** Creates one more mind for a user's JWT. */
  addMind(jwt: string, name?: string): Promise<{ mindId: string; mindKey: string }>;
  stop(): Promise<void>;
}

/** A clock tests can move. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now() {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

let counter = 0;

/** Where test services keep the local embedder's word table (built once per machine, about 4 s). */
export const TEST_EMBEDDINGS_CACHE = join(tmpdir(), 'mind-test-embeddings');

/** Environment for tests: fast bcrypt, quiet logs, responses checked against the contract. */
export function testConfig(env: Record<string, string> = {}): Config {
  const dataDir = env.MIND_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'mind-test-'));
  const config = loadConfig({
    MIND_BCRYPT_COST: '4',
    LOG_LEVEL: 'silent',
    PORT: '0',
    MIND_SHUTDOWN_TIMEOUT: '2s',
    // Recall by meaning is off unless a test turns it on (a worker thread per service otherwise);
    // MIND_TEST_EMBEDDINGS=local runs the whole suite with it. One word table for all test services.
    MIND_EMBEDDINGS: process.env.MIND_TEST_EMBEDDINGS ?? 'off',
    MIND_EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_CACHE,
    ...env,
    MIND_DATA_DIR: dataDir,
  });
  config.validateResponses = true;
  return config;
}

/** Set to a postgres:// URL to run the suite on PostgreSQL (each service gets a fresh schema). */
export const TEST_DATABASE_URL = process.env.MIND_TEST_DATABASE_URL || undefined;

/** A new empty schema in the test database, and a URL whose connections use it. */
export async function freshPostgresSchema(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `t_${process.pid}_${++counter}_${randomBytes(4).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: baseUrl });
  try {
    await admin.raw(`create schema "${schema}"`);
  } finally {
    await admin.destroy();
  }
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const db = knex({ client: 'pg', connection: baseUrl });
      try {
        await db.raw(`drop schema if exists "${schema}" cascade`);
      } finally {
        await db.destroy();
      }
    },
  };
}

/**
 * What is wrong with an error answer, if anything: every one is the error object with a `code`
 * from the table, answered with the code's status, and a `docs` link to the code's section (the
 * spec's 401: the authentication guide). /health's 503 is its own body, and /mcp's JSON-RPC errors are the
 * MCP SDK's; an error object there is held to the same rules.
 */
export function errorAnswerProblem(url: string, status: number, contentType: string, text: string, publicUrl: string): string | undefined {
  const path = url.split('?')[0] ?? '';
  // /oauth/token and /oauth/register answer RFC 6749 / RFC 7591 errors, the format OAuth clients read.
  const own = path !== '/health' && !path.startsWith('/mcp') && path !== '/oauth/token' && path !== '/oauth/register';
  if (!/^application\/json/.test(contentType)) return own ? `not JSON (${contentType || 'no Content-Type'})` : undefined;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return own ? 'not valid JSON' : undefined;
  }
  if (!own && body.statusCode === undefined) return undefined;
  const code = body.code as ErrorCode;
  if (typeof code !== 'string' || !(code in ERROR_CODES)) return `code ${JSON.stringify(code)} is not in the table`;
  if (ERROR_CODES[code].status !== status || body.statusCode !== status)
    return `code ${code} is ${ERROR_CODES[code].status}, answered ${status}`;
  const docs =
    body.message === ERROR_MESSAGES.unauthorized ? `${publicUrl}/docs/getting-started/authentication` : `${publicUrl}/docs/errors#${code}`;
  if (body.docs !== docs) return `docs ${JSON.stringify(body.docs)}, expected ${docs}`;
  return undefined;
}

/** The app, with every error answer it writes checked (errorAnswerProblem); what is wrong is collected in `problems`. */
function checkingErrorAnswers(app: MindApp['app'], publicUrl: string, problems: string[]): MindApp['app'] {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (res.statusCode < 400 || req.method === 'HEAD' || chunk === undefined || typeof chunk === 'function') return;
      chunks.push(
        Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      if (res.statusCode >= 400 && req.method !== 'HEAD') {
        const text = Buffer.concat(chunks).toString('utf8');
        const contentType = String(res.getHeader('content-type') ?? '');
        const problem = errorAnswerProblem(req.url ?? '', res.statusCode, contentType, text, publicUrl);
        if (problem) problems.push(`${req.method} ${req.url} ${res.statusCode}: ${problem}: ${text.slice(0, 300)}`);
      }
      return end(chunk, ...rest);
    }) as typeof res.end;
    app(req, res);
  };
}

export async function startService(env: Record<string, string> = {}, options: AppOptions = {}): Promise<TestService> {
  const pg = TEST_DATABASE_URL && !env.DATABASE_URL ? await freshPostgresSchema(TEST_DATABASE_URL) : undefined;
  const config = testConfig(pg ? { ...env, DATABASE_URL: pg.url } : env);
  const service = await createApp(config, options);
  // Every error answer any test provokes is held to the error object's rules; stop() fails on the first that is not.
  const problems: string[] = [];
  const app = checkingErrorAnswers(service.app, config.publicUrl, problems);
  const http = supertest(app);

  const user = async () => {
    const email = `user${++counter}-${Date.now()}@example.com`;
    const res = await http.post('/register').send({ email, password: 'correct horse' }).expect(201);
    return { jwt: res.body.jwt as string, userId: res.body.user.id as string, email };
  };
  const addMind = async (jwt: string, name = 'test mind') => {
    const res = await http.post('/minds').set('Authorization', `Bearer ${jwt}`).send({ name }).expect(201);
    return { mindId: res.body.id as string, mindKey: res.body.mind_key as string };
  };
  const mind = async () => {
    const u = await user();
    const m = await addMind(u.jwt);
    return { ...u, ...m, auth: bearer(m.mindKey) };
  };

  return {
    ...service,
    app,
    http,
    dataDir: config.dataDir,
    config,
    user,
    mind,
    addMind,
    async stop() {
      await service.close();
      await pg?.drop();
      if (!env.MIND_DATA_DIR) rmSync(config.dataDir, { recursive: true, force: true });
      if (problems.length > 0) throw new Error(`error answers without their code or docs:\n${problems.join('\n')}`);
    },
  };
}

/**
 * A service for the tests of the enclosing `describe` (or file): started in `before`, stopped in
 * `after`. The returned handle stands for that service; use it inside tests and hooks.
 */
export function useService(env: Record<string, string> = {}, options: AppOptions = {}): TestService {
  let service: TestService | undefined;
  before(async () => {
    service = await startService(env, options);
  });
  after(() => service?.stop());
  return new Proxy({} as TestService, {
    get(_target, prop) {
      if (!service) {
        if (typeof prop === 'symbol') return undefined;
        throw new Error(`useService(): the service starts in before(); read .${prop} inside a test or hook`);
      }
      const value: unknown = Reflect.get(service, prop);
      return typeof value === 'function' ? value.bind(service) : value;
    },
  });
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
