import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  fromHex,
  hashLeaf,
  logLeafInput,
  parseCheckpoint,
  parseNote,
  trustOptions,
  utf8Encode,
  verifyBundle,
  verifyConsistencyProof,
  verifyInclusionProof,
} from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { openTestEngine, TEST_DATABASE_URL, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHashEmbeddingModel } from './embed/hash.js';
import type { EmbeddingModel } from './embed/model.js';
import { isEngineError } from './errors.js';
import { demoGlossary } from './retrieve/dictionaries/corpus-text.js';

const shared = path.resolve(import.meta.dirname, '../../../../shared/data');
const read = (relative: string) => new Uint8Array(readFileSync(path.join(shared, relative)));
const uu22 = read('corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md');

let test: TestEngine;
beforeAll(async () => {
  test = await openTestEngine();
  await test.engine.ingest(
    'lalu-lintas',
    { bytes: uu22, filename: 'uu-22-2009.md', title: 'UU 22/2009' },
    { language: 'id' },
  );
  // The demo's traffic vocabulary (corpora/uu-22-2009-llaj/glossary.json), as the demo collection has it.
  await test.engine.collections.setGlossary('lalu-lintas', demoGlossary('traffic'));
  for (const file of [
    'introduction/CoreConcepts.md',
    'understanding/thinking-in-redux/Glossary.md',
    'api/combineReducers.md',
  ]) {
    await test.engine.ingest(
      'docs',
      { bytes: read(`corpora/docs-redux/docs/${file}`), filename: file },
      { language: 'en' },
    );
  }
});
afterAll(async () => {
  await test?.close();
});

async function counts() {
  const row = await test.engine.db.query<{ documents: number; chunks: number; blobs: number }>(
    'SELECT (SELECT count(*)::integer FROM documents) AS documents, (SELECT count(*)::integer FROM chunks) AS chunks, (SELECT count(*)::integer FROM blobs) AS blobs',
  );
  return row.rows[0]!;
}

describe('storage', () => {
  it('runs on the database this pass is for (PGlite by default, PostgreSQL with SAKSI_TEST_DATABASE_URL)', async () => {
    expect(test.engine.db.kind).toBe(TEST_DATABASE_URL ? 'postgres' : 'pglite');
    const version = await test.engine.db.query<{ v: string }>(
      "SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'",
    );
    expect(version.rows).toHaveLength(1);
  });
});

