// Every list of the SDK answers the same page type, whatever the service pages with (cursor, `before`, or
// nothing): more items than a page against a live service, walked with for await and with getNextPage.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AgentClient, MindClient, MindServiceError, Page, PagePromise, UnauthorizedError } from '../src/index.js';
import { startLiveServer, type LiveServer } from './live-server.js';

/** Every item `for await` yields. */
async function walk<T>(list: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) items.push(item);
  return items;
}

/** The pages from `first` on, by getNextPage, each page's data. */
async function pagesOf<T>(first: Page<T>): Promise<T[][]> {
  const pages = [first.data];
  for (let page = first; page.hasNextPage(); ) {
    page = await page.getNextPage();
    pages.push(page.data);
  }
  return pages;
}

describe('paging: one page type for every list', () => {
  let live: LiveServer;
  before(async () => {
    live = await startLiveServer();
  });
  after(() => live.stop());

  it('tasks (cursor): await gives the first page, getNextPage the next, for await every task once, in order', async () => {
    const { client } = await live.account();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await client.tasks.create({ title: `task ${i}` })).id);

    const list = client.tasks.list({ limit: 2 });
    assert.ok(list instanceof PagePromise && list instanceof Promise);
    const first = await list;
    assert.ok(first instanceof Page);
    assert.deepEqual(
      first.data.map((t) => t.id),
      ids.slice(0, 2),
    );
    assert.equal(first.hasNextPage(), true);
    const pages = await pagesOf(first);
    assert.deepEqual(
      pages.map((p) => p.map((t) => t.id)),
      [ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)],
    );
    assert.deepEqual(
      (await walk(client.tasks.list({ limit: 2 }))).map((t) => t.id),
      ids,
    );
    // A page walks from itself on; iterPages yields the pages.
    const second = await first.getNextPage();
    assert.deepEqual(
      (await walk(second)).map((t) => t.id),
      ids.slice(2),
    );
    const pageSizes: number[] = [];
    for await (const page of first.iterPages()) pageSizes.push(page.data.length);
    assert.deepEqual(pageSizes, [2, 2, 1]);
  });

  it('nextPageParams resumes the same list later; the last page has none and getNextPage rejects', async () => {
    const { client } = await live.account();
    for (let i = 0; i < 3; i++) await client.tasks.create({ title: `task ${i}`, priority: 'low' });
    const first = await client.tasks.list({ status: 'all', limit: 2 });
    const next = first.nextPageParams();
    assert.ok(next && 'cursor' in next && next.cursor.length > 0);
    const resumed = await client.tasks.list({ status: 'all', limit: 2, ...next });
    assert.deepEqual(resumed.data, (await first.getNextPage()).data);
    assert.equal(resumed.hasNextPage(), false);
    assert.equal(resumed.nextPageParams(), null);
    await assert.rejects(resumed.getNextPage(), (err: unknown) => err instanceof MindServiceError && /no next page/.test(err.message));
  });

  it('memories.recall (cursor) walks every hit across pages', async () => {
    const { client } = await live.account();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await client.memories.store({ category: 'fact', content: `fact number ${i}` })).id);
    const first = await client.memories.recall({ limit: 2 });
    assert.equal(first.data.length, 2);
    assert.deepEqual(
      (await pagesOf(first)).map((p) => p.length),
      [2, 2, 1],
    );
    const walked = (await walk(client.memories.recall({ limit: 2 }))).map((m) => m.id);
    assert.equal(new Set(walked).size, 5);
    assert.deepEqual([...walked].sort(), [...ids].sort());
  });

  it('scripts (cursor) by name across pages', async () => {
    const { client } = await live.account();
    for (const name of ['c', 'a', 'b']) await client.scripts.create({ name, content: `echo ${name}` });
    const first = await client.scripts.list({ limit: 2 });
    assert.deepEqual(
      (await pagesOf(first)).map((p) => p.map((s) => s.name)),
      [['a', 'b'], ['c']],
    );
    assert.deepEqual(
      (await walk(client.scripts.list({ limit: 2 }))).map((s) => s.name),
      ['a', 'b', 'c'],
    );
  });

  it('chat (before): pages go back in time, each oldest first; a full last page leads to an empty one', async () => {
    const { client } = await live.account();
    const sent: string[] = [];
    for (let i = 1; i <= 5; i++) sent.push((await client.chat.send({ role: 'human', content: `m${i}`, thread: 'log' })).content);
    const first = await client.chat.list({ thread: 'log', limit: 2 });
    assert.deepEqual(
      first.data.map((m) => m.content),
      ['m4', 'm5'],
    );
    assert.deepEqual(first.nextPageParams(), { before: first.data[0]?.id });
    assert.deepEqual(
      (await pagesOf(first)).map((p) => p.map((m) => m.content)),
      [['m4', 'm5'], ['m2', 'm3'], ['m1']],
    );
    assert.deepEqual(
      (await walk(client.chat.list({ thread: 'log', limit: 2 }))).map((m) => m.content),
      ['m4', 'm5', 'm2', 'm3', 'm1'],
    );
    // Four messages in pages of two: the service cannot say the second page was the last.
    const four = await client.chat.list({ thread: 'log', limit: 2, before: first.data[1]?.id });
    assert.deepEqual(
      (await pagesOf(four)).map((p) => p.map((m) => m.content)),
      [['m3', 'm4'], ['m1', 'm2'], []],
    );
    // Without a limit the service's page size (50) holds the whole thread.
    const all = await client.chat.list({ thread: 'log' });
    assert.equal(all.data.length, 5);
    assert.equal(all.hasNextPage(), false);
  });

  it('computers.listCommands (cursor), newest first across pages', async () => {
    const { client } = await live.account();
    const { install_code } = await client.computers.createInstallCode({ computer_name: 'paging-pc' });
    const system = { platform: 'linux', platform_release: '6.1', python: 'node' };
    const { computer_id } = await AgentClient.register(live.baseUrl, { code: install_code, computer_name: 'paging-pc', ...system });
    const queued: string[] = [];
    for (let i = 0; i < 3; i++)
      queued.push((await client.computers.queue(computer_id, { type: 'type', payload: { text: `${i}` } })).command_id);
    const first = await client.computers.listCommands(computer_id, { limit: 2 });
    assert.deepEqual(
      (await pagesOf(first)).map((p) => p.map((c) => c.command_id)),
      [[queued[2], queued[1]], [queued[0]]],
    );
    assert.deepEqual(
      (await walk(client.computers.listCommands(computer_id, { limit: 2 }))).map((c) => c.command_id),
      [...queued].reverse(),
    );
    // Lists the service answers whole are one page.
    const computers = await client.computers.list();
    assert.deepEqual(
      computers.data.map((c) => c.id),
      [computer_id],
    );
    assert.equal(computers.hasNextPage(), false);
  });

  it('lists the service does not page are a single page: minds, webhooks, deliveries, endpoints', async () => {
    const { client } = await live.account();
    const webhook = await client.webhooks.create({ url: 'http://127.0.0.1:9/hook', events: 'task.*', secret: 'a-long-secret' });
    const lists: PagePromise<unknown>[] = [
      client.minds.list(),
      client.webhooks.list(),
      client.webhooks.deliveries(webhook.id),
      client.system.endpoints(),
    ];
    for (const list of lists) {
      const page = await list;
      assert.ok(page instanceof Page);
      assert.equal(page.hasNextPage(), false);
      assert.equal(page.nextPageParams(), null);
      assert.deepEqual(await walk(page), page.data);
      await assert.rejects(page.getNextPage(), MindServiceError);
    }
    assert.equal((await client.minds.list()).data.length, 1);
    assert.deepEqual(
      (await client.webhooks.list()).data.map((w) => w.id),
      [webhook.id],
    );
    assert.ok((await client.system.endpoints()).data.some((e) => e.path === '/mind/tasks'));
  });

  it('pages are fetched as the walk reaches them, once each; break stops fetching', async () => {
    const { mindKey } = await live.account();
    const requests: string[] = [];
    const counting: typeof fetch = (input, init) => {
      requests.push(String(input));
      return fetch(input, init);
    };
    const client = new MindClient({ baseUrl: live.baseUrl, mindKey, fetch: counting });
    for (let i = 0; i < 5; i++) await client.tasks.create({ title: `task ${i}` });
    requests.length = 0;

    for await (const task of client.tasks.list({ limit: 2 })) {
      assert.equal(task.title, 'task 0');
      break;
    }
    assert.equal(requests.length, 1);

    requests.length = 0;
    const list = client.tasks.list({ limit: 2 });
    const first = await list;
    assert.equal((await walk(list)).length, 5);
    assert.equal((await list).data, first.data, 'awaiting again answers the same first page');
    assert.deepEqual(
      requests.map((url) => new URL(url).searchParams.has('cursor')),
      [false, true, true],
    );
  });

  it('an error of a page rejects the await and ends the for await', async () => {
    const client = live.client.withOptions({ mindKey: 'mk_not-a-key' });
    await assert.rejects(client.tasks.list(), UnauthorizedError);
    await assert.rejects(walk(client.chat.list()), UnauthorizedError);
    await assert.rejects(walk(client.computers.listCommands('')), (err: unknown) => err instanceof TypeError);
  });
});
