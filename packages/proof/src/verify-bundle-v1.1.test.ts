/**
 * Certificate v1.1 end to end (docs/certificate.md): real signed bundles with composed claims,
 * relevance and refusals, tampered by an outsider (signature breaks) and by a compromised issuer
 * (re-signed with the real keys, so only the compositions check and the render policy can catch it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  buildGoldenFixture,
  GOLDEN_DOCUMENTS,
  GOLDEN_LABELLED_DOCUMENTS,
  GOLDEN_ORIGIN,
  GOLDEN_QUESTION,
  GOLDEN_RELEVANCE,
} from '@saksi/test-support/golden';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/codes.js';
import { cosigners, issuerKey, logSigner, resign, rewriteClaim } from '../test/resign.js';
import { buildCertificate, issuerFromSecretKey } from './build-certificate.js';
import {
  type Bundle,
  type ClaimRelevance,
  type Composition,
  codePointLength,
  validateCertificate,
} from './certificate.js';
import { sha256Hex } from './hash.js';
import { MemoryLog } from './memory-log.js';
import { type IssueBundleInput, issueBundle, type SourceDocument } from './reference-issuer.js';
import { decideAnswer, decideRender } from './render-policy.js';
import { parseTrustedKeys, trustOptions } from './trust.js';
import { type IntegrityCode, type VerifyBundleOptions, verifyBundle } from './verify-bundle.js';
import { SAKSI_VOCABULARY } from './vocabulary.js';

const fixtures = path.resolve(import.meta.dirname, '../__fixtures__');
const committed = JSON.parse(readFileSync(path.join(fixtures, 'golden-v1.1-bundle.json'), 'utf8')) as Bundle;
const committedV1 = JSON.parse(readFileSync(path.join(fixtures, 'golden-bundle.json'), 'utf8')) as Bundle;
const keys = parseTrustedKeys(readFileSync(path.join(fixtures, 'golden-keys.json'), 'utf8'));
const options: VerifyBundleOptions = {
  ...trustOptions(keys),
  presentedQuestion: GOLDEN_QUESTION,
  vocabulary: SAKSI_VOCABULARY,
};
const clone = (): Bundle => structuredClone(committed);

/** Issues a real bundle signed with the golden keys, in a log of its own. */
function issue(
  input: Omit<IssueBundleInput, 'issuerName' | 'issuerSecretKey' | 'log' | 'logSigner'>,
): Bundle {
  return issueBundle({
    issuerName: 'saksi-golden',
    issuerSecretKey: issuerKey,
    log: new MemoryLog(GOLDEN_ORIGIN),
    logSigner,
    cosigners,
    issued_at: '2026-11-21T10:00:00Z',
    ...input,
  });
}

async function codesOf(bundle: unknown): Promise<IntegrityCode[]> {
  return (await verifyBundle(bundle, options)).codes;
}

describe('the v1.1 golden bundle', () => {
  it('is reproduced byte for byte by the generator (regenerate on purpose with npm run golden)', () => {
    expect(`${JSON.stringify(buildGoldenFixture({ version: 'v1.1' }).bundle, null, 2)}\n`).toBe(
      readFileSync(path.join(fixtures, 'golden-v1.1-bundle.json'), 'utf8'),
    );
    expect(committed.certificate.schema).toBe('saksi.certificate/v1.1');
  });

  it('is authentic, and reports supported and relevant per claim and for the answer', async () => {
    const result = await verifyBundle(committed, options);
    expect(result.verdict).toBe('verified');
    expect(result.authentic).toBe(true);
    expect(result.checks.map((check) => check.id)).toContain('compositions');
    expect(result.checks.find((check) => check.id === 'compositions')?.status).toBe('pass');
    expect(result.claims.map((claim) => [claim.rendered, claim.reason])).toEqual([
      [true, 'OK'],
      [true, 'OK'],
    ]);
    expect(result.claims[0]!.supported).toEqual({ kind: 'verbatim', method: 'verbatim', spans: 1 });
    expect(result.claims[1]!.supported).toEqual({ kind: 'composed', method: 'composition', spans: 2 });
    expect(result.claims[0]!.relevant).toEqual({ status: 'relevant', ...GOLDEN_RELEVANCE });
    expect(result.answer).toEqual({
      outcome: 'answered',
      relevant: { status: 'relevant', ...GOLDEN_RELEVANCE },
      answered: true,
    });
  });

  it('a v1 bundle keeps verifying, with relevance and outcome unknown', async () => {
    const result = await verifyBundle(committedV1, options);
    expect(result.verdict).toBe('verified');
    expect(result.authentic).toBe(true);
    expect(result.checks.find((check) => check.id === 'compositions')).toMatchObject({ status: 'pass' });
    expect(result.claims.map((claim) => claim.supported)).toEqual([
      { kind: 'entailed', method: 'lexical', score: 0.9 },
      { kind: 'entailed', method: 'lexical', score: 0.9 },
    ]);
    expect(result.claims.every((claim) => claim.relevant.status === 'unknown')).toBe(true);
    expect(result.answer).toEqual({ outcome: 'unknown', relevant: { status: 'unknown' }, answered: true });
  });
});

