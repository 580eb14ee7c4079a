// The user-side client: resources as properties, each method `(params, options?)`.
import { type Api, createApi } from './core/api.js';
import type { TransportOptions } from './core/options.js';
import { Transport } from './core/transport.js';
import { Accounts } from './resources/accounts.js';
import { Chat } from './resources/chat.js';
import { Computers } from './resources/computers.js';
import { Memories } from './resources/memories.js';
import { Minds } from './resources/minds.js';
import type { ClientCore } from './resources/resource.js';
import { Scripts } from './resources/scripts.js';
import { System } from './resources/system.js';
import { Tasks } from './resources/tasks.js';
import { Webhooks } from './resources/webhooks.js';

export interface MindClientOptions extends TransportOptions {
  /** The mind's key (`mk_...`): tasks, memories, chat, scripts, webhooks, computers. */
  mindKey?: string | undefined;
  /** The account's token from register or login: minds, computers, verifying memories. */
  jwt?: string | undefined;
}

export class MindClient implements ClientCore {
  readonly transport: Transport;
  readonly api: Api;

  readonly accounts: Accounts;
  readonly minds: Minds;
  readonly tasks: Tasks;
  readonly memories: Memories;
  readonly chat: Chat;
  readonly scripts: Scripts;
  readonly webhooks: Webhooks;
  readonly computers: Computers;
  readonly system: System;

  constructor(private readonly options: MindClientOptions) {
    const { mindKey, jwt, ...transport } = options;
    this.transport = new Transport(transport, { mindKey, jwt });
    this.api = createApi(this.transport);
    this.accounts = new Accounts(this);
    this.minds = new Minds(this);
    this.tasks = new Tasks(this);
    this.memories = new Memories(this);
    this.chat = new Chat(this);
    this.scripts = new Scripts(this);
    this.webhooks = new Webhooks(this);
    this.computers = new Computers(this);
    this.system = new System(this);
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** A new client with some options changed, e.g. `client.withOptions({ mindKey })` after creating a mind. */
  withOptions(options: Partial<MindClientOptions>): MindClient {
    return new MindClient({ ...this.options, ...options });
  }
}
