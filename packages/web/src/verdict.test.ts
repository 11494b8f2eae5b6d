import { type Bundle, type TrustedKeys, toBase64, trustOptions, verifyBundle } from '@saksi/proof';
import {
  createNoteSigner,
  formatVerifierKey,
  getPublicKey,
  issueBundle,
  MemoryLog,
} from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import {
  buildGoldenFixture,
  GOLDEN_LABELLED_DOCUMENTS,
  GOLDEN_RELEVANCE,
  GOLDEN_V11_CLAIMS,
  testSecretKey,
} from '@saksi/test-support/golden';
import { describe, expect, it } from 'vitest';
import { type Lang, translate } from './i18n.js';
import {
  checkExplanation,
  checkName,
  decideVerdict,
  failureKind,
  reasonText,
  type Verdict,
} from './verdict.js';

const golden = buildGoldenFixture({ version: 'v1.1' });

/** A small issuer of v1.1 bundles (no anchor, no witnesses), for outcomes the golden lacks. */
const ORIGIN = 'verdict.test/log';
const issuerKey = testSecretKey('verdict issuer');
const logKey = testSecretKey('verdict log');
const log = new MemoryLog(ORIGIN);
const keys: TrustedKeys = {
  issuers: [{ name: 'verdict-test', public_key: toBase64(getPublicKey(issuerKey)) }],
  logs: [{ origin: ORIGIN, vkey: formatVerifierKey(ORIGIN, getPublicKey(logKey)) }],
};

function issue(input: Partial<Parameters<typeof issueBundle>[0]>, relevance = true): Bundle {
  return issueBundle({
    documents: GOLDEN_LABELLED_DOCUMENTS,
    question: 'Berapa denda menerobos lampu merah?',
    answer: GOLDEN_V11_CLAIMS.map((claim) => claim.text).join(' '),
    claims: GOLDEN_V11_CLAIMS,
    collection: 'uu-22-2009-llaj',
    issuerName: 'verdict-test',
    issuerSecretKey: issuerKey,
    log,
    logSigner: createNoteSigner(ORIGIN, logKey),
    ...(relevance ? { answerRelevance: GOLDEN_RELEVANCE } : {}),
    outcome: 'answered',
    ...input,
  });
}

async function verdictOf(
  bundle: unknown,
  trusted: TrustedKeys,
  trust: Parameters<typeof decideVerdict>[1]['trust'] = 'pinned',
): Promise<Verdict> {
  const result = await verifyBundle(bundle, { ...trustOptions(trusted), vocabulary: SAKSI_VOCABULARY });
  return decideVerdict(result, {
    trust,
    lang: 'en',
    issuer: { name: 'saksi-golden', key_id: '01223bb33d4795cc' },
  });
}

const statuses = (verdict: Verdict) => verdict.lines.map((line) => `${line.id}:${line.status}:${line.tone}`);

