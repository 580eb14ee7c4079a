/** Every event the service emits. Webhook `events` patterns match these names. */
export const EVENT_NAMES = [
  'memory.created',
  'memory.updated',
  'memory.deleted',
  'memory.verified',
  'memory.unverified',
  'memory.expired',
  'task.created',
  'task.updated',
  'task.completed',
  'task.deleted',
  'chat.message_sent',
  'chat.message_received',
  'computer.registered',
  'computer.command_finished',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export const EVENT_GROUPS = ['memory.*', 'task.*', 'chat.*', 'computer.*'] as const;

/** Old names still accepted in subscriptions, stored as their new names. */
export const DEPRECATED_EVENT_NAMES: Record<string, EventName> = {
  'memory.store': 'memory.created',
  'memory.update': 'memory.updated',
  'memory.delete': 'memory.deleted',
};

export const VALID_EVENT_PATTERNS: readonly string[] = ['*', ...EVENT_GROUPS, ...EVENT_NAMES];

/** Does a stored, normalised pattern list (`task.*,memory.created`) match an event name? */
export function eventMatches(patterns: string, event: string): boolean {
  for (const raw of patterns.split(',')) {
    const p = raw.trim();
    if (p === '*' || p === event) return true;
    if (p.endsWith('.*') && event.startsWith(p.slice(0, -1))) return true;
  }
  return false;
}

export type ParsedEventPatterns = { ok: true; patterns: string } | { ok: false; unknown: string[] };

/**
 * Normalises a subscription: trims each pattern, drops empties and duplicates, maps deprecated names
 * to their new names. Anything not in VALID_EVENT_PATTERNS is reported as unknown.
 */
export function parseEventPatterns(text: string): ParsedEventPatterns {
  const patterns: string[] = [];
  const unknown: string[] = [];
  for (const raw of text.split(',')) {
    const trimmed = raw.trim();
    if (!trimmed) continue;
    const name = DEPRECATED_EVENT_NAMES[trimmed] ?? trimmed;
    if (!VALID_EVENT_PATTERNS.includes(name)) unknown.push(trimmed);
    else if (!patterns.includes(name)) patterns.push(name);
  }
  return unknown.length ? { ok: false, unknown } : { ok: true, patterns: patterns.join(',') };
}
