// The tools' text, written for a model: what a tool does and when to use it, in a sentence or two,
// naming other tools rather than routes. The schemas come from the contract; its descriptions are for
// people reading the API (statuses, query syntax), so a tool says here what a model needs instead.
// Argument descriptions here replace the contract's where its words are about HTTP.
import type { RouteKey } from './table.js';

export interface ToolText {
  description: string;
  /** Argument descriptions by the tool's argument name, where the contract's would speak HTTP. */
  args?: Record<string, string>;
}

const CURSOR = 'next_cursor of the previous answer, to read the next page (the other arguments unchanged).';

export const TOOL_TEXT: Partial<Record<RouteKey, ToolText>> = {
  'tasks.listTasks': {
    description:
      "List the mind's tasks: the open ones (pending, in_progress) unless `status` says otherwise; in progress first, then by priority and due date.",
    args: { cursor: CURSOR },
  },
  'tasks.createTask': {
    description:
      'Create a task (pending; priority normal unless given). Answers the task and its id for get_task, update_task, complete_task.',
  },
  'tasks.getTask': { description: 'Read one task by its id (from list_tasks or create_task).' },
  'tasks.updateTask': {
    description:
      "Change a task's title, description, priority, status or due date; only the fields given change. Status done sets completed_at.",
  },
  'tasks.completeTask': { description: 'Mark a task done (sets completed_at). The same as update_task with status done.' },
  'tasks.deleteTask': {
    description: 'Delete a task for good. To close one and keep it, use complete_task or update_task with status cancelled.',
  },
  'memories.storeMemory': {
    description:
      'Remember something for later conversations: a fact, a preference, a mistake not to repeat. With a `key` already used in this category it updates that memory instead (memory_history keeps the old content).',
    args: {
      expires_at: 'When to forget it (date-time with a zone).',
      valid_from: 'Since when the fact holds, if not always.',
      valid_to: 'Until when the fact held (exclusive), if it no longer holds.',
      supersedes: 'memory_id of a memory this one replaces: that one stops holding now, and recall answers this one.',
    },
  },
  'memories.recallMemories': {
    description:
      'Find memories by words and meaning (`q`), or the newest without `q`; filter by category, key, tags, verified or date. Use it before answering from memory. Verified memories rank higher.',
    args: {
      tags: 'Only memories with all of these tags.',
      memory_key: 'Only the memory with this key.',
      verified: 'true: only memories the human verified; false: only unverified ones.',
      cursor: CURSOR,
      wait_ms:
        'Read your own writes: first wait up to this many milliseconds (0 to 2000) until every memory is indexed by meaning (pending_embeddings of memory_stats is 0).',
      min_score: 'Only hits whose score is at least this (0 to 1); needs `q`.',
      as_of: 'What held at this date-time, instead of now.',
      include_past: 'true: also memories that no longer hold (replaced, or past their valid_to).',
    },
  },
  'memories.memoryStats': {
    description: "Count the mind's memories (in all, by category, verified) and how many still wait to be indexed by meaning.",
  },
  'memories.getMemory': { description: 'Read one memory by its id (from recall_memories or store_memory).' },
  'memories.updateMemory': {
    description:
      "Change a memory's content, category, key, tags, source, expiry or validity; only the fields given change (null clears a time). memory_history keeps the old content.",
    args: {
      expires_at: 'When to forget it; null: never.',
      valid_from: 'Since when the fact holds; null: always.',
      valid_to: 'Until when the fact held (exclusive); null: still holds.',
    },
  },
  'memories.memoryHistory': {
    description:
      'See how a memory changed: its earlier contents, oldest first with the current one last, and the memories it replaced or that replaced it (supersedes).',
    args: { cursor: CURSOR },
  },
  'memories.deleteMemory': { description: 'Delete a memory for good, when it is wrong or no longer true.' },
  'chat.postChatMessage': {
    description: "Write in the mind's chat with its human: role agent for your own messages. Threads keep conversations apart.",
  },
  'chat.listChatMessages': {
    description: 'Read a chat thread, newest last. For older messages call it again with `before` = next_before of the answer.',
    args: { before: 'A message id: only messages older than it (next_before of the previous answer).' },
  },
  'chat.searchChat': {
    description: 'Find chat messages by words and meaning, in every thread or in one.',
    args: { cursor: CURSOR },
  },
  'scripts.listScripts': { description: "List the mind's saved scripts by name, each with its content.", args: { cursor: CURSOR } },
  'scripts.createScript': {
    description: 'Save a script (a program or snippet) to use again later; names are unique within the mind.',
  },
  'scripts.getScript': { description: 'Read one script by its id (from list_scripts or create_script).' },
  'scripts.updateScript': {
    description: "Change a script's name, description, language or content; only the fields given change.",
  },
  'scripts.deleteScript': { description: 'Delete a script for good.' },
  'computers.listComputers': {
    description:
      'List the computers this mind can control, with their ids, status and screen size. Use a computer id with screenshot and queue_command.',
    args: { cursor: CURSOR },
  },
  'computers.queueCommand': {
    description:
      'Act on a computer: click, move, type, key, scroll, drag, zoom and more; `payload` holds the fields of the `type`, coordinates in screen pixels (screenshot says how its image maps to them). With `wait` it answers the finished command, else follow it with get_command.',
    args: {
      type: 'What to do; `payload` holds its fields.',
      'payload.x': "Pixels from the screen's left edge: where to act (default: where the pointer is), or a zoom region's left edge.",
      'payload.y': 'Pixels from the top edge, with x.',
      'payload.text': 'The text to type.',
      'payload.duration_ms': 'Milliseconds (at most 10000): how long hold_key holds its keys, or how long wait waits.',
      'payload.width': "A zoom region's width in screen pixels; the region must lie inside the screen.",
      'payload.height': "A zoom region's height in screen pixels.",
      'payload.max_width': 'Scale the image down to at most this many pixels wide.',
      'payload.max_height': 'Scale the image down to at most this many pixels high.',
    },
  },
  'computers.getCommand': {
    description:
      "Read a command queue_command sent: its status (queued, sent, done, failed, expired, cancelled) and the agent's result; a screenshot's or zoom's PNG comes as an image.",
  },
  'computers.screenshot': {
    description:
      "See a computer's screen: answers the image and a line with its size, the screen's size and the scale between them, so you click where you see. `max_width` and `max_height` scale it down (about 1280x800 suits most models).",
  },
};
