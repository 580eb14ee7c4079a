// Quickstart: register an account, create a mind, track a task and keep a memory.
//
//   pnpm --filter @mindservice/examples quickstart        (MIND_URL, default http://127.0.0.1:3000)
import { MindClient } from '@mindservice/sdk';
import { randomBytes } from 'node:crypto';
import { MIND_URL } from './shared.js';

const client = new MindClient({ baseUrl: MIND_URL });
const health = await client.system.health();
console.log(`service ${MIND_URL}: ${health.status}, version ${health.version}`);

// 1. An account. The JWT authenticates the account routes (minds) for 7 days.
const email = `quickstart-${Date.now()}@example.com`;
const { jwt, user } = await client.accounts.register({ email, password: randomBytes(12).toString('base64url') });
console.log(`registered ${user.email}`);

// 2. A mind. Its Mind Key is in this answer only: a real agent stores it now.
const mind = await client.withOptions({ jwt }).minds.create({ name: 'research-assistant' });
const agent = client.withOptions({ mindKey: mind.mind_key });
console.log(`mind ${mind.name} (${mind.id}), key ${mind.mind_key.slice(0, 6)}...`);

// 3. A task, tracked across sessions.
const task = await agent.tasks.create({ title: 'Summarise the three papers', priority: 'high', due_at: '2026-12-01' });
await agent.tasks.update(task.id, { status: 'in_progress' });
// Lists answer a page: `data` is its items; `for await` walks every page.
const { data: open } = await agent.tasks.list();
console.log(`task "${task.title}" is ${open.find((t) => t.id === task.id)?.status}; open tasks: ${open.length}`);

// 4. A memory, found again by full-text recall.
await agent.memories.store({
  category: 'preference',
  key: 'writing-style',
  content: 'Prefers short sentences and British spelling.',
  tags: ['writing'],
});
const { data: memories } = await agent.memories.recall({ q: 'British spelling' });
console.log(`recalled: "${memories[0]?.content}" (score ${memories[0]?.score.toFixed(2)})`);

const done = await agent.tasks.complete(task.id);
console.log(`task ${done.status} at ${done.completed_at}`);
console.log('quickstart finished');
