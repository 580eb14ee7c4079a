import { ApiError } from './errors.js';

/** Who is calling, as established by the auth middleware from the route's metadata. */
export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string }
  | { kind: 'mind'; userId: string; mindId: string }
  | { kind: 'computer'; userId: string; mindId: string | null; computerId: string };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      caller?: Caller;
      requestId: string;
    }
  }
}

const missing = () => new ApiError(500, 'Route is missing its auth metadata');

/** Any request the auth middleware has seen (ts-rest's typed requests included). */
type AuthedRequest = { caller?: Caller };

export function mindCaller(req: AuthedRequest) {
  const caller = req.caller;
  if (caller?.kind !== 'mind') throw missing();
  return caller;
}

export function userCaller(req: AuthedRequest) {
  const caller = req.caller;
  if (caller?.kind !== 'user') throw missing();
  return caller;
}

export function computerCaller(req: AuthedRequest) {
  const caller = req.caller;
  if (caller?.kind !== 'computer') throw missing();
  return caller;
}

/** For routes that take a Mind Key or a JWT. */
export function userOrMindCaller(req: AuthedRequest) {
  const caller = req.caller;
  if (caller?.kind !== 'mind' && caller?.kind !== 'user') throw missing();
  return caller;
}
