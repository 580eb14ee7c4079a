// The types of build-bridge.mjs, for the tests that pack the bridge themselves.
export const PACKED_BRIDGE: string;
export function tarGzip(files: Array<[name: string, contents: Buffer, mode: number]>): Buffer;
export function buildBridgeTarball(esbuild: typeof import('esbuild'), root: string, outFile?: string): Promise<number>;
