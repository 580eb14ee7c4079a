// The API contract, bundled into the SDK. It is imported by its path, not as the workspace package
// @mindservice/contract, which is not published: the SDK's package.json never names it, not even as a
// development dependency, so the packed package.json cannot either. In the build the contract's
// zod-to-openapi import becomes ./openapi-shim.ts, taken off zod again once the schemas are built.
import { releaseZod } from './openapi-shim.js';

export * from '../../contract/src/index.js';

releaseZod();
