import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoGlossary } from '../retrieve/dictionaries/corpus-text.js';
import {
  answerTextForScoring,
  checkFeaturesOf,
  checkScoreOf,
  evaluateAnswers,
  evaluateRetrieval,
  type FactRecord,
  holdsExpectedFact,
  intentOf,
  isFalseAssurance,
  isRefusal,
  lossIfReleased,
  outcomeOf,
} from './run.js';
import type { EvalSet } from './sets.js';

let test: TestEngine;

beforeAll(async () => {
  test = await openTestEngine();
  const texts: Record<string, string> = {
    'pasal.md':
      '# Pasal 287\n\n(2) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan perintah atau larangan yang dinyatakan dengan Alat Pemberi Isyarat Lalu Lintas dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00.\n',
    'lain.md': '# Trotoar\n\nTrotoar diperuntukkan bagi pejalan kaki dan tidak boleh dipakai untuk parkir.\n',
  };
  for (const [filename, text] of Object.entries(texts))
    await test.engine.ingest('uji', { bytes: new TextEncoder().encode(text), filename }, { language: 'id' });
  // Traffic-law passages: the demo's traffic vocabulary, as the demo collection has it.
  await test.engine.collections.setGlossary('uji', demoGlossary('traffic'));
  // The check was not calibrated on this collection, which is released at the strictest λ at its
  // risk; the scoring below is about what an answer cites, so the collection accepts the highest risk.
  await test.engine.collections.configure('uji', { answer_risk: 0.5 });
}, 60_000);

afterAll(async () => {
  await test.close();
});

describe('retrieval configurations', () => {
  it('runs one arm alone when asked, and the question alone without rewriting', async () => {
    const question = 'nerobos lampu merah kena denda berapa';
    const lexical = await test.engine.query('uji', { question, arms: 'lexical', rewrite: false });
    expect(lexical.results.length).toBeGreaterThan(0);
    expect(lexical.results.flatMap((r) => Object.keys(r.ranks)).every((k) => k.startsWith('lexical:'))).toBe(
      true,
    );
    expect(lexical.parameters.rewrite_variants).toHaveLength(1);
    const vector = await test.engine.query('uji', { question, arms: 'vector' });
    expect(vector.results.flatMap((r) => Object.keys(r.ranks)).every((k) => k.startsWith('vector:'))).toBe(
      true,
    );
    const hybrid = await test.engine.query('uji', { question });
    const labels = hybrid.results.flatMap((r) => Object.keys(r.ranks));
    expect(labels.some((k) => k.startsWith('lexical:')) && labels.some((k) => k.startsWith('vector:'))).toBe(
      true,
    );
    expect(hybrid.parameters.rewrite_variants.length).toBeGreaterThan(1);
  });

  it('scores a set: the file of the Pasal is found at rank 1 or 2 in every configuration', async () => {
    const set: EvalSet = {
      name: 'uji',
      kind: 'docs',
      collection: 'uji',
      questions: [
        {
          id: 'q1',
          question: 'melanggar Alat Pemberi Isyarat Lalu Lintas',
          answerable: true,
          relevant: [{ key: 'pasal.md', file: 'pasal.md' }],
          must_mention: [],
        },
        { id: 'q2', question: 'harga bensin', answerable: false, relevant: [], must_mention: [] },
      ],
    };
    for (const config of ['lexical', 'vector', 'hybrid', 'hybrid+rewrite'] as const) {
      const report = await evaluateRetrieval(test.engine, set, config);
      expect(report.metrics.questions).toBe(1);
      expect(report.metrics['recall@3']).toBe(1);
      expect(report.questions[0]!.first_relevant).toBeLessThanOrEqual(2);
    }
  });
});

