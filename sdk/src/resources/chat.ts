import { ok } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import type { ChatMessage, ListChatParams, PostChatParams } from '../types.js';
import { Resource } from './resource.js';

/** Chat history of the client's mind (Mind Key). */
export class Chat extends Resource {
  /** Adds a message (`role`: `human` or `agent`) to a thread (`default` unless given). */
  async send(params: PostChatParams, options?: RequestOptions): Promise<ChatMessage> {
    return ok(this.api.memories.postChatMessage({ body: params, requestOptions: options }));
  }

  /** Messages of a thread, newest last; `before` (a message id) pages back. */
  async list(params: ListChatParams = {}, options?: RequestOptions): Promise<ChatMessage[]> {
    return (await ok(this.api.memories.listChatMessages({ query: params, requestOptions: options }))).messages;
  }
}
