// The file commands' text work, as the Anthropic SDK's local memory tool does it, answer for answer:
// line numbers six wide, `view_range`, the line-wise match of `str_replace`, `insert` at a line.

const MAX_LINES = 999999;
const LINE_NUMBER_WIDTH = String(MAX_LINES).length;

const numbered = (lines: string[], first: number) =>
  lines.map((line, i) => `${String(i + first).padStart(LINE_NUMBER_WIDTH, ' ')}\t${line}`).join('\n');

/** `view` of a file. */
export function viewFile(path: string, content: string, viewRange?: number[] | null): string {
  const lines = content.split('\n');
  if (lines.length > MAX_LINES) {
    throw new Error(`File ${path} has too many lines (${lines.length}). Maximum is ${MAX_LINES.toLocaleString()} lines.`);
  }
  let shown = lines;
  let first = 1;
  if (viewRange && viewRange.length === 2) {
    const start = Math.max(1, viewRange[0]!) - 1;
    const end = viewRange[1] === -1 ? lines.length : viewRange[1];
    shown = lines.slice(start, end);
    first = start + 1;
  }
  return `Here's the content of ${path} with line numbers:\n${numbered(shown, first)}`;
}

/** `str_replace`: the new text and the answer, or the reference's refusal. */
export function replaceOnce(path: string, content: string, oldStr: string, newStr: string): { content: string; answer: string } {
  const matching: number[] = [];
  content.split('\n').forEach((line, index) => {
    if (line.includes(oldStr)) matching.push(index + 1);
  });
  if (matching.length === 0) {
    throw new Error(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.`);
  }
  if (matching.length > 1) {
    throw new Error(
      `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines: ${matching.join(', ')}. Please ensure it is unique`,
    );
  }
  const next = content.replace(oldStr, () => newStr);
  const lines = next.split('\n');
  const changed = matching[0]! - 1;
  const start = Math.max(0, changed - 2);
  const end = Math.min(lines.length, changed + 3);
  const snippet = numbered(lines.slice(start, end), start + 1);
  return {
    content: next,
    answer: `The memory file has been edited. Here is the snippet showing the change (with line numbers):\n${snippet}`,
  };
}

/** `insert`: the new text, or the reference's refusal of a line out of range. */
export function insertAt(content: string, line: number, text: string): string {
  const lines = content.split('\n');
  if (line < 0 || line > lines.length) {
    throw new Error(`Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: [0, ${lines.length}]`);
  }
  lines.splice(line, 0, text.replace(/\n$/, ''));
  return lines.join('\n');
}

/** A size as the reference lists it: `0B`, `512B`, `1.5K`, `4K`. */
export function formatFileSize(bytes: number): string {
  if (bytes === 0) return '0B';
  const sizes = ['B', 'K', 'M', 'G'];
  const i = Math.floor(Math.log(bytes) / Math.log(1024));
  const size = bytes / 1024 ** i;
  return (size % 1 === 0 ? size.toString() : size.toFixed(1)) + sizes[i];
}
