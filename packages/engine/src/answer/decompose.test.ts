import { type LlmTestEngine, openLlmTestEngine } from '@saksi/test-support/llm-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClaimDecomposer, conjunction, parseAtoms, type Verdict } from './decompose.js';

describe('parseAtoms', () => {
  it('reads the first JSON list of strings, around prose and thinking', () => {
    expect(parseAtoms('["a", " b  c "]')).toEqual(['a', 'b c']);
    expect(
      parseAtoms('<think>["x"]</think>Here: [1, 2] then ["denda Rp500.000,00", "kurungan 2 bulan"]'),
    ).toEqual(['denda Rp500.000,00', 'kurungan 2 bulan']);
    expect(parseAtoms('[]')).toBeNull();
    expect(parseAtoms('nothing')).toBeNull();
  });
});

describe('conjunction', () => {
  const decomposer: ClaimDecomposer = { version: '1+test:model', decompose: async () => [] };
  const verdict = (label: Verdict['label'], confidence: number): Verdict => ({
    label,
    confidence,
    verifier: { id: 'lexical-entailment', version: '2' },
  });
  it('is entailed only when every atom is, contradicted when any is, with the lowest confidence', () => {
    expect(conjunction([verdict('entailed', 0.9), verdict('entailed', 0.7)], decomposer)).toEqual({
      label: 'entailed',
      confidence: 0.7,
      verifier: { id: 'llm-decomposition+lexical-entailment', version: '1+test:model/2' },
    });
    expect(conjunction([verdict('entailed', 0.9), verdict('not_supported', 0.8)], decomposer).label).toBe(
      'not_supported',
    );
    expect(conjunction([verdict('entailed', 0.9), verdict('contradicted', 0.6)], decomposer)).toMatchObject({
      label: 'contradicted',
      confidence: 0.6,
    });
    expect(conjunction([], decomposer).label).toBe('not_supported');
  });
});

const LAW = `Pasal 287

(2) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan perintah atau larangan yang dinyatakan dengan Alat Pemberi Isyarat Lalu Lintas dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah).
`;

describe('SAKSI_CLAIMS=llm on a real engine', () => {
  let test: LlmTestEngine;
  const ANSWER =
    'Orang yang mengemudikan Kendaraan Bermotor dan melanggar Alat Pemberi Isyarat Lalu Lintas dipidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00, dan kendaraannya disita [1].';
  beforeAll(async () => {
    test = await openLlmTestEngine({
      script: (request) =>
        JSON.stringify(request.body).includes('<claim-')
          ? {
              kind: 'text',
              text: '["Orang yang melanggar Alat Pemberi Isyarat Lalu Lintas dipidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00", "Kendaraannya disita"]',
            }
          : { kind: 'text', text: ANSWER },
      env: { SAKSI_CLAIMS: 'llm' },
      documents: [{ collection: 'hukum', filename: 'uu.md', text: LAW }],
    });
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });

  it('blocks a sentence one of whose atoms the evidence does not state, and records the decomposition', async () => {
    const result = await test.engine.ask('hukum', { question: 'Menerobos lampu merah dihukum apa?' });
    const [claim] = result.bundle.certificate.claims;
    expect(claim?.text).toContain('disita');
    expect(claim?.verification).toMatchObject({
      label: 'not_supported',
      verifier: { id: 'llm-decomposition+lexical-entailment', version: '1+openai-compatible:test-model/3' },
    });
    expect(claim?.render.rendered).toBe(false);
    expect(
      test.server.requests.filter((request) => JSON.stringify(request.body).includes('<claim-')),
    ).toHaveLength(1);
  });
});
