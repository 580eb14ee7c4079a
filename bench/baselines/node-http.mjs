// Baseline: the bare node:http server, one fixed JSON body for every request. PORT from the env.
// Plain JavaScript, started with plain `node`.
import { createServer } from 'node:http';

const body = Buffer.from(JSON.stringify({ hello: 'world' }));
createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