describe('decideVerdict', () => {
  it('gives a good answer three green lines: authentic, supported (quoted and rebuilt), relevant', async () => {
    const verdict = await verdictOf(golden.bundle, golden.keys);
    expect(verdict.kind).toBe('verified');
    expect(verdict.verified).toBe(true);
    expect(verdict.alarm).toBe(false);
    expect(statuses(verdict)).toEqual([
      'authentic:pass:good',
      'supported:pass:good',
      'relevant:relevant:good',
    ]);
    // No chain lookup here: the anchor's proof holds, the chain was not asked.
    expect(verdict.lines[0]?.message.key).toBe('verdict.authentic.anchored');
    expect(verdict.lines[1]?.message).toEqual({ key: 'verdict.supported.built.other', values: { total: 2 } });
    expect(verdict.lines[2]?.message.values).toEqual({ score: '0.74', threshold: '0.30' });
  });

  it('shows a refusal as a refusal, authentic but never verified', async () => {
    const refused = issue(
      {
        answer: 'Tidak ditemukan dalam dokumen.',
        claims: [],
        outcome: 'refused',
        refusal: { reason: 'NOT_COVERED' },
        retrieved: ['uu22-p287-a1'],
      },
      false,
    );
    const verdict = await verdictOf(refused, keys);
    expect(verdict.kind).toBe('refused');
    expect(verdict.verified).toBe(false);
    expect(verdict.heading.key).toBe('verify.notAnswered');
    expect(verdict.lines.map((line) => line.message.key)).toEqual([
      'verdict.refusal.NOT_COVERED',
      'verdict.authentic.refusal',
    ]);
  });

  it('shows an answer below its relevance threshold as not answered, in amber', async () => {
    const weak = issue({ answerRelevance: { ...GOLDEN_RELEVANCE, score: 0.1 } });
    const verdict = await verdictOf(weak, keys);
    expect(verdict.kind).toBe('not-answered');
    expect(statuses(verdict)).toEqual([
      'answer:not_answered:warn',
      'authentic:pass:good',
      'supported:pass:good',
      'relevant:not_relevant:warn',
    ]);
    expect(verdict.lines[1]?.message.key).toBe('verdict.authentic.notAnchored');
  });

  it('calls a changed bundle tampered, and lists what failed', async () => {
    const tampered = structuredClone(golden.bundle);
    tampered.certificate.claims[1]!.text = tampered.certificate.claims[1]!.text.replace(
      'Rp500.000,00',
      'Rp50.000,00',
    );
    const verdict = await verdictOf(tampered, golden.keys);
    expect(verdict.kind).toBe('tampered');
    expect(verdict.alarm).toBe(true);
    expect(verdict.heading.key).toBe('verdict.banner.tampered');
    expect(verdict.failing.map((check) => check.id)).toEqual(
      expect.arrayContaining(['signature', 'hashes', 'compositions', 'log_inclusion']),
    );
    expect(statuses(verdict)).toEqual([
      'authentic:fail:bad',
      'supported:unknown:neutral',
      'relevant:unknown:neutral',
    ]);
  });

  it("calls another server's genuine bundle untrusted, not tampered, and names its signer", async () => {
    const verdict = await verdictOf(golden.bundle, keys);
    expect(verdict.kind).toBe('untrusted');
    expect(verdict.hint).toEqual({
      key: 'verdict.hint.untrusted',
      values: { issuer: 'saksi-golden', keyId: '01223bb33d4795cc' },
    });
    // Its anchors name a registry this verifier does not know: a consequence, not tampering.
    const registry = await verifyBundle(golden.bundle, {
      ...trustOptions(keys),
      trustedRegistries: [{ chain_id: 1, contract: `0x${'1'.repeat(40)}` }],
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(failureKind(registry)).toBe('untrusted');
  });

  it('calls what is not a bundle malformed, naming where it breaks', async () => {
    const broken = structuredClone(golden.bundle) as unknown as {
      certificate: { answer: { relevance: unknown } };
    };
    broken.certificate.answer.relevance = 'high';
    const verdict = await verdictOf(broken, golden.keys);
    expect(verdict.kind).toBe('malformed');
    expect(verdict.hint?.values?.['field']).toBe('certificate.answer.relevance');
  });

  it('never verifies when the pinned keys changed or there are none', async () => {
    const changed = await verdictOf(golden.bundle, golden.keys, 'changed');
    expect(changed.kind).toBe('key-changed');
    expect(changed.verified).toBe(false);
    expect(changed.alarm).toBe(true);
    const none = await verdictOf(golden.bundle, { issuers: [], logs: [] }, 'none');
    expect(none.kind).toBe('no-keys');
    expect(none.verified).toBe(false);
  });
});

describe('the verdict in both languages', () => {
  it('has every message it can name, in both tables, with no English left on the Indonesian page', async () => {
    const result = await verifyBundle(golden.bundle, {
      ...trustOptions(golden.keys),
      vocabulary: SAKSI_VOCABULARY,
    });
    const keysUsed = new Set<string>();
    for (const check of result.checks) {
      keysUsed.add(checkName(check.id));
      for (const status of ['pass', 'fail', 'skip'] as const)
        keysUsed.add(checkExplanation({ ...check, status }));
    }
    for (const reason of [
      'OK',
      'LOW_CONFIDENCE',
      'NO_EVIDENCE',
      'NOT_SUPPORTED',
      'CONTRADICTED',
      'NUMBER_MISMATCH',
      'ANCHOR_REQUIRED',
      'NOT_RELEVANT',
      'INTEGRITY_FAILURE',
    ] as const)
      keysUsed.add(reasonText(reason));
    for (const kind of ['tampered', 'untrusted', 'malformed', 'failed', 'no-keys', 'key-changed'])
      keysUsed.add(`verdict.banner.${kind}`);
    for (const reason of ['MISSING_SLOT', 'NOT_COVERED', 'NO_EVIDENCE', 'INVALID_QUESTION', 'unknown'])
      keysUsed.add(`verdict.refusal.${reason}`);
    for (const key of keysUsed) {
      for (const lang of ['en', 'id'] as Lang[]) {
        const text = translate(lang, key as never);
        expect(text, `${lang} ${key}`).toBeTruthy();
      }
      expect(translate('id', key as never), key).not.toBe(translate('en', key as never));
    }
  });
});
