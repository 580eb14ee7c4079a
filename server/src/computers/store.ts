import type { Conn } from '../db/database.js';

export interface ComputerIdentity {
  id: string;
  userId: string;
  mindId: string | null;
}

/** The active computer a token belongs to; disabled computers' tokens find nothing. (The computers area fills this in.) */
export async function findComputerByTokenHash(_conn: Conn, _tokenHash: string): Promise<ComputerIdentity | undefined> {
  return undefined;
}
