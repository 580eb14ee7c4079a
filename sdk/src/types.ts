// The SDK's public types, all inferred from the contract's schemas: responses are what the service answers,
// params are what a call accepts (zod input types). Records are named interfaces, so that an editor shows
// `Task` rather than the object type spelled out. Optional fields accept `undefined` too
// (`exactOptionalPropertyTypes`).
import type * as C from './contract.js';
import type { z } from 'zod';

type Out<T extends z.ZodTypeAny> = z.output<T>;
type In<T extends z.ZodTypeAny> = z.input<T>;

// Responses
export interface User extends Out<typeof C.User> {}
export interface AuthResponse extends Omit<Out<typeof C.AuthResponse>, 'user'> {
  user: User;
}
export interface CreatedMind extends Out<typeof C.CreatedMind> {}
export interface MindSummary extends Out<typeof C.MindSummary> {}
export interface CreatedMindKey extends Out<typeof C.CreatedMindKey> {}
export interface MindKeySummary extends Out<typeof C.MindKeySummary> {}
export type KeyScope = Out<typeof C.KeyScope>;
export interface Task extends Out<typeof C.Task> {}
/** One page of GET /mind/tasks as the service answers it. */
export interface TaskList extends Omit<Out<typeof C.TaskList>, 'tasks'> {
  tasks: Task[];
}
export type TaskPriority = Out<typeof C.TaskPriority>;
export type TaskStatus = Out<typeof C.TaskStatus>;
/** What `tasks.delete()` answers: the service confirms the deletion (the other deletes answer nothing). */
export interface DeletedTask extends Out<typeof C.DeletedTask> {}
export interface Memory extends Out<typeof C.Memory> {}
export type MemoryCategory = Out<typeof C.MemoryCategory>;
export interface RecallHit extends Out<typeof C.RecallHit> {}
/** One page of GET /memory/recall as the service answers it. */
export interface RecallResult extends Omit<Out<typeof C.RecallResult>, 'memories'> {
  memories: RecallHit[];
}
export interface MemoryStats extends Out<typeof C.MemoryStats> {}
/** The memory as it stood between `at` and `replaced_at` (`memories.history`). */
export interface MemoryVersion extends Out<typeof C.MemoryVersion> {}
/** A memory of a supersede chain (`memories.chain`). */
export interface MemoryChainLink extends Out<typeof C.MemoryChainLink> {}
export interface MindExport extends Out<typeof C.MindExport> {}
export interface ImportResult extends Out<typeof C.ImportResult> {}
export interface ChatMessage extends Out<typeof C.ChatMessage> {}
/** A message found by `chat.search()`: the message, its `score` and how it `match`ed. */
export interface ChatSearchHit extends Out<typeof C.ChatSearchHit> {}
export interface Script extends Out<typeof C.Script> {}
/** One page of GET /mind/scripts as the service answers it. */
export interface ScriptList {
  scripts: Script[];
  next_cursor: string | null;
}
export interface CreatedWebhook extends Out<typeof C.CreatedWebhook> {}
export interface Webhook extends Out<typeof C.Webhook> {}
export interface WebhookTestResult extends Out<typeof C.WebhookTestResult> {}
export interface Delivery extends Out<typeof C.Delivery> {}
export interface Computer extends Out<typeof C.Computer> {}
export interface InstallCode extends Out<typeof C.InstallCode> {}
export interface Command extends Out<typeof C.Command> {}
/** One page of GET /computers/:id/commands as the service answers it. */
export interface CommandList extends Omit<Out<typeof C.CommandList>, 'commands'> {
  commands: Command[];
}
export interface ScreenshotRef extends Out<typeof C.ScreenshotRef> {}
export type CommandType = Out<typeof C.CommandType>;
export type CommandStatus = Out<typeof C.CommandStatus>;
export interface QueuedCommand extends Out<typeof C.QueuedCommand> {}
export interface RegisteredComputer extends Out<typeof C.RegisteredComputer> {}
export interface PolledCommand extends Out<typeof C.PolledCommand> {}
export interface CommandResult {
  command_id: string;
  status: CommandStatus;
}
export interface Health extends Out<typeof C.Health> {}
export interface EndpointInfo extends Out<typeof C.EndpointInfo> {}
export interface ErrorObject extends Out<typeof C.ErrorObject> {}
export type EventName = C.EventName;

