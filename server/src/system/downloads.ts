import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { ApiError } from '../http/api-error.js';

// GET /downloads/mindservice-sdk.tgz: the SDK's stdio bridge `mind-mcp` as a tarball npm installs
// (`npx -y -p <public URL>/downloads/mindservice-sdk.tgz mind-mcp`), packed by `pnpm install` /
// `pnpm build` (sdk/build-bridge.mjs), never here. It holds no secret: no credential is asked for.
const BRIDGE_TARBALL = fileURLToPath(new URL('../../../sdk/packed/mindservice-sdk.tgz', import.meta.url));

export const DOWNLOAD_PATH = '/downloads/mindservice-sdk.tgz';

/** Whether a path is one downloadsRouter serves. */
export const isDownloadsPath = (path: string) => path === DOWNLOAD_PATH;

interface Packed {
  mtimeMs: number;
  size: number;
  bytes: Buffer;
  etag: string;
}

const notBuilt = () =>
  ApiError.of(
    404,
    'route_not_found',
    'The mind-mcp tarball is not built on this server: run `pnpm install` (or `pnpm build`) in the repository, then ask again.',
    { details: [{ path: 'url', message: 'sdk/packed/mindservice-sdk.tgz is missing' }] },
  );

/** The download; `file`: the tarball (tests). Read again only when a build replaced it. */
export function downloadsRouter(file = BRIDGE_TARBALL): Router {
  let packed: Packed | undefined;
  const current = (): Packed | undefined => {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) return undefined;
    if (packed?.mtimeMs !== stat.mtimeMs || packed.size !== stat.size) {
      const bytes = readFileSync(file);
      const etag = `"${createHash('sha256').update(bytes).digest('base64url')}"`;
      packed = { mtimeMs: stat.mtimeMs, size: stat.size, bytes, etag };
    }
    return packed;
  };
  const router = express.Router({ caseSensitive: true, strict: true });
  router.get(DOWNLOAD_PATH, (_req, res, next) => {
    const tarball = current();
    if (!tarball) return next(notBuilt());
    // The bridge changes with the server: a cache may keep it, but asks (If-None-Match) before using it.
    res.set({
      'Content-Type': 'application/gzip',
      'Content-Disposition': 'attachment; filename="mindservice-sdk.tgz"',
      'Cache-Control': 'public, no-cache',
      ETag: tarball.etag,
    });
    // send() answers 304 without a body when the request's If-None-Match names this ETag.
    res.send(tarball.bytes);
  });
  return router;
}
