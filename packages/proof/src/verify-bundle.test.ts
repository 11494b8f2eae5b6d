import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  buildGoldenFixture,
  GOLDEN_ORIGIN,
  GOLDEN_QUESTION,
  testSecretKey,
} from '@saksi/test-support/golden';
import { beforeAll, describe, expect, it } from 'vitest';
import { signCertificate } from './build-certificate.js';
import { fromBase64, fromHex, toBase64, toHex, utf8Encode } from './bytes.js';
import { type Bundle, certificateSha256, logLeafInput } from './certificate.js';
import { signCheckpoint } from './checkpoint.js';
import { cosignatureLine, createCosigner } from './cosignature.js';
import { sha256, sha256Hex } from './hash.js';
import { MemoryLog } from './memory-log.js';
import { createNoteSigner, parseNote } from './note.js';
import { parseTrustedKeys, trustOptions } from './trust.js';
import { type IntegrityCode, type VerifyBundleOptions, verifyBundle } from './verify-bundle.js';
import { SAKSI_VOCABULARY } from './vocabulary.js';

const fixtures = path.resolve(import.meta.dirname, '../__fixtures__');
const golden = buildGoldenFixture();
const committed = JSON.parse(readFileSync(path.join(fixtures, 'golden-bundle.json'), 'utf8')) as Bundle;
const keys = parseTrustedKeys(readFileSync(path.join(fixtures, 'golden-keys.json'), 'utf8'));
const issuerKey = testSecretKey('issuer');
const logSigner = createNoteSigner(GOLDEN_ORIGIN, testSecretKey('log'));

const base: VerifyBundleOptions = { ...trustOptions(keys), vocabulary: SAKSI_VOCABULARY };
const full: VerifyBundleOptions = {
  ...base,
  presentedQuestion: GOLDEN_QUESTION,
  lastCheckpoint: golden.laterCheckpoint,
  consistencyProof: golden.consistencyProof,
  anchorLookup: async () => ({ exists: true, timestamp: 1_795_000_000 }),
};

const { lastCheckpoint: _last, consistencyProof: _proof, ...fresh } = full;
const without = (key: keyof VerifyBundleOptions): VerifyBundleOptions => {
  const options = { ...full };
  delete options[key];
  return options;
};

const clone = (): Bundle => structuredClone(committed);
/**
 * Re-signs the certificate with the real issuer key and logs it in a fresh log signed by the real log
 * and witness keys: a compromised or buggy issuer. Only checks beyond the signature can catch it.
 */
function resign(bundle: Bundle): Bundle {
  bundle.signature = signCertificate(bundle.certificate, issuerKey);
  const log = new MemoryLog(GOLDEN_ORIGIN);
  log.append(utf8Encode('{"earlier":1}'));
  log.append(utf8Encode('{"earlier":2}'));
  const index = log.append(logLeafInput(bundle.certificate, bundle.signature));
  const checkpoint = log.signedCheckpoint(logSigner);
  bundle.log = {
    origin: GOLDEN_ORIGIN,
    leaf_index: index,
    inclusion_proof: log.inclusionProof(index).map(toHex),
    checkpoint,
    cosignatures: ['witness.example/w1', 'witness.example/w2'].map((name) =>
      cosignatureLine(
        parseNote(checkpoint).text,
        createCosigner(name, testSecretKey(name), () => 1_795_000_500),
      ),
    ),
  };
  return bundle;
}
async function codesOf(bundle: unknown, options: VerifyBundleOptions = full): Promise<IntegrityCode[]> {
  return (await verifyBundle(bundle, options)).codes;
}
/** Codes for a re-signed bundle (its log is fresh, so no consistency with the golden log's later checkpoint). */
async function codesOfResigned(
  bundle: Bundle,
  options: VerifyBundleOptions = fresh,
): Promise<IntegrityCode[]> {
  return (await verifyBundle(resign(bundle), options)).codes;
}