describe('composed claims: tampering is COMPOSITION_MISMATCH', () => {
  it('a tampered fixed word in the claim text', async () => {
    const bundle = rewriteClaim(
      clone(),
      1,
      committed.certificate.claims[1]!.text.replace('Sanksi, ', 'Sanksi ringan, '),
    );
    // By an outsider: the signature and the log proof break too.
    expect(await codesOf(structuredClone(bundle))).toEqual([
      'SIGNATURE_INVALID',
      'COMPOSITION_MISMATCH',
      'LOG_PROOF_INVALID',
    ]);
    // By the issuer itself: only the recomputation catches it, and every claim is blocked.
    const result = await verifyBundle(resign(bundle), options);
    expect(result.codes).toEqual(['COMPOSITION_MISMATCH']);
    expect(result.authentic).toBe(false);
    expect(result.claims.every((claim) => !claim.rendered && claim.reason === 'INTEGRITY_FAILURE')).toBe(
      true,
    );
    expect(result.claims.every((claim) => claim.supported.kind === 'not_supported')).toBe(true);
    expect(result.answer.answered).toBe(false);
    expect(result.checks.find((check) => check.id === 'compositions')?.problems[0]?.field).toBe(
      'certificate.claims[1].composition',
    );
  });

  it('a fixed word that is not in the registry (text and composition agree)', async () => {
    const bundle = clone();
    const composition = bundle.certificate.claims[1]!.composition!;
    composition.parts[6] = { fixed: 'Sanksi paling ringan, ' };
    rewriteClaim(bundle, 1, bundle.certificate.claims[1]!.text.replace('Sanksi, ', 'Sanksi paling ringan, '));
    const result = await verifyBundle(resign(bundle), options);
    expect(result.codes).toEqual(['COMPOSITION_MISMATCH']);
    expect(result.checks.find((check) => check.id === 'compositions')?.problems[0]?.field).toBe(
      'certificate.claims[1].composition.parts[6]',
    );
  });

  it('an unknown template or a fixed word of the other language', async () => {
    const unknown = clone();
    unknown.certificate.claims[1]!.composition!.template = 'law.anything';
    expect(await codesOf(resign(unknown))).toEqual(['COMPOSITION_MISMATCH']);
    const english = clone();
    english.certificate.claims[1]!.composition!.language = 'en';
    expect(await codesOf(resign(english))).toEqual(['COMPOSITION_MISMATCH']);
  });

  it('a span part whose evidence was altered', async () => {
    const bundle = clone();
    const span = bundle.certificate.claims[1]!.evidence[1]!.span;
    const altered = span.text.replace('2 (dua) bulan', '1 (satu) bulan');
    // The claim text follows the altered span, so the composition still renders to it…
    rewriteClaim(bundle, 1, bundle.certificate.claims[1]!.text.replace(span.text, altered));
    span.text = altered;
    span.sha256 = sha256Hex(altered);
    // …but the span is no longer the document's text at its offsets.
    expect(await codesOf(resign(structuredClone(bundle)))).toEqual(['SPAN_OFFSET_MISMATCH']);
    // Altering only the evidence (not the claim) breaks the recomputation as well.
    const evidenceOnly = clone();
    const only = evidenceOnly.certificate.claims[1]!.evidence[1]!.span;
    only.text = altered;
    only.sha256 = sha256Hex(altered);
    expect(await codesOf(resign(evidenceOnly))).toEqual(['SPAN_OFFSET_MISMATCH', 'COMPOSITION_MISMATCH']);
  });

  it('a wrong index: out of range, or pointing at the other span', async () => {
    const outOfRange = clone();
    outOfRange.certificate.claims[1]!.composition!.parts[1] = { cite: 5 };
    const result = await verifyBundle(resign(outOfRange), options);
    expect(result.codes).toEqual(['COMPOSITION_MISMATCH']);
    expect(result.checks.find((check) => check.id === 'compositions')?.problems[0]?.field).toBe(
      'certificate.claims[1].composition.parts[1]',
    );
    const swapped = clone();
    const parts = swapped.certificate.claims[1]!.composition!.parts;
    parts[4] = { span: 1 };
    parts[7] = { span: 0 };
    expect(await codesOf(resign(swapped))).toEqual(['COMPOSITION_MISMATCH']);
  });

  it('unused (decorative) evidence', async () => {
    const bundle = clone();
    const claim = bundle.certificate.claims[1]!;
    claim.evidence.push(structuredClone(bundle.certificate.claims[0]!.evidence[0]!));
    expect(await codesOf(resign(bundle))).toEqual(['COMPOSITION_MISMATCH']);
  });

  it('a composition on a claim that is plain text otherwise verifies only when it renders the text', async () => {
    const bundle = clone();
    bundle.certificate.claims[0]!.composition = {
      template: 'quote',
      language: 'id',
      parts: [{ span: 0 }, { fixed: ' ' }, { marker: 1 }],
    };
    const result = await verifyBundle(resign(bundle), options);
    expect(result.codes).toEqual([]);
    expect(result.claims[0]!.supported).toEqual({ kind: 'verbatim', method: 'composition', spans: 1 });
    bundle.certificate.claims[0]!.composition!.parts[2] = { marker: 2 };
    expect(await codesOf(resign(bundle))).toEqual(['COMPOSITION_MISMATCH']);
  });
});

