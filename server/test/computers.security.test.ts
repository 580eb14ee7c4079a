// No credential, the wrong kind, other users' and minds' credentials and Computer Tokens on every route: security.routes.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, type TestService, useService } from './harness.js';
import { getCommand, mindWithComputer, queue, registerComputer } from './computers/helpers.js';

/** Every user-side route that names a computer (and, where it has one, a command). */
const USER_ROUTES: Array<{
  name: string;
  send(svc: TestService, credential: string, id: string, cid: string): Promise<{ status: number; body: Record<string, unknown> }>;
}> = [
  { name: 'GET /computers/:id', send: (s, k, id) => s.http.get(`/computers/${id}`).set(bearer(k)) },
  {
    name: 'POST /computers/:id/commands',
    send: (s, k, id) => s.http.post(`/computers/${id}/commands`).set(bearer(k)).send({ type: 'screenshot' }),
  },
  { name: 'GET /computers/:id/command', send: (s, k, id) => s.http.get(`/computers/${id}/command?type=click&x=1&y=1`).set(bearer(k)) },
  { name: 'GET /computers/:id/commands', send: (s, k, id) => s.http.get(`/computers/${id}/commands`).set(bearer(k)) },
  { name: 'GET /computers/:id/commands/:cid', send: (s, k, id, cid) => s.http.get(`/computers/${id}/commands/${cid}`).set(bearer(k)) },
  {
    name: 'DELETE /computers/:id/commands/:cid',
    send: (s, k, id, cid) => s.http.delete(`/computers/${id}/commands/${cid}`).set(bearer(k)),
  },
  { name: 'GET /computers/:id/screenshot', send: (s, k, id) => s.http.get(`/computers/${id}/screenshot`).set(bearer(k)) },
  { name: 'POST /computers/:id/disable', send: (s, k, id) => s.http.post(`/computers/${id}/disable`).set(bearer(k)) },
  { name: 'DELETE /computers/:id', send: (s, k, id) => s.http.delete(`/computers/${id}`).set(bearer(k)) },
];

describe('computers: security', () => {
  const svc = useService({ MIND_SCREENSHOT_WAIT: '200ms' });

  /** Every user-side route answers 404 to `credential`, and the computer and its command are untouched. */
  async function assertInvisible(credential: string, owner: { jwt: string; computerId: string; commandId: string }) {
    for (const route of USER_ROUTES) {
      const res = await route.send(svc, credential, owner.computerId, owner.commandId);
      assert.equal(res.status, 404, `${route.name}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.statusCode, 404);
      assert.match(String(res.body.message), /not found/);
    }
    const list = await svc.http.get('/computers/list').set(bearer(credential)).expect(200);
    assert.equal(
      list.body.computers.some((c: { id: string }) => c.id === owner.computerId),
      false,
      'not listed',
    );
    const computer = await svc.http.get(`/computers/${owner.computerId}`).set(bearer(owner.jwt)).expect(200);
    assert.equal(computer.body.status, 'active');
    const commands = await svc.http.get(`/computers/${owner.computerId}/commands`).set(bearer(owner.jwt)).expect(200);
    assert.deepEqual(
      commands.body.commands.map((c: { command_id: string; status: string }) => [c.command_id, c.status]),
      [[owner.commandId, 'queued']],
    );
  }

  test("a computer registered with a JWT is the user's: the user's Mind Keys do not see it", async () => {
    const { jwt, mindKey } = await svc.mind();
    const { computerId } = await registerComputer(svc, jwt);
    const commandId = await queue(svc, jwt, computerId, { type: 'move', payload: { x: 1, y: 1 } });
    await assertInvisible(mindKey, { jwt, computerId, commandId });
  });

  test("the owning user's JWT sees and commands a computer tied to one of its minds", async () => {
    const { jwt, mindKey, computerId } = await mindWithComputer(svc);
    const commandId = await queue(svc, jwt, computerId, { type: 'screenshot' });
    assert.equal((await getCommand(svc, mindKey, computerId, commandId)).status, 'queued', "the Mind Key sees the JWT's command");
    const list = await svc.http.get('/computers/list').set(bearer(jwt)).expect(200);
    assert.deepEqual(
      list.body.computers.map((c: { id: string }) => c.id),
      [computerId],
    );
  });

  test('only hashes of install codes and tokens are stored', async () => {
    const { jwt } = await svc.mind();
    const code = (await svc.http.post('/computers/install-code').set(bearer(jwt)).send({}).expect(201)).body.install_code as string;
    const registered = await svc.http
      .post('/computers/register')
      .send({ code, computer_name: 'pc', platform: 'linux', platform_release: '6', python: 'node' })
      .expect(201);
    const token = registered.body.computer_token as string;
    assert.match(token, /^ct_[\w-]{40,}$/);
    const rows = JSON.stringify([await svc.ctx.db('install_codes').select(), await svc.ctx.db('computers').select()]);
    assert.equal(rows.includes(code), false);
    assert.equal(rows.includes(token), false);
    assert.equal(rows.includes(token.slice(3)), false);
  });
});