describe('golden bundle', () => {
  it('is reproduced byte for byte by the generator (regenerate on purpose with npm run golden)', () => {
    expect(`${JSON.stringify(golden.bundle, null, 2)}\n`).toBe(
      readFileSync(path.join(fixtures, 'golden-bundle.json'), 'utf8'),
    );
    expect(`${JSON.stringify(golden.keys, null, 2)}\n`).toBe(
      readFileSync(path.join(fixtures, 'golden-keys.json'), 'utf8'),
    );
    expect(golden.laterCheckpoint).toBe(
      readFileSync(path.join(fixtures, 'golden-later-checkpoint.txt'), 'utf8'),
    );
  });

  it('verifies with every check passing when every option is given', async () => {
    const result = await verifyBundle(committed, full);
    expect(result.verdict).toBe('verified');
    expect(result.codes).toEqual([]);
    expect(result.checks.every((check) => check.status === 'pass')).toBe(true);
    expect(result.summary).toEqual({ verified: 2, blocked: 0, total: 2 });
    expect(result.checkpoint?.size).toBe(3);
  });

  it('verifies with only trusted keys, skipping what it cannot check', async () => {
    const result = await verifyBundle(committed, base);
    expect(result.verdict).toBe('verified');
    const skipped = result.checks.filter((check) => check.status === 'skip').map((check) => check.id);
    expect(skipped).toEqual(['anchor_onchain', 'query_replay', 'checkpoint_consistency']);
  });

  it('gives the identical result object on repeated runs', async () => {
    expect(await verifyBundle(clone(), full)).toEqual(await verifyBundle(clone(), full));
  });
});

