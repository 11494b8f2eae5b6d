/** Runs `saksi` in-process, as the tests do: captured stdout/stderr, a working folder and an environment. */
import type { Io } from '../src/io.js';
import { main } from '../src/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  argv: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; tty?: boolean; columns?: number },
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: {
      write: (text: string) => (stdout += text),
      ...(options.tty !== undefined ? { isTTY: options.tty } : {}),
      ...(options.columns !== undefined ? { columns: options.columns } : {}),
    },
    stderr: { write: (text: string) => (stderr += text) },
    cwd: options.cwd,
    env: options.env ?? {},
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
