import type { Api } from '../core/api.js';
import type { Transport } from '../core/transport.js';

/** What every resource holds: the typed ts-rest client of the contract and the transport under it. */
export interface ClientCore {
  readonly api: Api;
  readonly transport: Transport;
}

export abstract class Resource {
  protected readonly api: Api;
  constructor(protected readonly core: ClientCore) {
    this.api = core.api;
  }
}