describe('tampering is detected with the right code', () => {
  const swapDocument = (bundle: Bundle) => {
    bundle.certificate.claims[0]!.evidence[0]!.document_id = 'doc-uu-22-2009-penjelasan';
    return bundle;
  };

  it('citation swap (document id)', async () => {
    expect(await codesOf(swapDocument(clone()))).toEqual([
      'SIGNATURE_INVALID',
      'CITATION_MISMATCH',
      'LOG_PROOF_INVALID',
    ]);
    expect(await codesOfResigned(swapDocument(clone()))).toEqual(['CITATION_MISMATCH']);
  });

  it('citation swap (chunk id to another chunk of the same document)', async () => {
    const bundle = clone();
    bundle.certificate.claims[1]!.evidence[0]!.chunk_id = 'uu22-p287-a1';
    const codes = await codesOfResigned(bundle);
    expect(codes).toContain('SPAN_OFFSET_MISMATCH');
    expect(codes).toContain('CITATION_MISMATCH');
  });

  const spanEdits: [string, (text: string) => string][] = [
    ['insertion', (text) => text.replace('melanggar', 'tidak melanggar')],
    ['paraphrase', (text) => text.replace('larangan yang dinyatakan dengan', 'larangan menurut')],
    ['changed number', (text) => text.replace('2 (dua) bulan', '3 (tiga) bulan')],
  ];
  for (const [name, edit] of spanEdits) {
    it(`span substitution: ${name}`, async () => {
      const claimIndex = name === 'changed number' ? 1 : 0;
      const bundle = clone();
      const span = bundle.certificate.claims[claimIndex]!.evidence[0]!.span;
      span.text = edit(span.text);
      expect(span.text).not.toBe(committed.certificate.claims[claimIndex]!.evidence[0]!.span.text);
      expect(await codesOf(bundle)).toEqual([
        'SIGNATURE_INVALID',
        'HASH_MISMATCH',
        'SPAN_OFFSET_MISMATCH',
        'LOG_PROOF_INVALID',
      ]);
      span.sha256 = sha256Hex(span.text);
      expect(await codesOf(bundle)).toEqual([
        'SIGNATURE_INVALID',
        'SPAN_OFFSET_MISMATCH',
        'LOG_PROOF_INVALID',
      ]);
      expect(await codesOfResigned(bundle)).toEqual(['SPAN_OFFSET_MISMATCH']);
    });
  }

  it('chunk text substitution in the bundle', async () => {
    const bundle = clone();
    bundle.chunks[0]!.text = bundle.chunks[0]!.text.replace('Rp500.000,00', 'Rp50.000,00');
    expect(await codesOf(bundle)).toEqual(['HASH_MISMATCH', 'SPAN_OFFSET_MISMATCH']);
  });

  const claimEdits: [string, number, (text: string) => string, string][] = [
    ['negation', 0, (text) => text.replace('berarti melanggar', 'tidak melanggar'), 'NOT_SUPPORTED'],
    ['quantifier', 1, (text) => text.replace('paling banyak', 'paling sedikit'), 'NOT_SUPPORTED'],
    ['number', 1, (text) => text.replace('Rp500.000,00', 'Rp5.000.000,00'), 'NUMBER_MISMATCH'],
  ];
  for (const [name, index, edit, reason] of claimEdits) {
    it(`claim edit: ${name}`, async () => {
      const bundle = clone();
      const claim = bundle.certificate.claims[index]!;
      const edited = edit(claim.text);
      expect(edited).not.toBe(claim.text);
      claim.text = edited;
      expect(await codesOf(bundle)).toEqual([
        'SIGNATURE_INVALID',
        'HASH_MISMATCH',
        'SPAN_OFFSET_MISMATCH',
        'LOG_PROOF_INVALID',
      ]);
      // Even a consistent forgery signed by the issuer (answer and offsets rewritten) is not shown as verified.
      const answer = bundle.certificate.answer;
      const original = committed.certificate.claims[index]!.text;
      answer.text = answer.text.replace(original, edited);
      answer.sha256 = sha256Hex(answer.text);
      claim.sha256 = sha256Hex(edited);
      const delta = [...edited].length - [...original].length;
      claim.answer_end += delta;
      for (const later of bundle.certificate.claims.slice(index + 1)) {
        later.answer_start += delta;
        later.answer_end += delta;
      }
      const result = await verifyBundle(resign(bundle), fresh);
      expect(result.codes).toEqual([]);
      expect(result.claims[index]).toMatchObject({ rendered: false, reason });
      expect(result.claims.filter((decision) => decision.rendered)).toHaveLength(1);
    });
  }

  it('structural: drop a claim, reorder, drop all', async () => {
    const dropped = clone();
    dropped.certificate.claims.pop();
    expect(await codesOf(dropped)).toEqual(['SIGNATURE_INVALID', 'LOG_PROOF_INVALID']);
    const reordered = clone();
    reordered.certificate.claims.reverse();
    expect(await codesOf(reordered)).toEqual([
      'SIGNATURE_INVALID',
      'SPAN_OFFSET_MISMATCH',
      'LOG_PROOF_INVALID',
    ]);
    expect(await codesOfResigned(reordered)).toEqual(['SPAN_OFFSET_MISMATCH']);
    const empty = clone();
    empty.certificate.claims = [];
    const result = await verifyBundle(empty, full);
    // Its chunk is cited by no claim now: text nothing commits to.
    expect(result.codes).toEqual(['SIGNATURE_INVALID', 'UNCITED_CHUNK', 'LOG_PROOF_INVALID']);
    expect(result.summary).toEqual({ verified: 0, blocked: 0, total: 0 });
  });

  it('UI tamper: flipped labels or render decisions', async () => {
    const flipped = clone();
    flipped.certificate.claims[0]!.verification.label = 'contradicted';
    const result = await verifyBundle(flipped, full);
    expect(result.codes).toEqual(['SIGNATURE_INVALID', 'LOG_PROOF_INVALID']);
    expect(result.claims.every((claim) => !claim.rendered && claim.reason === 'INTEGRITY_FAILURE')).toBe(
      true,
    );

    // An issuer that marks an unsupported claim as rendered is overruled by the verifier.
    const lying = clone();
    lying.certificate.claims[0]!.verification = {
      label: 'not_supported',
      confidence: 0.2,
      verifier: { id: 'x', version: '1' },
    };
    lying.certificate.claims[0]!.render = { rendered: true, reason: 'OK' };
    const overruled = await verifyBundle(resign(lying), fresh);
    expect(overruled.verdict).toBe('verified');
    expect(overruled.claims[0]).toMatchObject({ rendered: false, reason: 'NOT_SUPPORTED' });

    const low = clone();
    low.certificate.claims[1]!.verification.confidence = 0.3;
    expect((await verifyBundle(resign(low), fresh)).claims[1]).toMatchObject({
      rendered: false,
      reason: 'LOW_CONFIDENCE',
    });

    const blocked = clone();
    blocked.certificate.claims[1]!.render = { rendered: false, reason: 'NUMBER_MISMATCH' };
    expect((await verifyBundle(resign(blocked), fresh)).claims[1]).toMatchObject({
      rendered: false,
      reason: 'NUMBER_MISMATCH',
    });
  });

  it('replay against a different question', async () => {
    expect(await codesOf(clone(), { ...full, presentedQuestion: 'Berapa denda tidak pakai helm?' })).toEqual([
      'QUERY_MISMATCH',
    ]);
    // Unicode normalization and line ends do not count as a different question.
    expect(await codesOf(clone(), { ...full, presentedQuestion: GOLDEN_QUESTION.normalize('NFD') })).toEqual(
      [],
    );
    // Nor does white space around it (the issuer signs the question without it: docs/certificate.md).
    for (const presented of [
      `${GOLDEN_QUESTION} `,
      `  ${GOLDEN_QUESTION}\r\n`,
      `\u00a0\t${GOLDEN_QUESTION.normalize('NFD')}\u3000\ufeff`,
    ]) {
      expect(await codesOf(clone(), { ...full, presentedQuestion: presented })).toEqual([]);
    }
    // White space inside the question, and a different question with spaces around it, still count.
    expect(
      await codesOf(clone(), { ...full, presentedQuestion: GOLDEN_QUESTION.replace(' ', '  ') }),
    ).toEqual(['QUERY_MISMATCH']);
    expect(
      await codesOf(clone(), { ...full, presentedQuestion: ' Berapa denda tidak pakai helm? ' }),
    ).toEqual(['QUERY_MISMATCH']);
  });

  it('rolled-back checkpoint', async () => {
    // The verifier has seen size 5; the bundle shows size 3 and nobody can prove 3 is a prefix of 5.
    expect(await codesOf(clone(), without('consistencyProof'))).toEqual(['CHECKPOINT_INCONSISTENT']);
    // A bundle whose checkpoint was swapped for an older, genuinely signed one.
    const older = clone();
    older.log.checkpoint = golden.log.signedCheckpoint(logSigner, 2);
    older.log.cosignatures = [];
    expect(await codesOf(older, { ...without('consistencyProof'), requiredCosignatures: 0 })).toEqual([
      'LOG_PROOF_INVALID',
      'CHECKPOINT_INCONSISTENT',
    ]);
  });

  it('forked checkpoint (same size, different root)', async () => {
    const fork = signCheckpoint(
      { origin: GOLDEN_ORIGIN, size: 3, rootHash: sha256(new Uint8Array([1])), extensions: [] },
      logSigner,
    );
    expect(await codesOf(clone(), { ...without('consistencyProof'), lastCheckpoint: fork })).toEqual([
      'CHECKPOINT_INCONSISTENT',
    ]);
    // A consistency proof that does not connect the two trees is rejected too.
    const wrongProof = golden.consistencyProof.map((node) => toHex(sha256(fromHex(node))));
    expect(await codesOf(clone(), { ...full, consistencyProof: wrongProof })).toEqual([
      'CHECKPOINT_INCONSISTENT',
    ]);
    // A bundle served from a forked log.
    const forked = clone();
    forked.log.checkpoint = fork;
    expect(await codesOf(forked, { ...full, requiredCosignatures: 0, witnesses: [] })).toContain(
      'LOG_PROOF_INVALID',
    );
  });

  it('checkpoint signed by an unknown key', async () => {
    const bundle = clone();
    const impostor = createNoteSigner(GOLDEN_ORIGIN, testSecretKey('impostor'));
    bundle.log.checkpoint = golden.log.signedCheckpoint(impostor, 3);
    expect(await codesOf(bundle, { ...full, requiredCosignatures: 0, witnesses: [] })).toEqual([
      'CHECKPOINT_SIGNATURE_INVALID',
    ]);
  });

  it('missing cosignatures when required', async () => {
    const bundle = clone();
    bundle.log.cosignatures = bundle.log.cosignatures.slice(0, 1);
    expect(await codesOf(bundle)).toEqual(['COSIGNATURES_MISSING']);
    expect(await codesOf(bundle, { ...full, requiredCosignatures: 1 })).toEqual([]);
    const duplicated = clone();
    duplicated.log.cosignatures = [duplicated.log.cosignatures[0]!, duplicated.log.cosignatures[0]!];
    // The repeated line is reported as such, and counts once.
    expect(await codesOf(duplicated)).toEqual(['DUPLICATE_ENTRY', 'COSIGNATURES_MISSING']);
  });

  it('unknown issuer', async () => {
    const { issuers, ...rest } = keys;
    const other = trustOptions({
      ...rest,
      issuers: [{ name: 'other', public_key: toBase64(sha256(new Uint8Array(1))) }],
    });
    expect(await codesOf(clone(), { ...full, ...other })).toEqual(['UNKNOWN_ISSUER']);
    expect(issuers).toHaveLength(1);
  });

  it('anchors: missing on chain, anchored after issuance, broken batch proof', async () => {
    expect(await codesOf(clone(), { ...full, anchorLookup: async () => ({ exists: false }) })).toEqual([
      'ANCHOR_NOT_FOUND',
    ]);
    expect(
      await codesOf(clone(), { ...full, anchorLookup: async () => Promise.reject(new Error('rpc down')) }),
    ).toEqual(['ANCHOR_NOT_FOUND']);
    expect(
      await codesOf(clone(), {
        ...full,
        anchorLookup: async () => ({ exists: true, timestamp: 1_900_000_000 }),
      }),
    ).toEqual(['ANCHOR_MISMATCH']);
    const bundle = clone();
    bundle.certificate.claims[0]!.evidence[0]!.anchor!.batch_proof.leaf_index = 1;
    expect(await codesOfResigned(bundle)).toEqual(['ANCHOR_MISMATCH']);
  });

  it('anchors: a pinned registry list accepts its contract and refuses any other', async () => {
    const anchor = clone().certificate.claims[0]!.evidence[0]!.anchor!;
    const pinned = { chain_id: anchor.chain_id, contract: anchor.contract.toUpperCase().replace('0X', '0x') };
    expect(await codesOf(clone(), { ...full, trustedRegistries: [pinned] })).toEqual([]);
    expect(
      await codesOf(clone(), { ...full, trustedRegistries: [{ ...pinned, chain_id: anchor.chain_id + 1 }] }),
    ).toEqual(['ANCHOR_MISMATCH']);
    expect(
      await codesOf(clone(), {
        ...full,
        trustedRegistries: [{ ...pinned, contract: `0x${'00'.repeat(20)}` }],
      }),
    ).toEqual(['ANCHOR_MISMATCH']);
    const parsed = parseTrustedKeys({ ...keys, registries: [pinned] });
    expect(trustOptions(parsed).trustedRegistries).toEqual([pinned]);
    expect(() => parseTrustedKeys({ ...keys, registries: [{ chain_id: 1, contract: '0x12' }] })).toThrow();
  });

  it('require_anchor blocks claims whose anchors were not checked on chain', async () => {
    const bundle = clone();
    bundle.certificate.policy.require_anchor = true;
    resign(bundle);
    expect((await verifyBundle(bundle, fresh)).summary.verified).toBe(2);
    const { anchorLookup: _lookup, ...offlineOptions } = fresh;
    const offline = await verifyBundle(bundle, offlineOptions);
    expect(offline.verdict).toBe('verified');
    expect(offline.claims.map((claim) => claim.reason)).toEqual(['ANCHOR_REQUIRED', 'ANCHOR_REQUIRED']);
  });

  it('document proof broken by an issuer', async () => {
    const bundle = clone();
    bundle.certificate.claims[0]!.evidence[0]!.document_proof.leaf_index = 0;
    expect(await codesOfResigned(bundle)).toEqual(['DOCUMENT_PROOF_INVALID']);
  });
});