/** APBN 2022 (UU 6/2021) and APBN 2023 (UU 28/2022), Pasal 4 ayat (1): planned tax revenue. */
const APBN: SourceDocument[] = [
  {
    document_id: 'uu-2021-6',
    title: 'UU No. 6 Tahun 2021 tentang APBN Tahun Anggaran 2022',
    chunks: [
      {
        chunk_id: 'uu-2021-6-p4',
        citation: { pasal: '4', ayat: '1', label: 'Pasal 4 ayat (1) UU 6/2021' },
        text: 'Pasal 4 (1) Penerimaan Perpajakan sebagaimana dimaksud dalam Pasal 3 huruf a direncanakan sebesar Rp1.510.001.200.000.000,00 (satu kuadriliun lima ratus sepuluh triliun satu miliar dua ratus juta rupiah), terdiri atas:',
      },
    ],
  },
  {
    document_id: 'uu-2022-28',
    title: 'UU No. 28 Tahun 2022 tentang APBN Tahun Anggaran 2023',
    chunks: [
      {
        chunk_id: 'uu-2022-28-p4',
        citation: { pasal: '4', ayat: '1', label: 'Pasal 4 ayat (1) UU 28/2022' },
        text: '(1) Penerimaan Perpajakan sebagaimana dimaksud dalam Pasal 3 huruf a direncanakan sebesar Rp2.021.223.677.000.000,00 (dua kuadriliun dua puluh satu triliun dua ratus dua puluh tiga miliar enam ratus tujuh puluh tujuh juta rupiah), terdiri atas:',
      },
    ],
  },
];
const COMPARISON: Composition = {
  template: 'budget.comparison',
  language: 'id',
  parts: [
    { fixed: 'Menurut ' },
    { cite: 0 },
    { fixed: ': ' },
    { span: 0 },
    { fixed: ' ' },
    { marker: 1 },
    { fixed: '; menurut ' },
    { cite: 1 },
    { fixed: ': ' },
    { span: 1 },
    { fixed: ' ' },
    { marker: 2 },
    { fixed: '. Selisihnya ' },
    { difference: [0, 1] },
    { fixed: '.' },
  ],
};
const COMPARISON_TEXT =
  'Menurut Pasal 4 ayat (1) UU 6/2021: Rp1.510.001.200.000.000,00 [1]; menurut Pasal 4 ayat (1) UU 28/2022: Rp2.021.223.677.000.000,00 [2]. Selisihnya Rp511.222.477.000.000,00.';
const COMPARISON_QUESTION = 'Penerimaan perpajakan 2022 dan 2023 selisihnya berapa?';
const comparisonClaim = (text = COMPARISON_TEXT) => ({
  text,
  evidence: [
    { chunk_id: 'uu-2021-6-p4', span_text: 'Rp1.510.001.200.000.000,00' },
    { chunk_id: 'uu-2022-28-p4', span_text: 'Rp2.021.223.677.000.000,00' },
  ],
  verification: { label: 'entailed' as const, confidence: 1, verifier: { id: 'composition', version: '1' } },
  composition: COMPARISON,
  relevance: GOLDEN_RELEVANCE,
});

