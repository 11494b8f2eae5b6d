import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RetrievedChunk } from '../retrieve/retrieve.js';
import {
  answerFeatures,
  checkAnswer,
  hasMisreadFigure,
  isBlock,
  questionParts,
  scoreFeatures,
  thresholdFor,
} from './answer-check.js';
import { ANSWER_CHECK_MODEL } from './answer-check-model.js';
import type { ComposedClaim } from './compose.js';

const repository = path.resolve(import.meta.dirname, '../../../..');

function source(text: string, citation: RetrievedChunk['citation'], score = 1): RetrievedChunk {
  return { text, citation, score } as RetrievedChunk;
}

function quote(sourceIndex: number, text: string): ComposedClaim {
  return {
    text: `${text} [1]`,
    statement: text,
    evidence: [{ sourceIndex, span: { start: 0, end: text.length, text } }],
  };
}

const BUDGET_2019 = source(
  'Anggaran Pendapatan Negara Tahun Anggaran 2019 direncanakan sebesar Rp2.165.111.791.596.000,00.',
  {
    document_title: 'Undang-Undang Nomor 12 Tahun 2018 tentang APBN Tahun Anggaran 2019',
    label: 'Pasal 2 UU 12/2018',
  },
);
const BUDGET_2015 = source(
  'Anggaran Pendapatan Negara Tahun Anggaran 2015 direncanakan sebesar Rp1.761.642.818.503.000,00.',
  {
    document_title: 'Undang-Undang Nomor 3 Tahun 2015 tentang APBN-P Tahun Anggaran 2015',
    label: 'Pasal 2 UU 3/2015',
  },
);

describe('answer check', () => {
  it('fails hard when the evidence belongs to another year than the question names', () => {
    const input = {
      question: 'Berapa anggaran pendapatan negara tahun 2019?',
      language: 'id' as const,
      sources: [BUDGET_2015],
      claims: [quote(0, BUDGET_2015.text)],
      relevance: 0.9,
    };
    const { features, reading } = answerFeatures(input);
    expect(reading.unmet).toEqual(['year:2019']);
    expect(features['hard_fail']).toBe(1);
    expect(checkAnswer(input).answers).toBe(false);
    expect(checkAnswer(input).score).toBe(0);
    // The same question on the right year's evidence is not a hard fail.
    const right = answerFeatures({ ...input, sources: [BUDGET_2019], claims: [quote(0, BUDGET_2019.text)] });
    expect(right.reading.unmet).toEqual([]);
    expect(right.features['hard_fail']).toBe(0);
    expect(right.features['coverage']).toBeGreaterThan(0.5);
  });

  it('fails hard when an amount is asked and none is stated', () => {
    const rule = source('Presiden memegang kekuasaan pengelolaan keuangan negara.', {
      document_title: 'UU 17/2003',
    });
    const { features, reading } = answerFeatures({
      question: 'Berapa gaji presiden Indonesia?',
      language: 'id',
      sources: [rule],
      claims: [quote(0, rule.text)],
      relevance: 0.6,
    });
    expect(reading.asked).toBe('amount');
    expect(reading.value_stated).toBe(false);
    expect(features['hard_fail']).toBe(1);
  });

  it('fails hard below the lexical relevance minimum, and with no claims', () => {
    const base = { question: 'what is a reducer', language: 'en' as const, sources: [], relevance: 0.1 };
    expect(answerFeatures({ ...base, claims: [], relevanceThreshold: 0 }).features['hard_fail']).toBe(1);
    const text = source('A reducer is a function that receives the current state and an action.', {
      document_title: 'Glossary',
    });
    const claim = quote(0, text.text);
    expect(
      answerFeatures({ ...base, sources: [text], claims: [claim], relevanceThreshold: 0.3 }).features[
        'hard_fail'
      ],
    ).toBe(1);
    expect(
      answerFeatures({ ...base, sources: [text], claims: [claim], relevanceThreshold: 0.05 }).features[
        'hard_fail'
      ],
    ).toBe(0);
  });

  it('reads a claim that opens with a pronoun, a table or code where none is asked, and capitals', () => {
    const them = source('You can use them to keep the store in sync.', { document_title: 'Usage' });
    const code = source(
      "import { createStore } from 'redux'\nconst store = createStore(reducer)\nexport default store",
      {
        document_title: 'API',
      },
    );
    const features = answerFeatures({
      question: 'What does compose do?',
      language: 'en',
      sources: [them, code],
      claims: [quote(0, them.text), quote(1, code.text)],
      relevance: 0.5,
    }).features;
    expect(features['anaphora']).toBe(1);
    expect(features['block']).toBe(1);
    const asked = answerFeatures({
      question: 'Show me an example of the code to create a store',
      language: 'en',
      sources: [code],
      claims: [quote(0, code.text)],
      relevance: 0.5,
    }).features;
    expect(asked['block']).toBe(0);
    const shouting = source('DISAHKAN DI JAKARTA PADA TANGGAL 6 MARET 2015 PRESIDEN REPUBLIK INDONESIA', {
      document_title: 'UU',
    });
    expect(
      answerFeatures({
        question: 'siapa presiden',
        language: 'id',
        sources: [shouting],
        claims: [quote(0, shouting.text)],
        relevance: 0.5,
      }).features['capitals'],
    ).toBe(1);
  });

  it('tells tables and code from prose', () => {
    expect(isBlock('| a | b |\n| 1 | 2 |\n| 3 | 4 |')).toBe(true);
    expect(isBlock('```js\nconst a = 1\n```')).toBe(true);
    expect(isBlock('Setiap orang yang mengemudikan Kendaraan Bermotor wajib memiliki SIM.')).toBe(false);
  });

  it('splits a question that asks several things', () => {
    expect(
      questionParts('Dana desa di APBN-P 2015 berapa, dan di APBN 2017 jadi berapa?', 'id'),
    ).toHaveLength(1);
    expect(questionParts('SIM itu berlaku berapa lama? Bisa diperpanjang kan?', 'id')).toHaveLength(2);
    expect(
      questionParts('what does store.subscribe return, and how do I unsubscribe a listener', 'en'),
    ).toHaveLength(2);
  });

  it('scores every feature vector in [0, 1] and a hard fail at 0', () => {
    expect(scoreFeatures({ hard_fail: 1, relevance: 1, coverage: 1 })).toBe(0);
    const score = scoreFeatures({ hard_fail: 0, relevance: 1, coverage: 1 });
    expect(score).toBeGreaterThan(0);
    expect(score).toBeLessThanOrEqual(1);
  });
});

