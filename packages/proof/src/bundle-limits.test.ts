import { buildGoldenFixture } from '@saksi/test-support/golden';
import { describe, expect, it } from 'vitest';
import { BUNDLE_LIMITS, type BundleLimit, measureBundle } from './bundle-limits.js';
import { isProofError } from './errors.js';
import { trustOptions } from './trust.js';
import { verifyBundle } from './verify-bundle.js';
import { SAKSI_VOCABULARY } from './vocabulary.js';

const golden = buildGoldenFixture({ version: 'v1.1' });

// biome-ignore lint/suspicious/noExplicitAny: a hostile bundle is edited freely
type Loose = any;

/** The golden bundle with its first claim copied `claims` times, each with `evidence` copies of its first span. */
function copied(claims: number, evidence = 1): Loose {
  const bundle: Loose = structuredClone(golden.bundle);
  const claim = bundle.certificate.claims[0];
  bundle.certificate.claims = Array.from({ length: claims }, (_, i) => ({
    ...structuredClone(claim),
    claim_id: `c${i}`,
    evidence: Array.from({ length: evidence }, () => structuredClone(claim.evidence[0])),
  }));
  return bundle;
}

function breach(bundle: unknown): BundleLimit | undefined {
  try {
    measureBundle(bundle);
    return undefined;
  } catch (error) {
    if (!isProofError(error, 'BUNDLE_LIMIT_EXCEEDED')) throw error;
    expect(error.message).toContain(`"${error.details}" is ${BUNDLE_LIMITS[error.details as BundleLimit]}`);
    return error.details as BundleLimit;
  }
}

describe('measureBundle', () => {
  it('counts the golden bundle, which is well inside every limit', () => {
    const size = measureBundle(golden.bundle);
    expect(size.claims).toBe(2);
    expect(size.evidence).toBe(golden.bundle.certificate.claims.reduce((n, c) => n + c.evidence.length, 0));
    expect(size.chunks).toBe(golden.bundle.chunks.length);
    expect(size.anchorRoots).toBe(1);
    expect(size.cosignatures).toBe(2);
    expect(size.proofNodes).toBeGreaterThan(0);
  });

  it('reads a bundle of the wrong shape as empty: validateBundle reports it', () => {
    expect(measureBundle(null)).toEqual({
      claims: 0,
      evidence: 0,
      chunks: 0,
      proofNodes: 0,
      anchorRoots: 0,
      cosignatures: 0,
    });
    expect(measureBundle({ certificate: { claims: 'many' }, chunks: 3 }).claims).toBe(0);
  });

  it('names each limit a bundle passes, at the limit plus one', () => {
    expect(breach(copied(BUNDLE_LIMITS.claims))).toBeUndefined();
    expect(breach(copied(BUNDLE_LIMITS.claims + 1))).toBe('claims');
    expect(breach(copied(1, BUNDLE_LIMITS.evidencePerClaim + 1))).toBe('evidencePerClaim');
    expect(breach(copied(BUNDLE_LIMITS.evidence / 32 + 1, 32))).toBe('evidence');
    const chunks: Loose = structuredClone(golden.bundle);
    chunks.chunks = Array.from({ length: BUNDLE_LIMITS.chunks + 1 }, () => chunks.chunks[0]);
    expect(breach(chunks)).toBe('chunks');
    const path: Loose = copied(1);
    path.certificate.claims[0].evidence[0].document_proof.path = Array(BUNDLE_LIMITS.proofLength + 1).fill(
      '00',
    );
    expect(breach(path)).toBe('proofLength');
    const logPath: Loose = structuredClone(golden.bundle);
    logPath.log.inclusion_proof = Array(BUNDLE_LIMITS.proofLength + 1).fill('00');
    expect(breach(logPath)).toBe('proofLength');
    const nodes: Loose = copied(BUNDLE_LIMITS.evidence / 8, 8);
    for (const claim of nodes.certificate.claims)
      for (const item of claim.evidence) {
        item.document_proof.path = Array(BUNDLE_LIMITS.proofLength).fill('00');
        item.anchor.batch_proof.path = Array(BUNDLE_LIMITS.proofLength).fill('00');
      }
    expect(breach(nodes)).toBe('proofNodes');
    const roots: Loose = copied(BUNDLE_LIMITS.anchorRoots / 2 + 1, 2);
    roots.certificate.claims.forEach((claim: Loose, c: number) => {
      claim.evidence.forEach((item: Loose, e: number) => {
        item.anchor.batch_root = (2 * c + e).toString(16).padStart(64, '0');
      });
    });
    expect(breach(roots)).toBe('anchorRoots');
    const cosigned: Loose = structuredClone(golden.bundle);
    cosigned.log.cosignatures = Array(BUNDLE_LIMITS.cosignatures + 1).fill(cosigned.log.cosignatures[0]);
    expect(breach(cosigned)).toBe('cosignatures');
  });

  it('changes nothing verifyBundle accepts: a bundle at the limits is still verified as before', async () => {
    const options = { ...trustOptions(golden.keys), vocabulary: SAKSI_VOCABULARY };
    expect((await verifyBundle(golden.bundle, options)).verdict).toBe('verified');
    // Over a limit, verifyBundle itself still answers (a failed verdict), as it always did.
    const over = await verifyBundle(copied(BUNDLE_LIMITS.claims + 1), options);
    expect(over.verdict).toBe('failed');
    expect(over.codes).toContain('SIGNATURE_INVALID');
  });
});