describe('a difference part', () => {
  it('recomputes b − a from two amounts: correct is composed, supported and shown', async () => {
    const bundle = issue({
      documents: APBN,
      question: COMPARISON_QUESTION,
      answer: COMPARISON_TEXT,
      claims: [comparisonClaim()],
      answerRelevance: GOLDEN_RELEVANCE,
      outcome: 'answered',
    });
    const result = await verifyBundle(bundle, { ...options, presentedQuestion: COMPARISON_QUESTION });
    expect(result.codes).toEqual([]);
    expect(result.claims[0]).toMatchObject({
      rendered: true,
      reason: 'OK',
      supported: { kind: 'composed', method: 'composition', spans: 2 },
      unsupported_figures: [],
    });
  });

  it('a wrong difference is refused by the issuer and caught in a re-signed certificate', async () => {
    const wrong = COMPARISON_TEXT.replace('Rp511.222.477.000.000,00', 'Rp511.222.477.000.001,00');
    expect(
      codeOf(() =>
        issue({
          documents: APBN,
          question: COMPARISON_QUESTION,
          answer: wrong,
          claims: [comparisonClaim(wrong)],
        }),
      ),
    ).toBe('CERTIFICATE_INVALID');
    const bundle = issue({
      documents: APBN,
      question: COMPARISON_QUESTION,
      answer: COMPARISON_TEXT,
      claims: [comparisonClaim()],
    });
    rewriteClaim(bundle, 0, wrong);
    const result = await verifyBundle(resign(bundle), { ...options, presentedQuestion: COMPARISON_QUESTION });
    expect(result.codes).toEqual(['COMPOSITION_MISMATCH']);
    expect(result.claims[0]!.rendered).toBe(false);
  });

  it('one marker after both documents cites two sources at once: MARKER_MISMATCH', async () => {
    // Each document is a source of its own, numbered by its own marker (docs/certificate.md,
    // "Citation markers"); one "[1]" for both would send a reader to one of them only.
    const single: Composition = {
      ...COMPARISON,
      parts: [
        ...COMPARISON.parts.filter((part) => !('marker' in part) && !('fixed' in part && part.fixed === ' ')),
        { fixed: ' ' },
        { marker: 1 },
      ],
    };
    const text =
      'Menurut Pasal 4 ayat (1) UU 6/2021: Rp1.510.001.200.000.000,00; menurut Pasal 4 ayat (1) UU 28/2022: Rp2.021.223.677.000.000,00. Selisihnya Rp511.222.477.000.000,00. [1]';
    const bundle = issue({
      documents: APBN,
      question: COMPARISON_QUESTION,
      answer: text,
      claims: [{ ...comparisonClaim(text), composition: single }],
    });
    const result = await verifyBundle(bundle, { ...options, presentedQuestion: COMPARISON_QUESTION });
    expect(result.codes).toEqual(['MARKER_MISMATCH']);
    expect(result.claims[0]!.rendered).toBe(false);
  });

  it('a difference over spans that are not single amounts does not render', async () => {
    const bundle = issue({
      documents: APBN,
      question: COMPARISON_QUESTION,
      answer: COMPARISON_TEXT,
      claims: [comparisonClaim()],
    });
    const evidence = bundle.certificate.claims[0]!.evidence[0]!;
    const wider = 'direncanakan sebesar Rp1.510.001.200.000.000,00';
    evidence.span = {
      start: evidence.span.start - 21,
      end: evidence.span.end,
      text: wider,
      sha256: sha256Hex(wider),
    };
    const result = await verifyBundle(resign(bundle), { ...options, presentedQuestion: COMPARISON_QUESTION });
    expect(result.codes).toEqual(['COMPOSITION_MISMATCH']);
  });
});

/**
 * A budget clause as OCR reads it (in the form of UU 28/2022 Pasal 3): the digits are misread, the
 * amount in words after them is clean.
 */
const WORDS =
  'dua kuadriliun dua ratus tiga puluh tiga triliun seratus sembilan puluh enam miliar tujuh ratus satu juta enam ratus enam puluh ribu rupiah';
