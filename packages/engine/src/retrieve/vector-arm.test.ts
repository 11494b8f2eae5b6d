/**
 * The vector arm on real databases (PGlite, and PostgreSQL with SAKSI_TEST_DATABASE_URL): a
 * 3,072-dimension model is indexed and searched as `halfvec` (docs/engine.md, "Storage"), and the
 * filters applied to the index's rows leave the arm its candidates (iterative index scans).
 */
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VECTOR_INDEX_DIMENSIONS, vectorSearchType } from '../collections.js';
import { createHashEmbeddingModel } from '../embed/hash.js';
import { supportsIterativeScans } from './retrieve.js';

const statute = (subject: string, count: number) =>
  [
    `# Peraturan tentang ${subject}`,
    '',
    ...Array.from({ length: count }, (_, index) => [
      `## Pasal ${index + 1}`,
      '',
      `Setiap orang yang mengurus ${subject} nomor ${index + 1} wajib membawa surat keterangan ${subject} yang sah.`,
      '',
    ]).flat(),
  ].join('\n');

describe('vectorSearchType', () => {
  it('is vector(d) up to 2,000 dimensions and halfvec(d) above', () => {
    expect(vectorSearchType(384)).toBe('vector(384)');
    expect(vectorSearchType(MAX_VECTOR_INDEX_DIMENSIONS)).toBe('vector(2000)');
    expect(vectorSearchType(3072)).toBe('halfvec(3072)');
  });
});

describe('supportsIterativeScans', () => {
  it('is true from pgvector 0.8.0 on', () => {
    expect(supportsIterativeScans('0.7.4')).toBe(false);
    expect(supportsIterativeScans('0.8.0')).toBe(true);
    expect(supportsIterativeScans('0.8.1')).toBe(true);
    expect(supportsIterativeScans('1.0.0')).toBe(true);
    expect(supportsIterativeScans('')).toBe(false);
  });
});

describe('a 3,072-dimension embedding model', () => {
  let test: TestEngine;
  beforeAll(async () => {
    test = await openTestEngine({ embedding: createHashEmbeddingModel({ dimensions: 3072 }) });
  });
  afterAll(async () => {
    await test?.close();
  });

  it('gets a halfvec HNSW index, ingests and is searched through it', async () => {
    const { document } = await test.engine.ingest(
      'wide',
      { bytes: utf8Encode(statute('parkir kendaraan', 12)), filename: 'parkir.md' },
      { language: 'id' },
    );
    expect(document.status).toBe('READY');
    const index = await test.engine.db.query<{ definition: string }>(
      `SELECT indexdef AS definition FROM pg_indexes WHERE indexname = 'chunks_embedding_hnsw_3072'`,
    );
    expect(index.rows[0]?.definition).toMatch(/halfvec\(3072\)\) halfvec_cosine_ops/);

    const result = await test.engine.query('wide', {
      question: 'surat keterangan parkir kendaraan nomor 7',
      arms: 'vector',
      rewrite: false,
    });
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.results[0]!.text).toContain('nomor 7 ');

    const plan = await test.engine.db.query<Record<string, string>>(
      `EXPLAIN SELECT c.id FROM chunks c WHERE c.embedding_dimensions = 3072
        ORDER BY c.embedding::halfvec(3072) <=> $1::halfvec(3072) LIMIT 5`,
      [
        `[${new Array(3072)
          .fill(0)
          .map((_, i) => (i === 0 ? 1 : 0))
          .join(',')}]`,
      ],
    );
    expect(plan.rows.map((row) => Object.values(row).join(' ')).join('\n')).toContain(
      'chunks_embedding_hnsw_3072',
    );
  });
});

describe('filters inside the index scan', () => {
  let test: TestEngine;
  beforeAll(async () => {
    test = await openTestEngine();
  });
  afterAll(async () => {
    await test?.close();
  });

  it('fills the vector arm from a small collection beside a large one with the same words', async () => {
    // The large collection holds the nearest vectors; the small one's few chunks are farther. Without
    // iterative scans the index's first ef_search rows are all the large collection's, filtered out.
    await test.engine.ingest(
      'large',
      { bytes: utf8Encode(statute('izin mengemudi', 400)), filename: 'large.md' },
      { language: 'id' },
    );
    await test.engine.ingest(
      'small',
      { bytes: utf8Encode(statute('pajak bumi', 6)), filename: 'small.md' },
      { language: 'id' },
    );
    await test.engine.db.exec('ANALYZE chunks; ANALYZE documents');
    const result = await test.engine.query('small', {
      question: 'surat keterangan izin mengemudi yang sah',
      arms: 'vector',
      rewrite: false,
      top_k: 5,
    });
    expect(result.results).toHaveLength(5);
  });
});
