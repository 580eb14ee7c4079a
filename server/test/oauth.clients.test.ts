// The whole OAuth flow as the official MCP clients run it (DESIGN's hosted assistants' connectors):
// `auth()` of the v1 SDK and of the v2 client discover the metadata from /mcp's 401, register, send the
// browser to the consent page (driven here in Chromium: sign in, pick a mind, maybe Read only, Allow),
// exchange the code and call tools on the chosen mind. Then: a Read only grant refused on a write
// tool, a revoked grant refused at its next call, a refresh token used twice revoking the grant, and
// a redirect URI that was not registered refused. Skipped without Chromium, except in CI.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { auth as authV2, Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { auth as authV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import puppeteer, { type Browser } from 'puppeteer-core';
import { bearer, startService, type TestService } from './harness.js';
import { type CallResult, dataOf } from './mcp/clients.js';
import { TestProvider } from './oauth/provider.js';

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
const skip = CHROMIUM || process.env.CI ? false : 'needs Chromium (apt-get install chromium); CI runs it';
const PASSWORD = 'correct horse';
// The page's global, for a function evaluated in Chromium: the test's own program has no DOM library.
declare const sessionStorage: { setItem(key: string, value: string): void };

interface Client {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<CallResult>;
  close(): Promise<void>;
}

