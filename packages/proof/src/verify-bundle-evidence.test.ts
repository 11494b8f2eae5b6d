/**
 * A bundle carries nothing the verifier leaves unchecked (docs/certificate.md, "Citation labels",
 * "Citation markers", "Bundle" and "Verification result"): every citation label is the one its
 * citation's signed fields read as, every "[n]" of a composed claim cites the evidence before it,
 * every chunk is cited, no cosignature line repeats, nothing outside the schema rides along, and a
 * verifier called without its vocabulary fails with a code instead of throwing. The forgeries are
 * re-signed with the real issuer key (a compromised or buggy issuer), so only these checks catch them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  GOLDEN_LABELLED_DOCUMENTS,
  GOLDEN_ORIGIN,
  GOLDEN_QUESTION,
  GOLDEN_WITNESSES,
  testSecretKey,
} from '@saksi/test-support/golden';
import { describe, expect, it } from 'vitest';
import { cosigners, issuerKey, logSigner, resign, rewriteClaim } from '../test/resign.js';
import { type Bundle, codePointLength } from './certificate.js';
import { cosignatureLine, createCosigner } from './cosignature.js';
import { sha256Hex } from './hash.js';
import { MemoryLog } from './memory-log.js';
import { parseNote } from './note.js';
import { issueBundle } from './reference-issuer.js';
import { parseTrustedKeys, trustOptions } from './trust.js';
import { type CheckId, type VerifyBundleOptions, verifyBundle } from './verify-bundle.js';
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
/** For bundles issued here, for other questions than the golden one. */
const anyQuestion: VerifyBundleOptions = { ...trustOptions(keys), vocabulary: SAKSI_VOCABULARY };
const clone = (): Bundle => structuredClone(committed);

async function problemsOf(bundle: unknown, check: CheckId, given: VerifyBundleOptions = options) {
  const result = await verifyBundle(bundle, given);
  return {
    codes: result.codes,
    verdict: result.verdict,
    shown: result.claims.filter((claim) => claim.rendered).length,
    problems: result.checks
      .find((candidate) => candidate.id === check)!
      .problems.map(({ code, field }) => ({ code, field })),
  };
}

