import type { ContractRoute } from '../routes.js';
import type { NamedExample } from './shared.js';

const HEALTH = { version: '0.1.0', uptime_s: 3600 };
/** POST /memory's answer; an update differs only in its older created_at. */
const STORED_MEMORY = {
  id: '5d1c7e0a-8f7b-4c3e-9a1d-2b6e4f8c0a11',
  category: 'preference',
  key: 'writing-style',
  content: 'Prefers short sentences and British spelling.',
  tags: ['writing', 'style'],
  verified: false,
  verified_at: null,
  source: 'chat 2026-11-20',
  created_at: '2026-11-22T01:29:42.123Z',
  updated_at: '2026-11-22T01:29:42.123Z',
  expires_at: null,
  valid_from: null,
  valid_to: null,
  superseded_by: null,
};

/** Answers whose schema another status of the route shares: each status its own example. */
const SHARED_SCHEMA_EXAMPLES: Record<string, Record<number, NamedExample[]>> = {
  'system.health': {
    200: [{ summary: 'Ready', value: { status: 'ok', ...HEALTH, database: 'ok' } }],
    503: [
      { summary: 'The database does not answer', value: { status: 'unavailable', ...HEALTH, database: 'unreachable' } },
      { summary: 'Shutting down', value: { status: 'draining', ...HEALTH, database: 'ok' } },
    ],
  },
  'memories.storeMemory': {
    200: [
      {
        summary: 'Updated: the mind had a memory of this category and key',
        value: { ...STORED_MEMORY, created_at: '2026-11-20T10:02:11.000Z' },
      },
    ],
    201: [
      {
        summary: 'Created',
        value: STORED_MEMORY,
      },
    ],
  },
};

/** A success answer's own examples, when its schema's examples would show the same for two statuses. */
export const successExamples = (entry: ContractRoute, status: number): NamedExample[] => SHARED_SCHEMA_EXAMPLES[entry.key]?.[status] ?? [];
