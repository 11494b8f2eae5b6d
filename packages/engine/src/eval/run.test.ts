import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../test/engine-fixture.js';
import { evaluateRetrieval } from './run.js';
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
