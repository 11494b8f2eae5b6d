/** What one conformance suite reports: every vector counts once, as passed or failed. */
export interface SuiteResult {
  /** Stable suite name, e.g. `jcs-rfc8785`. */
  name: string;
  /** Where the vectors came from (from the folder's SOURCE.txt). */
  source: string;
  passed: number;
  failed: number;
  /** One line per failed vector: file or case id and what went wrong. */
  failures: string[];
}

/** A suite reads its vectors from `directory` (the `vectors/` folder) and checks each one. */
export type Suite = (directory: string) => Promise<SuiteResult | undefined>;

/** Builds a result while a suite runs. */
export class SuiteRecorder {
  readonly result: SuiteResult;

  constructor(name: string, source: string) {
    this.result = { name, source, passed: 0, failed: 0, failures: [] };
  }

  /** Counts one vector: passes when `ok` is true, otherwise records `label: detail`. */
  check(ok: boolean, label: string, detail = ''): void {
    if (ok) {
      this.result.passed++;
      return;
    }
    this.result.failed++;
    this.result.failures.push(detail ? `${label}: ${detail}` : label);
  }
}
