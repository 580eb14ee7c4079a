import type { CreateMindBody, CreatedMind, MindSummary } from '@mindservice/contract';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { newId, newToken, sha256Hex } from '../lib/secrets.js';
import { countMindsOfUser, findMind, insertMind, listMindsOfUser, lockUser, markMindDeleted } from './store.js';

export class MindsService {
  /** `deleted`: called once a deletion committed (wakes the purge). */
  constructor(
    private readonly ctx: AppContext,
    private readonly deleted: () => void = () => undefined,
  ) {}

  /** A user has at most MIND_MAX_MINDS_PER_USER minds (default 100), so GET /minds stays one bounded answer. */
  async create(userId: string, body: CreateMindBody): Promise<CreatedMind> {
    const mindKey = newToken('mk_');
    const mind = {
      id: newId(),
      name: body.name,
      description: body.description ?? null,
      created_at: this.ctx.clock.now().toISOString(),
    };
    const max = this.ctx.config.maxMindsPerUser;
    await this.ctx.db.transaction(async (trx) => {
      await lockUser(trx, userId);
      if ((await countMindsOfUser(trx, userId)) >= max) {
        throw ApiError.conflict(`A user can have at most ${max} minds; delete one before creating another`);
      }
      await insertMind(trx, mind, userId, sha256Hex(mindKey));
    });
    return { ...mind, mind_key: mindKey };
  }

  list(userId: string): Promise<MindSummary[]> {
    return listMindsOfUser(this.ctx.db, userId);
  }

  /**
   * Gone for the API at once (one UPDATE: key refused, left out of every lookup); its rows are
   * removed in the background in bounded chunks (purge.ts), so a large mind does not hold the
   * database or the event loop.
   */
  async delete(userId: string, mindId: string): Promise<void> {
    await this.ctx.db.transaction(async (trx) => {
      const mind = await findMind(trx, mindId);
      if (!mind) throw ApiError.notFound('Mind');
      if (mind.userId !== userId) throw ApiError.forbidden('This mind belongs to another user');
      if (!(await markMindDeleted(trx, mindId, this.ctx.clock.now().toISOString()))) throw ApiError.notFound('Mind');
    });
    this.deleted();
  }
}
