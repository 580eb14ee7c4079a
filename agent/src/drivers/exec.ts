// Runs an external tool and turns its failures into messages a user can act on.
import { execFile } from 'node:child_process';
import { MissingToolError } from './driver.js';

export interface Tool {
  /** The program's name on PATH. */
  command: string;
  /** The Debian/Ubuntu package that provides it. */
  packageName: string;
  /** What the agent uses it for (shown by `doctor`). */
  purpose: string;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** stdout larger than this fails the run (screenshots of big screens stay well below). */
  maxBuffer?: number;
}

/** Runs `tool.command args`; resolves with stdout and stderr, rejects with a message naming what went wrong. */
export function runTool(tool: Tool, args: string[], options: RunOptions = {}): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      tool.command,
      args,
      {
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 30_000,
        maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024,
        encoding: 'buffer',
      },
      (error, stdout, stderr) => {
        const errText = stderr.toString('utf8').trim();
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') return reject(new MissingToolError(tool.command, tool.packageName));
          if (error.killed) return reject(new Error(`${tool.command} did not finish within ${(options.timeoutMs ?? 30_000) / 1000} s`));
          const detail = errText || error.message;
          return reject(new Error(`${tool.command} failed: ${firstLines(detail)}`));
        }
        resolve({ stdout, stderr: errText });
      },
    );
  });
}

function firstLines(text: string): string {
  return text.split('\n').slice(0, 3).join(' / ');
}
