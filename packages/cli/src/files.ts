/** Reading the files named on the command line, with errors a person can act on (exit 2). */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isProofError, JCS_MAX_LENGTH, parseJson } from '@saksi/proof';
import { CliError } from './io.js';
import { safeText } from './text.js';

/** Largest input file read, in bytes (the same bound as the JSON parser's). */
export const MAX_FILE_BYTES = JCS_MAX_LENGTH;

/** Reads a UTF-8 text file; `what` names it in messages ("bundle", "trusted keys file"). */
export async function readTextFile(cwd: string, file: string, what: string): Promise<string> {
  const absolute = path.resolve(cwd, file);
  const shown = safeText(file);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(absolute);
  } catch (error) {
    throw new CliError(`cannot read ${what} ${shown}: ${reason(error)}`, {
      hint: 'Check the path; relative paths are resolved from the current folder.',
    });
  }
  if (info.isDirectory()) throw new CliError(`cannot read ${what} ${shown}: it is a folder, not a file`);
  if (info.size > MAX_FILE_BYTES) {
    throw new CliError(`cannot read ${what} ${shown}: it is larger than ${MAX_FILE_BYTES} bytes`);
  }
  try {
    const text = await readFile(absolute, 'utf8');
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  } catch (error) {
    throw new CliError(`cannot read ${what} ${shown}: ${reason(error)}`);
  }
}

/** Reads and strictly parses a JSON file (duplicate keys, trailing commas, NaN… are rejected). */
export async function readJsonFile(cwd: string, file: string, what: string): Promise<unknown> {
  const text = await readTextFile(cwd, file, what);
  try {
    return parseJson(text);
  } catch (error) {
    const detail = isProofError(error) ? `${error.message} (${error.code})` : 'unreadable';
    throw new CliError(`${what} ${safeText(file)} is not valid JSON: ${detail}`, {
      hint: `Pass the ${what} exactly as the server returned it (UTF-8 JSON, no duplicate keys).`,
    });
  }
}

function reason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder, not a file';
    default:
      return typeof code === 'string' ? code : 'unreadable';
  }
}