describe('the release threshold', () => {
  const collections = [...new Set(ANSWER_CHECK_MODEL.calibration.map((point) => point[2]))];

  it('is a calibrated collection’s own λ, and for any other the strictest of theirs and the pooled one', () => {
    expect(collections.length).toBeGreaterThan(1);
    for (const alpha of [0.05, 0.1]) {
      const own = collections.map((collection) => thresholdFor(alpha, collection));
      expect(new Set(own).size).toBeGreaterThan(1);
      const other = thresholdFor(alpha, 'a-users-own-documents');
      expect(other).toBe(
        Math.max(...own, alpha === ANSWER_CHECK_MODEL.alpha ? ANSWER_CHECK_MODEL.threshold : 0),
      );
      expect(thresholdFor(alpha)).toBe(other);
    }
  });
});

describe('misread figures', () => {
  it('finds a letter read for a digit in an amount or a year, and nothing in clean figures', () => {
    expect(hasMisreadFigure('sebesar Rp655.394.9OO.106.0OO,OO (enam ratus …)')).toBe(true);
    expect(hasMisreadFigure('Tahun Anggaran 2O2O')).toBe(true);
    expect(hasMisreadFigure('sebesar Rpl4.800,00')).toBe(true);
    expect(hasMisreadFigure('sebesar Rp2.463.024.859.739.000,00 (dua kuadriliun …)')).toBe(false);
    expect(hasMisreadFigure('Tahun Anggaran 2020 dan Pasal 12 ayat (1)')).toBe(false);
    expect(hasMisreadFigure('Redux 5.0 and React 18, useSelector.withTypes<RootState>()')).toBe(false);
  });

  it('never releases an answer stating one', () => {
    const text = 'Belanja Negara dalam Tahun Anggaran 2019 direncanakan sebesar Rp655.394.9OO.106.0OO,OO.';
    const misread = source(text, { document_title: 'UU 12/2018', label: 'Pasal 5 UU 12/2018' });
    const check = checkAnswer({
      question: 'Berapa belanja negara tahun 2019?',
      language: 'id',
      sources: [misread],
      claims: [quote(0, text)],
      relevance: 1,
    });
    expect(check.misread).toBe(true);
    expect(check.answers).toBe(false);
    expect(check.features['hard_fail']).toBe(1);
  });
});

describe('the calibrated model', () => {
  it('names the calibration report it came from by its SHA-256', () => {
    const report = readFileSync(path.join(repository, 'eval/calibration/report.json'));
    expect(createHash('sha256').update(report).digest('hex')).toBe(ANSWER_CHECK_MODEL.calibration_sha256);
    const parsed = JSON.parse(report.toString('utf8')) as { alpha: number; features: string[] };
    expect(parsed.alpha).toBe(ANSWER_CHECK_MODEL.alpha);
    expect(parsed.features).toEqual([...ANSWER_CHECK_MODEL.features]);
  });
});
