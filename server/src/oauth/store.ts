import type { Conn } from '../db/database.js';

export interface ClientRow {
  id: string;
  client_name: string;
  redirect_uris: string[];
  kind: 'registered' | 'document';
  created_at: string;
}

export interface CodeRow {
  code_hash: string;
  client_id: string;
  mind_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: 'full' | 'read';
  created_at: string;
  expires_at: string;
  used_at: string | null;
  grant_id: string | null;
}

export interface GrantRow {
  id: string;
  client_id: string;
  mind_id: string;
  key_id: string;
  scope: 'full' | 'read';
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export async function findClient(conn: Conn, id: string): Promise<ClientRow | undefined> {
  const row = await conn('oauth_clients').where({ id }).first('id', 'client_name', 'redirect_uris', 'kind', 'created_at');
  return row && { ...row, redirect_uris: JSON.parse(row.redirect_uris as string) as string[] };
}

export async function insertClient(conn: Conn, client: ClientRow): Promise<void> {
  await conn('oauth_clients')
    .insert({ ...client, redirect_uris: JSON.stringify(client.redirect_uris) })
    .onConflict('id')
    .ignore();
}

export async function countClients(conn: Conn): Promise<number> {
  const row = await conn('oauth_clients').count<{ n: number | string }>({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Deletes up to `limit` clients made before `before` that never got a grant or a code: the registrations nobody used. */
export async function deleteUnusedClients(conn: Conn, before: string, limit: number): Promise<number> {
  const unused = conn('oauth_clients as c')
    .where('c.created_at', '<', before)
    .whereNotExists((q) => q.select(conn.raw('1')).from('oauth_grants as g').whereRaw('g.client_id = c.id'))
    .whereNotExists((q) => q.select(conn.raw('1')).from('oauth_codes as o').whereRaw('o.client_id = c.id'))
    .select('c.id')
    .limit(limit);
  return conn('oauth_clients').whereIn('id', unused).delete();
}

export async function insertCode(conn: Conn, code: Omit<CodeRow, 'used_at' | 'grant_id'>): Promise<void> {
  await conn('oauth_codes').insert({ ...code, used_at: null, grant_id: null });
}

/** Codes whose minute has passed are of no use to anyone: deleted as new ones are made. */
export async function deleteExpiredCodes(conn: Conn, now: string, limit: number): Promise<void> {
  const expired = conn('oauth_codes').where('expires_at', '<', now).whereNull('grant_id').select('code_hash').limit(limit);
  await conn('oauth_codes').whereIn('code_hash', expired).delete();
}

export async function findCode(conn: Conn, codeHash: string): Promise<CodeRow | undefined> {
  return conn<CodeRow>('oauth_codes').where({ code_hash: codeHash }).first();
}

/** Marks the code used for `grantId`; false when another request used it first. */
export async function useCode(conn: Conn, codeHash: string, now: string, grantId: string): Promise<boolean> {
  return (await conn('oauth_codes').where({ code_hash: codeHash }).whereNull('used_at').update({ used_at: now, grant_id: grantId })) > 0;
}

export async function insertGrant(conn: Conn, grant: Omit<GrantRow, 'revoked_at'>): Promise<void> {
  await conn('oauth_grants').insert({ ...grant, revoked_at: null });
}

export async function findGrant(conn: Conn, id: string): Promise<GrantRow | undefined> {
  return conn<GrantRow>('oauth_grants').where({ id }).first();
}

export async function updateGrantKey(conn: Conn, id: string, keyId: string, expiresAt: string): Promise<void> {
  await conn('oauth_grants').where({ id }).update({ key_id: keyId, expires_at: expiresAt });
}

/** Ends a grant: no refresh token of it works again, and its access token (a Mind Key) is revoked too. */
export async function revokeGrant(conn: Conn, grant: Pick<GrantRow, 'id' | 'key_id'>, now: string): Promise<void> {
  await conn('oauth_grants').where({ id: grant.id }).whereNull('revoked_at').update({ revoked_at: now });
  await conn('mind_keys').where({ id: grant.key_id }).whereNull('revoked_at').update({ revoked_at: now });
}

export async function insertRefreshToken(conn: Conn, tokenHash: string, grantId: string, now: string): Promise<void> {
  await conn('oauth_refresh_tokens').insert({ token_hash: tokenHash, grant_id: grantId, created_at: now, used_at: null });
}

export async function findRefreshToken(conn: Conn, tokenHash: string): Promise<{ grant_id: string; used_at: string | null } | undefined> {
  return conn('oauth_refresh_tokens').where({ token_hash: tokenHash }).first('grant_id', 'used_at');
}

/** Deletes a grant's refresh tokens used before `before`: a grant refreshed every hour would otherwise keep them all. */
export async function deleteOldRefreshTokens(conn: Conn, grantId: string, before: string): Promise<void> {
  await conn('oauth_refresh_tokens').where({ grant_id: grantId }).where('used_at', '<', before).delete();
}

/** Marks a refresh token used; false when another request used it first. */
export async function useRefreshToken(conn: Conn, tokenHash: string, now: string): Promise<boolean> {
  return (await conn('oauth_refresh_tokens').where({ token_hash: tokenHash }).whereNull('used_at').update({ used_at: now })) > 0;
}

/** The state of a grant's access token: revoked in the Keys tab ends the grant. */
export async function findKeyState(conn: Conn, keyId: string): Promise<{ revoked_at: string | null } | undefined> {
  return conn('mind_keys').where({ id: keyId }).first('revoked_at');
}

export async function deleteKey(conn: Conn, keyId: string): Promise<void> {
  await conn('mind_keys').where({ id: keyId }).delete();
}
