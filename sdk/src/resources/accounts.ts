import { ok } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import type { AuthResponse, LoginParams, RegisterParams } from '../types.js';
import { Resource } from './resource.js';

/** Accounts: no credential needed. The `jwt` of the answer authenticates the account routes. */
export class Accounts extends Resource {
  /** Creates an account (409 ConflictError when the email is taken). Not retried unless `idempotent`. */
  async register(params: RegisterParams, options?: RequestOptions): Promise<AuthResponse> {
    return ok(this.api.accounts.register({ body: params, requestOptions: options }));
  }

  /** Exchanges email and password for a new JWT (401 UnauthorizedError when wrong). */
  async login(params: LoginParams, options?: RequestOptions): Promise<AuthResponse> {
    return ok(this.api.accounts.login({ body: params, requestOptions: options }));
  }
}