const GENERATIONS = {
  v1: {
    auth: (provider: TestProvider, options: { serverUrl: URL; authorizationCode?: string }) => authV1(provider as never, options),
    async connect(url: URL, provider: TestProvider): Promise<Client> {
      const client = new ClientV1({ name: 'oauth-test-v1', version: '1.0.0' });
      await client.connect(new TransportV1(url, { authProvider: provider as never }));
      return client as unknown as Client;
    },
  },
  v2: {
    auth: (provider: TestProvider, options: { serverUrl: URL; authorizationCode?: string }) => authV2(provider as never, options),
    async connect(url: URL, provider: TestProvider): Promise<Client> {
      const client = new ClientV2({ name: 'oauth-test-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new TransportV2(url, { authProvider: provider as never }));
      return client as unknown as Client;
    },
  },
};

describe('OAuth with the official MCP clients and the consent page in Chromium', { skip, timeout: 240_000 }, () => {
  let svc: TestService;
  let server: Server;
  let mcpUrl: URL;
  let browser: Browser;
  // The assistant's redirect URI: every request the browser brought back.
  let callback: Server;
  let callbackUrl: string;
  const arrivals: URL[] = [];

  before(async () => {
    // The public URL must be known before the service starts: the metadata names it.
    server = createServer((req, res) => svc.app(req, res));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    svc = await startService({ MIND_PUBLIC_URL: base });
    mcpUrl = new URL(`${base}/mcp`);
    callback = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/callback') arrivals.push(url); // not the browser's /favicon.ico
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('You can close this window.');
    });
    await new Promise<void>((done) => callback.listen(0, '127.0.0.1', done));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    browser = await puppeteer.launch({
      executablePath: CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((done) => callback?.close(() => done()));
    await new Promise<void>((done) => server?.close(() => done()));
    await svc?.stop();
  });

  /** A person with two minds; the grant goes to the second. */
  const person = async () => {
    const { jwt, email } = await svc.user();
    const first = await svc.addMind(jwt, 'first mind');
    const second = await svc.addMind(jwt, 'second mind');
    return { jwt, email, first, second };
  };

  /** The consent page in a fresh browser: sign in, pick the mind, maybe Read only, then the button; answers where the browser went. */
  async function consent(
    url: URL,
    who: { email: string },
    mindId: string,
    options: { readOnly?: boolean; button?: 'Allow' | 'Deny' } = {},
  ) {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    try {
      const seen = arrivals.length;
      await page.goto(url.toString());
      await (await page.waitForSelector('::-p-aria(Email)'))!.type(who.email);
      await (await page.waitForSelector('::-p-aria(Password)'))!.type(PASSWORD);
      await page.locator('::-p-aria(Sign in[role="button"])').click();
      const select = await page.waitForSelector('::-p-aria(Mind[role="combobox"])');
      await select!.select(mindId);
      if (options.readOnly) await page.locator('::-p-aria(Read only[role="checkbox"])').click();
      await page.locator(`::-p-aria(${options.button ?? 'Allow'}[role="button"])`).click();
      const deadline = Date.now() + 30_000;
      while (arrivals.length === seen && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(errors, []);
      const arrived = arrivals.at(-1);
      assert.ok(arrived && arrivals.length > seen, 'the browser came back to the redirect URI');
      return arrived;
    } finally {
      await context.close();
    }
  }

  /** The whole flow: auth() until it asks for the browser, the consent page, auth() with the code, a connected client. */
  async function connect(generation: 'v1' | 'v2', mindId: string, who: { email: string }, readOnly = false) {
    const { auth, connect: open } = GENERATIONS[generation];
    const provider = new TestProvider(callbackUrl, `Assistant ${generation}`);
    assert.equal(await auth(provider, { serverUrl: mcpUrl }), 'REDIRECT');
    const arrived = await consent(provider.authorizationUrls[0]!, who, mindId, { readOnly });
    const code = arrived.searchParams.get('code');
    assert.ok(code, `a code came back: ${arrived}`);
    assert.equal(arrived.searchParams.get('state'), provider.authorizationUrls[0]!.searchParams.get('state'));
    assert.equal(await auth(provider, { serverUrl: mcpUrl, authorizationCode: code }), 'AUTHORIZED');
    return { provider, client: await open(mcpUrl, provider) };
  }

  const tasksOf = async (mindKey: string) =>
    ((await svc.http.get('/mind/tasks').set(bearer(mindKey)).expect(200)).body.tasks as Array<{ title: string }>).map((t) => t.title);

  const oauthKeyOf = async (jwt: string, mindId: string) =>
    ((await svc.http.get(`/minds/${mindId}/keys`).set(bearer(jwt)).expect(200)).body.keys as Array<Record<string, string>>).find(
      (k) => k.source === 'oauth',
    );

  for (const generation of ['v1', 'v2'] as const) {
    test(`${generation}: discovery, registration, consent, token, then tools/call acts on the chosen mind`, async () => {
      const who = await person();
      const { provider, client } = await connect(generation, who.second.mindId, who);
      try {
        assert.equal(provider.saved?.scope, 'mind:full');
        const result = await client.callTool({ name: 'create_task', arguments: { title: `from ${generation}` } });
        assert.notEqual(result.isError, true, JSON.stringify(result));
        assert.equal(dataOf(result).title, `from ${generation}`);
        assert.deepEqual(await tasksOf(who.second.mindKey), [`from ${generation}`]);
        assert.deepEqual(await tasksOf(who.first.mindKey), []);
        const key = await oauthKeyOf(who.jwt, who.second.mindId);
        assert.equal(key?.client_name, `Assistant ${generation}`);
        assert.equal(key?.scope, 'full');
      } finally {
        await client.close();
      }
    });
  }

  test('a Read only grant: reading works, a write tool is a tool result with isError naming the scope', async () => {
    const who = await person();
    const { provider, client } = await connect('v2', who.second.mindId, who, true);
    try {
      assert.equal(provider.saved?.scope, 'mind:read');
      const listed = await client.callTool({ name: 'list_tasks', arguments: {} });
      assert.notEqual(listed.isError, true);
      const refused = await client.callTool({ name: 'create_task', arguments: { title: 'no' } });
      assert.equal(refused.isError, true);
      assert.match(refused.content.map((c) => c.text ?? '').join(' '), /scope `read`/);
      assert.deepEqual(await tasksOf(who.second.mindKey), []);
    } finally {
      await client.close();
    }
  });

  test('a grant revoked in the Keys tab is refused at its next call, its refresh token too', async () => {
    const who = await person();
    const { provider, client } = await connect('v1', who.second.mindId, who);
    try {
      await client.callTool({ name: 'list_tasks', arguments: {} });
      const refreshToken = provider.saved!.refresh_token!;
      const key = await oauthKeyOf(who.jwt, who.second.mindId);
      await svc.http.delete(`/minds/${who.second.mindId}/keys/${key!.id}`).set(bearer(who.jwt)).expect(204);
      // The client's next call: the key is refused, its refresh fails, and the SDK asks for the browser again.
      await assert.rejects(client.callTool({ name: 'list_tasks', arguments: {} }));
      assert.equal(provider.authorizationUrls.length, 2, 'the client was sent back to the consent page');
      const refresh = await svc.http
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: provider.client!.client_id });
      assert.equal(refresh.body.error, 'invalid_grant');
    } finally {
      await client.close();
    }
  });

  test('a refresh token used twice revokes the grant: the client is refused at its next call', async () => {
    const who = await person();
    const { provider, client } = await connect('v2', who.second.mindId, who);
    try {
      const form = { grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: provider.client!.client_id };
      const first = await svc.http.post('/oauth/token').type('form').send(form).expect(200);
      // The client goes on with the rotated tokens; then the old refresh token is replayed.
      provider.saveTokens({ ...provider.saved, ...first.body });
      assert.notEqual((await client.callTool({ name: 'list_tasks', arguments: {} })).isError, true);
      const replay = await svc.http.post('/oauth/token').type('form').send(form).expect(400);
      assert.equal(replay.body.error, 'invalid_grant');
      await assert.rejects(client.callTool({ name: 'list_tasks', arguments: {} }));
      const newest = await svc.http
        .post('/oauth/token')
        .type('form')
        .send({ ...form, refresh_token: first.body.refresh_token });
      assert.equal(newest.body.error, 'invalid_grant');
    } finally {
      await client.close();
    }
  });

  test('a redirect URI that was not registered is refused on the consent page; Deny goes back with access_denied', async () => {
    const who = await person();
    const provider = new TestProvider(callbackUrl, 'Assistant v1');
    assert.equal(await GENERATIONS.v1.auth(provider, { serverUrl: mcpUrl }), 'REDIRECT');
    const forged = new URL(provider.authorizationUrls[0]!);
    forged.searchParams.set('redirect_uri', 'https://attacker.example/steal');
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    try {
      await page.goto(forged.toString());
      await page.waitForSelector('::-p-text(is not one of the redirect URIs this client registered)');
      assert.equal(await page.$('::-p-aria(Allow[role="button"])'), null);
    } finally {
      await context.close();
    }
    const arrived = await consent(provider.authorizationUrls[0]!, who, who.first.mindId, { button: 'Deny' });
    assert.equal(arrived.searchParams.get('error'), 'access_denied');
    assert.equal(arrived.searchParams.get('code'), null);
  });

  test('a session that ended meanwhile goes back to the sign-in form on the consent page', async () => {
    const who = await person();
    const provider = new TestProvider(callbackUrl, 'Assistant v2');
    assert.equal(await GENERATIONS.v2.auth(provider, { serverUrl: mcpUrl }), 'REDIRECT');
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    try {
      // A JWT this server never signed stands for one that expired.
      await page.evaluateOnNewDocument(() => {
        sessionStorage.setItem('mind-console.jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl');
        sessionStorage.setItem('mind-console.email', 'someone@example.com');
      });
      await page.goto(provider.authorizationUrls[0]!.toString());
      await page.waitForSelector('::-p-aria(Email)');
      assert.equal(await page.$('::-p-aria(Mind[role="combobox"])'), null);
    } finally {
      await context.close();
    }
    const arrived = await consent(provider.authorizationUrls[0]!, who, who.second.mindId);
    assert.ok(arrived.searchParams.get('code'));
  });
});
