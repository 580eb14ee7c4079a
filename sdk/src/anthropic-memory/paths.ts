// Paths as the Anthropic SDK's local memory tool (BetaLocalFilesystemMemoryTool) takes them: under
// `/memories`, `.`, `..` and repeated slashes resolved the way its POSIX path.join and path.resolve
// do, with the same messages. A resolved path is a mind's memory key, `/memories/a/b.md`.

const ROOT_NAME = 'memories';
/** The key of the `/memories` directory itself; a file's key is `/memories/` and its path below. */
export const ROOT_KEY = '/memories';

/** A path the tool was given, resolved: its key and whether it is `/memories` itself. */
export interface ResolvedPath {
  key: string;
  isRoot: boolean;
}

/**
 * Resolves `memoryPath` as the reference does: it must start with `/memories` (the text after it is
 * joined to the folder, so `/memoriesX/y` is `X/y` in it), and must not leave it. The folder's own parent is unknown here, so a path that climbs above it and comes
 * back down through a folder named `memories` is taken as the reference would take it.
 */
export function resolvePath(memoryPath: string): ResolvedPath {
  if (!memoryPath.startsWith('/memories')) throw new Error(`Path must start with /memories, got: ${memoryPath}`);
  const relative = memoryPath.slice('/memories'.length).replace(/^\//, '');
  // Segments below the memory folder's parent: [memories, ...]; null once above that parent.
  let segments: string[] | null = [ROOT_NAME];
  for (const segment of relative.split('/')) {
    if (segments === null) break;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) segments = null;
      else segments.pop();
    } else segments.push(segment);
  }
  if (segments === null || segments[0] !== ROOT_NAME) throw new Error(`Path ${memoryPath} would escape /memories directory`);
  const below = segments.slice(1);
  return { key: below.length === 0 ? ROOT_KEY : `${ROOT_KEY}/${below.join('/')}`, isRoot: below.length === 0 };
}

/** The parent directories of a key, nearest last, `/memories` excluded. */
export function parentKeys(key: string): string[] {
  const parts = key.slice(ROOT_KEY.length + 1).split('/');
  return parts.slice(0, -1).map((_, i) => `${ROOT_KEY}/${parts.slice(0, i + 1).join('/')}`);
}

/** Is `key` a file's key the tool can address (one a mind may hold that no normalisation would change)? */
export function isFileKey(key: string): boolean {
  if (!key.startsWith(`${ROOT_KEY}/`)) return false;
  return key
    .slice(ROOT_KEY.length + 1)
    .split('/')
    .every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}
