/** Test helpers shared by the proof tests: assert on `ProofError` codes, never on messages. */
import { expect } from 'vitest';
import { isProofError } from '../src/errors.js';

/** The ProofError code `action` throws, `NOT_A_PROOF_ERROR` for any other throw, undefined if none. */
export function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return isProofError(error) ? error.code : 'NOT_A_PROOF_ERROR';
  }
  return undefined;
}

/** Asserts that `action` throws a ProofError with `code`. */
export function expectCode(action: () => unknown, code: string): void {
  expect(codeOf(action)).toBe(code);
}