// Params
export interface RegisterParams extends In<typeof C.RegisterBody> {}
export interface LoginParams extends In<typeof C.LoginBody> {}
export interface CreateMindParams extends In<typeof C.CreateMindBody> {}
export interface CreateMindKeyParams extends In<typeof C.CreateMindKeyBody> {}
export interface CreateTaskParams extends In<typeof C.CreateTaskBody> {}
export interface UpdateTaskParams extends In<typeof C.UpdateTaskBody> {}
/** `limit`: tasks per page (1..100, default 100); `cursor`: where to start (a page's `nextPageParams()`). */
export interface ListTasksParams {
  status?: In<typeof C.TaskStatusFilter> | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}
export interface StoreMemoryParams extends In<typeof C.StoreMemoryBody> {}
export interface UpdateMemoryParams extends In<typeof C.UpdateMemoryBody> {}
/**
 * Recall filters; `verified` as a boolean, `tags` as one tag or several (all required); `limit` per page (1..100, default 20).
 * Recall answers what holds now: `as_of` (a date-time) what held then, `include_past: true` every memory not expired.
 */
export interface RecallParams extends Omit<In<typeof C.RecallQuery>, 'verified' | 'include_past' | 'wait_ms' | 'min_score'> {
  verified?: boolean | undefined;
  include_past?: boolean | undefined;
  /**
   * Read-your-writes, 0..2000 ms (default 0): in modes `hybrid` and `semantic` (with `q`), the service
   * first waits until none of the mind's memories waits to be embedded, at most this long, so a memory
   * just stored is found by its meaning. A wait that runs out still answers (`stats().pending_embeddings`
   * says how many still wait). Sent with the first page only.
   */
  wait_ms?: number | undefined;
  /**
   * Only hits whose `score` is at least this (0..1); the first hit below it ends the answer. Needs `q`
   * (without it every score is 0): a `min_score` above 0 without `q` is a 400.
   */
  min_score?: number | undefined;
}
/** `limit`: versions (or chain links) per page (1..100, default 20); `cursor`: where to start. */
export interface MemoryHistoryParams {
  limit?: number | undefined;
  cursor?: string | undefined;
}
export interface ExportMindParams {
  mind_id?: string | undefined;
  include_credentials?: boolean | undefined;
}
export interface ImportMindParams {
  mode?: 'merge' | 'replace' | undefined;
  dry_run?: boolean | undefined;
}
export interface PostChatParams extends In<typeof C.PostChatBody> {}
/** Chat search: `q` (required), filters `thread`, `role`, `since`; `mode`; `limit` per page (1..100, default 20). */
export interface SearchChatParams extends In<typeof C.ChatSearchQuery> {}
/** `limit`: messages per page (1..100, default 50); `before`: a message id, to start further back. */
export interface ListChatParams {
  thread?: string | undefined;
  limit?: number | undefined;
  before?: string | undefined;
}
/** `limit`: scripts per page (1..100, default 100); `cursor`: where to start. */
export interface ListScriptsParams {
  limit?: number | undefined;
  cursor?: string | undefined;
}
export interface CreateScriptParams extends In<typeof C.CreateScriptBody> {}
export interface UpdateScriptParams extends In<typeof C.UpdateScriptBody> {}
export interface CreateWebhookParams extends In<typeof C.CreateWebhookBody> {}
export interface UpdateWebhookParams extends In<typeof C.UpdateWebhookBody> {}
/** `limit`: how many of the newest deliveries (1..100, default 50); the service has no further pages. */
export interface ListDeliveriesParams {
  limit?: number | undefined;
}
export interface InstallCodeParams extends In<typeof C.InstallCodeBody> {}
/** A command for a computer: `{ type: 'click', payload: { x, y } }`, `{ type: 'screenshot' }`... */
export type CommandParams = In<typeof C.QueueCommandBody>;
/** `limit`: commands per page (1..200, default 20); `cursor`: where to start. */
/** A computer's screen as its agent reports it (`Computer.screen`). */
export type ComputerScreen = NonNullable<Computer['screen']>;
/** How large a screenshot may be; it is scaled down, keeping its aspect ratio, to fit. */
export interface ScreenshotSize {
  max_width?: number | undefined;
  max_height?: number | undefined;
}
export interface ListCommandsParams {
  limit?: number | undefined;
  cursor?: string | undefined;
}
export interface RegisterComputerParams extends In<typeof C.RegisterComputerBody> {}
export interface CommandResultParams extends In<typeof C.CommandResultBody> {}
