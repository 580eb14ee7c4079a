import { formatFileSize } from './text.js';

/** A directory's size as ext4 shows a small one, where the reference's answers were taken. */
const DIRECTORY_SIZE = '4K';

/** A file under the listed directory: its path below it (`a/b.md`) and its size in bytes. */
export interface ListedFile {
  relativePath: string;
  bytes: number;
}

interface Folder {
  files: Map<string, number>;
  folders: Map<string, Folder>;
}

const emptyFolder = (): Folder => ({ files: new Map(), folders: new Map() });

/**
 * `view` of a directory as the reference answers it: two levels deep, each level sorted by name,
 * names starting with `.` and `node_modules` left out (with what is below them). A directory exists
 * while it holds a file, so every folder here has one somewhere below.
 */
export function viewDirectory(path: string, files: ListedFile[]): string {
  const root = emptyFolder();
  for (const file of files) {
    const parts = file.relativePath.split('/');
    let folder = root;
    for (const name of parts.slice(0, -1)) {
      const next = folder.folders.get(name) ?? emptyFolder();
      folder.folders.set(name, next);
      folder = next;
    }
    folder.files.set(parts[parts.length - 1]!, file.bytes);
  }
  const lines = [`${DIRECTORY_SIZE}\t${path}`];
  const collect = (folder: Folder, prefix: string, depth: number) => {
    const names = [...new Set([...folder.files.keys(), ...folder.folders.keys()])].sort();
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const relative = prefix ? `${prefix}/${name}` : name;
      const sub = folder.folders.get(name);
      if (sub) {
        lines.push(`${DIRECTORY_SIZE}\t${path}/${relative}/`);
        if (depth < 2) collect(sub, relative, depth + 1);
      } else lines.push(`${formatFileSize(folder.files.get(name)!)}\t${path}/${relative}`);
    }
  };
  collect(root, '', 1);
  const header = `Here're the files and directories up to 2 levels deep in ${path}, excluding hidden items and node_modules:`;
  return `${header}\n${lines.join('\n')}`;
}
