// What the examples share: where the service is, and a throwaway account when no Mind Key is given.
import { randomBytes } from 'node:crypto';
import { MindClient } from '@mindservice/sdk';

export const MIND_URL = process.env.MIND_URL ?? 'http://127.0.0.1:3000';

/** A client for the mind in MIND_KEY, or for a new account with a new mind when MIND_KEY is not set. */
export async function mindClient(name: string): Promise<{ client: MindClient; created: boolean }> {
  const client = new MindClient({ baseUrl: MIND_URL });
  if (process.env.MIND_KEY) return { client: client.withOptions({ mindKey: process.env.MIND_KEY }), created: false };
  const email = `${name}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const { jwt } = await client.accounts.register({ email, password: randomBytes(12).toString('base64url') });
  const mind = await client.withOptions({ jwt }).minds.create({ name, description: `created by examples/${name}.ts` });
  console.log(`account ${email}, mind ${mind.id}`);
  return { client: client.withOptions({ jwt, mindKey: mind.mind_key }), created: true };
}
