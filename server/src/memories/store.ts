import type { Conn } from '../db/database.js';

/** Memory counts per mind for GET /minds. (The memories area fills this in.) */
export async function countMemoriesByMind(_conn: Conn, _mindIds: string[]): Promise<Map<string, number>> {
  return new Map();
}
