import { c, meta, routerOptions } from './common.js';
import { z } from './zod.js';

export const Health = z
  .object({
    status: z.enum(['ok', 'starting', 'draining', 'unavailable']),
    version: z.string().openapi({ example: '0.1.0' }),
    uptime_s: z.number().int().openapi({ description: 'Seconds since the process started.', example: 3600 }),
    database: z.enum(['ok', 'unreachable']),
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
