import { type AuthResponse, ERROR_MESSAGES, type LoginBody, type RegisterBody } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import { isUniqueViolation } from '../db/errors.js';
import { ApiError } from '../http/api-error.js';
import { signJwt } from './tokens.js';
import { type AttemptCheck, FailureLimit, waitInWords } from '../http/failure-limit.js';
import { clientAddressKey, createRateLimiter } from '../http/rate-limit.js';
import { newId, sha256Hex } from '../lib/secrets.js';
import { PasswordHasher } from './passwords.js';
import { findUserByEmail, insertUser, normalizeEmail } from './store.js';

export class AccountsService {
  private readonly passwords: PasswordHasher;
  private readonly loginChecks: (email: string, address: string | undefined) => AttemptCheck[];
  /** One login checked per password thread at a time (the others wait for a thread anyway). */
  private readonly failedLogins: FailureLimit;

  constructor(private readonly ctx: AppContext) {
    const { config } = ctx;
    this.passwords = new PasswordHasher(config.bcryptCost, config.passwordThreads);
    ctx.onClose(() => this.passwords.close());

    // Failed logins, per client address and per account (docs/security.md). Both count failures only,
    // in fixed windows: an account with too many failures is closed to everyone, the right password
    // included (else the answer would tell a guesser when it guessed right), until the window its
    // failures started ends; then it is open again. Unknown emails count the same as known ones.
    this.failedLogins = new FailureLimit(config.passwordThreads);
    const window = config.loginFailureWindowMs;
    const perAddress = createRateLimiter(ctx, 'login-address', config.loginMaxFailuresPerAddress, window);
    const perAccount = createRateLimiter(ctx, 'login-account', config.loginMaxFailuresPerAccount, window);
    this.loginChecks = (email, address) => [
      {
        limiter: perAddress,
        key: clientAddressKey(address),
        code: 'login_attempts_exceeded',
        message: (s) => `Too many failed logins from this address. Try again in ${waitInWords(s)}.`,
      },
      {
        limiter: perAccount,
        key: sha256Hex(normalizeEmail(email)),
        code: 'login_attempts_exceeded',
        message: (s) => `Too many failed logins for this account. Try again in ${waitInWords(s)}.`,
      },
    ];
  }

  async register(body: RegisterBody): Promise<AuthResponse> {
    const email = body.email.trim();
    if (await findUserByEmail(this.ctx.db, email)) throw ApiError.conflict('email_taken', ERROR_MESSAGES.emailTaken(email));
    const user = { id: newId(), email, display_name: body.display_name ?? null, created_at: this.ctx.clock.now().toISOString() };
    const passwordHash = await this.passwords.hash(body.password);
    try {
      await insertUser(this.ctx.db, user, passwordHash);
    } catch (err) {
      if (isUniqueViolation(err)) throw ApiError.conflict('email_taken', ERROR_MESSAGES.emailTaken(email));
      throw err;
    }
    return { jwt: signJwt(this.ctx.jwtSecret, user.id), user };
  }

  /** `address`: the client's IP as the app computes it (TRUST_PROXY). */
  login(body: LoginBody, address: string | undefined): Promise<AuthResponse> {
    const wrong = ApiError.of(401, 'login_failed', ERROR_MESSAGES.loginFailed);
    return this.failedLogins.run(
      this.loginChecks(body.email, address),
      async () => {
        const found = await findUserByEmail(this.ctx.db, body.email);
        const ok = await this.passwords.check(body.password, found?.passwordHash ?? (await this.passwords.dummyHash()));
        if (!found || !ok) throw wrong;
        return { jwt: signJwt(this.ctx.jwtSecret, found.user.id), user: found.user };
      },
      (err) => err === wrong,
    );
  }
}
