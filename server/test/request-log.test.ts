// The request log as operators read it: one JSON line per response, `?key=` redacted, the request id
// echoed, the client address after TRUST_PROXY, for Express routes and for the long-poll (served
// before Express) alike.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { mindWithComputer, queue } from './computers/helpers.js';
import { bearer, useService } from './harness.js';

interface LogLine {
  msg: string;
  req_id: string;
  method: string;
  url: string;
  status: number;
  ms: number;
  ip: string;
}

describe('request log', () => {
  const lines: LogLine[] = [];
  const linesFor = (requestId: string) => lines.filter((l) => l.req_id === requestId);
  const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const svc = useService({ TRUST_PROXY: '1' }, { logger });

  test('a Mind Key in the URL never reaches the log; the line carries id, status, time and address', async () => {
    const { mindKey } = await svc.mind();
    const res = await svc.http.get(`/mind/tasks?status=all&key=${mindKey}`).set('X-Forwarded-For', '203.0.113.7').expect(200);
    const [line, ...more] = linesFor(res.headers['x-request-id']);
    assert.equal(more.length, 0);
    assert.equal(line!.msg, 'request');
    assert.equal(line!.url, '/mind/tasks?status=all&key=[redacted]');
    assert.equal(line!.status, 200);
    assert.equal(line!.ip, '203.0.113.7');
    assert.ok(line!.ms >= 0);
    assert.equal(JSON.stringify(lines).includes(mindKey), false);
  });

  test('the long-poll is logged like every route, with its request id', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const commandId = await queue(svc, mindKey, computerId, { type: 'move', payload: { x: 1, y: 2 } });
    const res = await svc.http
      .get('/computers/me/poll?wait=0')
      .set(bearer(token))
      .set('X-Request-Id', 'poll-trace-1')
      .set('X-Forwarded-For', '203.0.113.8');
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-request-id'], 'poll-trace-1');
    assert.match(res.headers['content-type'], /^application\/json; charset=utf-8$/);
    assert.deepEqual(
      res.body.commands.map((c: { command_id: string }) => c.command_id),
      [commandId],
    );
    const [line] = linesFor('poll-trace-1');
    assert.deepEqual(
      { ...line, ms: 0, time: 0 },
      {
        level: 30,
        time: 0,
        msg: 'request',
        req_id: 'poll-trace-1',
        method: 'GET',
        url: '/computers/me/poll?wait=0',
        status: 200,
        ms: 0,
        ip: '203.0.113.8',
      },
    );
    assert.equal(JSON.stringify(lines).includes(token), false);
  });

  test('a refused poll is logged with its status and answers the error object', async () => {
    const res = await svc.http.get('/computers/me/poll?wait=0').set(bearer('ct_not-a-real-token')).set('X-Request-Id', 'poll-trace-2');
    assert.equal(res.status, 401);
    assert.equal(res.body.message, 'Mind Key fehlt oder ungültig.');
    assert.equal(linesFor('poll-trace-2')[0]!.status, 401);
  });
});

describe('the long-poll outside its usual form', () => {
  const svc = useService();

  test('a trailing slash or HEAD reaches the same route through Express, with the same rules', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const commandId = await queue(svc, mindKey, computerId, { type: 'key', payload: { keys: ['enter'] } });
    const slash = await svc.http.get('/computers/me/poll/?wait=0').set(bearer(token)).expect(200);
    assert.deepEqual(
      slash.body.commands.map((c: { command_id: string }) => c.command_id),
      [commandId],
    );
    await svc.http.get('/computers/me/poll/?wait=61').set(bearer(token)).expect(400);
    await svc.http.get('/computers/me/poll/?wait=0').set(bearer(mindKey)).expect(401);
    await svc.http.head('/computers/me/poll?wait=0').set(bearer(token)).expect(200);
  });
});

describe('request log while the service drains', () => {
  const lines: Array<LogLine & { level: number }> = [];
  const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const svc = useService({}, { logger });

  test('the 503s of a shutdown are logged at info as refused, not at error as failed', async () => {
    await svc.drain();
    const refused = await svc.http.get('/mind/tasks').set('X-Request-Id', 'drain-trace-1').expect(503);
    assert.equal(refused.headers['retry-after'], '5');
    const health = await svc.http.get('/health').set('X-Request-Id', 'drain-trace-2').expect(503);
    assert.equal(health.body.status, 'draining');
    const logged = lines
      .filter((l) => l.req_id?.startsWith('drain-trace-'))
      .map(({ level, msg, req_id, status }) => ({ level, msg, req_id, status }));
    assert.deepEqual(logged, [
      { level: 30, msg: 'request refused: the service is shutting down', req_id: 'drain-trace-1', status: 503 },
      { level: 30, msg: 'request refused: the service is shutting down', req_id: 'drain-trace-2', status: 503 },
    ]);
    assert.deepEqual(
      lines.filter((l) => l.level >= 50),
      [],
    );
  });
});