const SUBJECT = 'Anggaran Pendapatan Negara Tahun Anggaran 2023 direncanakan';
const OCR_APBN: SourceDocument[] = [
  {
    document_id: 'uu-2022-28',
    title: 'UU No. 28 Tahun 2022 tentang APBN Tahun Anggaran 2023',
    chunks: [
      {
        chunk_id: 'uu-2022-28-p3',
        citation: { pasal: '3', ayat: '1', label: 'Pasal 3 ayat (1) UU 28/2022' },
        text: `Pasal 3 (1) ${SUBJECT} sebesar Rp2.233. 196.7O 1.660.0O0,0O (${WORDS}), yang diperoleh dari sumber:`,
      },
    ],
  },
];
const FIGURE_WORDS: Composition = {
  template: 'budget.figure-words',
  language: 'id',
  parts: [
    { fixed: 'Menurut ' },
    { cite: 0 },
    { fixed: ', ' },
    { span: 0 },
    { fixed: ' sebesar ' },
    { spelled: 1 },
    { fixed: ' (' },
    { span: 1 },
    { fixed: ')' },
    { fixed: ' ' },
    { marker: 1 },
  ],
};
const FIGURE_WORDS_TEXT = `Menurut Pasal 3 ayat (1) UU 28/2022, ${SUBJECT} sebesar Rp2.233.196.701.660.000,00 (${WORDS}) [1]`;
const FIGURE_QUESTION = 'Berapa anggaran pendapatan negara tahun 2023?';
const figureWordsClaim = (text = FIGURE_WORDS_TEXT) => ({
  text,
  evidence: [
    { chunk_id: 'uu-2022-28-p3', span_text: SUBJECT },
    { chunk_id: 'uu-2022-28-p3', span_text: WORDS },
  ],
  verification: { label: 'entailed' as const, confidence: 1, verifier: { id: 'composition', version: '1' } },
  composition: FIGURE_WORDS,
  relevance: GOLDEN_RELEVANCE,
});
const issueFigureWords = () =>
  issue({
    documents: OCR_APBN,
    question: FIGURE_QUESTION,
    answer: FIGURE_WORDS_TEXT,
    claims: [figureWordsClaim()],
    answerRelevance: GOLDEN_RELEVANCE,
    outcome: 'answered',
  });
const figureOptions: VerifyBundleOptions = { ...options, presentedQuestion: FIGURE_QUESTION };

describe('a spelled part', () => {
  it('states the amount the words spell: composed, supported and shown', async () => {
    const result = await verifyBundle(issueFigureWords(), figureOptions);
    expect(result.codes).toEqual([]);
    expect(result.claims[0]).toMatchObject({
      rendered: true,
      reason: 'OK',
      supported: { kind: 'composed', method: 'composition', spans: 2 },
      unsupported_figures: [],
    });
  });

  it('a figure the words do not spell is refused by the issuer and caught in a re-signed certificate', async () => {
    const wrong = FIGURE_WORDS_TEXT.replace('Rp2.233.196.701.660.000,00', 'Rp2.233.196.701.760.000,00');
    expect(
      codeOf(() =>
        issue({
          documents: OCR_APBN,
          question: FIGURE_QUESTION,
          answer: wrong,
          claims: [figureWordsClaim(wrong)],
        }),
      ),
    ).toBe('CERTIFICATE_INVALID');
    const bundle = rewriteClaim(issueFigureWords(), 0, wrong);
    const result = await verifyBundle(resign(bundle), figureOptions);
    expect(result.codes).toEqual(['COMPOSITION_MISMATCH']);
    expect(result.claims[0]!.rendered).toBe(false);
  });

  it('one word of the words changed in the chunk fails', async () => {
    // "enam" for "lima": one word, the same length, so every offset stays in place.
    const changed = (text: string) =>
      text.replace('enam ratus enam puluh ribu', 'lima ratus enam puluh ribu');
    // In the chunk only: the chunk no longer matches its hash, nor the span its offsets.
    const chunkOnly = issueFigureWords();
    chunkOnly.chunks[0]!.text = changed(chunkOnly.chunks[0]!.text);
    const result = await verifyBundle(chunkOnly, figureOptions);
    expect(result.verdict).toBe('failed');
    expect(result.codes).toEqual(['HASH_MISMATCH', 'SPAN_OFFSET_MISMATCH']);
    expect(result.claims[0]!.rendered).toBe(false);
    // In the chunk and the words span, re-signed: the claim no longer recomputes either.
    const spanToo = issueFigureWords();
    spanToo.chunks[0]!.text = changed(spanToo.chunks[0]!.text);
    const span = spanToo.certificate.claims[0]!.evidence[1]!.span;
    span.text = changed(span.text);
    span.sha256 = sha256Hex(span.text);
    const resigned = await verifyBundle(resign(spanToo), figureOptions);
    expect(resigned.codes).toEqual(['HASH_MISMATCH', 'COMPOSITION_MISMATCH']);
    expect(resigned.claims[0]!.rendered).toBe(false);
  });

  it('a spelled part over a span with digits does not render', async () => {
    const bundle = issueFigureWords();
    const evidence = bundle.certificate.claims[0]!.evidence[1]!;
    const wider = `Rp2.233. 196.7O 1.660.0O0,0O (${WORDS}`;
    const start = evidence.span.start - codePointLength('Rp2.233. 196.7O 1.660.0O0,0O (');
    evidence.span = { start, end: evidence.span.end, text: wider, sha256: sha256Hex(wider) };
    const result = await verifyBundle(resign(bundle), figureOptions);
    expect(result.codes).toEqual(['COMPOSITION_MISMATCH']);
  });
});

