// Writes a build into its folder so that a process starting meanwhile (another test, a second bin
// rebuilding at once, a browser loading the console) never reads half a file or a page that names
// a file not written yet: each file is written aside and renamed into place, the files that name
// others (`isLast`) after those they name; files of an older build are removed last.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** `files`: esbuild's output files ({ path, contents }). */
export function replaceOutputs(outdir, files, isLast) {
  const ordered = [...files.filter((file) => !isLast(file)), ...files.filter(isLast)];
  for (const file of ordered) {
    mkdirSync(dirname(file.path), { recursive: true });
    const aside = `${file.path}.${process.pid}.tmp`;
    writeFileSync(aside, file.contents);
    renameSync(aside, file.path);
  }
  const written = new Set(files.map((file) => file.path));
  const leftovers = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? leftovers(path) : written.has(path) || path.endsWith('.tmp') ? [] : [path];
    });
  for (const path of leftovers(outdir)) rmSync(path, { force: true });
}
