/**
 * What a command may touch: two output streams, a working folder and the environment. `main` takes
 * them as an argument so tests run commands in-process and read what was printed.
 */

/** An output stream: `process.stdout` or anything with `write` (tests collect strings). */
export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Io {
  stdout: Output;
  stderr: Output;
  /** Relative paths in arguments are resolved against this folder. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** The real process. */
export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env };
}

/**
 * An error a person can act on: `message` says what happened, `hint` what to do. `exitCode` is 2
 * (usage or unreadable input) unless a command says otherwise.
 */
export class CliError extends Error {
  override readonly name: string = 'CliError';
  readonly exitCode: number;
  readonly hint: string | undefined;

  constructor(message: string, options: { hint?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? 2;
    this.hint = options.hint;
  }
}

/** A wrong command line; `main` adds the command's usage line. */
export class UsageError extends CliError {
  override readonly name: string = 'UsageError';
}

/** ANSI styling that switches itself off unless `stream` is a terminal and `NO_COLOR` is unset. */
export interface Style {
  enabled: boolean;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

export function styleFor(stream: Output, env: Io['env']): Style {
  // https://no-color.org: any non-empty NO_COLOR disables color.
  const enabled = stream.isTTY === true && !env['NO_COLOR'] && env['TERM'] !== 'dumb';
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    green: wrap(32, 39),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}
