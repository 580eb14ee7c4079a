import type { contract } from '@mindservice/contract';
import type { Area } from '../core/area.js';
import type { AppContext } from '../core/context.js';
import type { DialectName } from '../db/database.js';
import { AgentSideService } from './agent-side.js';
import { type CommandBus, clientGone, InProcessCommandBus } from './bus.js';
import type { OneStatementDispatch } from './dispatch.js';
import { postgresDispatch } from './dispatch-postgres.js';
import { commandFromBody, commandFromQuery } from './payloads.js';
import { SharedCommandBus } from './shared-bus.js';
import { ComputersService } from './service.js';
import { CommandRetention, type SweepCounts, startSweeper, sweepCommands } from './sweeper.js';

/** Where a round trip costs more than the statements, dispatch is one statement per step (dispatch.ts). */
const ONE_STATEMENT_DISPATCH: Record<DialectName, OneStatementDispatch | undefined> = { sqlite: undefined, postgres: postgresDispatch };

export interface ComputersArea extends Area<typeof contract.computers> {
  /** Runs one sweep now (tests move the clock and call this instead of waiting for the timer). */
  sweep(): Promise<SweepCounts>;
}

/** Computers and their agents: the command bus (across instances where they share the database) and the sweeper behind the routes. */
export function computersArea(ctx: AppContext): ComputersArea {
  const channel = ctx.dialect.instanceChannel(ctx.config, ctx.log);
  const bus: CommandBus & { start?(): Promise<void>; stop?(): Promise<void> } = channel
    ? new SharedCommandBus(channel)
    : new InProcessCommandBus();
  const retention = new CommandRetention(ctx);
  const dispatch = ONE_STATEMENT_DISPATCH[ctx.dialect.name];
  const computers = new ComputersService(ctx, bus, dispatch, (computerId) => retention.noteQueued(computerId));
  const agent = new AgentSideService(ctx, bus, dispatch);
  let stopSweeper: (() => Promise<void>) | undefined;

  return {
    sweep: () => sweepCommands(ctx, bus, retention),
    async start() {
      await bus.start?.();
      stopSweeper = startSweeper(ctx, bus, retention);
    },
    // Waiting polls end at once with an empty answer (the agent polls again elsewhere).
    drain: () => bus.close(),
    async stop() {
      await stopSweeper?.();
      bus.close();
      await bus.stop?.();
    },
    handlers: {
      createInstallCode: async ({ body, caller }) => ({ status: 201, body: await computers.createInstallCode(caller, body) }),
      listComputers: async ({ query, caller }) => ({ status: 200, body: await computers.list(caller, query) }),
      getComputer: async ({ params, caller }) => ({ status: 200, body: await computers.get(caller, params.id) }),
      queueCommand: async ({ params, body, caller }) => ({
        status: 201,
        body: await computers.queue(caller, params.id, commandFromBody(body)),
      }),
      queueCommandFromQuery: async ({ params, query, caller }) => ({
        status: 201,
        body: await computers.queue(caller, params.id, commandFromQuery(query), 'query'),
      }),
      listCommands: async ({ params, query, caller }) => ({
        status: 200,
        body: await computers.listCommands(caller, params.id, query),
      }),
      getCommand: async ({ params, caller }) => ({ status: 200, body: await computers.getCommand(caller, params.id, params.cid) }),
      getCommandScreenshot: async ({ params, caller }) => {
        const png = await computers.commandScreenshot(caller, params.id, params.cid);
        // Typed as a Blob (what clients receive); the pipeline sends the Buffer as is.
        return { status: 200, body: png as unknown as Blob };
      },
      cancelCommand: async ({ params, caller }) => ({ status: 200, body: await computers.cancel(caller, params.id, params.cid) }),
      screenshot: async ({ params, query, caller, res }) => {
        const png = await computers.screenshot(caller, params.id, query, clientGone(res));
        // The contract types the PNG as a Blob (what clients receive); the pipeline sends the Buffer as is.
        return { status: 200, body: png as unknown as Blob };
      },
      disableComputer: async ({ params, caller }) => ({ status: 200, body: await computers.disable(caller, params.id) }),
      deleteComputer: async ({ params, caller }) => {
        await computers.delete(caller, params.id);
        return { status: 204, body: undefined };
      },
      registerComputer: async ({ body, req }) => ({ status: 201, body: await agent.register(body, req.ip) }),
      pollCommands: async ({ query, caller, res }) => ({ status: 200, body: await agent.poll(caller, query.wait, clientGone(res)) }),
      reportScreen: async ({ body, caller }) => ({ status: 200, body: await agent.reportScreen(caller, body) }),
      postCommandResult: async ({ params, body, caller }) => ({ status: 200, body: await agent.postResult(caller, params.cid, body) }),
    },
  };
}