describe('ingestion', () => {
  it('stores chunks with hashes and proofs that rebuild the document root', async () => {
    const { items } = await test.engine.documents.list({ collection: 'lalu-lintas' });
    expect(items).toHaveLength(1);
    const document = items[0]!;
    expect(document.status).toBe('READY');
    expect(document.chunk_count).toBeGreaterThan(300);
    const chunks = await test.engine.db.query<{
      position: number;
      text: string;
      sha256: string;
      proof_path: string[];
      legal: { pasal?: string } | null;
    }>(
      'SELECT position, text, sha256, proof_path, legal FROM chunks WHERE document_id = $1 ORDER BY position',
      [document.id],
    );
    for (const chunk of chunks.rows.filter((_, i) => i % 37 === 0)) {
      const leaf = hashLeaf(fromHex(chunk.sha256, 32));
      expect(
        verifyInclusionProof(
          chunk.position,
          document.chunk_count,
          leaf,
          chunk.proof_path.map((node) => fromHex(node, 32)),
          fromHex(document.root!, 32),
        ),
      ).toBe(true);
    }
    expect(chunks.rows.some((chunk) => chunk.legal?.pasal === '287')).toBe(true);
  });

  it('dedupes the same bytes instantly and changes nothing', async () => {
    const before = await counts();
    const again = await test.engine.ingest(
      'lalu-lintas',
      { bytes: uu22, filename: 'copy.md' },
      { language: 'id' },
    );
    expect(again.deduplicated).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it('leaves nothing behind when ingestion fails, and the next ingestion still works', async () => {
    const before = await counts();
    const failures: [Uint8Array, string, string][] = [
      [new Uint8Array([0, 1, 2, 3, 255, 254]), 'binary.pdf', 'INGEST_FAILED'],
      [new Uint8Array(0), 'empty.md', 'INGEST_FAILED'],
      [
        read('files/pdf-samples/005-libreoffice-writer-password/libreoffice-writer-password.pdf'),
        'locked.pdf',
        'INGEST_FAILED',
      ],
    ];
    for (const [bytes, filename, code] of failures) {
      const error = await test.engine
        .ingest('docs', { bytes, filename }, { language: 'en' })
        .catch((e: unknown) => e);
      expect(isEngineError(error, code as 'INGEST_FAILED'), `${filename}: ${String(error)}`).toBe(true);
    }
    expect(await counts()).toEqual(before);
    const jobs = await test.engine.db.query<{ status: string; error: { code: string } }>(
      "SELECT status, error FROM jobs WHERE status = 'FAILED'",
    );
    expect(jobs.rows.length).toBeGreaterThanOrEqual(3);
    const ok = await test.engine.ingest(
      'docs',
      { bytes: utf8Encode('# After\n\nIngestion still works after failures.\n'), filename: 'after.md' },
      { language: 'en' },
    );
    expect(ok.document.status).toBe('READY');
  });

  it('rolls back a failure inside the storing transaction, after the document row was written', async () => {
    const hash = createHashEmbeddingModel();
    // pgvector refuses NaN: the INSERT of the chunk rows fails after the blob and document rows went in.
    const poisoned: EmbeddingModel = {
      ...hash,
      doEmbed: async (options) => {
        const result = await hash.doEmbed(options);
        return {
          embeddings: result.embeddings.map((vector, i) =>
            options.values[i]!.includes('POISON') ? vector.map(() => Number.NaN) : vector,
          ),
        };
      },
    };
    const poisonedEngine = await openTestEngine({ embedding: poisoned });
    try {
      const db = poisonedEngine.engine.db;
      const bytes = utf8Encode(
        `# Doc\n\n${'A healthy paragraph about reducers. '.repeat(40)}\n\n## Later\n\nPOISON paragraph.\n`,
      );
      const error = await poisonedEngine.engine
        .ingest('docs', { bytes, filename: 'poison.md' }, { language: 'en' })
        .catch((e: unknown) => e);
      expect(isEngineError(error, 'INGEST_FAILED')).toBe(true);
      const rows = await db.query<{ d: number; c: number; b: number }>(
        'SELECT (SELECT count(*)::integer FROM documents) AS d, (SELECT count(*)::integer FROM chunks) AS c, (SELECT count(*)::integer FROM blobs) AS b',
      );
      expect(rows.rows[0]).toEqual({ d: 0, c: 0, b: 0 });
      const job = await db.query<{ status: string; stage: string }>(
        'SELECT status, stage FROM jobs ORDER BY created_at DESC LIMIT 1',
      );
      expect(job.rows[0]).toEqual({ status: 'FAILED', stage: 'storing' });
      const fine = await poisonedEngine.engine.ingest(
        'docs',
        { bytes: utf8Encode('# Fine\n\nA reducer is a function.\n'), filename: 'fine.md' },
        { language: 'en' },
      );
      expect(fine.document.status).toBe('READY');
    } finally {
      await poisonedEngine.close();
    }
  });

  it('refuses uploads over the size limit', async () => {
    const small = await openTestEngine({ env: { SAKSI_MAX_UPLOAD_BYTES: '100' } });
    try {
      const error = await small.engine
        .ingest('c', { bytes: new Uint8Array(101).fill(65), filename: 'a.txt' })
        .catch((e: unknown) => e);
      expect(isEngineError(error, 'INGEST_FAILED')).toBe(true);
      expect((error as { cause?: { code?: string } }).cause?.code).toBe('FILE_TOO_LARGE');
      expect((error as { status: number }).status).toBe(413);
    } finally {
      await small.close();
    }
  });
});

describe('retrieval', () => {
  it('finds Pasal 287 for a question in everyday words (Indonesian text search + vectors)', async () => {
    const result = await test.engine.query('lalu-lintas', {
      question: 'Berapa denda melanggar Alat Pemberi Isyarat Lalu Lintas?',
      top_k: 5,
    });
    expect(result.results.length).toBe(5);
    expect(result.results.some((r) => r.citation.pasal === '287' && r.citation.ayat === '2')).toBe(true);
    const first = result.results[0]!;
    expect(first.citation.document_title).toBe('UU 22/2009');
    expect(typeof first.context_before).toBe('string');
    expect(result.timings.total_ms).toBeGreaterThan(0);
  });

  it('retrieves English docs and filters by collection', async () => {
    const result = await test.engine.query('docs', { question: 'What does combineReducers do?', top_k: 3 });
    expect(result.results[0]!.document.filename).toContain('combineReducers');
    const error = await test.engine.query('nope', { question: 'x' }).catch((e: unknown) => e);
    expect(isEngineError(error, 'NOT_FOUND')).toBe(true);
  });
});

describe('answers with certificates in the transparency log', () => {
  it('answers, signs, logs and verifies; a flipped byte fails', async () => {
    const question = 'Apakah menerobos lampu merah melanggar aturan?';
    const result = await test.engine.ask('lalu-lintas', { question });
    const trust = trustOptions(test.engine.trustedKeys());
    const verification = await verifyBundle(result.bundle, {
      ...trust,
      presentedQuestion: question,
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(verification.verdict).toBe('verified');
    expect(result.found).toBe(true);
    const cited = result.bundle.certificate.claims.flatMap((claim) =>
      claim.evidence.map((e) => e.citation.pasal),
    );
    expect(cited.some((pasal) => pasal === '106' || pasal === '287')).toBe(true);

    const tampered = structuredClone(result.bundle);
    tampered.certificate.answer.text = tampered.certificate.answer.text.replace(/a/, 'b');
    expect((await verifyBundle(tampered, { ...trust, vocabulary: SAKSI_VOCABULARY })).verdict).toBe('failed');

    const stored = await test.engine.bundle(result.bundle.certificate.certificate_id);
    expect(await verifyBundle(stored, { ...trust, vocabulary: SAKSI_VOCABULARY })).toEqual(
      await verifyBundle(result.bundle, { ...trust, vocabulary: SAKSI_VOCABULARY }),
    );
  });

  it('says plainly when the documents do not answer', async () => {
    const result = await test.engine.ask('docs', {
      question: 'Who won the 1998 football world cup in Paris?',
    });
    expect(result.found).toBe(false);
    expect(result.bundle.certificate.claims).toEqual([]);
    expect((await test.engine.verify(result.bundle)).verdict).toBe('verified');
  });

  it('keeps an append-only log with inclusion and consistency proofs', async () => {
    const first = await test.engine.ask('docs', { question: 'What is a reducer?' });
    const second = await test.engine.ask('docs', { question: 'What is an action?' });
    const checkpoint = (await test.engine.log.latestCheckpoint(test.engine.db))!;
    const parsed = parseCheckpoint(parseNote(checkpoint.checkpoint).text);
    expect(parsed.size).toBe(second.bundle.log.leaf_index + 1);
    const inclusion = await test.engine.log.inclusionProof(test.engine.db, first.bundle.log.leaf_index);
    const leaf = hashLeaf(logLeafInput(first.bundle.certificate, first.bundle.signature));
    expect(
      verifyInclusionProof(
        inclusion.leaf_index,
        inclusion.tree_size,
        leaf,
        inclusion.proof.map((n) => fromHex(n, 32)),
        parsed.rootHash,
      ),
    ).toBe(true);
    const old = parseCheckpoint(parseNote(first.bundle.log.checkpoint).text);
    const consistency = await test.engine.log.consistencyProof(test.engine.db, old.size, parsed.size);
    expect(
      verifyConsistencyProof(
        old.size,
        parsed.size,
        consistency.proof.map((n) => fromHex(n, 32)),
        old.rootHash,
        parsed.rootHash,
      ),
    ).toBe(true);
    // A verifier that saw the newer checkpoint accepts the older bundle with a consistency proof from the server.
    expect((await test.engine.verify(first.bundle, { lastCheckpoint: checkpoint.checkpoint })).verdict).toBe(
      'verified',
    );
  });

  it('rejects empty questions and unknown sessions with typed errors', async () => {
    expect(
      isEngineError(
        await test.engine.ask('docs', { question: '  ' }).catch((e: unknown) => e),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(
      isEngineError(
        await test.engine.ask('docs', { question: 'reducer', session_id: 'ses_x' }).catch((e: unknown) => e),
        'NOT_FOUND',
      ),
    ).toBe(true);
  });
});
