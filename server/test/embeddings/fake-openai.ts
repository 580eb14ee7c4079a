// A small OpenAI-compatible embeddings server for tests: fixed vectors by topic, counts what it
// embedded, and can be made to fail (503) or to answer slowly.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Words that put a text on one axis; a text with none of them lies on the last axis. */
const TOPICS = [
  ['violin', 'instrument', 'music', 'piano', 'lessons'],
  ['car', 'vehicle', 'service', 'maintenance', 'garage'],
  ['peanuts', 'allergic', 'allergy', 'food', 'nuts'],
];

export function topicVector(text: string): number[] {
  const words = text.toLowerCase().split(/[^a-z]+/);
  const vector = TOPICS.map((topic) => words.filter((w) => topic.includes(w)).length);
  vector.push(vector.every((v) => v === 0) ? 1 : 0.1);
  const norm = Math.hypot(...vector);
  return vector.map((v) => v / norm);
}

export interface FakeEmbeddings {
  url: string;
  /** How often each text was embedded. */
  embedded: Map<string, number>;
  /** Answer 503 to every request while true. */
  down: boolean;
  delayMs: number;
  requests: number;
  close(): Promise<void>;
}

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const state = { embedded: new Map<string, number>(), down: false, delayMs: 0, requests: 0 };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      state.requests++;
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      if (state.down || req.url !== '/v1/embeddings') {
        res.writeHead(state.down ? 503 : 404, { 'content-type': 'application/json' }).end('{"error":{"message":"unavailable"}}');
        return;
      }
      const { input } = JSON.parse(body) as { input: string[] };
      for (const text of input) state.embedded.set(text, (state.embedded.get(text) ?? 0) + 1);
      const data = input.map((text, index) => ({ object: 'embedding', index, embedding: topicVector(text) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: 'topics' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
