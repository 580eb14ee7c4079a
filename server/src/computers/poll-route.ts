import type { ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { contract } from '@mindservice/contract';
import type { AppContext } from '../context.js';
import type { Authenticator } from '../http/auth.js';
import { computerCaller } from '../http/caller.js';
import { answerError, sendJson, validationErrorFrom } from '../http/errors.js';
import type { RawRequest } from '../http/request-log.js';
import { AgentService } from './agent.js';
import { clientGone } from './bus.js';
import { busOf } from './handlers.js';

const route = contract.computers.pollCommands;

/** The agent's long-poll, exactly as agents send it; anything else (HEAD, a trailing slash) goes through Express. */
export const isPollRequest = (req: RawRequest) =>
  req.method === 'GET' && (req.url === route.path || req.url?.startsWith(`${route.path}?`) === true);

/**
 * `GET /computers/me/poll`, served by node:http before Express. Every registered computer keeps one
 * poll waiting, so what a waiting poll holds is multiplied by thousands: through Express, its router
 * and ts-rest a poll held about three times what node:http's own request holds (see
 * docs/performance.md). Same contract schema, auth path, error object and log line as every route.
 */
export function pollRoute(ctx: AppContext, auth: Authenticator, onUnexpected: (err: unknown, req: RawRequest) => void) {
  const agent = new AgentService(ctx, busOf(ctx));
  const answer = async (req: RawRequest, res: ServerResponse) => {
    const caller = computerCaller({ caller: await auth.authenticate(req, res, route.metadata.auth) });
    const queryAt = req.url!.indexOf('?');
    const query = route.query.safeParse(queryAt < 0 ? {} : parseQuery(req.url!.slice(queryAt + 1)));
    if (!query.success) throw validationErrorFrom('query', query.error);
    const body = await agent.poll(caller, query.data.wait, clientGone(res));
    sendJson(res, 200, ctx.config.validateResponses ? route.responses[200].parse(body) : body);
  };
  return (req: RawRequest, res: ServerResponse) => {
    answer(req, res).catch((err: unknown) => answerError(err, req, res, onUnexpected));
  };
}
