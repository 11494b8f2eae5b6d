import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Bundle } from '@saksi/proof';
import { describe, expect, it } from 'vitest';
import { comparePublished, diffWords, excerpt, findChanges } from './tamper-diff.js';

const golden = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../proof/__fixtures__/golden-v1.1-bundle.json'), 'utf8'),
) as Bundle;

const OLD = 'Rp500.000,00';
const NEW = 'Rp50.000,00';

function copy(): Bundle {
  return structuredClone(golden);
}

/** Replaces the figure in the texts named, leaving every hash as it was. */
function changeFigure(
  bundle: Bundle,
  where: { claims?: number[]; answer?: boolean; spans?: [number, number][]; chunk?: boolean },
): Bundle {
  const swap = (text: string) => text.split(OLD).join(NEW);
  for (const c of where.claims ?? [])
    bundle.certificate.claims[c]!.text = swap(bundle.certificate.claims[c]!.text);
  if (where.answer) bundle.certificate.answer.text = swap(bundle.certificate.answer.text);
  for (const [c, e] of where.spans ?? []) {
    const span = bundle.certificate.claims[c]!.evidence[e]!.span;
    span.text = swap(span.text);
    span.end -= 1;
  }
  if (where.chunk) for (const chunk of bundle.chunks) chunk.text = swap(chunk.text);
  return bundle;
}

describe('findChanges', () => {
  it('finds nothing in a genuine bundle', () => {
    expect(findChanges(golden)).toEqual([]);
  });

  it('shows a verbatim claim whose figure and quote were changed against the hashed passage', () => {
    const tampered = changeFigure(copy(), { claims: [0], answer: true, spans: [[0, 0]] });
    const changes = findChanges(tampered);
    // The answer's second sentence carried the same figure, changed there too: the claim still has it.
    expect(changes.map((change) => [change.where, change.claim, change.basis])).toEqual([
      ['claim', 1, 'passage'],
      ['answer', 2, 'hash'],
    ]);
    const [claim, answer] = changes;
    expect(answer?.shown).toContain(NEW);
    expect(answer?.original).toBe(golden.certificate.claims[1]!.text);
    expect(claim?.shown).toContain(NEW);
    expect(claim?.original).toContain(OLD);
    expect(claim?.original).toBe(golden.certificate.claims[0]!.text);
  });

  it('recomputes a composed claim from the original quotes', () => {
    const tampered = changeFigure(copy(), { claims: [1], spans: [[1, 1]] });
    const changes = findChanges(tampered);
    const claim = changes.find((change) => change.where === 'claim');
    expect(claim).toMatchObject({
      claim: 2,
      basis: 'composition',
      original: golden.certificate.claims[1]!.text,
    });
    expect(claim?.shown).toContain(NEW);
    // The answer still carries the old figure at the claim's offsets: shown as a second place.
    expect(changes.some((change) => change.where === 'answer')).toBe(false);
  });

  it('recovers a passage changed inside a quote that still matches its own hash', () => {
    const tampered = changeFigure(copy(), { chunk: true });
    const changes = findChanges(tampered);
    const passage = changes.find((change) => change.where === 'passage');
    expect(passage).toMatchObject({ basis: 'hash', label: 'Pasal 287 ayat (2) UU 22/2009' });
    expect(passage?.original).toBe(golden.chunks[0]!.text);
    expect(passage?.shown).toContain(NEW);
  });

  it('says when the original is not in the bundle, and the published copy then shows it', () => {
    const tampered = changeFigure(copy(), {
      claims: [0, 1],
      answer: true,
      spans: [
        [0, 0],
        [1, 1],
      ],
      chunk: true,
    });
    const changes = findChanges(tampered);
    expect(changes.find((change) => change.where === 'passage')).toMatchObject({ basis: 'none' });
    expect(changes.find((change) => change.where === 'passage')?.original).toBeUndefined();
    const claims = changes.filter((change) => change.where === 'claim');
    expect(claims.map((change) => change.claim)).toEqual([1, 2]);
    for (const claim of claims) expect(claim.original).toBeUndefined();

    const published = comparePublished(tampered, golden);
    const claim = published.find((change) => change.where === 'claim' && change.claim === 1);
    expect(claim).toMatchObject({ basis: 'published', original: golden.certificate.claims[0]!.text });
    expect(published.find((change) => change.where === 'passage')?.original).toBe(golden.chunks[0]!.text);
    // Offsets moved with the shorter figure: a field difference, hashes left out.
    expect(published.some((change) => change.label?.endsWith('.sha256'))).toBe(false);
  });

  it('shows the answer changed where its claim was not', () => {
    const tampered = changeFigure(copy(), { answer: true });
    const changes = findChanges(tampered);
    expect(changes.map((change) => [change.where, change.claim])).toEqual([
      ['answer', 1],
      ['answer', 2],
    ]);
    expect(changes[0]?.original).toBe(golden.certificate.claims[0]!.text);
  });

  it('flags a changed question, whose original only its hash holds', () => {
    const tampered = copy();
    tampered.certificate.query.text = 'Berapa denda menerobos lampu kuning?';
    expect(findChanges(tampered)).toEqual([
      { where: 'question', shown: 'Berapa denda menerobos lampu kuning?', basis: 'none' },
    ]);
  });

  it('does not take a passage as published when its document proof failed', () => {
    const problems = [{ field: 'certificate.claims[0].evidence[0].document_proof' }];
    const changes = findChanges(golden, problems);
    expect(changes).toEqual([
      expect.objectContaining({ where: 'passage', basis: 'none', label: 'Pasal 287 ayat (2) UU 22/2009' }),
    ]);
  });

  it('leaves a changed score to the published copy, naming the field', () => {
    const tampered = copy();
    tampered.certificate.answer.relevance!.score = 0.01;
    expect(findChanges(tampered)).toEqual([]);
    expect(comparePublished(tampered, golden)).toEqual([
      {
        where: 'field',
        label: 'answer.relevance.score',
        shown: '0.01',
        original: String(golden.certificate.answer.relevance!.score),
        basis: 'published',
      },
    ]);
  });

  it('reads nothing from a bundle that is not one', () => {
    expect(findChanges({ certificate: 'no' })).toEqual([]);
    expect(comparePublished('no', golden)).toEqual([]);
  });
});