describe('relevance and the answer outcome', () => {
  const goldenClaims = (relevance: ClaimRelevance[]) =>
    buildGoldenFixture({ version: 'v1.1' }).bundle.certificate.claims.map((claim, index) => ({
      text: claim.text,
      evidence: claim.evidence.map((item) => ({ chunk_id: item.chunk_id, span_text: item.span.text })),
      verification: claim.verification,
      ...(claim.composition ? { composition: claim.composition } : {}),
      relevance: relevance[index]!,
    }));
  const low: ClaimRelevance = { ...GOLDEN_RELEVANCE, score: 0.12 };

  it('a claim below its relevance threshold is NOT_RELEVANT, the others are shown', async () => {
    const bundle = issue({
      documents: GOLDEN_LABELLED_DOCUMENTS,
      question: GOLDEN_QUESTION,
      answer: committed.certificate.answer.text,
      claims: goldenClaims([low, GOLDEN_RELEVANCE]),
      answerRelevance: GOLDEN_RELEVANCE,
      outcome: 'answered',
    });
    const result = await verifyBundle(bundle, options);
    expect(result.authentic).toBe(true);
    expect(result.claims.map((claim) => claim.reason)).toEqual(['NOT_RELEVANT', 'OK']);
    expect(result.claims[0]!.relevant).toEqual({ status: 'not_relevant', ...low });
    // Supported is its own result: the quote is still verbatim.
    expect(result.claims[0]!.supported.kind).toBe('verbatim');
    expect(result.answer.answered).toBe(true);
  });

  it('an answer below its relevance threshold is not answered, whatever its claims', async () => {
    const bundle = issue({
      documents: GOLDEN_LABELLED_DOCUMENTS,
      question: GOLDEN_QUESTION,
      answer: committed.certificate.answer.text,
      claims: goldenClaims([GOLDEN_RELEVANCE, GOLDEN_RELEVANCE]),
      answerRelevance: low,
      outcome: 'answered',
    });
    const result = await verifyBundle(bundle, options);
    expect(result.verdict).toBe('verified');
    expect(result.answer).toEqual({
      outcome: 'answered',
      relevant: { status: 'not_relevant', ...low },
      answered: false,
    });
  });

  it('a refused answer verifies as authentic and is not answered', async () => {
    const text = 'Dokumen tidak memuat bukti yang cukup untuk pertanyaan ini.';
    const bundle = issue({
      documents: GOLDEN_DOCUMENTS,
      question: 'Berapa denda parkir di bandara?',
      answer: text,
      claims: [],
      retrieved: ['uu22-p287-a3'],
      outcome: 'refused',
      refusal: { reason: 'NOT_COVERED' },
    });
    const result = await verifyBundle(bundle, {
      ...options,
      presentedQuestion: 'Berapa denda parkir di bandara?',
    });
    expect(result.verdict).toBe('verified');
    expect(result.authentic).toBe(true);
    expect(result.claims).toEqual([]);
    expect(result.answer).toEqual({
      outcome: 'refused',
      refusal: 'NOT_COVERED',
      relevant: { status: 'unknown' },
      answered: false,
    });
  });
});

