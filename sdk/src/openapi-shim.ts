// Stands in for @asteasolutions/zod-to-openapi in the built SDK: tsup aliases that import of the contract
// here (tsup.config.ts). The contract calls `.openapi(...)` on its schemas for the OpenAPI document only;
// a client needs none of that, so the method hands the schema back unchanged and the published package
// needs neither zod-to-openapi nor what it pulls in (openapi3-ts, yaml). In the workspace the contract
// keeps the real package and nothing here runs.

interface ZodLike {
  ZodType: { prototype: object };
}

const openapi = function openapi<T>(this: T): T {
  return this;
};

let extended: { openapi?: unknown } | undefined;

/** Gives zod's schemas an `.openapi()` that returns the schema itself, unless zod already has one. */
export function extendZodWithOpenApi(zod: ZodLike): void {
  const prototype = zod.ZodType.prototype as { openapi?: unknown };
  if (prototype.openapi !== undefined) return;
  Object.defineProperty(prototype, 'openapi', { value: openapi, configurable: true, writable: true });
  extended = prototype;
}

/**
 * Takes the stand-in off zod once the contract's schemas are built. zod is shared with the application,
 * and the real extendZodWithOpenApi does nothing to a zod that already has `.openapi`.
 */
export function releaseZod(): void {
  if (extended?.openapi === openapi) delete extended.openapi;
  extended = undefined;
}
