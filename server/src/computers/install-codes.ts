import { randomInt } from 'node:crypto';
import { ERROR_MESSAGES, type InstallCode } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import type { Conn } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import { sha256Hex } from '../lib/secrets.js';
import { findMind } from '../minds/store.js';
import { INSTALL_CODE_ALPHABET, INSTALL_CODE_LENGTH, INSTALL_CODE_TTL_MS } from './rules.js';
import {
  countComputersOfMind,
  countComputersOfUser,
  countOpenInstallCodes,
  countOpenMindKeyCodes,
  insertInstallCode,
  lockMindForComputers,
} from './store.js';

/** The user-side caller: a Mind Key sees only its mind's computers, a JWT all of the user's. */
export type UserSideCaller = { kind: 'user'; userId: string } | { kind: 'mind'; userId: string; mindId: string };

/** `K7QM4XHP`, `k7qm-4xhp` and `K7QM-4XHP` are the same code; anything else is no code at all. */
export function normalizeInstallCode(input: string): string | undefined {
  const chars = input.toUpperCase().replace(/[\s-]/g, '');
  if (chars.length !== INSTALL_CODE_LENGTH || [...chars].some((ch) => !INSTALL_CODE_ALPHABET.includes(ch))) return undefined;
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

function newInstallCode(): string {
  let chars = '';
  for (let i = 0; i < INSTALL_CODE_LENGTH; i++) chars += INSTALL_CODE_ALPHABET[randomInt(INSTALL_CODE_ALPHABET.length)];
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

/** 409 when the user already has MIND_MAX_COMPUTERS_PER_USER computers (install codes and registration). */
export async function checkComputersCap(ctx: AppContext, conn: Conn, userId: string) {
  const cap = ctx.config.maxComputersPerUser;
  if ((await countComputersOfUser(conn, userId)) >= cap) {
    throw ApiError.conflict('computers_limit_reached', ERROR_MESSAGES.computersLimitReached(cap));
  }
}

/**
 * 409 when the mind has its share of computers (MIND_MAX_COMPUTERS_PER_MIND), counting the open codes
 * of its Mind Key when `openCodesSince` is given: what a Mind Key sets up, so that an agent cannot
 * fill the account's cap and lock the other minds out. Takes turns with the others that count it.
 */
export async function checkMindShare(ctx: AppContext, conn: Conn, mindId: string, openCodesSince?: string) {
  const cap = ctx.config.maxComputersPerMind;
  await lockMindForComputers(conn, ctx.dialect, mindId);
  let taken = await countComputersOfMind(conn, mindId);
  if (taken < cap && openCodesSince !== undefined) taken += await countOpenMindKeyCodes(conn, mindId, openCodesSince);
  if (taken >= cap) throw ApiError.conflict('mind_computers_limit_reached', ERROR_MESSAGES.mindComputersLimitReached(cap));
}

/** A single-use code for `screen-remote-agent register`, tied to the Mind Key's mind (or the JWT's `mind_id`). */
export async function createInstallCode(
  ctx: AppContext,
  caller: UserSideCaller,
  body: { computer_name?: string; mind_id?: string },
): Promise<InstallCode> {
  let mindId: string | null = null;
  if (caller.kind === 'mind') {
    // A Mind Key knows only its own mind.
    if (body.mind_id !== undefined && body.mind_id !== caller.mindId) throw ApiError.notFound('Mind');
    mindId = caller.mindId;
  } else if (body.mind_id !== undefined) {
    const mind = await findMind(ctx.db, body.mind_id);
    if (!mind || mind.userId !== caller.userId) throw ApiError.notFound('Mind');
    if (mind.disabled) throw ApiError.forbidden('mind_disabled', ERROR_MESSAGES.mindDisabled);
    mindId = mind.id;
  }
  const code = newInstallCode();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + INSTALL_CODE_TTL_MS).toISOString();
  await ctx.db.transaction(async (trx) => {
    // A Mind Key's codes hold places of its mind's share; the owner's JWT is bound by the account's cap alone.
    if (caller.kind === 'mind') await checkMindShare(ctx, trx, caller.mindId, now.toISOString());
    await checkComputersCap(ctx, trx, caller.userId);
    const cap = ctx.config.maxInstallCodesPerMind;
    if ((await countOpenInstallCodes(trx, caller.userId, mindId, now.toISOString())) >= cap) {
      throw ApiError.conflict(
        'install_codes_limit_reached',
        ERROR_MESSAGES.installCodesLimitReached(mindId ? 'This mind' : 'This account', cap),
      );
    }
    await insertInstallCode(trx, {
      code_hash: sha256Hex(code),
      user_id: caller.userId,
      mind_id: mindId,
      computer_name: body.computer_name ?? null,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      used_at: null,
      made_by: caller.kind === 'mind' ? 'mind_key' : 'user',
    });
    if (mindId) await ctx.events.touch(trx, mindId);
  });
  return { install_code: code, expires_at: expiresAt };
}
