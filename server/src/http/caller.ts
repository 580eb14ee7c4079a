import type { AuthKind } from '@mindservice/contract';

export type AnonymousCaller = { kind: 'anonymous' };
export type UserCaller = { kind: 'user'; userId: string };
/** `scope`: a `read` key is refused on every route that writes (see auth.ts). */
export type MindCaller = { kind: 'mind'; userId: string; mindId: string; keyId: string; scope: 'full' | 'read' };
export type ComputerCaller = { kind: 'computer'; userId: string; mindId: string | null; computerId: string };

/** Who is calling, as the authenticator established it from the route's metadata. */
export type Caller = AnonymousCaller | UserCaller | MindCaller | ComputerCaller;

/** The caller a route's credential kind yields: handlers get it typed from their route's metadata. */
export type CallerFor<A extends AuthKind> = {
  none: AnonymousCaller;
  jwt: UserCaller;
  mindKey: MindCaller;
  mindKeyOrJwt: MindCaller | UserCaller;
  computerToken: ComputerCaller;
}[A];
