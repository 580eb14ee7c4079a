// The parts of the generated document the steps after generation read and change.
import type { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';

export type Document = ReturnType<OpenApiGeneratorV31['generateDocument']>;
export interface ParameterObject {
  name: string;
  in: string;
  schema?: Record<string, unknown>;
  [key: string]: unknown;
}

export type Schema = Record<string, unknown>;
export interface MediaLike {
  schema?: Schema;
  example?: unknown;
  examples?: unknown;
}
export interface OperationLike {
  parameters?: ParameterObject[];
  requestBody?: { content: Record<string, MediaLike> };
  responses: Record<string, { content?: Record<string, MediaLike> }>;
}
