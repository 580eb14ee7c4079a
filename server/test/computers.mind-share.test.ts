// A Mind Key sets up computers for its own mind only up to the mind's share
// (MIND_MAX_COMPUTERS_PER_MIND, its open install codes counted), so an agent cannot fill the
// account's limit and lock the other minds out; the owner's JWT is bound by the account's limit alone.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AGENT_INFO, installCode, registerWithCode } from './computers/helpers.js';
import { bearer, TestClock, useService } from './harness.js';

const SHARE = 3;

function assertShareRefused(res: { status: number; body: Record<string, unknown> }) {
  assert.equal(res.status, 409, JSON.stringify(res.body));
  assert.equal(res.body.code, 'mind_computers_limit_reached');
  assert.match(res.body.message as string, /MIND_MAX_COMPUTERS_PER_MIND/);
  assert.match(res.body.message as string, new RegExp(`\\b${SHARE}\\b`));
}

describe("computers: a Mind Key's share of the account's computers", () => {
  const clock = new TestClock();
  const svc = useService({ MIND_MAX_COMPUTERS_PER_MIND: String(SHARE), MIND_MAX_COMPUTERS_PER_USER: '8' }, { clock });
  const register = (code: string) => svc.http.post('/computers/register').send({ code, computer_name: 'pc', ...AGENT_INFO });

  test('open codes and computers of the Mind Key count against its mind share; the other minds and the owner are not locked out', async () => {
    const { jwt, mindKey, mindId } = await svc.mind();
    const other = await svc.addMind(jwt, 'other');
    const codes = [];
    for (let i = 0; i < SHARE; i++) codes.push(await installCode(svc, mindKey));
    assertShareRefused(await svc.http.post('/computers/install-code').set(bearer(mindKey)).send({}));
    await registerWithCode(svc, codes[0]!);
    await registerWithCode(svc, codes[1]!);
    // Two computers and one open code: still the whole share.
    assertShareRefused(await svc.http.post('/computers/install-code').set(bearer(mindKey)).send({}));
    clock.advance(16 * 60_000); // the open code expires: a place again
    const again = await installCode(svc, mindKey);
    await registerWithCode(svc, again);
    assertShareRefused(await svc.http.post('/computers/install-code').set(bearer(mindKey)).send({}));

    // The other mind's key sets up its own share; the owner adds computers to either mind.
    for (let i = 0; i < SHARE; i++) await registerWithCode(svc, await installCode(svc, other.mindKey));
    await registerWithCode(svc, await installCode(svc, jwt, { mind_id: mindId }));
    await registerWithCode(svc, await installCode(svc, jwt));
    const list = await svc.http.get('/computers/list').set(bearer(jwt)).expect(200);
    assert.equal(list.body.computers.length, 8);
    // The account's limit holds for everyone.
    const full = await svc.http.post('/computers/install-code').set(bearer(jwt)).send({});
    assert.equal(full.body.code, 'computers_limit_reached');
  });

  test('a Mind Key code registers only while its mind is below its share, checked again at registration', async () => {
    const { jwt, mindKey, mindId } = await svc.mind();
    const keyCodes = [await installCode(svc, mindKey), await installCode(svc, mindKey)];
    // Meanwhile the owner registered computers for this mind: the Mind Key's codes no longer fit.
    await registerWithCode(svc, await installCode(svc, jwt, { mind_id: mindId }));
    await registerWithCode(svc, await installCode(svc, jwt, { mind_id: mindId }));
    await registerWithCode(svc, keyCodes[0]!);
    const refused = await register(keyCodes[1]!);
    assertShareRefused(refused);
    const stored = await svc.ctx.db('install_codes').whereNull('used_at').where({ mind_id: mindId }).count({ n: '*' }).first();
    assert.equal(Number(stored?.n), 1, 'the refused registration did not use the code');
    const computers = await svc.http.get('/computers/list').set(bearer(mindKey)).expect(200);
    assert.equal(computers.body.computers.length, SHARE);
    // Deleting one of the mind's computers makes room for the code.
    await svc.http.delete(`/computers/${computers.body.computers[0].id}`).set(bearer(mindKey)).expect(204);
    assert.equal((await register(keyCodes[1]!)).status, 201);
  });

  test('many codes and registrations at once never take the mind past its share', async () => {
    const { mindKey } = await svc.mind();
    const made = await Promise.all(
      Array.from({ length: 10 }, () => svc.http.post('/computers/install-code').set(bearer(mindKey)).send({})),
    );
    const codes = made.filter((r) => r.status === 201).map((r) => r.body.install_code as string);
    assert.equal(codes.length, SHARE, made.map((r) => r.status).join(','));
    const registered = await Promise.all(codes.map(register));
    assert.deepEqual(
      registered.map((r) => r.status),
      Array(SHARE).fill(201),
    );
    const computers = await svc.http.get('/computers/list').set(bearer(mindKey)).expect(200);
    assert.equal(computers.body.computers.length, SHARE);
  });
});
