import jwt from 'jsonwebtoken';

/** The account token: HS256, subject = user id, valid 7 days (verified by http/auth.ts). */
export function signJwt(secret: string, userId: string): string {
  return jwt.sign({}, secret, { algorithm: 'HS256', subject: userId, expiresIn: '7d' });
}