describe('answers', () => {
  const set: EvalSet = {
    name: 'uji',
    kind: 'docs',
    collection: 'uji',
    language: 'id',
    questions: [
      {
        id: 'q1',
        question: 'Berapa denda melanggar Alat Pemberi Isyarat Lalu Lintas?',
        answerable: true,
        relevant: [{ key: 'pasal.md', file: 'pasal.md' }],
        must_mention: ['Rp500.000,00'],
        gold_answers: ['denda paling banyak Rp500.000,00'],
      },
      {
        id: 'q2',
        question: 'Berapa harga bensin pertalite di Jakarta?',
        answerable: false,
        relevant: [],
        must_mention: [],
      },
    ],
  };

  it('scores citations of rendered claims only, EM / F1 / ROUGE-L against gold, and groups by intent', async () => {
    const report = await evaluateAnswers(test.engine, set);
    const [answered] = report.questions;
    expect(answered!.refused).toBe(false);
    expect(answered!.rendered).toBeGreaterThan(0);
    expect(answered!.supported).toBeGreaterThan(0);
    // Where each claim's evidence is: the file and its Pasal.
    expect(answered!.cited).toHaveLength(answered!.claims);
    expect(answered!.cited[0]).toMatch(/ › Pasal \d+/);
    expect(answered!.must_mention).toEqual([{ phrase: 'Rp500.000,00', found: true }]);
    expect(answered!.outcome).toBe('answered');
    expect(answered!.check_score).toBeGreaterThanOrEqual(0);
    expect(answered!.check_score).toBeLessThanOrEqual(1);
    expect(holdsExpectedFact(answered!)).toBe(true);
    expect(report.metrics.coverage).toBe(1);
    expect(['answered', 'related', 'refused']).toContain(report.questions[1]!.outcome);
    // The answer quotes the Pasal, which holds the gold answer.
    expect(answered!.scores!.f1).toBeGreaterThan(0);
    expect(answered!.scores!.rouge_l).toBeGreaterThan(0);
    expect(report.metrics.f1).toBe(answered!.scores!.f1);
    expect(report.metrics.exact_match).toBe(answered!.scores!.exact_match);
    expect(report.questions.every((record) => typeof record.intent === 'string' && record.intent)).toBe(true);
    const intents = report.by_intent.map((group) => group.intent);
    expect(new Set(intents).size).toBe(intents.length);
    expect(report.by_intent.reduce((sum, group) => sum + group.questions, 0)).toBe(2);
    const group = report.by_intent.find((entry) => entry.intent === answered!.intent)!;
    expect(group.metrics.answerable).toBeGreaterThanOrEqual(1);

    // A collection that requires anchored evidence renders no claim over unanchored documents: the
    // same answer then has claims, none of them rendered, and no supported citation.
    await test.engine.collections.setPolicy('uji', { require_anchor: true });
    try {
      const blocked = await evaluateAnswers(test.engine, { ...set, questions: [set.questions[0]!] });
      const [record] = blocked.questions;
      expect(record!.claims).toBeGreaterThan(0);
      expect(record!.rendered).toBe(0);
      expect(record!.supported).toBe(0);
      expect(blocked.metrics.citation_precision).toBe(0);
    } finally {
      await test.engine.collections.setPolicy('uji', { require_anchor: false });
    }
  });

  it('reads the intent and the refusal defensively', () => {
    expect(intentOf({ plan: { intent: 'sanction', language: 'id' } })).toBe('sanction');
    expect(intentOf({ plan: {} })).toBe('other');
    expect(intentOf({})).toBe('other');
    expect(intentOf(null)).toBe('other');
    expect(isRefusal({ found: false })).toBe(true);
    expect(isRefusal({ found: true, bundle: { certificate: { answer: { text: 'x' } } } })).toBe(false);
    expect(isRefusal({ found: true, bundle: { certificate: { answer: { outcome: 'refused' } } } })).toBe(
      true,
    );
    expect(isRefusal({ found: true, bundle: { certificate: { answer: { outcome: 'answered' } } } })).toBe(
      false,
    );
    expect(answerTextForScoring('Denda Rp500.000,00. [1] Kurungan 2 bulan. [2, 3]')).toBe(
      'Denda Rp500.000,00. Kurungan 2 bulan.',
    );
  });

  it('reads the outcome, the check score and the features defensively', () => {
    const certified = (answer: Record<string, unknown>, found = true) => ({
      found,
      bundle: { certificate: { answer } },
    });
    expect(outcomeOf(certified({ outcome: 'answered' }))).toBe('answered');
    expect(outcomeOf(certified({ outcome: 'related' }, false))).toBe('related');
    expect(outcomeOf(certified({ outcome: 'refused' }))).toBe('refused');
    // An older certificate: found decides.
    expect(outcomeOf(certified({}))).toBe('answered');
    expect(outcomeOf(certified({}, false))).toBe('refused');
    expect(outcomeOf({ found: false })).toBe('refused');
    expect(outcomeOf(null)).toBe('refused');
    expect(checkScoreOf(certified({ check: { score: 0.8 }, relevance: { score: 0.4 } }))).toBe(0.8);
    expect(checkScoreOf(certified({ relevance: { score: 0.4 } }))).toBe(0.4);
    expect(checkScoreOf(certified({ check: { score: 'high' }, relevance: { score: 7 } }))).toBe(0);
    expect(checkScoreOf({ found: true })).toBe(0);
    expect(
      checkFeaturesOf({ check: { score: 0.5, threshold: 0.4, features: { a: 1, b: 'x', c: Number.NaN } } }),
    ).toEqual({
      a: 1,
    });
    expect(checkFeaturesOf({ check: { features: {} } })).toBeUndefined();
    expect(checkFeaturesOf({ found: true })).toBeUndefined();
  });

  it('holds an expected fact with a phrase found, or a supported claim when the question has no phrases', () => {
    const base: FactRecord = { answerable: true, outcome: 'answered', must_mention: [], supported: 0 };
    const found = [{ phrase: 'x', found: true }];
    const missed = [{ phrase: 'x', found: false }];
    expect(holdsExpectedFact({ ...base, must_mention: found })).toBe(true);
    // The phrases decide when there are any: a supported claim does not make up for a missed phrase.
    expect(holdsExpectedFact({ ...base, must_mention: missed, supported: 2 })).toBe(false);
    expect(holdsExpectedFact({ ...base, supported: 1 })).toBe(true);
    expect(holdsExpectedFact(base)).toBe(false);
    expect(holdsExpectedFact({ ...base, answerable: false, supported: 1 })).toBe(false);
    expect(holdsExpectedFact({ ...base, outcome: 'related', must_mention: found })).toBe(false);
    // False assurance: answered without an expected fact, or answered while unanswerable.
    expect(isFalseAssurance(base)).toBe(true);
    expect(isFalseAssurance({ ...base, answerable: false, supported: 1 })).toBe(true);
    expect(isFalseAssurance({ ...base, supported: 1 })).toBe(false);
    expect(isFalseAssurance({ ...base, outcome: 'related' })).toBe(false);
    expect(isFalseAssurance({ ...base, outcome: 'refused', answerable: false })).toBe(false);
    // The loss if released: a related answer by what it would hold, a refusal always wrong.
    expect(lossIfReleased({ ...base, supported: 1 })).toBe(0);
    expect(lossIfReleased(base)).toBe(1);
    expect(lossIfReleased({ ...base, outcome: 'related', fact_if_released: true })).toBe(0);
    expect(lossIfReleased({ ...base, outcome: 'related' })).toBe(1);
    expect(lossIfReleased({ ...base, outcome: 'related', answerable: false, fact_if_released: true })).toBe(
      1,
    );
    expect(lossIfReleased({ ...base, outcome: 'refused', supported: 1 })).toBe(1);
  });
});
