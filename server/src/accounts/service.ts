import type { AuthResponse, LoginBody, RegisterBody } from '@mindservice/contract';
import type { AppContext } from '../context.js';
import { isUniqueViolation } from '../db/errors.js';
import { ApiError } from '../http/errors.js';
import { signJwt } from './tokens.js';
import { newId } from '../lib/secrets.js';
import { checkPassword, dummyPasswordHash, hashPassword } from './passwords.js';
import { findUserByEmail, insertUser } from './store.js';

export class AccountsService {
  constructor(private readonly ctx: AppContext) {}

  async register(body: RegisterBody): Promise<AuthResponse> {
    const email = body.email.trim();
    if (await findUserByEmail(this.ctx.db, email)) throw ApiError.conflict(`An account with the email ${email} already exists`);
    const user = { id: newId(), email, display_name: body.display_name ?? null, created_at: this.ctx.clock.now().toISOString() };
    const passwordHash = await hashPassword(body.password, this.ctx.config.bcryptCost);
    try {
      await insertUser(this.ctx.db, user, passwordHash);
    } catch (err) {
      if (isUniqueViolation(err)) throw ApiError.conflict(`An account with the email ${email} already exists`);
      throw err;
    }
    return { jwt: signJwt(this.ctx.jwtSecret, user.id), user };
  }

  async login(body: LoginBody): Promise<AuthResponse> {
    const found = await findUserByEmail(this.ctx.db, body.email);
    const hash = found?.passwordHash ?? (await dummyPasswordHash(this.ctx.config.bcryptCost));
    const ok = await checkPassword(body.password, hash);
    if (!found || !ok) throw new ApiError(401, 'Email or password is wrong.');
    return { jwt: signJwt(this.ctx.jwtSecret, found.user.id), user: found.user };
  }
}
