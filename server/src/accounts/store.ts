import type { User } from '@mindservice/contract';
import type { Conn } from '../db/database.js';

interface UserRow {
  id: string;
  email: string;
  email_normalized: string;
  display_name: string | null;
  password_hash: string;
  created_at: string;
}

export interface StoredUser {
  user: User;
  passwordHash: string;
}

const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  display_name: row.display_name,
  created_at: row.created_at,
});

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function insertUser(conn: Conn, user: User, passwordHash: string): Promise<void> {
  await conn<UserRow>('users').insert({
    id: user.id,
    email: user.email,
    email_normalized: normalizeEmail(user.email),
    display_name: user.display_name,
    password_hash: passwordHash,
    created_at: user.created_at,
  });
}

export async function findUserByEmail(conn: Conn, email: string): Promise<StoredUser | undefined> {
  const row = await conn<UserRow>('users')
    .where({ email_normalized: normalizeEmail(email) })
    .first();
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

export async function userExists(conn: Conn, id: string): Promise<boolean> {
  return Boolean(await conn('users').where({ id }).first('id'));
}
