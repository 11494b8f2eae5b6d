/**
 * `saksi vectors`: runs the third-party conformance vectors (RFC 8785, RFC 8032 / Wycheproof,
 * RFC 6962, …) against `@saksi/proof`, so anyone can see the verifier agree with the standards.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runConformance } from '@saksi/conformance';
import { type Command, expectPositionals, flag, type OptionValues } from './command.js';
import { CliError, type Io, styleFor } from './io.js';
import { safeText } from './text.js';

/** Where the vectors live relative to a checkout (`/work/main` → `/work/shared/data/vectors`). */
export const VECTORS_RELATIVE_PATH = '../shared/data/vectors';
const MAX_FAILURES_SHOWN = 20;

/** The repository root, from this file's place in `packages/cli/{src,dist}/`. */
const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const vectorsCommand: Command = {
  name: 'vectors',
  summary: 'Run the third-party conformance vectors against the verifier',
  usage: 'saksi vectors [dir] [--json]',
  help: `Runs every conformance suite (RFC 8785 JCS, Ed25519 RFC 8032 and Wycheproof, RFC 6962 Merkle
proofs, …) over a vectors folder. Suites whose sub-folder is absent are skipped.

The folder is, in order: [dir], $SAKSI_VECTORS_DIR, ./${VECTORS_RELATIVE_PATH} from the current
folder, or ${VECTORS_RELATIVE_PATH} next to the Saksi checkout.

Options:
  --json   Print the results as JSON

The last line is "N passed, M failed".
Exit status: 0 all passed, 1 a vector failed or none ran, 2 the folder is missing.`,
  options: { json: { type: 'boolean' } },
  run: runVectors,
};

/** The vectors folder `saksi vectors` uses when none is given. */
export function defaultVectorsDirectory(io: Io): string {
  const fromEnv = io.env['SAKSI_VECTORS_DIR'];
  if (fromEnv) return path.resolve(io.cwd, fromEnv);
  const fromCwd = path.resolve(io.cwd, VECTORS_RELATIVE_PATH);
  if (existsSync(fromCwd)) return fromCwd;
  return path.resolve(REPOSITORY_ROOT, VECTORS_RELATIVE_PATH);
}

async function runVectors(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  if (positionals.length > 1) expectPositionals(positionals, ['[dir]']);
  const given = positionals[0];
  const directory = given === undefined ? defaultVectorsDirectory(io) : path.resolve(io.cwd, given);
  if (!existsSync(directory)) {
    throw new CliError(`vectors folder ${safeText(directory)} does not exist`, {
      hint: 'Pass the folder (saksi vectors path/to/vectors) or set SAKSI_VECTORS_DIR.',
    });
  }
  const report = await runConformance(directory);
  const ok = report.failed === 0 && report.passed > 0;
  if (flag(values, 'json')) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return ok ? 0 : 1;
  }
  const style = styleFor(io.stdout, io.env);
  const lines: string[] = [`Vectors: ${safeText(directory)}`];
  const nameWidth = Math.max(0, ...report.results.map((result) => result.name.length));
  for (const result of report.results) {
    const total = result.passed + result.failed;
    const mark = result.failed === 0 && total > 0 ? style.green('✓') : style.red('✗');
    const source = safeText(result.source.split('\n')[0] ?? '');
    lines.push(`${mark} ${safeText(result.name).padEnd(nameWidth)}  ${result.passed}/${total}  (${source})`);
    for (const failure of result.failures.slice(0, MAX_FAILURES_SHOWN))
      lines.push(`    ${style.red('✗')} ${safeText(failure)}`);
    const hidden = result.failures.length - MAX_FAILURES_SHOWN;
    if (hidden > 0) lines.push(`    … and ${hidden} more`);
  }
  if (report.results.length === 0) {
    lines.push(style.red(`No conformance suite found its vectors in ${safeText(directory)}.`));
  }
  lines.push(`${report.passed} passed, ${report.failed} failed`);
  io.stdout.write(`${lines.join('\n')}\n`);
  return ok ? 0 : 1;
}
