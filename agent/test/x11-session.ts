// Test helpers: a private X server (Xvfb) with one xterm whose program records every byte it receives.
// The program turns on xterm's mouse reporting (SGR mode), so clicks, wheel steps and drags arrive in
// the record as `ESC [ < button ; column ; row M` (press) or `... m` (release), typed text as UTF-8.
// A second xterm shows known text without mouse reporting, so xterm itself selects with the mouse and
// the selection can be read back from the X PRIMARY selection.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface X11Session {
  display: string;
  /** The file the xterm's program writes everything it receives to. */
  recordPath: string;
  /** Bytes recorded so far. */
  record(): Buffer;
  /** The xterm window's character cell in pixels, to turn a point into a column and row. */
  cell: { width: number; height: number; border: number };
  /** The screen's size. */
  screen: { width: number; height: number };
  /** The window showing TEXT_LINES: its top-left corner (its cell is `cell`). */
  textWindow: { x: number; y: number };
  /** The X PRIMARY selection's text (xclip). */
  primarySelection(): string;
  stop(): void;
}

/** What the second xterm shows, from its first row. */
export const TEXT_LINES = ['alpha beta gamma', 'second line here'];
const TEXT_WINDOW = { x: 600, y: 0 };

export function hasCommand(command: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, command)));
}

/** The test X server's autorepeat delay: a key held longer than this repeats. */
export const AUTOREPEAT_DELAY_MS = 1500;

export async function startX11Session(dir: string, screen = { width: 1024, height: 768 }): Promise<X11Session> {
  const recordPath = join(dir, 'xterm-input.bin');
  // -displayfd: Xvfb picks a free display number and writes it to fd 3, so parallel runs never collide.
  const size = `${screen.width}x${screen.height}x24`;
  // -ardelay: a key repeats once held 1.5 s (the default, 660 ms, is within what a loaded machine
  // can stall between a typed key's down and up, and a typed character then arrived twice).
  const xvfb = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', size, '-nolisten', 'tcp', '-noreset', '-ardelay', String(AUTOREPEAT_DELAY_MS)],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  const children: ChildProcess[] = [xvfb];
  const stop = () => {
    for (const child of children.reverse()) if (child.exitCode === null) child.kill('SIGTERM');
  };
  try {
    const number = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error('Xvfb did not start within 10 s')), 10_000);
      xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) {
          clearTimeout(timer);
          resolve(text.trim());
        }
      });
      xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
    });
    const display = `:${number}`;
    const env = { ...process.env, DISPLAY: display, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };
    const program = `stty raw -echo; printf '\\033[?1002h\\033[?1006h'; exec cat > '${recordPath}'`;
    const xterm = spawn('xterm', ['-u8', '-T', 'record', '-geometry', '80x24+0+0', '-e', 'bash', '-c', program], { env, stdio: 'ignore' });
    children.push(xterm);
    const shown = `printf '${TEXT_LINES.join('\\n')}\\n'; exec sleep 100000`;
    const geometry2 = `40x5+${TEXT_WINDOW.x}+${TEXT_WINDOW.y}`;
    children.push(spawn('xterm', ['-u8', '-T', 'text', '-geometry', geometry2, '-e', 'bash', '-c', shown], { env, stdio: 'ignore' }));
    await waitUntil(() => existsSync(recordPath), 10_000, 'the xterm did not start its program');
    // The window is mapped before its program runs; give the terminal a moment to apply the modes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const geometry = execFileSync('xdotool', ['search', '--sync', '--name', '^record$', 'getwindowgeometry'], {
      env,
      timeout: 10_000,
    }).toString();
    execFileSync('xdotool', ['search', '--sync', '--name', '^text$'], { env, timeout: 10_000 });
    const [, w, h] = /Geometry: (\d+)x(\d+)/.exec(geometry) ?? [];
    const border = 2; // xterm's default internal border
    const cell = { width: (Number(w) - 2 * border) / 80, height: (Number(h) - 2 * border) / 24, border };
    const primarySelection = () => execFileSync('xclip', ['-o', '-selection', 'primary'], { env, timeout: 5_000 }).toString('utf8');
    return { display, recordPath, record: () => readFileSync(recordPath), cell, screen, textWindow: TEXT_WINDOW, primarySelection, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** Waits for `check`; `what` (or what it returns, evaluated on timeout) names what did not happen. */
export async function waitUntil(check: () => boolean, timeoutMs: number, what: string | (() => string)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** SGR mouse reports in the recorded bytes. */
export function mouseReports(bytes: Buffer): Array<{ button: number; column: number; row: number; press: boolean }> {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: xterm's mouse reports start with ESC
  return [...bytes.toString('latin1').matchAll(/\x1b\[<(\d+);(\d+);(\d+)([Mm])/g)].map((m) => ({
    button: Number(m[1]),
    column: Number(m[2]),
    row: Number(m[3]),
    press: m[4] === 'M',
  }));
}