describe('citation labels are read from the citation (CITATION_LABEL_MISMATCH)', () => {
  it('the golden labels are the ones their citations read as', async () => {
    const result = await verifyBundle(committed, options);
    expect(result.codes).toEqual([]);
    expect(result.checks.find((check) => check.id === 'citations')?.status).toBe('pass');
  });

  it('a re-signed composed claim citing the wrong Pasal fails, though it recomputes', async () => {
    const bundle = clone();
    const claim = bundle.certificate.claims[1]!;
    for (const evidence of claim.evidence) evidence.citation.label = 'Pasal 281 ayat (2) UU 22/2009';
    rewriteClaim(bundle, 1, claim.text.replace('Pasal 287 ayat (2)', 'Pasal 281 ayat (2)'));
    const result = await problemsOf(resign(bundle), 'citations');
    expect(result.codes).toEqual(['CITATION_LABEL_MISMATCH']);
    expect(result.verdict).toBe('failed');
    expect(result.shown).toBe(0);
    expect(result.problems).toEqual([
      { code: 'CITATION_LABEL_MISMATCH', field: 'certificate.claims[1].evidence[0].citation.label' },
      { code: 'CITATION_LABEL_MISMATCH', field: 'certificate.claims[1].evidence[1].citation.label' },
    ]);
  });

  it('a wrong ayat, regulation or elucidation, and a label on a citation with no Pasal', async () => {
    const labels = [
      'Pasal 287 ayat (3) UU 22/2009',
      'Pasal 287 UU 22/2009',
      'Pasal 287 ayat (2) UU 23/2014',
      'Pasal 287 ayat (2)',
      'Penjelasan Pasal 287 ayat (2) UU 22/2009',
      'Pasal 287 ayat (2) UU 22/2009 (amended)',
    ];
    for (const label of labels) {
      const bundle = clone();
      bundle.certificate.claims[0]!.evidence[0]!.citation.label = label;
      expect((await problemsOf(resign(bundle), 'citations')).problems).toEqual([
        { code: 'CITATION_LABEL_MISMATCH', field: 'certificate.claims[0].evidence[0].citation.label' },
      ]);
    }
    const noPasal = clone();
    delete noPasal.certificate.claims[0]!.evidence[0]!.citation.pasal;
    delete noPasal.certificate.claims[0]!.evidence[0]!.citation.ayat;
    expect((await problemsOf(resign(noPasal), 'citations')).codes).toEqual(['CITATION_LABEL_MISMATCH']);
  });

  it("a ministry's numbering: the label that keeps it, and the earlier certificates' form, are accepted", async () => {
    const title =
      'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA NOMOR 186/PMK.07/2011 TENTANG PERKIRAAN ALOKASI';
    const labelled = (label: string) => {
      const bundle = clone();
      const citation = bundle.certificate.claims[0]!.evidence[0]!.citation;
      citation.document_title = title;
      citation.label = label;
      return resign(bundle);
    };
    for (const label of ['Pasal 287 ayat (2) PMK 186/PMK.07/2011', 'Pasal 287 ayat (2) PMK 186/2011'])
      expect((await problemsOf(labelled(label), 'citations')).problems).toEqual([]);
    for (const label of ['Pasal 287 ayat (2) PMK 186/PMK.07/2012', 'Pasal 287 ayat (2) PMK 19/2011'])
      expect((await problemsOf(labelled(label), 'citations')).problems).toEqual([
        { code: 'CITATION_LABEL_MISMATCH', field: 'certificate.claims[0].evidence[0].citation.label' },
      ]);
  });

  it('changing the Pasal field without the label fails too; a citation without a label is fine', async () => {
    const moved = clone();
    moved.certificate.claims[0]!.evidence[0]!.citation.pasal = '281';
    expect((await problemsOf(resign(moved), 'citations')).codes).toEqual(['CITATION_LABEL_MISMATCH']);
    const unlabelled = clone();
    delete unlabelled.certificate.claims[0]!.evidence[0]!.citation.label;
    expect((await verifyBundle(resign(unlabelled), options)).codes).toEqual([]);
  });
});

