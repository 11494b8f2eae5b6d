/**
 * Runs every known conformance suite over one `vectors/` folder and adds up the results.
 * A suite whose sub-folder is absent reports `undefined` and is left out; a suite that throws counts
 * as one failed vector, so a crash can never pass for a clean run.
 */
import { stat } from 'node:fs/promises';
import { ed25519Suite } from './ed25519-suite.js';
import { jcsSuite } from './jcs-suite.js';
import { openzeppelinSuite } from './openzeppelin-suite.js';
import { rfc6962Suite } from './rfc6962-suite.js';
import type { Suite, SuiteResult } from './suite.js';

/** A suite with the name it is reported under if it crashes before producing a result. */
export interface NamedSuite {
  name: string;
  suite: Suite;
}

/** Every suite `runConformance` knows, in the order they are reported. */
export const SUITES: readonly NamedSuite[] = [
  { name: 'jcs-rfc8785', suite: jcsSuite },
  { name: 'ed25519', suite: ed25519Suite },
  { name: 'rfc6962', suite: rfc6962Suite },
  { name: 'openzeppelin-merkle-negative', suite: openzeppelinSuite },
];

/** What {@link runConformance} returns: one result per suite that found its folder, and the totals. */
export interface ConformanceReport {
  directory: string;
  results: SuiteResult[];
  passed: number;
  failed: number;
}

/** Thrown when the vectors folder itself is missing or not a folder. */
export class VectorsDirectoryError extends Error {
  override readonly name = 'VectorsDirectoryError';
  readonly code = 'VECTORS_DIRECTORY_MISSING';
}

/**
 * Runs `suites` (default: {@link SUITES}) one after the other over `directory`.
 * Throws {@link VectorsDirectoryError} when `directory` is not an existing folder.
 */
export async function runConformance(
  directory: string,
  suites: readonly NamedSuite[] = SUITES,
): Promise<ConformanceReport> {
  const info = await stat(directory).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new VectorsDirectoryError(`The vectors folder ${directory} does not exist or is not a folder.`);
  }
  const report: ConformanceReport = { directory, results: [], passed: 0, failed: 0 };
  for (const { name, suite } of suites) {
    let result: SuiteResult | undefined;
    try {
      result = await suite(directory);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result = { name, source: 'crashed', passed: 0, failed: 1, failures: [`suite crashed: ${message}`] };
    }
    if (result === undefined) continue;
    report.results.push(result);
    report.passed += result.passed;
    report.failed += result.failed;
  }
  return report;
}
