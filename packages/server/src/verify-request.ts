/**
 * One `POST /api/v1/verify` request from its body to its answer (docs/api.md): the strict JSON, a
 * bundle or `{bundle, question?, last_checkpoint?}`, the limits per bundle of `@saksi/proof`
 * (`measureBundle`) checked before anything is hashed, the work charged to the caller, then
 * `verifyBundle`. Nothing here loads the engine: it runs on a verification thread (verify-worker.ts)
 * or, where there are none, on the server's own (verify-pool.ts).
 */
import {
  type BundleSize,
  isProofError,
  measureBundle,
  type VerifyBundleOptions,
  verifyBundle,
} from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { z } from 'zod';
import { describeIssues, parseJsonBytes, RequestProblem, text } from './request-text.js';

/** Largest body accepted by /verify (a bundle carries its cited chunks). */
export const VERIFY_BODY_LIMIT = 16 * 1024 * 1024;

/** `POST /api/v1/verify` when wrapped: `{ bundle, question?, last_checkpoint? }`. */
export const verifyWrapperSchema = z.object({
  bundle: z.unknown(),
  question: text(4_000).nullish(),
  last_checkpoint: text(10_000).nullish(),
});

/** What a verification thread is given of the server's options: data only, its trusted keys. */
export type VerificationTrust = Pick<
  VerifyBundleOptions,
  'trustedIssuers' | 'trustedLogs' | 'witnesses' | 'requiredCosignatures' | 'trustedRegistries'
>;

/** What stays on the server's thread and is called from a verification thread: database and chain I/O. */
export type VerificationCallbacks = Pick<VerifyBundleOptions, 'fetchConsistencyProof' | 'anchorLookup'>;

/** The trusted keys of a server's verification options. */
export function trustOf(options: VerifyBundleOptions): VerificationTrust {
  return {
    trustedIssuers: options.trustedIssuers,
    trustedLogs: options.trustedLogs,
    ...(options.witnesses !== undefined ? { witnesses: options.witnesses } : {}),
    ...(options.requiredCosignatures !== undefined
      ? { requiredCosignatures: options.requiredCosignatures }
      : {}),
    ...(options.trustedRegistries !== undefined ? { trustedRegistries: options.trustedRegistries } : {}),
  };
}

export interface VerificationContext {
  trust: VerificationTrust;
  callbacks: VerificationCallbacks;
  /**
   * Charges the caller the request's work units (docs/api.md, "Verification work") once the bundle
   * has been measured and before it is verified; throws to refuse it (429).
   */
  charge(units: number): Promise<void>;
}

/** Bytes of body that count as one work unit. */
const BYTES_PER_UNIT = 16 * 1024;
/** Proof nodes that count as one work unit (one SHA-256 each). */
const NODES_PER_UNIT = 16;
/** Work units of one anchored batch root: it may be a call to the chain. */
const UNITS_PER_ANCHOR_ROOT = 4;

/**
 * The work units of a bundle (docs/api.md, "Verification work"): one for the request, one per
 * claim, evidence item, cited chunk and cosignature, four per distinct anchored batch root, one per
 * 16 proof nodes and one per 16 KiB of body, rounded up.
 */
export function verificationWork(size: BundleSize, bodyBytes: number): number {
  return (
    1 +
    size.claims +
    size.evidence +
    size.chunks +
    size.cosignatures +
    UNITS_PER_ANCHOR_ROOT * size.anchorRoots +
    Math.ceil(size.proofNodes / NODES_PER_UNIT) +
    Math.ceil(bodyBytes / BYTES_PER_UNIT)
  );
}

/**
 * Reads, measures, charges and verifies one request body; returns the verification as JSON text.
 * A refused request throws {@link RequestProblem} (`INVALID_JSON`, `INVALID_INPUT`, or
 * `BODY_TOO_LARGE` naming the limit per bundle it passes); a failed verification is a result.
 */
export async function verifyRequestBody(bytes: Uint8Array, context: VerificationContext): Promise<string> {
  const body = parseJsonBytes(bytes, VERIFY_BODY_LIMIT);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new RequestProblem(
      'INVALID_INPUT',
      'Send a bundle (or {"bundle": …, "question": …}) as a JSON object.',
    );
  }
  let bundle: unknown = body;
  const options: Partial<VerifyBundleOptions> = {};
  if ('bundle' in body && !('certificate' in body)) {
    const request = verifyWrapperSchema.safeParse(body);
    if (!request.success)
      throw new RequestProblem('INVALID_INPUT', describeIssues(request.error, 'verify request'), {
        cause: request.error,
      });
    bundle = request.data.bundle;
    if (request.data.question != null) options.presentedQuestion = request.data.question;
    if (request.data.last_checkpoint != null) options.lastCheckpoint = request.data.last_checkpoint;
  }
  let size: BundleSize;
  try {
    size = measureBundle(bundle);
  } catch (error) {
    if (isProofError(error, 'BUNDLE_LIMIT_EXCEEDED'))
      throw new RequestProblem('BODY_TOO_LARGE', error.message, { cause: error });
    throw error;
  }
  await context.charge(verificationWork(size, bytes.byteLength));
  const result = await verifyBundle(bundle, {
    ...context.trust,
    ...context.callbacks,
    ...options,
    vocabulary: SAKSI_VOCABULARY,
  });
  return JSON.stringify(result);
}
