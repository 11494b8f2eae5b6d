/**
 * The document packs behind the registry (docs/engine.md, "Document-type packs"): which packs a
 * collection's documents call for, and an admin's override of them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../errors.js';
import { extractDocument } from '../ingest/extract.js';
import { corpusText, normalizeForPhrases } from '../retrieve/dictionaries/corpus-text.js';
import {
  checkedPackIds,
  type DocumentSample,
  detectPacks,
  packOverride,
  REWRITE_GROUPS,
  rewriteGroupsNamed,
} from './registry.js';
import { REWRITE_GROUP_NAMES } from './rewrite-groups.js';

const corpora = path.resolve(import.meta.dirname, '../../../../corpora');
const budgetStatute = readFileSync(path.join(corpora, 'apbn-uu/uu-2022-28.md'), 'utf8');
const trafficLaw = readFileSync(path.join(corpora, 'uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'), 'utf8');
const reduxPage = readFileSync(path.join(corpora, 'docs-redux/docs/introduction/GettingStarted.md'), 'utf8');

/** The head of a budget statute: its title block and first Pasal, with amounts in digits and words. */
const budgetHead = budgetStatute.split('\n').slice(0, 80).join('\n');

const letter = `Jakarta, 3 Maret 2024

Kepada Yth. Bapak Kepala Dinas Perhubungan

Dengan hormat, bersama surat ini kami sampaikan undangan rapat koordinasi pada hari Senin pukul 09.00
di ruang rapat lantai 2. Mohon kehadiran Bapak tepat waktu.

Hormat kami,
Sekretaris`;

function sample(text: string, mime: string, title: string, filename?: string): DocumentSample {
  return { text, mime, title, metadata: {}, ...(filename ? { filename } : {}) };
}

describe('detectPacks', () => {
  it('reads a regulation as legislation', () => {
    expect(detectPacks([sample(trafficLaw, 'text/markdown', 'uu-22-2009-llaj.fulltext')])).toEqual([
      'legislation',
    ]);
  });

  it('reads a budget statute as budget and as legislation', () => {
    const title = budgetStatute.split('\n')[0]!;
    expect(detectPacks([sample(budgetHead, 'text/markdown', title)])).toEqual(['legislation', 'budget']);
  });

  it('reads Markdown documentation as software docs', () => {
    expect(
      detectPacks([sample(reduxPage, 'text/markdown', 'Getting Started with Redux', 'GettingStarted.md')]),
    ).toEqual(['software-docs']);
  });

  it('reads a letter as plain, and a collection of several kinds as each of them', () => {
    expect(detectPacks([sample(letter, 'text/plain', 'undangan')])).toEqual(['plain']);
    expect(detectPacks([])).toEqual(['plain']);
    expect(
      detectPacks([
        sample(letter, 'text/plain', 'undangan'),
        sample(reduxPage, 'text/markdown', 'Getting Started', 'GettingStarted.md'),
        sample(trafficLaw, 'text/markdown', 'uu-22'),
      ]),
    ).toEqual(['legislation', 'software-docs']);
  });
});

describe('the override', () => {
  it('is checked: known pack ids, each once, or null', () => {
    expect(checkedPackIds(['budget', 'legislation'])).toEqual(['budget', 'legislation']);
    expect(checkedPackIds(null)).toBeNull();
    for (const bad of [[], ['laws'], ['budget', 'budget'], 'budget', [1]]) {
      let code: string | undefined;
      try {
        checkedPackIds(bad);
      } catch (error) {
        code = error instanceof EngineError ? error.code : 'OTHER';
      }
      expect(code).toBe('INVALID_INPUT');
    }
    expect(packOverride({ profile: { packs: ['plain'] } })).toEqual(['plain']);
    expect(packOverride({ profile: { packs: null } })).toBeUndefined();
  });

  it('decides which packs structure a document at extraction', async () => {
    const bytes = new TextEncoder().encode(trafficLaw.slice(0, 20_000));
    const limits = { maxBytes: 1_000_000, maxChunks: 5_000, maxTextChars: 1_000_000 };
    const detected = await extractDocument({ bytes, filename: 'uu-22.md' }, limits);
    expect(detected.chunks.some((chunk) => chunk.legal?.pasal === '1')).toBe(true);
    const plain = await extractDocument({ bytes, filename: 'uu-22.md' }, { ...limits, packs: ['plain'] });
    expect(plain.chunks.some((chunk) => chunk.legal?.pasal !== undefined)).toBe(false);
  });
});

describe("a collection's packs", () => {
  let test: TestEngine;

  beforeAll(async () => {
    test = await openTestEngine();
  });

  afterAll(async () => {
    await test.close();
  });

  it('are detected from its documents, and an override stored in its profile replaces them', async () => {
    const { engine } = test;
    await engine.ingest('notes', { bytes: new TextEncoder().encode(letter), filename: 'undangan.txt' });
    expect(await engine.collections.packs('notes')).toEqual({
      override: null,
      detected: ['plain'],
      active: ['legislation', 'budget', 'software-docs', 'plain'],
    });
    await engine.collections.configure('notes', { packs: ['legislation'] });
    expect(await engine.collections.packs('notes')).toMatchObject({
      override: ['legislation'],
      active: ['legislation'],
    });
    await expect(engine.collections.configure('notes', { packs: ['statutes'] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await engine.collections.configure('notes', { packs: null });
    expect((await engine.collections.packs('notes')).override).toBeNull();
  });

  it('without the budget pack, a budget statute is structured but its figures are not indexed', async () => {
    const { engine } = test;
    const figures = async (documentId: string) =>
      (await engine.db.query('SELECT 1 FROM budget_figures WHERE document_id = $1', [documentId])).rows
        .length;
    const bytes = new TextEncoder().encode(budgetHead);
    const detected = await engine.ingest(
      'apbn-detected',
      { bytes, filename: 'uu-2022-28.md' },
      { language: 'id' },
    );
    expect(await figures(detected.document.id)).toBeGreaterThan(0);
    expect((await engine.collections.packs('apbn-detected')).detected).toEqual(['legislation', 'budget']);
    await engine.collections.ensure('apbn-legislation', { profile: { packs: ['legislation'] } });
    const overridden = await engine.ingest('apbn-legislation', { bytes, filename: 'uu-2022-28.md' });
    expect(await figures(overridden.document.id)).toBe(0);
    const chunks = await engine.db.query<{ pasal: string | null }>(
      "SELECT legal->>'pasal' AS pasal FROM chunks WHERE document_id = $1",
      [overridden.document.id],
    );
    expect(chunks.rows.some((row) => row.pasal !== null)).toBe(true);
  });
});

describe('rewrite groups', () => {
  it('names one group per pack that has wording of its own, as glossaries enable them', () => {
    expect(REWRITE_GROUPS.map((group) => group.name).sort()).toEqual([...REWRITE_GROUP_NAMES].sort());
    expect(rewriteGroupsNamed(['docs', 'unknown']).map((group) => group.name)).toEqual(['docs']);
  });

  it('adds only wording that occurs in the documents of its group', () => {
    const texts: Record<string, string> = {
      traffic: corpusText('uu-22-2009-llaj'),
      budget: corpusText('apbn-uu'),
      docs: corpusText('docs-redux/docs', { recursive: true }),
    };
    const missing = REWRITE_GROUPS.flatMap((group) =>
      group.rules.flatMap((rule) =>
        rule.add
          .filter((phrase) => !texts[group.name]!.includes(normalizeForPhrases(phrase)))
          .map((phrase) => `${group.name}/${rule.kind}: ${phrase}`),
      ),
    );
    expect(missing).toEqual([]);
  });
});
