import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NamedSuite, runConformance, SUITES, VectorsDirectoryError } from './run.js';
import { SuiteRecorder } from './suite.js';

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-run-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function fixedSuite(name: string, passed: number, failed: number): NamedSuite {
  return {
    name,
    suite: async () => {
      const recorder = new SuiteRecorder(name, `${name} source`);
      for (let i = 0; i < passed; i++) recorder.check(true, `ok-${i}`);
      for (let i = 0; i < failed; i++) recorder.check(false, `bad-${i}`, 'mismatch');
      return recorder.result;
    },
  };
}

describe('runConformance', () => {
  it('adds up the suites that found their folder and leaves out the others', async () => {
    const report = await runConformance(directory, [
      fixedSuite('a', 3, 1),
      { name: 'absent', suite: async () => undefined },
      fixedSuite('b', 2, 0),
    ]);
    expect(report.results.map((result) => result.name)).toEqual(['a', 'b']);
    expect(report.passed).toBe(5);
    expect(report.failed).toBe(1);
    expect(report.results[0]!.failures).toEqual(['bad-0: mismatch']);
  });

  it('counts a crashing suite as a failure instead of a pass', async () => {
    const report = await runConformance(directory, [
      fixedSuite('a', 1, 0),
      {
        name: 'boom',
        suite: async () => {
          throw new Error('cannot read vectors');
        },
      },
    ]);
    expect(report.failed).toBe(1);
    expect(report.results[1]!.name).toBe('boom');
    expect(report.results[1]!.failures[0]).toContain('cannot read vectors');
  });

  it('throws VECTORS_DIRECTORY_MISSING for a missing folder or a file', async () => {
    await expect(runConformance(path.join(directory, 'nope'), [])).rejects.toMatchObject({
      code: 'VECTORS_DIRECTORY_MISSING',
    });
    const file = path.join(directory, 'file.txt');
    await writeFile(file, 'x');
    await expect(runConformance(file, [])).rejects.toBeInstanceOf(VectorsDirectoryError);
  });

  it('finds no suite in an empty folder', async () => {
    const report = await runConformance(directory);
    expect(report.results).toEqual([]);
    expect(report.passed + report.failed).toBe(0);
    expect(SUITES.length).toBe(4);
  });
});
