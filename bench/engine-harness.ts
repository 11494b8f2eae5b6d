/**
 * Helpers of `engine.bench.ts`: corpus files, the direct parse → chunk → embed path (the ingestion
 * baseline), questions, percentiles, throwaway PostgreSQL databases, and synthetic-but-realistic chunk
 * collections inserted straight into the `chunks` table.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { normalizeText } from '@saksi/proof';
import pg from 'pg';
import { ensureCollection, ensureVectorIndex } from '../packages/engine/src/collections.js';
import { hashEmbed } from '../packages/engine/src/embed/hash.js';
import type { EmbeddingModel } from '../packages/engine/src/embed/model.js';
import type { Engine } from '../packages/engine/src/engine.js';
import { chunkDocument } from '../packages/engine/src/ingest/chunk.js';
import { isSupportedFile } from '../packages/engine/src/ingest/files.js';
import { parseDocument } from '../packages/engine/src/ingest/parse.js';
import { parseRegulation } from '../packages/engine/src/packs/legislation/legal-structure.js';
import { rebuildKeywordIndex } from '../packages/engine/src/retrieve/keyword-index.js';
import type { ChunkDraft, LegalRef } from '../packages/engine/src/types.js';

export const repoRoot = path.resolve(import.meta.dirname, '..');
/** The shared data (corpora, eval sets): `../shared/data` beside the repository, or `SAKSI_SHARED_DATA` (a worktree elsewhere). */
export const dataRoot = path.resolve(
  process.env['SAKSI_SHARED_DATA'] ?? path.join(repoRoot, '../shared/data'),
);
export const corpusDirectory = (name: string) => path.join(dataRoot, 'corpora', name);

export function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`benchmark setup is wrong: ${what}`);
}

// ---------------------------------------------------------------------------------------------
// Files and the direct (no database) ingestion path

export interface CorpusFile {
  path: string;
  /** Relative to the corpus directory. */
  name: string;
  bytes: Uint8Array;
}

/** Every file under `directory` whose name ends with one of `extensions`, sorted, read into memory. */
export function readCorpus(directory: string, extensions: readonly string[]): CorpusFile[] {
  const files: CorpusFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && extensions.some((extension) => entry.name.toLowerCase().endsWith(extension)))
        files.push({
          path: full,
          name: path.relative(directory, full),
          bytes: new Uint8Array(readFileSync(full)),
        });
    }
  };
  walk(directory);
  return files;
}

/** What `ingestDocument` does before hashing and storing: parse (+ regulation structure), chunk, NFC/LF. */
export async function parseAndChunk(file: CorpusFile): Promise<ChunkDraft[]> {
  const filename = path.basename(file.path);
  check(isSupportedFile(filename), `${filename} is not a supported file`);
  let parsed = await parseDocument(file.bytes, { filename });
  if (parsed.mime === 'text/markdown' || parsed.mime === 'text/plain') {
    const regulation = parseRegulation(new TextDecoder().decode(file.bytes), filename);
    if (regulation)
      parsed = { ...regulation, mime: parsed.mime, metadata: { ...parsed.metadata, ...regulation.metadata } };
  }
  return chunkDocument(parsed).map((draft) => ({ ...draft, text: normalizeText(draft.text) }));
}

/** `model.doEmbed` in batches of `maxEmbeddingsPerCall` (what `embedMany` does, without its checks). */
export async function embedDirect(model: EmbeddingModel, texts: string[]): Promise<number[][]> {
  const batch = Math.max(1, Math.floor(model.maxEmbeddingsPerCall));
  const vectors: number[][] = [];
  for (let start = 0; start < texts.length; start += batch) {
    const { embeddings } = await model.doEmbed({ values: texts.slice(start, start + batch) });
    vectors.push(...embeddings);
  }
  return vectors;
}

// ---------------------------------------------------------------------------------------------
// Questions

interface EvalRow {
  question?: string;
}

function readJsonl(file: string): EvalRow[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as EvalRow);
}

/**
 * `count` Indonesian questions: every `question` of lalin-dev, lalin-spec-cases and apbn-dev (in-domain
 * for the legal corpora; they come first, `inDomain` of them), then FacQA-ID test queries (real
 * Indonesian questions about news, out of domain) to fill.
 */
