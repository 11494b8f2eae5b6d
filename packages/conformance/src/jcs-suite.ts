/**
 * RFC 8785 (JCS) conformance of `@saksi/proof` against the reference test data of the RFC's author
 * (cyberphone/json-canonicalization `testdata/`), in `vectors/jcs-rfc8785/testdata/`:
 *
 * - `input/<name>.json` — JSON text in arbitrary layout;
 * - `output/<name>.json` — the expected canonical UTF-8 bytes (no trailing newline);
 * - `outhex/<name>.txt` — the same bytes as lowercase hex pairs separated by spaces and newlines.
 *
 * Each input file is one vector: it passes when `parseJson` then `canonicalizeToBytes` reproduces
 * `output` byte for byte and `outhex` names the same bytes. The six published cases are `arrays`,
 * `french`, `structures`, `unicode`, `values` and `weird`; a folder holding a different number of
 * inputs adds a failure, so a truncated copy cannot pass.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { canonicalizeToBytes, isProofError, parseJson, utf8Decode } from '@saksi/proof';
import { type Suite, SuiteRecorder } from './suite.js';

/** Name the suite reports under, and its folder inside `vectors/`. */
export const JCS_SUITE_NAME = 'jcs-rfc8785';

/** Number of input files in the published test data. */
export const JCS_EXPECTED_VECTOR_COUNT = 6;

/** One test case: the three files that share a base name. */
export interface JcsVector {
  /** Base name, e.g. `values`. */
  name: string;
  /** Bytes of `input/<name>.json`. */
  input: Uint8Array;
  /** Bytes of `output/<name>.json`. */
  output: Uint8Array;
  /** Text of `outhex/<name>.txt`. */
  outhex: string;
}

/** What is under test: JSON text bytes in, canonical bytes out. */
export type JcsCanonicalizer = (input: Uint8Array) => Uint8Array;

/** The `@saksi/proof` pipeline: strict UTF-8 decode, strict parse, RFC 8785 canonical bytes. */
export const proofCanonicalizer: JcsCanonicalizer = (input) =>
  canonicalizeToBytes(parseJson(utf8Decode(input)));

/**
 * Checks one vector with `canonicalizer`. Returns `undefined` when the output matches both
 * `output` and `outhex` byte for byte, otherwise what went wrong.
 */
export function checkJcsVector(
  vector: JcsVector,
  canonicalizer: JcsCanonicalizer = proofCanonicalizer,
): string | undefined {
  const hexBytes = parseOuthex(vector.outhex);
  if (hexBytes === undefined) return 'outhex is not whitespace-separated hex byte pairs';
  const inconsistent = firstDifference(vector.output, hexBytes);
  if (inconsistent !== undefined) return `output and outhex disagree ${inconsistent}`;
  let actual: Uint8Array;
  try {
    actual = canonicalizer(vector.input);
  } catch (error) {
    const reason = isProofError(error) ? error.code : error instanceof Error ? error.message : String(error);
    return `canonicalization threw ${reason}`;
  }
  const difference = firstDifference(actual, vector.output);
  return difference === undefined ? undefined : `canonical bytes differ from output ${difference}`;
}

/**
 * Builds the suite around `canonicalizer` (default {@link proofCanonicalizer}); tests pass a wrong
 * one to show the comparison can fail.
 */
export function createJcsSuite(canonicalizer: JcsCanonicalizer = proofCanonicalizer): Suite {
  return async (directory) => {
    const folder = path.join(directory, JCS_SUITE_NAME);
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory()) return undefined;
    const source = await readFile(path.join(folder, 'SOURCE.txt'), 'utf8').then(
      (text) => text.split('\n')[0]?.trim() ?? '',
      () => '',
    );
    const recorder = new SuiteRecorder(JCS_SUITE_NAME, source);
    if (source === '') recorder.check(false, 'SOURCE.txt', 'missing or empty');

    const testdata = path.join(folder, 'testdata');
    const inputs = await readdir(path.join(testdata, 'input')).then(
      (files) => files.filter((file) => file.endsWith('.json')).sort(),
      () => [] as string[],
    );
    for (const file of inputs) {
      const name = file.slice(0, -'.json'.length);
      let vector: JcsVector;
      try {
        vector = {
          name,
          input: await readFile(path.join(testdata, 'input', file)),
          output: await readFile(path.join(testdata, 'output', `${name}.json`)),
          outhex: await readFile(path.join(testdata, 'outhex', `${name}.txt`), 'utf8'),
        };
      } catch (error) {
        recorder.check(
          false,
          name,
          `cannot read its files: ${error instanceof Error ? error.message : String(error)}`,
        );
        continue;
      }
      const failure = checkJcsVector(vector, canonicalizer);
      recorder.check(failure === undefined, name, failure);
    }
    if (inputs.length !== JCS_EXPECTED_VECTOR_COUNT) {
      recorder.check(
        false,
        'testdata/input',
        `expected ${JCS_EXPECTED_VECTOR_COUNT} input files, found ${inputs.length}`,
      );
    }
    return recorder.result;
  };
}

/** RFC 8785 reference vectors against `@saksi/proof`; `undefined` when `vectors/jcs-rfc8785` is absent. */
export const jcsSuite: Suite = createJcsSuite();

/** Parses `outhex` text: hex byte pairs separated by any whitespace. */
function parseOuthex(text: string): Uint8Array | undefined {
  const tokens = text
    .trim()
    .split(/\s+/)
    .filter((token) => token !== '');
  const bytes = new Uint8Array(tokens.length);
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (!/^[0-9a-fA-F]{2}$/.test(token)) return undefined;
    bytes[index] = Number.parseInt(token, 16);
  }
  return bytes;
}

/** Undefined when equal; otherwise where the first difference is. */
function firstDifference(actual: Uint8Array, expected: Uint8Array): string | undefined {
  const shared = Math.min(actual.length, expected.length);
  for (let index = 0; index < shared; index++) {
    if (actual[index] !== expected[index]) {
      return `at byte ${index} (got 0x${actual[index]!.toString(16).padStart(2, '0')}, expected 0x${expected[index]!.toString(16).padStart(2, '0')})`;
    }
  }
  if (actual.length !== expected.length)
    return `in length (got ${actual.length} bytes, expected ${expected.length})`;
  return undefined;
}
