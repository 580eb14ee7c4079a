// The memories tab over time in a real Chromium: each memory shows when it expires and until when it
// holds; "Include past memories" brings back a replaced one; a memory's history lists its versions
// (oldest first, the current last) and the chain of memories that replaced one another.
// Needs Debian's `chromium` (driven by puppeteer-core); skipped without it, except in CI.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MindClient } from '@mindservice/sdk';
import type { Browser, Page } from 'puppeteer-core';
import { useService } from '../../server/test/harness.js';
import { ARTIFACTS, launchPage, skip } from './chromium.js';

const PASSWORD = 'correct horse battery';

interface PageNode {
  textContent: string | null;
}
declare const document: {
  body: PageNode;
  querySelector(selector: string): PageNode | null;
  querySelectorAll(selector: string): ArrayLike<PageNode>;
};

describe('the memories tab over time in Chromium', { skip, timeout: 120_000 }, () => {
  const svc = useService();
  let server: Server;
  let base: string;
  let browser: Browser;
  let page: Page;
  const jsErrors: string[] = [];

  const byName = (name: string, role?: string) => page.locator(`::-p-aria(${name}${role ? `[role="${role}"]` : ''})`);
  const waitText = (text: string) =>
    page.waitForFunction((t) => document.body.textContent!.includes(t), { timeout: 15_000, polling: 50 }, text);
  /** The texts of the items of the element with this aria-label, in order. */
  const itemsOf = (label: string) =>
    page.evaluate((l) => Array.from(document.querySelectorAll(`[aria-label="${l}"] li .content`), (e) => e.textContent), label);
  /** The times of a memory as its list item shows them: `Expires never Valid until still holds ...`. */
  const timesOf = (name: string) =>
    page.evaluate((n) => document.querySelector(`[aria-label="Times of ${n}"]`)?.textContent?.replace(/\s+/g, ' ') ?? '', name);

  before(async () => {
    server = createServer(svc.app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ browser, page } = await launchPage(jsErrors));
  });
  after(async () => {
    await browser?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  });

  test('the expires and valid-until columns, the past on request, and a memory history with versions and chain', async () => {
    const email = `console-time-${Date.now()}@example.com`;
    const { jwt } = await new MindClient({ baseUrl: base }).accounts.register({ email, password: PASSWORD });
    const owner = new MindClient({ baseUrl: base, jwt });
    const created = await owner.minds.create({ name: 'over time' });
    const mind = new MindClient({ baseUrl: base, mindKey: created.mind_key });

    const tea = await mind.memories.store({ category: 'preference', key: 'tea', content: 'Green tea' });
    await mind.memories.store({ category: 'preference', key: 'tea', content: 'Black tea' });
    await mind.memories.update(tea.id, { content: 'Oolong' });
    const expiresAt = new Date(Date.now() + 7 * 86_400_000);
    await mind.memories.store({ category: 'context', key: 'trip', content: 'Travelling in Japan', expires_at: expiresAt.toISOString() });
    const berlin = await mind.memories.store({ category: 'fact', key: 'home-2019', content: 'Lives in Berlin' });
    await mind.memories.store({ category: 'fact', key: 'home', content: 'Lives in Lisbon', supersedes: berlin.id });

    await page.goto(`${base}/console`);
    const emailField = await page.waitForSelector('::-p-aria(Email)');
    await emailField!.type(email);
    await (await page.waitForSelector('::-p-aria(Password)'))!.type(PASSWORD);
    await byName('Sign in', 'button').click();
    await waitText('Your minds');
    await page.goto(`${base}/console/#/minds/${created.id}/memories`);
    await waitText('Travelling in Japan');

    assert.equal(await timesOf('tea'), 'ExpiresneverValid untilstill holds');
    const trip = await timesOf('trip');
    assert.match(trip, /^Expires.+Valid untilstill holds$/);
    assert.ok(!trip.includes('never'), `${trip}: the expiry is shown`);
    assert.equal(await page.$('[aria-label="Times of home-2019"]'), null, 'a replaced memory is not what holds now');

    await page.click('::-p-text(Include past memories)');
    await byName('Search', 'button').click();
    await page.waitForSelector('[aria-label="Times of home-2019"]');
    const replaced = await timesOf('home-2019');
    assert.match(replaced, /^ExpiresneverValid until.+Replaced by/);
    assert.ok(!replaced.includes('still holds'), replaced);

    await byName('History of tea', 'button').click();
    await page.waitForSelector('[aria-label="Versions of tea"] li');
    assert.deepEqual(await itemsOf('Versions of tea'), ['Green tea', 'Black tea', 'Oolong']);

    await byName('History of home', 'button').click();
    await page.waitForSelector('[aria-label="Chain of home"] li');
    const chain = await itemsOf('Chain of home');
    assert.deepEqual(
      chain.map((text) => text?.replace('this memory', '')),
      ['Lives in Berlin', 'Lives in Lisbon'],
    );
    assert.ok(chain[1]?.endsWith('this memory'), 'the memory whose history it is is marked');
    await page.screenshot({ path: join(ARTIFACTS, '20-memory-history.png'), fullPage: true });
    assert.deepEqual(jsErrors, []);
  });
});
