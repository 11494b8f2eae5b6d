import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { normalizeText, trustOptions, verifyBundle } from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetrievedChunk } from '../retrieve/retrieve.js';
import { continuationAfter, matchKey, mergeGrounded, selectionProbes } from './selection.js';
import { splitSentences } from './sentences.js';

const docs = path.resolve(import.meta.dirname, '../../../../corpora/docs-redux/docs');

describe('selection probes', () => {
  it('compares letters and digits only, so Markdown marks and line breaks do not matter', () => {
    expect(matchKey('The **store** `dispatch(action)`\n  method.')).toBe('the store dispatch action method');
    expect(matchKey('Ünïcode  ﬁ')).toBe('ünïcode fi');
  });

  it('tries the whole selection, then its sentences longest first, and drops short ones', () => {
    const probes = selectionProbes('Short one. This is the much longer second sentence here. Tiny.');
    expect(probes[0]).toBe('short one this is the much longer second sentence here tiny');
    expect(probes[1]).toBe('this is the much longer second sentence here');
    expect(probes).not.toContain('tiny');
    expect(selectionProbes('ok')).toEqual([]);
  });

  it('puts grounded chunks first, without duplicates, ranks renumbered', () => {
    const chunk = (id: string, score: number) => ({ chunk_id: id, score, rank: 9 }) as RetrievedChunk;
    const merged = mergeGrounded([chunk('b', 0), chunk('x', 0)], [chunk('a', 0.5), chunk('b', 0.4)]);
    expect(merged.map((result) => [result.chunk_id, result.rank, result.score])).toEqual([
      ['b', 1, 0.4],
      ['x', 2, 0],
      ['a', 3, 0.5],
    ]);
    const alone = [chunk('a', 1)];
    expect(mergeGrounded([], alone)).toBe(alone);
  });
});

describe('continuationAfter', () => {
  const source = (text: string, position: number, document_id = 'doc_a') => ({ text, position, document_id });
  it('takes the statements after the selected sentences, then the next chunk’s', () => {
    const sources = [
      source('Intro here is long enough. The selected sentence is this one. Then comes the explanation.', 4),
      source('Earlier chunk that should not be used at all.', 3),
      source('## Heading\n\nNext chunk starts with an example sentence. And more after it.', 5),
    ];
    const after = continuationAfter(sources, 'the selected sentence is THIS one', 2);
    expect(after.map((sentence) => [sentence.sourceIndex, sentence.text])).toEqual([
      [0, 'Then comes the explanation.'],
      [2, 'Next chunk starts with an example sentence.'],
    ]);
    for (const sentence of after)
      expect(sources[sentence.sourceIndex]!.text.slice(sentence.start, sentence.end)).toBe(sentence.text);
  });

  it('is empty when no sentence of the first source lies in the selection', () => {
    expect(continuationAfter([source('Something else entirely here.', 0)], 'not there at all', 2)).toEqual(
      [],
    );
    expect(continuationAfter([], 'anything', 2)).toEqual([]);
  });
});

describe('selection mode grounding (real engine)', () => {
  let test: TestEngine;
  beforeAll(async () => {
    test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
    for (const file of ['api/Store.md', 'introduction/CoreConcepts.md']) {
      await test.engine.ingest(
        'docs',
        { bytes: new Uint8Array(readFileSync(path.join(docs, file))), filename: file },
        { language: 'en' },
      );
    }
  });
  afterAll(async () => {
    await test?.close();
  });

  it('uses the chunk containing the selection and its neighbours as the first sources', async () => {
    const chunks = await test.engine.db.query<{ id: string; position: number; text: string }>(
      "SELECT c.id, c.position, c.text FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.filename = 'api/Store.md' ORDER BY c.position",
    );
    expect(chunks.rows.length).toBeGreaterThan(4);
    // A chunk in the middle of the document with a sentence long enough to be unique.
    const middle = chunks.rows
      .slice(1, -1)
      .find((row) => splitSentences(row.text).some((sentence) => matchKey(sentence.text).length > 60));
    if (!middle) throw new Error('no middle chunk with a long sentence');
    const sentences = splitSentences(middle.text).filter((sentence) => matchKey(sentence.text).length > 60);
    const picked = sentences[Math.floor(sentences.length / 2)]!.text;
    // What a browser selection of the rendered page gives: no Markdown marks, other line breaks.
    const selection = `  ${picked.replace(/[*`]/g, '').replace(/\s+/g, '\n')} `;
    const previous = chunks.rows.find((row) => row.position === middle.position - 1)!;
    const next = chunks.rows.find((row) => row.position === middle.position + 1)!;

    const result = await test.engine.ask('docs', {
      question: 'What does this mean?',
      mode: 'selection',
      selection,
    });
    expect(result.results.slice(0, 3).map((r) => r.chunk_id)).toEqual([middle.id, previous.id, next.id]);
    expect(result.results.map((r) => r.rank)).toEqual(result.results.map((_, index) => index + 1));
    expect(new Set(result.results.map((r) => r.chunk_id)).size).toBe(result.results.length);
    const certificate = result.bundle.certificate;
    expect(certificate.retrieval.results.slice(0, 3).map((r) => r.chunk_id)).toEqual([
      middle.id,
      previous.id,
      next.id,
    ]);
    expect(certificate.query.mode).toBe('selection');
    expect(certificate.query.selection_sha256).toBe(
      createHash('sha256').update(normalizeText(selection), 'utf8').digest('hex'),
    );
    // The evidence of the rendered claims comes from the grounded chunks first.
    const grounded = new Set([middle.id, previous.id, next.id]);
    const evidence = certificate.claims.flatMap((claim) => claim.evidence.map((e) => e.chunk_id));
    expect(evidence.some((id) => grounded.has(id))).toBe(true);
    const verdict = await verifyBundle(result.bundle, {
      ...trustOptions(test.engine.trustedKeys()),
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(verdict.checks.filter((check) => check.status === 'fail')).toEqual([]);
  });

  it('falls back to ordinary retrieval when no chunk contains the selection', async () => {
    const plain = await test.engine.ask('docs', { question: 'What does dispatch do?' });
    const result = await test.engine.ask('docs', {
      question: 'What does dispatch do?',
      mode: 'selection',
      selection: 'Zebra quantum marmalade orchestrates nothing here at all.',
    });
    expect(result.results.every((r) => r.ranks['selection'] === undefined)).toBe(true);
    expect(result.results.length).toBeLessThanOrEqual(plain.results.length);
  });
});
