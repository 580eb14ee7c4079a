/**
 * A mind is deleted from the moment its row in `mind_deletions` exists: DELETE /minds/:id inserts it
 * without touching the mind's row, which the mind's writers keep locked (PostgreSQL) while they run.
 * Every lookup of minds (minds/store.ts) leaves such minds out; it goes with the mind's row, at the end of the purge.
 * A condition for any query that reads `minds` (other areas' joins can use it too).
 */
export const MIND_NOT_DELETED = 'NOT EXISTS (SELECT 1 FROM mind_deletions WHERE mind_deletions.mind_id = minds.id)';