describe('the render policy on composed claims', () => {
  const issuer = issuerFromSecretKey('test', issuerKey);
  const proof = { leaf_index: 0, tree_size: 1, path: [], document_root: '00'.repeat(32) };
  const chunk =
    'Pelanggar dikenai denda paling banyak Rp2.500.000,00 atau pidana kurungan paling sedikit 1 (satu) bulan.';
  const certify = (
    text: string,
    spans: string[],
    composition: Composition,
    verifier = 'composition',
    label?: string,
  ) =>
    buildCertificate({
      issuer,
      query: { text: 'q', nonce: '00'.repeat(16) },
      retrieval: {
        collection: 'c',
        parameters: { top_k: 1, rrf_k: 60, weights: {}, rewrite_variants: [] },
        results: [],
      },
      answer: { text, generator: { kind: 'extractive', model: 'm', version: '1' } },
      claims: [
        {
          text,
          evidence: spans.map((span) => ({
            chunk_id: 'k',
            document_id: 'd',
            chunk_text: chunk,
            span_text: span,
            document_proof: proof,
            citation: { document_title: 'UU', ...(label ? { label } : {}) },
          })),
          verification: { label: 'entailed', confidence: 1, verifier: { id: verifier, version: '1' } },
          render: { rendered: true, reason: 'OK' },
          composition,
        },
      ],
    }).certificate;

  it('a qualifier made across the seam of two spans is NOT_SUPPORTED', () => {
    const certificate = certify(
      'denda paling sedikit 1 (satu) bulan',
      ['denda paling', 'sedikit 1 (satu) bulan'],
      {
        template: 'law.provision',
        language: 'id',
        parts: [{ span: 0 }, { fixed: ' ' }, { span: 1 }],
      },
    );
    const [decision] = decideRender(certificate, { integrityOk: true, vocabulary: SAKSI_VOCABULARY });
    expect(decision).toMatchObject({
      rendered: false,
      reason: 'NOT_SUPPORTED',
      unsupported_qualifiers: ['paling sedikit'],
      supported: { kind: 'not_supported', method: 'qualifiers' },
    });
  });

  it('a figure made across the seam of two spans is NUMBER_MISMATCH', () => {
    const certificate = certify('Rp2.000,00', ['Rp2', '000,00'], {
      template: 'budget.comparison',
      language: 'id',
      parts: [{ span: 0 }, { fixed: '.' }, { span: 1 }],
    });
    const [decision] = decideRender(certificate, { integrityOk: true, vocabulary: SAKSI_VOCABULARY });
    expect(decision).toMatchObject({ rendered: false, reason: 'NUMBER_MISMATCH' });
    expect(decision!.unsupported_figures).toEqual(['2.000,00']);
  });

  it('figures and qualifiers inside spans and citation labels are the evidence: shown', () => {
    const text = 'Menurut Pasal 287 UU 22/2009: denda paling banyak Rp2.500.000,00 [1]';
    const certificate = certify(
      text,
      ['denda paling banyak Rp2.500.000,00'],
      {
        template: 'law.provision',
        language: 'id',
        parts: [
          { fixed: 'Menurut ' },
          { cite: 0 },
          { fixed: ': ' },
          { span: 0 },
          { fixed: ' ' },
          { marker: 1 },
        ],
      },
      'composition',
      'Pasal 287 UU 22/2009',
    );
    const [decision] = decideRender(certificate, { integrityOk: true, vocabulary: SAKSI_VOCABULARY });
    expect(decision).toMatchObject({
      rendered: true,
      reason: 'OK',
      unsupported_figures: [],
      unsupported_qualifiers: [],
      supported: { kind: 'composed', method: 'composition', spans: 1 },
    });
  });

  it('a claim that says verbatim or composition but is neither is NOT_SUPPORTED', () => {
    const certificate = structuredClone(committed.certificate);
    delete certificate.claims[1]!.composition;
    certificate.claims[0]!.text = 'Pengemudi wajib berhenti [1]';
    const decisions = decideRender(certificate, { integrityOk: true, vocabulary: SAKSI_VOCABULARY });
    expect(decisions.map((decision) => [decision.reason, decision.supported])).toEqual([
      ['NOT_SUPPORTED', { kind: 'not_supported', method: 'verbatim' }],
      ['NOT_SUPPORTED', { kind: 'not_supported', method: 'composition' }],
    ]);
    expect(decideAnswer(certificate, decisions, true).answered).toBe(false);
  });
});

