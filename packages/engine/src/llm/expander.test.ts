import { type LlmTestEngine, openLlmTestEngine } from '@saksi/test-support/llm-fixture';
import type { LlmTestScenario } from '@saksi/test-support/openai-test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExpansion } from './expander.js';

describe('parseExpansion', () => {
  it('reads the first JSON object with a legal query or phrases, around prose, fences and thinking', () => {
    expect(
      parseExpansion('{"legal_query": "Alat Pemberi Isyarat Lalu Lintas", "phrases": ["denda", 3]}'),
    ).toEqual({
      legalQuery: 'Alat Pemberi Isyarat Lalu Lintas',
      phrases: ['denda'],
    });
    expect(
      parseExpansion(
        '<think>{"legal_query":"x"}</think>Sure: ```json\n{"note": 1}\n{"phrases": ["helm"]}\n```',
      ),
    ).toEqual({ legalQuery: '', phrases: ['helm'] });
    expect(parseExpansion('no json here')).toBeNull();
    expect(parseExpansion('{"answer": "Rp500.000"}')).toBeNull();
  });
});

const LAW = `# UU Contoh

Pasal 287

(2) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan perintah atau larangan yang dinyatakan dengan Alat Pemberi Isyarat Lalu Lintas dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah).

Pasal 106

(8) Setiap orang yang mengemudikan Sepeda Motor dan Penumpang Sepeda Motor wajib menggunakan helm yang memenuhi standar nasional Indonesia.

Pasal 81

(2) Syarat usia untuk memperoleh Surat Izin Mengemudi ditentukan paling rendah 17 (tujuh belas) tahun.
`;

describe('LLM query expansion (SAKSI_QUERY_EXPANSION=llm)', () => {
  let test: LlmTestEngine;
  let next: LlmTestScenario = { kind: 'text', text: '' };

  beforeAll(async () => {
    test = await openLlmTestEngine({
      script: () => next,
      env: { SAKSI_QUERY_EXPANSION: 'llm' },
      documents: [{ collection: 'hukum', filename: 'uu.md', text: LAW }],
    });
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });

  it('adds the model’s legal query and phrases as weighted variants, which find the Pasal', async () => {
    next = {
      kind: 'text',
      text: '{"legal_query": "melanggar Alat Pemberi Isyarat Lalu Lintas denda", "phrases": ["Alat Pemberi Isyarat Lalu Lintas", "pidana kurungan"]}',
    };
    const result = await test.engine.query('hukum', {
      question: 'nyelonong pas lampunya masih nyala stop, kena apa?',
      top_k: 1,
    });
    const kinds = result.parameters.rewrite_variants.map((variant) => [variant.kind, variant.weight]);
    expect(kinds).toContainEqual(['llm-legal', 2]);
    expect(kinds).toContainEqual(['llm-phrases', 0.8]);
    expect(result.results[0]?.text).toContain('Alat Pemberi Isyarat');
    // The question went to the model inside nonce tags, as data.
    const body = JSON.stringify(test.server.requests.at(-1)!.body);
    expect(body).toMatch(/<question-[0-9a-f]{16}>/);
  });

  it('falls back to the offline variants when the model fails or answers nonsense', async () => {
    for (const scenario of [
      { kind: 'status', status: 500 },
      { kind: 'text', text: 'Maaf, saya tidak bisa.' },
    ] as LlmTestScenario[]) {
      next = scenario;
      const result = await test.engine.query('hukum', { question: 'umur minimal bikin SIM berapa?' });
      expect(result.parameters.rewrite_variants.some((variant) => variant.kind.startsWith('llm-'))).toBe(
        false,
      );
      expect(result.results.length).toBeGreaterThan(0);
    }
  });
});
