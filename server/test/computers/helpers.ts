// Helpers for the computers tests: install codes, registered agents, and what the agent would post.
import { bearer, type TestService } from '../harness.js';

export const AGENT_INFO = { platform: 'linux', platform_release: '6.1.0', python: 'node v20' };

/** A tiny valid PNG (1x1, transparent). */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export async function installCode(svc: TestService, credential: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await svc.http.post('/computers/install-code').set(bearer(credential)).send(body).expect(201);
  return res.body.install_code as string;
}

export async function registerWithCode(svc: TestService, code: string, name = 'test-pc') {
  const res = await svc.http
    .post('/computers/register')
    .send({ code, computer_name: name, ...AGENT_INFO })
    .expect(201);
  return { computerId: res.body.computer_id as string, token: res.body.computer_token as string, name: res.body.computer_name as string };
}

/** A registered computer: made with `credential` (a Mind Key or a JWT). */
export async function registerComputer(svc: TestService, credential: string, body: Record<string, unknown> = {}) {
  return registerWithCode(svc, await installCode(svc, credential, body));
}

/** A user with a mind and a computer registered with the Mind Key's install code. */
export async function mindWithComputer(svc: TestService) {
  const mind = await svc.mind();
  const computer = await registerComputer(svc, mind.mindKey);
  return { ...mind, ...computer };
}

export async function queue(svc: TestService, credential: string, computerId: string, body: Record<string, unknown>): Promise<string> {
  const res = await svc.http.post(`/computers/${computerId}/commands`).set(bearer(credential)).send(body).expect(201);
  return res.body.command_id as string;
}

export async function poll(svc: TestService, token: string, wait = 0) {
  const res = await svc.http.get(`/computers/me/poll?wait=${wait}`).set(bearer(token)).expect(200);
  return res.body.commands as Array<{ command_id: string; type: string; payload: Record<string, unknown>; created_at: string }>;
}

export async function getCommand(svc: TestService, credential: string, computerId: string, commandId: string) {
  const res = await svc.http.get(`/computers/${computerId}/commands/${commandId}`).set(bearer(credential)).expect(200);
  return res.body as Record<string, unknown> & {
    status: string;
    attempts: number;
    result: Record<string, unknown> | null;
    error: string | null;
  };
}

export async function postResult(svc: TestService, token: string, commandId: string, body: Record<string, unknown>, status = 200) {
  return svc.http.post(`/computers/me/commands/${commandId}/result`).set(bearer(token)).send(body).expect(status);
}

/** The events recorded for a mind, oldest first (read straight from the event table). */
export async function eventsOf(svc: TestService, mindId: string) {
  const rows = await svc.ctx.db('events').where({ mind_id: mindId }).orderBy('created_at').select('type', 'data');
  return rows.map((r: { type: string; data: string }) => ({ type: r.type, data: JSON.parse(r.data) as Record<string, unknown> }));
}
