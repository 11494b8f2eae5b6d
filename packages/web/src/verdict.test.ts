import {
  type Bundle,
  type BundleVerification,
  type CheckDecision,
  type TrustedKeys,
  toBase64,
  trustOptions,
  verifyBundle,
} from '@saksi/proof';
import {
  createNoteSigner,
  formatVerifierKey,
  getPublicKey,
  issueBundle,
  MemoryLog,
} from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { answerDecision } from '@saksi/test-support/answer-decision';
import {
  buildGoldenFixture,
  GOLDEN_LABELLED_DOCUMENTS,
  GOLDEN_RELEVANCE,
  GOLDEN_V11_CLAIMS,
  testSecretKey,
} from '@saksi/test-support/golden';
import { describe, expect, it } from 'vitest';
import { type Lang, type MessageKey, translate } from './i18n.js';
import {
  anchorChains,
  chainName,
  chainNames,
  checkExplanation,
  checkName,
  decideVerdict,
  failureKind,
  formatRisk,
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

  it('shows an older answer below its relevance threshold as related passages, in amber, never verified', async () => {
    const weak = issue({ answerRelevance: { ...GOLDEN_RELEVANCE, score: 0.1 } });
    const verdict = await verdictOf(weak, keys);
    expect(verdict.kind).toBe('related');
    expect(verdict.verified).toBe(false);
    expect(verdict.alarm).toBe(false);
    expect(verdict.heading.key).toBe('verdict.heading.related');
    expect(statuses(verdict)).toEqual([
      'answer:related:warn',
      'authentic:pass:good',
      'relevant:not_relevant:warn',
    ]);
    expect(verdict.lines[0]?.message.key).toBe('verdict.related.relevance');
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

  it("a repeated cosignature line is the bundle's fault, not other keys; an uncited chunk is tampering", async () => {
    const repeated = structuredClone(golden.bundle);
    repeated.log.cosignatures.push(repeated.log.cosignatures[0]!);
    const result = await verifyBundle(repeated, {
      ...trustOptions(golden.keys),
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(result.codes).toEqual(['DUPLICATE_ENTRY']);
    expect(failureKind(result)).toBe('failed');
    const extra = structuredClone(golden.bundle);
    extra.chunks.push({ chunk_id: 'uu22-p289', text: 'Pelanggar tidak dipidana.' });
    const verdict = await verdictOf(extra, golden.keys);
    expect(verdict.kind).toBe('tampered');
    expect(verdict.verified).toBe(false);
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

/** The golden bundle's verification with its answer as a v1.2 verifier decides it (outcome and answer check). */
async function withAnswer(
  outcome: 'answered' | 'related',
  check: Partial<CheckDecision>,
): Promise<BundleVerification> {
  const result = await verifyBundle(golden.bundle, {
    ...trustOptions(golden.keys),
    vocabulary: SAKSI_VOCABULARY,
  });
  const answer = answerDecision(outcome, check);
  return { ...result, answer };
}

const decide = (result: BundleVerification, lang: Lang = 'en', chains: number[] = []) =>
  decideVerdict(result, { trust: 'pinned', lang, chains });

const say = (verdict: Verdict, id: string, lang: Lang = 'en') => {
  const line = verdict.lines.find((candidate) => candidate.id === id);
  return line ? translate(lang, line.message.key, line.message.values) : undefined;
};

describe('the answer check of a v1.2 certificate', () => {
  it('an answer the check confirms answers your question: its score, threshold and risk, one minimum', async () => {
    const verdict = decide(await withAnswer('answered', {}));
    expect(verdict.kind).toBe('verified');
    expect(verdict.verified).toBe(true);
    expect(verdict.heading.key).toBe('verdict.heading.answers');
    expect(statuses(verdict)).toEqual([
      'authentic:pass:good',
      'supported:pass:good',
      'relevant:relevant:good',
    ]);
    const third = verdict.lines[2]!;
    expect(third.term).toBe('verdict.term.answers');
    expect(third.message).toEqual({
      key: 'verdict.check.answers',
      values: { score: '0.91', threshold: '0.62', risk: '5 %' },
    });
    expect(say(verdict, 'relevant')).toContain('answer check 0.91, at least 0.62 needed — risk ≤ 5 %');
    expect(say(decide(await withAnswer('answered', {}), 'id'), 'relevant', 'id')).toContain(
      'pemeriksaan jawaban 0,91, minimal 0,62 — risiko ≤ 5 %',
    );
    expect(translate('id', 'verdict.term.answers')).toBe('Menjawab pertanyaan Anda');
  });

  it('an "answered" the verifier does not confirm is related passages: amber, never green, and why', async () => {
    // A forged "relevant": the issuer says answered, the evidence does not mention the year asked.
    const forged = await withAnswer('answered', {
      status: 'not_confirmed',
      constraints: ['year:2013'],
      unmet: ['year:2013'],
      mismatches: ['CONSTRAINT_UNMET'],
    });
    const verdict = decide(forged);
    expect(verdict.kind).toBe('related');
    expect(verdict.verified).toBe(false);
    expect(verdict.alarm).toBe(false);
    expect(statuses(verdict)).toEqual([
      'answer:related:warn',
      'authentic:pass:good',
      'relevant:not_relevant:warn',
    ]);
    expect(verdict.lines.some((line) => line.tone === 'good' && line.id !== 'authentic')).toBe(false);
    expect(say(verdict, 'answer')).toBe('Not a confirmed answer: the passages do not mention 2013.');
    expect(say(decide(forged, 'id'), 'answer', 'id')).toBe(
      'Bukan jawaban yang dikonfirmasi: bagian-bagian ini tidak menyebut tahun 2013.',
    );
    // Its score reached the threshold: the check line says the rules failed, not "below".
    expect(verdict.lines[2]?.message.key).toBe('verdict.check.rules');
    expect(translate('en', verdict.heading.key)).toBe('Related passages — not a confirmed answer');
    expect(translate('id', verdict.heading.key)).toBe('Bagian terkait — bukan jawaban yang dikonfirmasi');
  });

  it('says in one sentence why related passages are not an answer', async () => {
    const why = async (outcome: 'answered' | 'related', check: Partial<CheckDecision>, lang: Lang = 'en') =>
      say(decide(await withAnswer(outcome, check), lang), 'answer', lang);
    expect(await why('related', { status: 'not_confirmed', mismatches: ['VALUE_MISSING'] })).toBe(
      'Not a confirmed answer: no amount is stated in the passages.',
    );
    expect(await why('related', { status: 'not_confirmed', mismatches: ['VALUE_MISSING'] }, 'id')).toBe(
      'Bukan jawaban yang dikonfirmasi: tidak ada besaran atau jumlah yang disebutkan dalam bagian-bagian ini.',
    );
    expect(
      await why('related', { status: 'not_confirmed', asked: 'steps', mismatches: ['VALUE_MISSING'] }),
    ).toBe('Not a confirmed answer: no value of the kind asked is stated in the passages.');
    expect(
      await why('related', {
        status: 'not_confirmed',
        unmet: ['regulation:17/2003', 'section:287'],
        mismatches: ['CONSTRAINT_UNMET'],
      }),
    ).toBe('Not a confirmed answer: the passages do not mention regulation 17/2003 or section 287.');
    expect(
      await why('related', { status: 'not_confirmed', score: 0.41, mismatches: ['BELOW_THRESHOLD'] }),
    ).toBe('Not a confirmed answer: the answer check scored 0.41, below the 0.62 needed.');
    expect(await why('answered', { status: 'not_confirmed', mismatches: ['ASKED_TYPE'] })).toMatch(
      /reading of your question .* does not match/,
    );
    expect(await why('related', { status: 'not_confirmed', mismatches: ['NO_ASKED_RULES'] })).toMatch(
      /no rules to read/,
    );
    // The issuer released it as related though the check would pass: still related, never verified.
    const issued = decide(await withAnswer('related', {}));
    expect(issued.kind).toBe('related');
    expect(issued.lines[0]?.message.key).toBe('verdict.related.issuer');
    expect(issued.lines[2]?.message.key).toBe('verdict.check.issuer');
  });
});

describe('real v1.2 certificates', () => {
  const check = {
    method: { id: 'answer-check', version: '1' },
    score: 0.91,
    threshold: 0.62,
    alpha: 0.05,
    calibration_sha256: 'ab'.repeat(32),
    asked: 'amount',
    constraints: [] as string[],
  };

  it('an answer whose check the verifier confirms answers your question', async () => {
    const verdict = await verdictOf(issue({ check }), keys);
    expect(verdict.kind).toBe('verified');
    expect(verdict.heading.key).toBe('verdict.heading.answers');
    expect(verdict.lines[2]?.message.values).toEqual({ score: '0.91', threshold: '0.62', risk: '5 %' });
  });

  it('an issuer\'s "answered" for a year its passages do not mention is related passages', async () => {
    const forged = issue({ question: 'Berapa denda menerobos lampu merah pada 2013?', check });
    const verdict = await verdictOf(forged, keys);
    expect(verdict.kind).toBe('related');
    expect(verdict.verified).toBe(false);
    expect(verdict.check?.mismatches).toEqual(expect.arrayContaining(['CONSTRAINT_UNMET']));
    expect(say(verdict, 'answer')).toBe('Not a confirmed answer: the passages do not mention 2013.');
  });

  it('related passages as the issuer released them are related, never verified', async () => {
    const related = issue({ outcome: 'related', check: { ...check, score: 0.41 } });
    const verdict = await verdictOf(related, keys);
    expect(verdict.kind).toBe('related');
    expect(statuses(verdict)).toEqual([
      'answer:related:warn',
      'authentic:pass:good',
      'relevant:not_relevant:warn',
    ]);
    expect(say(verdict, 'answer')).toBe(
      'Not a confirmed answer: the answer check scored 0.41, below the 0.62 needed.',
    );
  });
});

describe('the chain a fingerprint is anchored on', () => {
  it('names the chain: a local test chain is never a public blockchain', () => {
    expect(chainName(31337, 'en')).toBe('a local test chain');
    expect(chainName(31337, 'id')).toBe('rantai uji lokal');
    expect(chainName(84532, 'en')).toBe('Base Sepolia, a test network');
    expect(chainName(8453, 'en')).toBe('Base, the main network');
    expect(chainName(10, 'en')).toBe('chain 10');
    expect(chainNames([31337, 31337], 'en')).toBe('a local test chain');
    expect(chainNames([], 'en')).toBe('a chain the proof does not name');
    for (const lang of ['en', 'id'] as const)
      for (const key of [
        'verdict.authentic.onchain',
        'verdict.authentic.anchored',
        'verdict.explain.anchor_proofs.pass',
      ] as const) {
        const text = translate(lang, key, { chain: chainName(31337, lang) });
        expect(text).not.toMatch(/public blockchain|blockchain publik/);
        expect(text).toContain(`(${chainName(31337, lang)})`);
      }
  });

  it("reads the chain from the bundle's anchors into the authentic line", async () => {
    const anchored = structuredClone(golden.bundle);
    for (const claim of anchored.certificate.claims)
      for (const evidence of claim.evidence)
        if (evidence.anchor) evidence.anchor = { ...evidence.anchor, chain_id: 31337 };
    expect(anchorChains(anchored)).toEqual([31337]);
    expect(anchorChains({ certificate: { claims: 'x' } })).toEqual([]);
    const result = await verifyBundle(golden.bundle, {
      ...trustOptions(golden.keys),
      vocabulary: SAKSI_VOCABULARY,
    });
    const verdict = decide(result, 'en', anchorChains(anchored));
    expect(verdict.chain).toBe('a local test chain');
    expect(say(verdict, 'authentic')).toContain('anchored on a blockchain (a local test chain)');
  });

  it('formats the risk as a percentage in the language', () => {
    expect(formatRisk(0.05, 'en')).toBe('5 %');
    expect(formatRisk(0.025, 'id')).toBe('2,5 %');
  });

  it('says what query replay checks: the signed question is the one asked, not that it is answered', () => {
    expect(translate('en', 'verdict.explain.query_replay.pass')).not.toMatch(/answers exactly/);
    expect(translate('en', 'verdict.explain.query_replay.pass')).toMatch(/is the one you asked/);
    expect(translate('id', 'verdict.explain.query_replay.pass')).not.toMatch(/menjawab persis/);
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
    for (const reason of [
      'unmet',
      'value',
      'reading',
      'rules',
      'below',
      'relevance',
      'issuer',
      'note',
      'passages',
    ])
      keysUsed.add(`verdict.related.${reason}`);
    for (const key of ['answers', 'below', 'rules', 'issuer']) keysUsed.add(`verdict.check.${key}`);
    for (const key of ['local', 'baseSepolia', 'base', 'other', 'unnamed']) keysUsed.add(`chain.${key}`);
    for (const kind of ['regulation', 'version', 'section']) keysUsed.add(`verdict.constraint.${kind}`);
    for (const asked of ['amount', 'duration', 'age', 'date', 'sanction', 'definition', 'other'])
      keysUsed.add(`verdict.asked.${asked}`);
    keysUsed.add('verdict.heading.answers');
    keysUsed.add('verdict.heading.related');
    keysUsed.add('verdict.term.answers');
    keysUsed.add('verify.downloadBundle' satisfies MessageKey);
    for (const key of keysUsed) {
      for (const lang of ['en', 'id'] as Lang[]) {
        const text = translate(lang, key as never);
        expect(text, `${lang} ${key}`).toBeTruthy();
      }
      expect(translate('id', key as never), key).not.toBe(translate('en', key as never));
    }
  });
});
