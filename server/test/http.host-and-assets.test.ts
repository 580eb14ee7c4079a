// Requests no URL can be built from: a Host header that is not host[:port] is a 400 on every path,
// before routing or credentials (it was a 500 from /mcp, where the transport builds a URL from it);
// `.` and `..` as a console asset's name are a 404 (they were a 500 from sendFile, with a stack trace
// in the log). Sent over a raw socket, since HTTP clients refuse such a Host or normalise the path.
import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { contract, listRoutes } from '@mindservice/contract';
import { useService } from './harness.js';

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

describe('a bad Host header and dot asset names', () => {
  const svc = useService();
  let server: http.Server;
  let port: number;
  let mindKey: string;

  before(async () => {
    server = http.createServer(svc.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    mindKey = (await svc.mind()).mindKey;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function raw(method: string, path: string, host: string, headers: Record<string, string> = {}, body = ''): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: close'];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const split = text.indexOf('\r\n\r\n');
        resolve({ status: Number(text.slice(9, 12)), headers: text.slice(0, split), body: text.slice(split + 4) });
      });
    });
  }

  const BAD_HOSTS = ['a b', 'x:99999', 'x:0', 'a@b', '[zz]', 'x:'];

  test('every route of the contract, /mcp and the pages answer 400 host_invalid, before their credential', async () => {
    const paths = listRoutes(contract).map(({ route }) => [route.method, route.path.replace(/:(\w+)/g, 'some-$1')] as const);
    paths.push(['POST', '/mcp'], ['GET', '/console/'], ['GET', '/docs'], ['GET', '/openapi.json'], ['GET', '/no-such-route']);
    for (const host of BAD_HOSTS) {
      for (const [method, path] of paths) {
        const res = await raw(method, path, host, { Authorization: `Bearer ${mindKey}`, 'Content-Type': 'application/json' }, '{}');
        assert.equal(res.status, 400, `${method} ${path} with Host ${host}: ${res.body.slice(0, 200)}`);
        const error = JSON.parse(res.body);
        assert.equal(error.code, 'host_invalid');
        assert.equal(error.statusCode, 400);
        assert.match(error.message, /Host header/);
      }
    }
  });

  test('an MCP call with a bad Host and a valid key is a 400, not a 500', async () => {
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const headers = {
      Authorization: `Bearer ${mindKey}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-06-18',
    };
    for (const host of ['a b', 'x:99999']) assert.equal((await raw('POST', '/mcp', host, headers, call)).status, 400, host);
    const ok = await raw('POST', '/mcp', `127.0.0.1:${port}`, headers, call);
    assert.equal(ok.status, 200, ok.body.slice(0, 300));
  });

  test('good Host headers still reach their routes', async () => {
    for (const host of ['localhost', `127.0.0.1:${port}`, '[::1]:8080', 'mind.example.com', 'mind.example.com:443']) {
      const res = await raw('GET', '/health', host);
      assert.equal(res.status, 200, `${host}: ${res.body}`);
    }
    // HTTP/1.0 may leave Host out.
    const socket = net.connect(port, '127.0.0.1');
    socket.write('GET /health HTTP/1.0\r\n\r\n');
    const text = await new Promise<string>((resolve) => {
      let all = '';
      socket.on('data', (chunk) => (all += chunk));
      socket.on('close', () => resolve(all));
    });
    assert.match(text, /^HTTP\/1\.1 200/);
  });

  test('`.`, `..` and hidden names under /console/assets are 404 route_not_found', async () => {
    for (const name of ['.', '..', '.hidden', '...']) {
      const res = await raw('GET', `/console/assets/${name}`, 'localhost');
      assert.equal(res.status, 404, `${name}: ${res.body.slice(0, 200)}`);
      assert.equal(JSON.parse(res.body).code, 'route_not_found');
    }
  });
});
