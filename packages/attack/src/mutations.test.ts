import { type Bundle, type CheckId, type VerifyBundleOptions, verifyBundle } from '@saksi/proof';
import {
  createNoteSigner,
  formatVerifierKey,
  generateKeyPair,
  issueBundle,
  issuerFromSecretKey,
  MemoryLog,
} from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from './metrics.js';
import {
  allTamperings,
  attackerKeys,
  byteMutations,
  changeNumber,
  changeQuantifier,
  claimEdit,
  equivocation,
  type MutationContext,
  negate,
  spanSubstitution,
  type Tampering,
} from './mutations.js';

const ORIGIN = 'saksi.test/log';
const LAW = [
  'Setiap orang yang mengemudikan Sepeda Motor wajib mengenakan helm yang memenuhi standar nasional Indonesia.',
  'Setiap orang yang melanggar dipidana dengan pidana kurungan paling lama 1 (satu) bulan atau denda paling banyak Rp250.000,00.',
  'Ketentuan lebih lanjut diatur dengan Peraturan Pemerintah.',
];

let bundle: Bundle;
let options: VerifyBundleOptions;
let logSigner: ReturnType<typeof createNoteSigner>;
let log: MemoryLog;

beforeAll(() => {
  const issuerKey = generateKeyPair().secretKey;
  const logKey = generateKeyPair();
  logSigner = createNoteSigner(ORIGIN, logKey.secretKey);
  log = new MemoryLog(ORIGIN);
  const issue = (question: string) =>
    issueBundle({
      documents: [
        {
          document_id: 'doc-1',
          title: 'UU Contoh',
          chunks: LAW.map((text, i) => ({ chunk_id: `c${i}`, text, citation: { pasal: String(106 + i) } })),
        },
      ],
      question,
      answer: `${LAW[0]} ${LAW[1]}`,
      claims: [
        { text: LAW[0]!, evidence: [{ chunk_id: 'c0', span_text: LAW[0]! }] },
        { text: LAW[1]!, evidence: [{ chunk_id: 'c1', span_text: LAW[1]! }] },
      ],
      retrieved: ['c0', 'c1', 'c2'],
      issuerName: 'saksi',
      issuerSecretKey: issuerKey,
      log,
      logSigner,
      anchor: {
        chain_id: 31337,
        contract: `0x${'11'.repeat(20)}`,
        tx_hash: `0x${'22'.repeat(32)}`,
        block_number: 5,
        document_ids: ['doc-1'],
      },
    });
  issue('Pertanyaan pertama?');
  issue('Pertanyaan kedua?');
  bundle = issue('Apakah pengendara sepeda motor wajib memakai helm?');
  issue('Pertanyaan keempat?');
  options = {
    trustedIssuers: [{ public_key: issuerFromSecretKey('saksi', issuerKey).public_key }],
    trustedLogs: [{ origin: ORIGIN, vkey: formatVerifierKey(ORIGIN, logKey.publicKey) }],
    presentedQuestion: bundle.certificate.query.text,
    vocabulary: SAKSI_VOCABULARY,
  };
});

function context(seed = 1): MutationContext {
  return {
    random: createRandom(seed),
    attacker: attackerKeys(seed),
    language: 'id',
    otherQuestions: ['Berapa denda tidak memakai helm?'],
    equivocation: {
      logSigner,
      latest: log.signedCheckpoint(logSigner),
      consistencyTo: (size) => log.consistencyProof(size).map((node) => Buffer.from(node).toString('hex')),
    },
  };
}

async function failing(tampering: Tampering): Promise<CheckId[]> {
  const result = await verifyBundle(tampering.bundle, {
    ...options,
    ...(tampering.presentedQuestion ? { presentedQuestion: tampering.presentedQuestion } : {}),
    ...(tampering.lastCheckpoint ? { lastCheckpoint: tampering.lastCheckpoint } : {}),
    ...(tampering.consistencyProof ? { consistencyProof: tampering.consistencyProof } : {}),
  });
  return result.checks.filter((check) => check.status === 'fail').map((check) => check.id);
}