describe('citation markers of composed claims cite their evidence (MARKER_MISMATCH)', () => {
  it('a marker after a marker cites no evidence', async () => {
    const bundle = clone();
    const claim = bundle.certificate.claims[1]!;
    claim.composition!.parts.push({ fixed: ' ' }, { marker: 2 });
    rewriteClaim(bundle, 1, `${claim.text} [2]`);
    const result = await problemsOf(resign(bundle), 'compositions');
    expect(result.codes).toEqual(['MARKER_MISMATCH']);
    expect(result.shown).toBe(0);
    expect(result.problems).toEqual([
      { code: 'MARKER_MISMATCH', field: 'certificate.claims[1].composition.parts[11]' },
    ]);
  });

  it('a marker before the evidence it would cite', async () => {
    const bundle = clone();
    const claim = bundle.certificate.claims[1]!;
    const parts = claim.composition!.parts;
    claim.composition!.parts = [{ marker: 1 }, { fixed: ' ' }, ...parts.slice(0, -2)];
    rewriteClaim(bundle, 1, `[1] ${claim.text.replace(/ \[1\]$/, '')}`);
    expect((await problemsOf(resign(bundle), 'compositions')).problems).toEqual([
      { code: 'MARKER_MISMATCH', field: 'certificate.claims[1].composition.parts[0]' },
    ]);
  });

  /** Two composed quotes of two chunks, with the markers `first` and `second`. */
  function twoQuotes(first: number, second: number): Bundle {
    const quote = (chunk: string, span: string, label: string, marker: number) => ({
      text: `Menurut ${label}: ${span} [${marker}]`,
      evidence: [{ chunk_id: chunk, span_text: span }],
      verification: {
        label: 'entailed' as const,
        confidence: 1,
        verifier: { id: 'composition', version: '1' },
      },
      composition: {
        template: 'law.provision',
        language: 'id' as const,
        parts: [{ fixed: 'Menurut ' }, { cite: 0 }, { fixed: ': ' }, { span: 0 }, { fixed: ' ' }, { marker }],
      },
    });
    const a = quote(
      'uu22-p287-a1',
      'denda paling banyak Rp500.000,00',
      'Pasal 287 ayat (1) UU 22/2009',
      first,
    );
    const b = quote(
      'uu22-p287-a3',
      'denda paling banyak Rp250.000,00',
      'Pasal 287 ayat (3) UU 22/2009',
      second,
    );
    return issueBundle({
      documents: GOLDEN_LABELLED_DOCUMENTS,
      issuerName: 'saksi-golden',
      issuerSecretKey: issuerKey,
      log: new MemoryLog(GOLDEN_ORIGIN),
      logSigner,
      cosigners,
      collection: 'uu-22-2009-llaj',
      question: 'Berapa denda rambu dan parkir?',
      answer: `${a.text}\n${b.text}`,
      claims: [a, b],
      issued_at: '2026-11-21T10:00:00Z',
    });
  }

  it('two chunks numbered [1] and [2] verify; one number for both chunks fails', async () => {
    expect((await verifyBundle(twoQuotes(1, 2), anyQuestion)).codes).toEqual([]);
    const result = await problemsOf(twoQuotes(1, 1), 'compositions', anyQuestion);
    expect(result.codes).toEqual(['MARKER_MISMATCH']);
    expect(result.shown).toBe(0);
    expect(result.problems).toEqual([
      { code: 'MARKER_MISMATCH', field: 'certificate.claims[1].composition.parts[5]' },
    ]);
  });

  it('markers that name the chunks in another order than the evidence lists them', async () => {
    const bundle = twoQuotes(1, 2);
    const [a, b] = bundle.certificate.claims as [
      Bundle['certificate']['claims'][0],
      Bundle['certificate']['claims'][0],
    ];
    // One claim quoting both chunks, with its evidence listed in the other order than it is read.
    a.evidence = [structuredClone(b.evidence[0]!), structuredClone(a.evidence[0]!)];
    a.composition!.parts = [
      { fixed: 'Menurut ' },
      { cite: 1 },
      { fixed: ': ' },
      { span: 1 },
      { fixed: ' ' },
      { marker: 1 },
      { fixed: ' ' },
      { span: 0 },
      { fixed: ' ' },
      { marker: 2 },
    ];
    bundle.certificate.claims = [a];
    const text = `${bundle.certificate.answer.text.split('\n')[0]} ${b.evidence[0]!.span.text} [2]`;
    a.text = text;
    a.sha256 = sha256Hex(text);
    a.answer_start = 0;
    a.answer_end = codePointLength(text);
    bundle.certificate.answer.text = text;
    bundle.certificate.answer.sha256 = sha256Hex(text);
    expect((await problemsOf(resign(bundle), 'compositions', anyQuestion)).problems).toEqual([
      { code: 'MARKER_MISMATCH', field: 'certificate.claims[0].composition' },
    ]);
  });
});

