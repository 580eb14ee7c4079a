import type { AppRoute } from '@ts-rest/core';
import type { ContractRoute } from '../routes.js';
import type { z } from '../zod.js';
import { sampleOf } from './samples.js';
import type { Document, MediaLike, OperationLike, Schema } from './types.js';

function operationOf(document: Document, route: AppRoute): OperationLike {
  const pathItem = document.paths?.[route.path.replace(/:(\w+)/g, '{$1}')] as Record<string, OperationLike> | undefined;
  const operation = pathItem?.[route.method.toLowerCase()];
  if (!operation) throw new Error(`${route.method} ${route.path}: not in the document`);
  return operation;
}

/**
 * Every JSON request body and success answer shows one whole example (LLM tool builders and client
 * generators read no property examples): made of its schema's property examples, and parsed by the
 * route's own zod schema, so it is a request the server takes and an answer it gives.
 */
export function wholeExamples(document: Document, routes: ContractRoute[]) {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  for (const { key, route } of routes) {
    const operation = operationOf(document, route);
    const add = (media: MediaLike | undefined, schema: unknown, where: string) => {
      if (!media?.schema || media.example !== undefined || media.examples !== undefined) return;
      const value = sampleOf(media.schema, components, where);
      const parsed = (schema as z.ZodTypeAny).safeParse(value);
      if (!parsed.success) throw new Error(`${where}: the example made of the property examples is refused: ${parsed.error.message}`);
      media.example = value;
    };
    add(operation.requestBody?.content['application/json'], 'body' in route ? route.body : undefined, `${key} body`);
    for (const [code, response] of Object.entries(operation.responses)) {
      if (Number(code) < 300) add(response.content?.['application/json'], route.responses[Number(code)], `${key} ${code}`);
    }
  }
}
