// One page type for every list of the SDK, whatever the service pages with underneath: a cursor
// (`next_cursor`), a message id to go further back (`before`), or nothing at all (a single page).
//
//   const page = await client.tasks.list();          // Page<Task>: page.data, page.hasNextPage(), page.getNextPage()
//   for await (const task of client.tasks.list()) {}  // every task, fetching the pages as it goes
import { MindServiceError } from './errors.js';

/** What the next page's call adds to the list's params: `{ cursor }` or `{ before }`. */
export type NextPageParams = { cursor: string } | { before: string };

/** One page as a list method reads it from an answer. */
export interface PageContent<Item> {
  data: Item[];
  /** Null when this is the last page. */
  next: NextPageParams | null;
}

type PageLoader<Item> = (next: NextPageParams | undefined) => Promise<PageContent<Item>>;

/**
 * A page of a list. `data` holds its items; `for await (const item of page)` walks them and every later
 * page's. A list the service does not page is a single page.
 */
export class Page<Item> implements AsyncIterable<Item> {
  /** The items of this page, in the order the service answered them. */
  readonly data: Item[];
  readonly #next: NextPageParams | null;
  readonly #load: PageLoader<Item>;

  /** @internal Pages come from the list methods. */
  constructor(content: PageContent<Item>, load: PageLoader<Item>) {
    this.data = content.data;
    this.#next = content.next;
    this.#load = load;
  }

  /** Whether the service has another page after this one (it may turn out empty). */
  hasNextPage(): boolean {
    return this.#next !== null;
  }

  /**
   * What to pass to the same list method, next to its other params, for the next page (`{ cursor }` or
   * `{ before }`), e.g. to carry on later; null on the last page.
   */
  nextPageParams(): NextPageParams | null {
    return this.#next === null ? null : { ...this.#next };
  }

  /** Fetches the next page; rejects with MindServiceError when there is none (check `hasNextPage()`). */
  async getNextPage(): Promise<Page<Item>> {
    if (this.#next === null) {
      throw new MindServiceError({ message: 'there is no next page: check hasNextPage() before getNextPage()' });
    }
    return fetchPage(this.#load, this.#next);
  }

  /** This page and every later one, fetched one at a time. */
  async *iterPages(): AsyncGenerator<Page<Item>, void, undefined> {
    let page: Page<Item> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  /** Every item of this page and of the later pages. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/**
 * What a list method answers: a promise of the first page (`await` it for `data`, `hasNextPage()`,
 * `getNextPage()`) that `for await` also walks item by item across all the pages.
 */
export class PagePromise<Item> extends Promise<Page<Item>> implements AsyncIterable<Item> {
  // `then`, `catch` and `finally` answer plain promises (which need no list to fetch).
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** @internal */
  constructor(first: Promise<Page<Item>>) {
    super((resolve, reject) => {
      first.then(resolve, reject);
    });
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    yield* await this;
  }
}

async function fetchPage<Item>(load: PageLoader<Item>, next: NextPageParams | undefined): Promise<Page<Item>> {
  return new Page(await load(next), load);
}

/** @internal A list method's answer: `load` fetches a page, the first one when `next` is undefined. */
export function paginate<Item>(load: PageLoader<Item>): PagePromise<Item> {
  return new PagePromise(fetchPage(load, undefined));
}

/** One page of a list the service pages with `cursor` and `next_cursor`: its items and the next cursor. */
export type CursorPage<Item> = [items: Item[], nextCursor: string | null];

/**
 * @internal A list the service pages with `cursor` and `next_cursor`. `readPage` fetches the page the
 * cursor names (the caller's own `start` for the first page); `first` is true for the first page.
 */
export function pagesByCursor<Item>(
  start: string | undefined,
  readPage: (cursor: string | undefined, first: boolean) => Promise<CursorPage<Item>>,
): PagePromise<Item> {
  return paginate(async (next) => {
    const [data, nextCursor] = await readPage(next && 'cursor' in next ? next.cursor : start, next === undefined);
    return { data, next: nextCursor ? { cursor: nextCursor } : null };
  });
}

/** @internal A list the service answers whole: one page. */
export function singlePage<Item>(data: Item[]): PageContent<Item> {
  return { data, next: null };
}
