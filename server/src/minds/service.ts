import type { CreateMindBody, CreatedMind, MindSummary } from '@mindservice/contract';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { newId, newToken, sha256Hex } from '../lib/secrets.js';
import { deleteMindRow, findMind, insertMind, listMindsOfUser } from './store.js';

export class MindsService {
  constructor(private readonly ctx: AppContext) {}

  async create(userId: string, body: CreateMindBody): Promise<CreatedMind> {
    const mindKey = newToken('mk_');
    const mind = {
      id: newId(),
      name: body.name,
      description: body.description ?? null,
      created_at: this.ctx.clock.now().toISOString(),
    };
    await insertMind(this.ctx.db, mind, userId, sha256Hex(mindKey));
    return { ...mind, mind_key: mindKey };
  }

  list(userId: string): Promise<MindSummary[]> {
    return listMindsOfUser(this.ctx.db, userId);
  }

  async delete(userId: string, mindId: string): Promise<void> {
    await this.ctx.db.transaction(async (trx) => {
      const mind = await findMind(trx, mindId);
      if (!mind) throw ApiError.notFound('Mind');
      if (mind.userId !== userId) throw ApiError.forbidden('This mind belongs to another user');
      await deleteMindRow(trx, mindId);
    });
  }
}