describe('mutations', () => {
  it('the genuine bundle verifies (the baseline the attacks start from)', async () => {
    const result = await verifyBundle(bundle, options);
    expect(result.codes).toEqual([]);
  });

  it('are deterministic for a seed and differ between seeds', () => {
    const a = allTamperings(bundle, context(1), 10);
    const b = allTamperings(bundle, context(1), 10);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(allTamperings(bundle, context(2), 10))).not.toBe(JSON.stringify(a));
  });

  it('every tampering changes the bundle or how it is presented, and never the original', () => {
    const before = JSON.stringify(bundle);
    const tamperings = allTamperings(bundle, context(3), 10);
    expect(new Set(tamperings.map((t) => t.attack))).toEqual(
      new Set(['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'BYTE']),
    );
    for (const tampering of tamperings) {
      const changed =
        JSON.stringify(tampering.bundle) !== before ||
        tampering.displayed !== undefined ||
        tampering.presentedQuestion !== undefined ||
        tampering.lastCheckpoint !== undefined;
      expect(changed, `${tampering.attack} ${tampering.kind}`).toBe(true);
    }
    expect(JSON.stringify(bundle)).toBe(before);
  });

  it('a consistent claim edit passes every hash and offset check: only the signature and the log catch it', async () => {
    const [keep, resign] = claimEdit(bundle, context()).filter((t) => t.kind === 'claim_negation');
    expect(await failing(keep!)).toEqual(['signature', 'log_inclusion']);
    expect(await failing(resign!)).toEqual(['issuer', 'checkpoint_signature']);
  });

  it('a consistent span rewrite recomputes chunk, document and batch roots', async () => {
    const [keep] = spanSubstitution(bundle, context()).filter((t) => t.kind === 'span_insert');
    expect(await failing(keep!)).toEqual(['signature', 'log_inclusion']);
    expect(keep!.altered).toHaveLength(1);
    expect(bundle.certificate.claims.map((claim) => claim.claim_id)).toContain(keep!.altered[0]);
  });

  it('equivocation is caught as CHECKPOINT_INCONSISTENT', async () => {
    for (const tampering of equivocation(bundle, context())) {
      const result = await verifyBundle(tampering.bundle, {
        ...options,
        lastCheckpoint: tampering.lastCheckpoint!,
        ...(tampering.consistencyProof ? { consistencyProof: tampering.consistencyProof } : {}),
      });
      expect(result.codes, tampering.kind).toContain('CHECKPOINT_INCONSISTENT');
    }
  });

  it('byte mutations flip one character each, reproducibly', () => {
    const flips = byteMutations(bundle, context(4), 25);
    expect(flips).toHaveLength(25);
    const original = JSON.stringify(bundle);
    for (const flip of flips.filter((f) => !f.unparseable)) {
      const text = JSON.stringify(flip.bundle);
      expect(text.length).toBe(original.length);
      expect([...text].filter((char, i) => char !== original[i]).length).toBe(1);
    }
    expect(JSON.stringify(byteMutations(bundle, context(4), 25))).toBe(JSON.stringify(flips));
  });

  it('text edits negate, change quantifiers and figures', () => {
    expect(negate('Setiap orang wajib mengenakan helm.', 'id')).toBe(
      'Setiap orang tidak wajib mengenakan helm.',
    );
    expect(negate('A reducer must be pure.', 'en')).toBe('A reducer must not be pure.');
    expect(changeQuantifier('denda paling banyak Rp250.000,00', 'id')).toBe(
      'denda paling sedikit Rp250.000,00',
    );
    expect(changeQuantifier('orang wajib', 'id')).toBe('Semua orang wajib');
    const changed = changeNumber('kurungan 1 (satu) bulan [1]', createRandom(1), 'id');
    expect(changed).not.toBe('kurungan 1 (satu) bulan [1]');
    expect(changed.endsWith('[1]')).toBe(true);
  });
});
