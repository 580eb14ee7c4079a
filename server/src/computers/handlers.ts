import type { contract } from '@mindservice/contract';
import type { AppContext } from '../context.js';
import { computerCaller as agentCaller, userOrMindCaller } from '../http/caller.js';
import type { RouterImpl } from '../http/router.js';
import { AgentService } from './agent.js';
import { type CommandBus, clientGone, InProcessCommandBus } from './bus.js';
import { PostgresCommandBus } from './pg-bus.js';
import { commandFromBody, commandFromQuery } from './payloads.js';
import { ComputersService } from './service.js';
import { type SweepCounts, startSweeper, sweepCommands } from './sweeper.js';

const buses = new WeakMap<AppContext, CommandBus>();

/** The service's one command bus (LISTEN/NOTIFY on PostgreSQL): waiting polls and screenshot requests end when it closes. */
function busOf(ctx: AppContext): CommandBus {
  let bus = buses.get(ctx);
  if (!bus) {
    if (ctx.config.databaseUrl) {
      const created = new PostgresCommandBus(ctx.config.databaseUrl, ctx.log);
      ctx.beforeReady(created.start());
      ctx.onClose(() => created.stop());
      bus = created;
    } else {
      const created = new InProcessCommandBus();
      ctx.onClose(() => created.close());
      bus = created;
    }
    // A graceful shutdown ends waiting polls at once with an empty answer (the agent polls again elsewhere).
    ctx.onDrain(() => bus!.close());
    buses.set(ctx, bus);
  }
  return bus;
}

/** Runs one sweep now (tests move the clock and call this instead of waiting for the timer). */
export const sweepComputerCommands = (ctx: AppContext): Promise<SweepCounts> => sweepCommands(ctx, busOf(ctx));

const userSide = userOrMindCaller;
const computerCaller = agentCaller;

export function computersHandlers(ctx: AppContext): RouterImpl<typeof contract.computers> {
  const bus = busOf(ctx);
  startSweeper(ctx, bus);
  const computers = new ComputersService(ctx, bus);
  const agent = new AgentService(ctx, bus);
  return {
    createInstallCode: async ({ body, req }) => ({ status: 201, body: await computers.createInstallCode(userSide(req), body) }),
    listComputers: async ({ req }) => ({ status: 200, body: { computers: await computers.list(userSide(req)) } }),
    getComputer: async ({ params, req }) => ({ status: 200, body: await computers.get(userSide(req), params.id) }),
    queueCommand: async ({ params, body, req }) => ({
      status: 201,
      body: await computers.queue(userSide(req), params.id, commandFromBody(body)),
    }),
    queueCommandFromQuery: async ({ params, query, req }) => {
      const caller = userSide(req);
      return { status: 201, body: await computers.queue(caller, params.id, commandFromQuery(query)) };
    },
    listCommands: async ({ params, query, req }) => ({
      status: 200,
      body: { commands: await computers.listCommands(userSide(req), params.id, query.limit) },
    }),
    getCommand: async ({ params, req }) => ({ status: 200, body: await computers.getCommand(userSide(req), params.id, params.cid) }),
    cancelCommand: async ({ params, req }) => ({ status: 200, body: await computers.cancel(userSide(req), params.id, params.cid) }),
    screenshot: async ({ params, req, res }) => {
      const png = await computers.screenshot(userSide(req), params.id, clientGone(res));
      // The contract types the PNG as a Blob (what clients receive); Express sends a Buffer as is.
      return { status: 200, body: png as unknown as Blob };
    },
    disableComputer: async ({ params, req }) => ({ status: 200, body: await computers.disable(userSide(req), params.id) }),
    deleteComputer: async ({ params, req }) => {
      await computers.delete(userSide(req), params.id);
      return { status: 204, body: undefined };
    },
    registerComputer: async ({ body, req }) => ({ status: 201, body: await agent.register(body, req.ip) }),
    // Served before Express too (http/direct-routes.ts), by this same function.
    pollCommands: async ({ query, req, res }) => ({
      status: 200,
      body: await agent.poll(computerCaller(req), query.wait, clientGone(res)),
    }),
    postCommandResult: async ({ params, body, req }) => ({
      status: 200,
      body: await agent.postResult(computerCaller(req), params.cid, body),
    }),
  };
}
