// The SDK's public types, all inferred from the contract's schemas: responses are what the service answers,
// params are what a call accepts (zod input types).
import type * as C from './contract.js';
import type { z } from 'zod';

// Responses
export type User = z.output<typeof C.User>;
export type AuthResponse = z.output<typeof C.AuthResponse>;
export type CreatedMind = z.output<typeof C.CreatedMind>;
export type MindSummary = z.output<typeof C.MindSummary>;
export type Task = z.output<typeof C.Task>;
export type TaskList = z.output<typeof C.TaskList>;
export type TaskPriority = z.output<typeof C.TaskPriority>;
export type TaskStatus = z.output<typeof C.TaskStatus>;
export type DeletedTask = z.output<typeof C.DeletedTask>;
export type Memory = z.output<typeof C.Memory>;
export type MemoryCategory = z.output<typeof C.MemoryCategory>;
export type RecallHit = z.output<typeof C.RecallHit>;
export type RecallResult = z.output<typeof C.RecallResult>;
export type MemoryStats = z.output<typeof C.MemoryStats>;
export type MindExport = z.output<typeof C.MindExport>;
export type ImportResult = z.output<typeof C.ImportResult>;
export type ChatMessage = z.output<typeof C.ChatMessage>;
export type Script = z.output<typeof C.Script>;
export type CreatedWebhook = z.output<typeof C.CreatedWebhook>;
export type Webhook = z.output<typeof C.Webhook>;
export type WebhookTestResult = z.output<typeof C.WebhookTestResult>;
export type Delivery = z.output<typeof C.Delivery>;
export type Computer = z.output<typeof C.Computer>;
export type InstallCode = z.output<typeof C.InstallCode>;
export type Command = z.output<typeof C.Command>;
export type CommandList = z.output<typeof C.CommandList>;
export type ScreenshotRef = z.output<typeof C.ScreenshotRef>;
export type CommandType = z.output<typeof C.CommandType>;
export type CommandStatus = z.output<typeof C.CommandStatus>;
export type QueuedCommand = z.output<typeof C.QueuedCommand>;
export type RegisteredComputer = z.output<typeof C.RegisteredComputer>;
export type PolledCommand = z.output<typeof C.PolledCommand>;
export type Health = z.output<typeof C.Health>;
export type EndpointInfo = z.output<typeof C.EndpointInfo>;
export type ErrorObject = z.output<typeof C.ErrorObject>;
export type EventName = C.EventName;

// Params
export type RegisterParams = z.input<typeof C.RegisterBody>;
export type LoginParams = z.input<typeof C.LoginBody>;
export type CreateMindParams = z.input<typeof C.CreateMindBody>;
export type CreateTaskParams = z.input<typeof C.CreateTaskBody>;
export type UpdateTaskParams = z.input<typeof C.UpdateTaskBody>;
/** `limit`: tasks per page (1..100, default 100); `cursor`: a page's `next_cursor`. */
export type ListTasksParams = { status?: z.input<typeof C.TaskStatusFilter>; limit?: number; cursor?: string };
export type StoreMemoryParams = z.input<typeof C.StoreMemoryBody>;
export type UpdateMemoryParams = z.input<typeof C.UpdateMemoryBody>;
/** Recall filters; `verified` as a boolean, `tags` as one tag or several (all required). */
export type RecallParams = Omit<z.input<typeof C.RecallQuery>, 'verified'> & { verified?: boolean };
export type ExportMindParams = { mind_id?: string; include_credentials?: boolean };
export type ImportMindParams = { mode?: 'merge' | 'replace'; dry_run?: boolean };
export type PostChatParams = z.input<typeof C.PostChatBody>;
/** `limit`: 1..100 messages (default 50); `before`: a message id, to page back. */
export type ListChatParams = { thread?: string; limit?: number; before?: string };
export type CreateScriptParams = z.input<typeof C.CreateScriptBody>;
export type UpdateScriptParams = z.input<typeof C.UpdateScriptBody>;
export type CreateWebhookParams = z.input<typeof C.CreateWebhookBody>;
export type UpdateWebhookParams = z.input<typeof C.UpdateWebhookBody>;
export type InstallCodeParams = z.input<typeof C.InstallCodeBody>;
/** A command for a computer: `{ type: 'click', payload: { x, y } }`, `{ type: 'screenshot' }`... */
export type CommandParams = z.input<typeof C.QueueCommandBody>;
export type RegisterComputerParams = z.input<typeof C.RegisterComputerBody>;
export type CommandResultParams = z.input<typeof C.CommandResultBody>;
