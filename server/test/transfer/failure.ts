import type { TestService } from '../harness.js';

/**
 * Makes inserting a chat message with the content "explode" fail in the service's database (a failure
 * midway through an import's writes: chat comes after memories and tasks). Answers how to undo it.
 */
export async function explodingChat(svc: TestService): Promise<() => Promise<unknown>> {
  const { db } = svc.ctx;
  if (svc.ctx.dialect.name === 'postgres') {
    await db.raw(
      `CREATE OR REPLACE FUNCTION explode() RETURNS trigger AS $$ BEGIN IF NEW.content = 'explode' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    );
    await db.raw('CREATE TRIGGER explode BEFORE INSERT ON chat_messages FOR EACH ROW EXECUTE FUNCTION explode()');
    return () => db.raw('DROP TRIGGER explode ON chat_messages');
  }
  await db.raw(`CREATE TRIGGER explode BEFORE INSERT ON chat_messages WHEN NEW.content = 'explode' BEGIN SELECT RAISE(ABORT, 'boom'); END`);
  return () => db.raw('DROP TRIGGER explode');
}
