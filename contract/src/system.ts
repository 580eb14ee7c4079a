import { c, meta, routerOptions } from './common.js';
import { z } from './zod.js';

export const Health = z
  .object({
    status: z.enum(['ok', 'starting', 'draining', 'unavailable']),
    version: z.string().openapi({ example: '0.1.0' }),
    uptime_s: z.number().int().openapi({ description: 'Seconds since the process started.', example: 3600 }),
    database: z.enum(['ok', 'unreachable']),
    embeddings: z
      .object({
        provider: z.enum(['local', 'openai', 'off']).openapi({ description: 'MIND_EMBEDDINGS.', example: 'local' }),
        model: z
          .string()
          .nullable()
          .openapi({ description: 'The model stored with each vector; null when off.', example: 'local-glove100-sif-v1' }),
        state: z.enum(['ok', 'failing', 'off']).openapi({
          description: '`failing`: the embedder does not answer; memories wait to be embedded and recall works by keyword meanwhile.',
          example: 'ok',
        }),
        detail: z.string().optional().openapi({ description: 'Why it is failing.', example: 'connect ECONNREFUSED 127.0.0.1:11434' }),
      })
      .optional()
      .openapi({ description: 'Recall by meaning (once the service is ready). Its failure does not make the service unhealthy.' }),
  })
  .openapi('Health');
export type Health = z.infer<typeof Health>;

export const EndpointInfo = z
  .object({
    method: z.string().openapi({ example: 'POST' }),
    path: z.string().openapi({ example: '/mind/task' }),
    auth: z.enum(['none', 'jwt', 'mindKey', 'mindKeyOrJwt', 'computerToken']).openapi({ example: 'mindKey' }),
    summary: z.string().openapi({ example: 'Create a task' }),
  })
  .openapi('EndpointInfo');

export const systemContract = c.router(
  {
    health: {
      method: 'GET',
      path: '/health',
      summary: 'Health check',
      description:
        '200 when the service is ready and its database answers; 503 while starting, draining or when the database is unreachable.',
      responses: { 200: Health, 503: Health },
      metadata: meta('none', 'System'),
    },
    listEndpoints: {
      method: 'GET',
      path: '/endpoints',
      summary: 'List every route',
      description: 'Every route of the API with the credential it takes. Only these routes exist.',
      responses: { 200: z.object({ endpoints: z.array(EndpointInfo) }).openapi('EndpointList') },
      metadata: meta('none', 'System'),
    },
  },
  routerOptions({}),
);