describe('single-bit sweep over every signature, hash and proof element', () => {
  type Target = {
    label: string;
    get: (bundle: Bundle) => string;
    set: (bundle: Bundle, value: string) => void;
  };
  const targets: Target[] = [];
  const addHex = (label: string, get: (b: Bundle) => string, set: (b: Bundle, v: string) => void) =>
    targets.push({ label, get, set });

  beforeAll(() => {
    const c = committed.certificate;
    addHex(
      'signature',
      (b) => b.signature,
      (b, v) => {
        b.signature = v;
      },
    );
    addHex(
      'query.sha256',
      (b) => b.certificate.query.sha256,
      (b, v) => {
        b.certificate.query.sha256 = v;
      },
    );
    addHex(
      'answer.sha256',
      (b) => b.certificate.answer.sha256,
      (b, v) => {
        b.certificate.answer.sha256 = v;
      },
    );
    c.retrieval.results.forEach((_, r) => {
      addHex(
        `results[${r}].chunk_sha256`,
        (b) => b.certificate.retrieval.results[r]!.chunk_sha256,
        (b, v) => {
          b.certificate.retrieval.results[r]!.chunk_sha256 = v;
        },
      );
    });
    c.claims.forEach((claim, i) => {
      addHex(
        `claims[${i}].sha256`,
        (b) => b.certificate.claims[i]!.sha256,
        (b, v) => {
          b.certificate.claims[i]!.sha256 = v;
        },
      );
      claim.evidence.forEach((evidence, e) => {
        const ev = (b: Bundle) => b.certificate.claims[i]!.evidence[e]!;
        addHex(
          `c${i}e${e}.chunk_sha256`,
          (b) => ev(b).chunk_sha256,
          (b, v) => {
            ev(b).chunk_sha256 = v;
          },
        );
        addHex(
          `c${i}e${e}.span.sha256`,
          (b) => ev(b).span.sha256,
          (b, v) => {
            ev(b).span.sha256 = v;
          },
        );
        addHex(
          `c${i}e${e}.document_root`,
          (b) => ev(b).document_proof.document_root,
          (b, v) => {
            ev(b).document_proof.document_root = v;
          },
        );
        evidence.document_proof.path.forEach((_, p) => {
          addHex(
            `c${i}e${e}.document_proof.path[${p}]`,
            (b) => ev(b).document_proof.path[p]!,
            (b, v) => {
              ev(b).document_proof.path[p] = v;
            },
          );
        });
        addHex(
          `c${i}e${e}.batch_root`,
          (b) => ev(b).anchor!.batch_root,
          (b, v) => {
            ev(b).anchor!.batch_root = v;
          },
        );
        evidence.anchor!.batch_proof.path.forEach((_, p) => {
          addHex(
            `c${i}e${e}.batch_proof.path[${p}]`,
            (b) => ev(b).anchor!.batch_proof.path[p]!,
            (b, v) => {
              ev(b).anchor!.batch_proof.path[p] = v;
            },
          );
        });
      });
    });
    committed.log.inclusion_proof.forEach((_, p) => {
      addHex(
        `log.inclusion_proof[${p}]`,
        (b) => b.log.inclusion_proof[p]!,
        (b, v) => {
          b.log.inclusion_proof[p] = v;
        },
      );
    });
    // The checkpoint's root hash line and the log's signature, and each witness cosignature.
    addHex(
      'checkpoint root',
      (b) => b.log.checkpoint.split('\n')[2]!,
      (b, v) => {
        const lines = b.log.checkpoint.split('\n');
        lines[2] = v;
        b.log.checkpoint = lines.join('\n');
      },
    );
    addHex(
      'checkpoint signature',
      (b) => parseNote(b.log.checkpoint).signatures[0]!.line.split(' ')[2]!,
      (b, v) => {
        const line = parseNote(b.log.checkpoint).signatures[0]!.line;
        b.log.checkpoint = b.log.checkpoint.replace(line, line.replace(line.split(' ')[2]!, v));
      },
    );
    committed.log.cosignatures.forEach((_, w) => {
      addHex(
        `cosignature[${w}]`,
        (b) => b.log.cosignatures[w]!.split(' ')[2]!,
        (b, v) => {
          const parts = b.log.cosignatures[w]!.split(' ');
          parts[2] = v;
          b.log.cosignatures[w] = parts.join(' ');
        },
      );
    });
  });

  function flip(value: string, bit: number): string {
    const isBase64 = /[+/=A-Z]/.test(value) || !/^[0-9a-f]+$/.test(value);
    const bytes = isBase64 ? fromBase64(value) : fromHex(value);
    bytes[Math.floor(bit / 8) % bytes.length]! ^= 1 << (bit % 8);
    return isBase64 ? toBase64(bytes) : toHex(bytes);
  }

  it('rejects every flipped bit (≥ 1,000 cases) and still accepts the untouched bundle', async () => {
    let cases = 0;
    const accepted: string[] = [];
    for (const target of targets) {
      const value = target.get(committed);
      const bits = (value.length * 6) / 8 > 32 ? 96 : 40;
      for (let k = 0; k < bits; k++) {
        const bit =
          (k * 37 + 11) % (8 * (/^[0-9a-f]+$/.test(value) ? value.length / 2 : fromBase64(value).length));
        const bundle = clone();
        target.set(bundle, flip(value, bit));
        const result = await verifyBundle(bundle, full);
        cases++;
        if (result.verdict !== 'failed' || result.claims.some((claim) => claim.rendered))
          accepted.push(`${target.label} bit ${bit}`);
      }
    }
    expect(accepted).toEqual([]);
    expect(cases).toBeGreaterThanOrEqual(1000);
    expect((await verifyBundle(clone(), full)).verdict).toBe('verified');
    expect(certificateSha256(committed.certificate)).toBe(certificateSha256(clone().certificate));
  });
});

