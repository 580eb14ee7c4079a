// Test harness: a real service on a fresh SQLite file per test file, reached over HTTP with supertest.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { createApp, type AppOptions, type MindApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import type { Clock } from '../src/lib/clock.js';

export interface TestService extends MindApp {
  http: ReturnType<typeof supertest>;
  dataDir: string;
  config: Config;
  /** Registers a new user and returns its JWT and id. */
  user(): Promise<{ jwt: string; userId: string; email: string }>;
  /** A new user with one mind: the JWT, the mind id and its Mind Key. */
  mind(): Promise<{ jwt: string; userId: string; mindId: string; mindKey: string }>;
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

/** Environment for tests: fast bcrypt, quiet logs, responses checked against the contract. */
export function testConfig(env: Record<string, string> = {}): Config {
  const dataDir = env.MIND_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'mind-test-'));
  const config = loadConfig({ MIND_BCRYPT_COST: '4', LOG_LEVEL: 'silent', PORT: '0', ...env, MIND_DATA_DIR: dataDir });
  config.validateResponses = true;
  return config;
}

export async function startService(env: Record<string, string> = {}, options: AppOptions = {}): Promise<TestService> {
  const config = testConfig(env);
  const service = await createApp(config, options);
  const http = supertest(service.app);

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
    return { ...u, ...(await addMind(u.jwt)) };
  };

  return {
    ...service,
    http,
    dataDir: config.dataDir,
    config,
    user,
    mind,
    addMind,
    async stop() {
      await service.close();
      if (!env.MIND_DATA_DIR) rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