describe('the bundle carries only what a check covers', () => {
  it('a chunk no evidence cites is UNCITED_CHUNK, naming it', async () => {
    const bundle = clone();
    bundle.chunks.push({ chunk_id: 'uu22-p289', text: 'Setiap orang yang … tidak dipidana.' });
    const result = await problemsOf(bundle, 'hashes');
    expect(result.codes).toEqual(['UNCITED_CHUNK']);
    expect(result.verdict).toBe('failed');
    expect(result.shown).toBe(0);
    expect(result.problems).toEqual([{ code: 'UNCITED_CHUNK', field: 'chunks[1]' }]);
  });

  it('a chunk given twice is DUPLICATE_ENTRY, even with the same text', async () => {
    const bundle = clone();
    bundle.chunks.push(structuredClone(bundle.chunks[0]!));
    expect((await problemsOf(bundle, 'hashes')).problems).toEqual([
      { code: 'DUPLICATE_ENTRY', field: 'chunks[1]' },
    ]);
  });

  it('a cosignature line given twice is DUPLICATE_ENTRY, whether or not witnesses are trusted', async () => {
    const bundle = clone();
    bundle.log.cosignatures.push(bundle.log.cosignatures[0]!);
    const expected = [{ code: 'DUPLICATE_ENTRY', field: 'log.cosignatures[2]' }];
    expect((await problemsOf(bundle, 'cosignatures')).problems).toEqual(expected);
    const untrusting = { ...options, witnesses: [], requiredCosignatures: 0 };
    const result = await problemsOf(bundle, 'cosignatures', untrusting);
    expect(result.problems).toEqual(expected);
    expect(result.verdict).toBe('failed');
  });

  it('the same witness key twice with another timestamp is DUPLICATE_ENTRY', async () => {
    const bundle = clone();
    const later = createCosigner(
      GOLDEN_WITNESSES[0]!,
      testSecretKey(GOLDEN_WITNESSES[0]!),
      () => 1_795_009_999,
    );
    bundle.log.cosignatures.push(cosignatureLine(parseNote(bundle.log.checkpoint).text, later));
    expect((await problemsOf(bundle, 'cosignatures')).problems).toEqual([
      { code: 'DUPLICATE_ENTRY', field: 'log.cosignatures[2]' },
    ]);
  });

  it('a line that is no signature line is MALFORMED, naming it', async () => {
    const bundle = clone();
    bundle.log.cosignatures.push('— verified by the Ministry ✓');
    const untrusting = { ...options, witnesses: [], requiredCosignatures: 0 };
    expect((await problemsOf(bundle, 'cosignatures', untrusting)).problems).toEqual([
      { code: 'MALFORMED', field: 'log.cosignatures[2]' },
    ]);
  });

  it('a field outside the schema is MALFORMED, naming it, wherever it is', async () => {
    const places: [string, (bundle: Bundle) => void][] = [
      ['bundle.note', (bundle) => Object.assign(bundle, { note: 'Verified ✓' })],
      ['bundle.log.witness_names', (bundle) => Object.assign(bundle.log, { witness_names: ['Ministry'] })],
      ['bundle.chunks[0].title', (bundle) => Object.assign(bundle.chunks[0]!, { title: 'Pasal 281' })],
      [
        'certificate.claims[0].evidence[0].citation.heading',
        (bundle) =>
          Object.assign(bundle.certificate.claims[0]!.evidence[0]!.citation, { heading: 'Pasal 281' }),
      ],
    ];
    for (const [field, add] of places) {
      // Signed by the issuer when the field is in the certificate; the rest of a bundle is unsigned.
      const bundle = clone();
      add(bundle);
      if (field.startsWith('certificate.')) resign(bundle);
      const result = await problemsOf(bundle, 'structure');
      expect(result.codes).toEqual(['MALFORMED']);
      expect(result.problems).toEqual([{ code: 'MALFORMED', field }]);
    }
  });

  it('the golden bundles of v1 and v1.1 carry nothing unchecked', async () => {
    expect((await verifyBundle(committedV1, options)).codes).toEqual([]);
    expect((await verifyBundle(committed, options)).codes).toEqual([]);
  });
});

describe('a verifier without its vocabulary fails, never throws (OPTIONS_INVALID)', () => {
  const { vocabulary: _vocabulary, ...withoutVocabulary } = options;
  const cases: [string, unknown][] = [
    ['options.vocabulary', withoutVocabulary],
    ['options', undefined],
    ['options.vocabulary', { ...options, vocabulary: null }],
    [
      'options.vocabulary.templates',
      { ...options, vocabulary: { ...SAKSI_VOCABULARY, templates: undefined } },
    ],
    ['options.vocabulary.negations', { ...options, vocabulary: { ...SAKSI_VOCABULARY, negations: 'tidak' } }],
    ['options.trustedIssuers', { ...options, trustedIssuers: undefined }],
    ['options.witnesses', { ...options, witnesses: 'witness.example/w1' }],
    ['options.presentedQuestion', { ...options, presentedQuestion: 42 }],
  ];

  it.each(cases)('%s', async (field, given) => {
    const result = await verifyBundle(committed, given as VerifyBundleOptions);
    expect(result.verdict).toBe('failed');
    expect(result.authentic).toBe(false);
    expect(result.codes).toEqual(['OPTIONS_INVALID']);
    expect(result.claims).toEqual([]);
    expect(result.answer.answered).toBe(false);
    expect(result.checks.find((check) => check.id === 'structure')?.problems).toEqual([
      expect.objectContaining({ code: 'OPTIONS_INVALID', field }),
    ]);
  });
});