describe('hostile v1.1 input is MALFORMED, never an exception', () => {
  // biome-ignore lint/suspicious/noExplicitAny: tests poke arbitrary wrong values into a copy
  type Loose = Record<string, any>;
  const mutate = (edit: (certificate: Loose) => void, base: Bundle = committed): unknown => {
    const copy = structuredClone(base) as unknown as Loose;
    edit(copy['certificate']);
    return copy;
  };
  const parts = (certificate: Loose): unknown[] => certificate['claims'][1].composition.parts;
  const cases: [string, unknown][] = [
    [
      '65 parts',
      mutate((c) => {
        c['claims'][1].composition.parts = Array(65).fill({ span: 0 });
      }),
    ],
    [
      '100,000 parts',
      mutate((c) => {
        c['claims'][1].composition.parts = Array(100_000).fill({ fixed: ' ' });
      }),
    ],
    [
      'no parts',
      mutate((c) => {
        c['claims'][1].composition.parts = [];
      }),
    ],
    [
      'negative index',
      mutate((c) => {
        parts(c)[4] = { span: -1 };
      }),
    ],
    [
      'fractional index',
      mutate((c) => {
        parts(c)[4] = { span: 0.5 };
      }),
    ],
    [
      'index beyond any evidence',
      mutate((c) => {
        parts(c)[4] = { span: 64 };
      }),
    ],
    [
      'string index',
      mutate((c) => {
        parts(c)[4] = { span: '0' };
      }),
    ],
    [
      'marker 0',
      mutate((c) => {
        parts(c)[9] = { marker: 0 };
      }),
    ],
    [
      'unknown part kind',
      mutate((c) => {
        parts(c)[4] = { quote: 0 };
      }),
    ],
    [
      'two kinds in one part',
      mutate((c) => {
        parts(c)[4] = { span: 0, fixed: ' ' };
      }),
    ],
    [
      'empty part',
      mutate((c) => {
        parts(c)[4] = {};
      }),
    ],
    [
      'part is an array',
      mutate((c) => {
        parts(c)[4] = [0];
      }),
    ],
    [
      'difference of three',
      mutate((c) => {
        parts(c)[4] = { difference: [0, 1, 1] };
      }),
    ],
    [
      'difference of one',
      mutate((c) => {
        parts(c)[4] = { difference: [0] };
      }),
    ],
    [
      'empty fixed word',
      mutate((c) => {
        parts(c)[0] = { fixed: '' };
      }),
    ],
    [
      'unknown language',
      mutate((c) => {
        c['claims'][1].composition.language = 'fr';
      }),
    ],
    [
      'extra composition field',
      mutate((c) => {
        c['claims'][1].composition.version = '1';
      }),
    ],
    [
      'relevance above 1',
      mutate((c) => {
        c['claims'][0].relevance.score = 1.5;
      }),
    ],
    [
      'relevance NaN',
      mutate((c) => {
        c['claims'][0].relevance.threshold = Number.NaN;
      }),
    ],
    [
      'relevance without method',
      mutate((c) => {
        delete c['claims'][0].relevance.method;
      }),
    ],
    [
      'unknown outcome',
      mutate((c) => {
        c['answer'].outcome = 'maybe';
      }),
    ],
    [
      'unknown refusal reason',
      mutate((c) => {
        c['answer'].outcome = 'refused';
        c['answer'].refusal = { reason: 'BORED' };
      }),
    ],
    [
      'refusal without outcome refused',
      mutate((c) => {
        c['answer'].refusal = { reason: 'NOT_COVERED' };
      }),
    ],
    [
      'v1 with a composition',
      mutate((c) => {
        c['schema'] = 'saksi.certificate/v1';
        delete c['answer'].relevance;
        delete c['answer'].outcome;
        for (const claim of c['claims']) delete claim.relevance;
      }),
    ],
    [
      'v1 with a relevance',
      mutate((c) => {
        c['claims'][0].relevance = { score: 1, threshold: 0, method: { id: 'x', version: '1' } };
      }, committedV1),
    ],
    [
      'v1 with an outcome',
      mutate((c) => {
        c['answer'].outcome = 'answered';
      }, committedV1),
    ],
    [
      'v1 with NOT_RELEVANT',
      mutate((c) => {
        c['claims'][0].render = { rendered: false, reason: 'NOT_RELEVANT' };
      }, committedV1),
    ],
    [
      'unknown schema',
      mutate((c) => {
        c['schema'] = 'saksi.certificate/v1.2';
      }),
    ],
  ];
  it('returns a failed structure check for each', async () => {
    for (const [name, input] of cases) {
      const result = await verifyBundle(input, options);
      expect([name, result.codes]).toEqual([name, ['MALFORMED']]);
      expect(result.authentic).toBe(false);
      expect(result.claims).toEqual([]);
      expect(result.answer).toEqual({ outcome: 'unknown', relevant: { status: 'unknown' }, answered: false });
    }
  });

  it('validateCertificate refuses them with CERTIFICATE_INVALID', () => {
    for (const [name, input] of cases) {
      expect([name, codeOf(() => validateCertificate((input as Bundle).certificate))]).toEqual([
        name,
        'CERTIFICATE_INVALID',
      ]);
    }
  });

  it('buildCertificate writes v1.1 by default and refuses v1.1 fields in v1', () => {
    const bundle = issue({
      documents: GOLDEN_DOCUMENTS,
      question: 'q',
      answer: 'a',
      claims: [],
      retrieved: ['uu22-p289'],
    });
    expect(bundle.certificate.schema).toBe('saksi.certificate/v1.1');
    expect(
      codeOf(() =>
        issue({
          schema: 'saksi.certificate/v1',
          documents: GOLDEN_DOCUMENTS,
          question: 'q',
          answer: 'a',
          claims: [],
          retrieved: ['uu22-p289'],
          outcome: 'answered',
        }),
      ),
    ).toBe('CERTIFICATE_INVALID');
  });
});