export function indonesianQuestions(count: number): { questions: string[]; inDomain: number } {
  const evalDir = path.join(dataRoot, 'eval');
  const clean = (questions: string[]) => [
    ...new Set(questions.map((q) => q.trim()).filter((q) => q.length > 0)),
  ];
  const inDomain = clean(
    ['lalin-dev.jsonl', 'lalin-spec-cases.jsonl', 'apbn-dev.jsonl'].flatMap((file) =>
      readJsonl(path.join(evalDir, file)).map((row) => row.question ?? ''),
    ),
  );
  const facqa = readFileSync(path.join(evalDir, 'facqa-id/derived-beir-test/queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => (JSON.parse(line) as { text: string }).text);
  const questions = clean([...inDomain, ...facqa]).slice(0, count);
  return { questions, inDomain: Math.min(inDomain.length, questions.length) };
}

export function evalQuestions(file: string): string[] {
  return readJsonl(path.join(dataRoot, 'eval', file))
    .map((row) => row.question?.trim() ?? '')
    .filter((q) => q.length > 0);
}

// ---------------------------------------------------------------------------------------------
// Statistics

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    mean: sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** A small deterministic PRNG (mulberry32), so two runs build the same synthetic collection. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// Throwaway PostgreSQL databases

export interface TemporaryDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates database `name` on the server of `baseUrl` (needs CREATEDB); `drop()` removes it. */
export async function createTemporaryDatabase(baseUrl: string, name: string): Promise<TemporaryDatabase> {
  check(/^[a-z0-9_]+$/.test(name), `database name ${name}`);
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        // pg-pool's end() resolves before its sockets have closed: wait for the backends to go, so the
        // DROP never has to terminate a connection the engine's pool is still closing.
        for (let attempt = 0; attempt < 100; attempt++) {
          const active = await client.query<{ n: number }>(
            'SELECT count(*)::integer AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (active.rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
      } finally {
        await client.end();
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Synthetic collections

/** A real chunk's shape (length, kind, section path, legal reference) to imitate. */
export interface ChunkTemplate {
  length: number;
  kind: string;
  section_path: string[];
  legal?: LegalRef;
  token_count: number;
}

/** Sentences (≥ 4 words) of real chunk texts, the material synthetic chunks are made of. */
export function sentencePool(chunks: readonly ChunkDraft[]): string[] {
  const sentences = new Set<string>();
  for (const chunk of chunks) {
    for (const piece of chunk.text.split(/(?<=[.;:?!])\s+|\n+/)) {
      const sentence = piece.trim();
      if (sentence.split(/\s+/).length >= 4 && sentence.length <= 1_500) sentences.add(sentence);
    }
  }
  return [...sentences];
}

export function templatesOf(chunks: readonly ChunkDraft[]): ChunkTemplate[] {
  return chunks
    .filter((chunk) => chunk.text.length >= 40)
    .map((chunk) => ({
      length: Math.min(chunk.text.length, 3_000),
      kind: chunk.kind === 'table' ? 'text' : chunk.kind,
      section_path: chunk.section_path,
      ...(chunk.legal ? { legal: chunk.legal } : {}),
      token_count: chunk.token_count,
    }));
}

export interface SyntheticBuild {
  chunks: number;
  documents: number;
  /** Generating texts, hashes and vectors (ms). */
  generateMs: number;
  /** The INSERTs (ms). */
  insertMs: number;
  /** CREATE INDEX of the HNSW index after the load (ms). */
  indexMs: number;
  /** Building the keyword index of the whole collection after the load (ms). */
  keywordMs: number;
  analyzeMs: number;
}

const CHUNKS_PER_DOCUMENT = 100;
const ROWS_PER_INSERT = 500;
const CHUNK_COLUMNS = 17;
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Creates collection `name` (language `id`, the engine's embedding model) through the engine's own
 * `ensureCollection`, then inserts `count` synthetic chunks in documents of 100: each chunk copies the
 * length, section path and legal reference of a real chunk and is filled with real sentences drawn at
 * random from `pool`; hashes are real SHA-256, vectors come from the hash model, proof paths are
 * correctly shaped placeholders (retrieval never reads them). The HNSW index is dropped during the load
 * and rebuilt afterwards with the engine's `ensureVectorIndex` (a bulk build is much faster than
 * row-by-row insertion); the keyword index is built for the whole collection (`rebuildKeywordIndex`);
 * then ANALYZE.
 */
export async function buildSyntheticCollection(
  engine: Engine,
  options: {
    name: string;
    count: number;
    pool: readonly string[];
    templates: readonly ChunkTemplate[];
    seed: number;
    /** Build the HNSW index after the load (default true; the keyword bench does not need it). */
    vectorIndex?: boolean;
    onProgress?: (done: number) => void;
  },
): Promise<SyntheticBuild> {
  const { db } = engine;
  const dimensions = engine.embedding.dimensions;
  const collection = await ensureCollection(db, {
    name: options.name,
    language: 'id',
    embedding: { provider: engine.embedding.provider, model: engine.embedding.modelId, dimensions },
  });
  await db.exec(`DROP INDEX IF EXISTS chunks_embedding_hnsw_${dimensions}`);
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

  let generateMs = 0;
  let insertMs = 0;
  let documents = 0;
  for (let start = 0; start < options.count; start += CHUNKS_PER_DOCUMENT) {
    const size = Math.min(CHUNKS_PER_DOCUMENT, options.count - start);
    const generateStart = nowMs();
    const documentId = `doc_bench${options.seed}${String(documents).padStart(7, '0')}`;
    const texts: string[] = [];
    const templates: ChunkTemplate[] = [];
    for (let i = 0; i < size; i++) {
      const template = pick(options.templates);
      let text = pick(options.pool);
      while (text.length < template.length) text += ` ${pick(options.pool)}`;
      texts.push(normalizeText(text));
      templates.push(template);
    }
    const embeddings = texts.map((text) => hashEmbed(text, dimensions));
    const depth = Math.ceil(Math.log2(Math.max(2, size)));
    const root = sha256Hex(texts.join('\n'));
    generateMs += nowMs() - generateStart;

    const insertStart = nowMs();
    const blobBytes = new TextEncoder().encode(`synthetic document ${documentId}`);
    const blobSha = createHash('sha256').update(blobBytes).digest('hex');
    await db.query(
      'INSERT INTO blobs (sha256, bytes, size) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING',
      [blobSha, blobBytes, blobBytes.length],
    );
    await db.query(
      `INSERT INTO documents (id, collection_id, title, filename, mime, original_sha256, size, metadata, document_type, status, stage, root, chunk_count)
       VALUES ($1, $2, $3, $4, 'text/markdown', $5, $6, '{}', 'UU', 'READY', 'done', $7, $8)`,
      [
        documentId,
        collection.id,
        `Dokumen sintetis ${documents}`,
        `${documentId}.md`,
        blobSha,
        blobBytes.length,
        root,
        size,
      ],
    );
    for (let batchStart = 0; batchStart < size; batchStart += ROWS_PER_INSERT) {
      const params: unknown[] = [];
      const rows: string[] = [];
      for (let i = batchStart; i < Math.min(size, batchStart + ROWS_PER_INSERT); i++) {
        const template = templates[i]!;
        const text = texts[i]!;
        const proof = Array.from({ length: depth }, (_, level) => sha256Hex(`${documentId}:${i}:${level}`));
        params.push(
          `${documentId}-${i}`,
          documentId,
          collection.id,
          i,
          text,
          sha256Hex(text),
          template.kind,
          null,
          JSON.stringify(template.section_path),
          template.legal ? JSON.stringify(template.legal) : null,
          null,
          i > 0 ? texts[i - 1]!.slice(-300) : '',
          i + 1 < size ? texts[i + 1]!.slice(0, 300) : '',
          template.token_count,
          JSON.stringify(proof),
          `[${embeddings[i]!.join(',')}]`,
          collection.text_search_config,
        );
        const base = rows.length * CHUNK_COLUMNS;
        const p = (k: number) => `$${base + k}`;
        rows.push(
          `(${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)}, ${p(11)}, ${p(12)}, ${p(13)}, ${p(14)}, ${p(15)}, ${p(16)}::vector, ${dimensions}, ${p(17)}::regconfig)`,
        );
      }
      await db.query(
        `INSERT INTO chunks (id, document_id, collection_id, position, text, sha256, kind, page, section_path, legal, table_html,
           context_before, context_after, token_count, proof_path, embedding, embedding_dimensions, text_search_config)
         VALUES ${rows.join(', ')}`,
        params,
      );
    }
    insertMs += nowMs() - insertStart;
    documents++;
    options.onProgress?.(start + size);
  }

  const indexStart = nowMs();
  if (options.vectorIndex ?? true) {
    await db.transaction(async (tx) => {
      await tx.exec(`SET LOCAL maintenance_work_mem = '${db.kind === 'postgres' ? '1GB' : '512MB'}'`);
      await ensureVectorIndex(tx, dimensions);
    });
  }
  const indexMs = nowMs() - indexStart;
  const keywordStart = nowMs();
  await rebuildKeywordIndex(db, collection.id);
  const keywordMs = nowMs() - keywordStart;
  const analyzeStart = nowMs();
  await db.exec('ANALYZE chunks; ANALYZE documents; ANALYZE keyword_postings;');
  const analyzeMs = nowMs() - analyzeStart;
  return { chunks: options.count, documents, generateMs, insertMs, indexMs, keywordMs, analyzeMs };
}

// ---------------------------------------------------------------------------------------------
// Output

/** Prints a table: first column left-aligned, the others right-aligned. */
export function printTable(
  title: string,
  header: readonly string[],
  rows: readonly (readonly string[])[],
): void {
  const widths = header.map((name, column) =>
    Math.max(name.length, ...rows.map((cells) => cells[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  process.stdout.write(
    `\n${title}\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}\n`,
  );
  for (const cells of rows) process.stdout.write(`${line(cells)}\n`);
}

export const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

/** The commit measured (`+dirty` when the working tree differs from it), for the JSON and the header. */
export function gitRevision(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'packages').length > 0 ? '+dirty' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** A progress logger that prefixes each line with the seconds since `start`. */
export function progressLog(start: number): (message: string) => void {
  return (message) =>
    process.stdout.write(`  [${((nowMs() - start) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
}

/** Writes `bench/results/<name>.json`: the machine and revision, then the benchmark's own fields. */
export function writeResults(name: string, revision: string, fields: Record<string, unknown>): void {
  const output = path.resolve(repoRoot, 'bench/results', `${name}.json`);
  mkdirSync(path.dirname(output), { recursive: true });
  const machine = {
    date: new Date().toISOString(),
    revision,
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpu: os.cpus()[0]?.model ?? null,
    cpus: os.cpus().length,
  };
  writeFileSync(output, `${JSON.stringify({ ...machine, ...fields }, null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), output)}\n`);
}
