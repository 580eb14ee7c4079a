// Every schema file imports `z` from here, so `.openapi()` exists before any schema is built.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