describe('hostile input', () => {
  const garbage: unknown[] = [
    null,
    42,
    'bundle',
    [],
    {},
    { certificate: {}, signature: 'AA==', log: {}, chunks: [] },
    { ...committed, extra: true },
    { ...committed, signature: 'not base64!' },
    { ...committed, chunks: 'x' },
    { ...committed, log: { ...committed.log, leaf_index: -1 } },
    { ...committed, log: { ...committed.log, inclusion_proof: Array(65).fill('00'.repeat(32)) } },
    {
      ...committed,
      certificate: {
        ...committed.certificate,
        claims: [{ ...committed.certificate.claims[0], answer_start: 1e20 }],
      },
    },
    { ...committed, certificate: { ...committed.certificate, schema: 'saksi.certificate/v2' } },
  ];
  it('returns a failed structure check, never throws', async () => {
    for (const input of garbage) {
      const result = await verifyBundle(input, full);
      expect(result.verdict).toBe('failed');
      expect(result.codes).toEqual(['MALFORMED']);
      expect(result.claims).toEqual([]);
    }
  });

  it('handles a 50 MB chunk text in bounded time', async () => {
    const bundle = clone();
    bundle.chunks[0]!.text = 'a'.repeat(50_000_000);
    expect(await codesOf(bundle, full)).toContain('MALFORMED');
    bundle.chunks[0]!.text = 'a'.repeat(9_000_000);
    expect(await codesOf(bundle, full)).toEqual(['HASH_MISMATCH', 'SPAN_OFFSET_MISMATCH']);
  });
});
