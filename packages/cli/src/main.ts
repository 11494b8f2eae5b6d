/**
 * The `saksi` command. `main` parses the command line, runs one sub-command and returns the exit
 * code; it never throws and never prints a stack trace: every failure becomes `error: …` (+ hint)
 * on stderr with exit code 2 (usage or unreadable input) unless the command says otherwise.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { adminCommand } from './admin.js';
import { anchorCommand } from './anchor.js';
import { apiCommand } from './api.js';
import { apiKeysCommand } from './api-keys.js';
import { askCommand } from './ask.js';
import { attackCommand } from './attack.js';
import type { Command, OptionValues } from './command.js';
import { demoCommand } from './demo.js';
import { evalCommand } from './eval.js';
import { ingestCommand } from './ingest.js';
import { inspectCommand } from './inspect.js';
import { CliError, type Io, processIo, UsageError } from './io.js';
import { keysCommand } from './keys.js';
import { logCommand } from './log.js';
import { serveCommand } from './serve.js';
import { safeText } from './text.js';
import { vectorsCommand } from './vectors.js';
import { verifyCommand } from './verify.js';
import { witnessCommand } from './witness.js';
import { workerCommand } from './worker.js';
import { workspacesCommand } from './workspaces.js';

export { CliError, type Io, type Output, UsageError } from './io.js';

/** Every sub-command, in the order `saksi --help` lists them. */
export const COMMANDS: readonly Command[] = [
  serveCommand,
  ingestCommand,
  askCommand,
  verifyCommand,
  inspectCommand,
  logCommand,
  anchorCommand,
  witnessCommand,
  keysCommand,
  adminCommand,
  workspacesCommand,
  apiKeysCommand,
  workerCommand,
  apiCommand,
  vectorsCommand,
  demoCommand,
  evalCommand,
  attackCommand,
];

/** The version of this package, from its package.json. */
export function version(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

function overview(): string {
  const nameWidth = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'saksi — answers from official documents, each with a proof anyone can check.',
    '',
    'Usage: saksi <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(nameWidth)}  ${command.summary}`),
    '',
    'Run saksi <command> --help for its options. saksi --version prints the version.',
    '',
  ].join('\n');
}

function commandHelp(command: Command): string {
  return `Usage: ${command.usage}\n\n${command.help}\n`;
}

/**
 * Runs `saksi` with `argv` (without the node and script paths) and returns the exit code.
 * `io` defaults to the real process; tests pass their own to capture output.
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  let command: Command | undefined;
  try {
    const [first, ...rest] = argv;
    if (first === undefined) {
      io.stderr.write(overview());
      return 2;
    }
    if (first === '--help' || first === '-h') {
      io.stdout.write(overview());
      return 0;
    }
    if (first === '--version' || first === '-v') {
      io.stdout.write(`saksi ${version()}\n`);
      return 0;
    }
    if (first === 'help') {
      const topic = rest[0] === undefined ? undefined : findCommand(rest[0]);
      if (rest[0] !== undefined && topic === undefined)
        throw new UsageError(`unknown command ${JSON.stringify(rest[0])}`);
      io.stdout.write(topic ? commandHelp(topic) : overview());
      return 0;
    }
    if (first.startsWith('-'))
      throw new UsageError(`unknown option ${JSON.stringify(first)}; options go after the command`);
    command = findCommand(first);
    if (command === undefined) throw new UsageError(`unknown command ${JSON.stringify(first)}`);

    const parsed = parseCommandLine(command, rest);
    if (parsed.values['help'] === true) {
      io.stdout.write(commandHelp(command));
      return 0;
    }
    return await command.run(parsed.values, parsed.positionals, io);
  } catch (error) {
    return report(error, command, io);
  }
}

function findCommand(name: string): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}

function parseCommandLine(
  command: Command,
  args: readonly string[],
): { values: OptionValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as OptionValues, positionals };
  } catch (error) {
    // parseArgs throws TypeError with code ERR_PARSE_ARGS_* for unknown flags or missing values.
    const message =
      error instanceof Error ? error.message.split('. ')[0]!.replace(/\.$/, '') : 'invalid arguments';
    throw new UsageError(message);
  }
}

/** Prints `error: …`, a hint or the usage line, and returns the exit code. Never prints a stack. */
function report(error: unknown, command: Command | undefined, io: Io): number {
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`error: ${safeText(message)}`];
  if (error instanceof CliError && error.hint !== undefined) lines.push(`hint: ${error.hint}`);
  if (error instanceof UsageError) {
    lines.push(
      command
        ? `usage: ${command.usage}\nRun saksi ${command.name} --help for details.`
        : 'Run saksi --help for the list of commands.',
    );
  }
  io.stderr.write(`${lines.join('\n')}\n`);
  return error instanceof CliError ? error.exitCode : 2;
}
