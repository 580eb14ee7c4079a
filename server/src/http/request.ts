import type { IncomingMessage } from 'node:http';

/**
 * A request as it arrives, before the pipeline or Express has read anything of it. `logFields` are
 * added to its log line by whoever serves it (/mcp: the tool called, or the size of a batch).
 */
export type RawRequest = IncomingMessage & { requestId?: string; logFields?: Record<string, unknown> };

/** A request as the pipeline hands it to a handler. */
export type ApiRequest = IncomingMessage & {
  requestId?: string;
  /** The client's address under the trust-proxy setting. */
  ip: string;
  query: Record<string, string | string[] | undefined>;
};