describe('diffWords', () => {
  it('marks only the changed figure', () => {
    const diff = diffWords(
      `denda paling banyak ${OLD} (lima ratus ribu rupiah)`,
      `denda paling banyak ${NEW} (lima ratus ribu rupiah)`,
    );
    expect(diff.original.filter((segment) => segment.changed).map((segment) => segment.text)).toEqual([OLD]);
    expect(diff.shown.filter((segment) => segment.changed).map((segment) => segment.text)).toEqual([NEW]);
    expect(diff.shown.map((segment) => segment.text).join('')).toBe(
      `denda paling banyak ${NEW} (lima ratus ribu rupiah)`,
    );
  });

  it('matches words in the middle and marks insertions on one side only', () => {
    const diff = diffWords('a b c d e', 'a x c d y e');
    expect(diff.original.filter((segment) => segment.changed).map((segment) => segment.text)).toEqual(['b']);
    expect(diff.shown.filter((segment) => segment.changed).map((segment) => segment.text)).toEqual([
      'x',
      'y',
    ]);
  });

  it('marks the whole middle when it is too long to compare word by word', () => {
    const long = (word: string) => Array.from({ length: 600 }, (_, i) => `${word}${i}`).join(' ');
    const diff = diffWords(`start ${long('a')} end`, `start ${long('b')} end`);
    expect(diff.original.map((segment) => segment.changed)).toEqual([false, true, false]);
  });
});

describe('excerpt', () => {
  it('keeps the change and cuts long unchanged stretches around it', () => {
    const before = 'x'.repeat(500);
    const after = 'y'.repeat(500);
    const cut = excerpt(
      [
        { text: `${before} `, changed: false },
        { text: NEW, changed: true },
        { text: ` ${after}`, changed: false },
      ],
      20,
    );
    expect(cut[0]?.text.startsWith('…')).toBe(true);
    expect(Array.from(cut[0]!.text).length).toBe(21);
    // Cut at a word boundary where there is one.
    const words = excerpt(
      [
        { text: 'one two three four five six seven eight nine ten ', changed: false },
        { text: NEW, changed: true },
      ],
      20,
    );
    expect(words[0]?.text).toBe('… eight nine ten ');
    expect(cut[1]?.text).toBe(NEW);
    expect(cut[2]?.text.endsWith('…')).toBe(true);
  });
});
