/** The shape every `saksi` sub-command has; `main` parses flags with `node:util` `parseArgs` for it. */
import type { ParseArgsConfig } from 'node:util';
import { type Io, UsageError } from './io.js';

export type OptionValues = Readonly<Record<string, string | boolean | undefined>>;

export interface Command {
  name: string;
  /** One line for `saksi --help`. */
  summary: string;
  /** Synopsis, e.g. `saksi verify <bundle.json> [options]`. */
  usage: string;
  /** The rest of `saksi <name> --help`: what it does, options, exit codes. */
  help: string;
  /** Flags for `parseArgs`; `--help` is added by `main`. */
  options: NonNullable<ParseArgsConfig['options']>;
  run(values: OptionValues, positionals: readonly string[], io: Io): Promise<number>;
}

/** A string flag, or `undefined` when absent. */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A boolean flag. */
export function flag(values: OptionValues, name: string): boolean {
  return values[name] === true;
}

/** Exactly `count` positional arguments named `names`, or a usage error. */
export function expectPositionals(positionals: readonly string[], names: readonly string[]): string[] {
  if (positionals.length < names.length) {
    throw new UsageError(`missing ${names.slice(positionals.length).join(' ')}`);
  }
  if (positionals.length > names.length) {
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[names.length])}`);
  }
  return [...positionals];
}

/** A whole number in `[min, max]` from a flag, or a usage error naming the flag. */
export function integerOption(
  values: OptionValues,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(text);
}
