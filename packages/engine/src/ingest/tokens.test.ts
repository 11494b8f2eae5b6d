import { describe, expect, it } from 'vitest';
import { countTokens, splitByTokens, type TextPiece } from './tokens.js';

/** Deterministic pseudo-random words (xorshift), so failures reproduce. */
function randomText(seed: number, words: number): string {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const vocabulary = [
    'kendaraan',
    'bermotor',
    'jalan',
    'Rp1.500.000',
    'wajib',
    'pengemudi',
    'ayat',
    'é',
    '😀',
  ];
  const parts: string[] = [];
  for (let i = 0; i < words; i++) {
    parts.push(vocabulary[Math.floor(next() * vocabulary.length)]!);
    const r = next();
    if (r < 0.08) parts.push('. ');
    else if (r < 0.1) parts.push('\n');
    else if (r < 0.12) parts.push(', ');
    else parts.push(' ');
  }
  return parts.join('');
}

function checkPieces(text: string, pieces: TextPiece[], maxTokens: number): void {
  for (const piece of pieces) {
    expect(piece.text).toBe(text.slice(piece.start, piece.end));
    expect(piece.text).toBe(piece.text.trim());
    expect(piece.text.length).toBeGreaterThan(0);
    expect(countTokens(piece.text)).toBeLessThanOrEqual(maxTokens);
  }
  // Pieces advance and together cover every visible character.
  for (let i = 1; i < pieces.length; i++) {
    expect(pieces[i]!.start).toBeGreaterThan(pieces[i - 1]!.start);
    expect(pieces[i]!.end).toBeGreaterThan(pieces[i - 1]!.end);
    expect(text.slice(pieces[i - 1]!.end, pieces[i]!.start).trim()).toBe('');
  }
  expect(text.slice(0, pieces[0]?.start ?? text.length).trim()).toBe('');
  expect(text.slice(pieces.at(-1)?.end ?? 0).trim()).toBe('');
}

describe('countTokens', () => {
  it('counts words, digit groups and punctuation runs, not whitespace', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens(' \n\t ')).toBe(0);
    expect(countTokens('jalan')).toBe(1);
    expect(countTokens('pertanggungjawaban')).toBe(4); // 18 letters
    expect(countTokens('1761642817235000')).toBe(6); // 16 digits, by three
    expect(countTokens('...')).toBe(1);
    expect(countTokens('Pasal 5 ayat (1).')).toBe(6);
    expect(countTokens('Setiap orang yang mengemudikan Kendaraan Bermotor')).toBe(11);
  });

  it('is additive over whitespace and handles accents and astral characters', () => {
    const a = 'Undang-Undang Nomor 22 Tahun 2009';
    const b = 'tentang Lalu Lintas dan Angkutan Jalan';
    expect(countTokens(`${a}\n\n${b}`)).toBe(countTokens(a) + countTokens(b));
    expect(countTokens('café')).toBe(countTokens('cafe\u0301'));
    expect(countTokens('😀😀')).toBeGreaterThan(0);
  });

  it('bounds a giant word', () => {
    const blob = 'A'.repeat(10_000);
    expect(countTokens(blob)).toBe(2_000);
  });
});

describe('splitByTokens', () => {
  it('returns one piece for a short text and nothing for blank text', () => {
    expect(splitByTokens('  Jalan raya.  ', 10, 2)).toEqual([{ text: 'Jalan raya.', start: 2, end: 13 }]);
    expect(splitByTokens(' \n ', 10, 2)).toEqual([]);
    expect(splitByTokens('', 10, 2)).toEqual([]);
  });

  it('prefers sentence boundaries', () => {
    const text =
      'Pengemudi wajib membawa surat izin. ' +
      'Kendaraan harus memenuhi persyaratan teknis dan laik jalan. ' +
      'Pelanggaran dikenai sanksi administratif sesuai ketentuan.';
    const pieces = splitByTokens(text, 16, 0);
    checkPieces(text, pieces, 16);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.text).toMatch(/[.]$/);
  });

  it('does not end a sentence after an abbreviation or an initial', () => {
    const text =
      'Menurut UU No. 22 Tahun 2009 dan Dr. Budi S. Santoso, biaya Rp. 500 wajib dibayar. Lalu selesai.';
    const pieces = splitByTokens(text, 40, 0);
    expect(pieces).toHaveLength(1);
    const tight = splitByTokens(text, 24, 0);
    checkPieces(text, tight, 24);
    for (const piece of tight) {
      expect(piece.text).not.toMatch(/(?:No|Dr|S|Rp)\.$/);
    }
  });

  it('falls back to word boundaries without punctuation', () => {
    const text = Array.from({ length: 200 }, (_, i) => `kata${i % 7 === 0 ? 'panjangsekali' : ''}`).join(' ');
    const pieces = splitByTokens(text, 30, 5);
    checkPieces(text, pieces, 30);
    const words = new Set(text.split(' '));
    for (const piece of pieces) for (const word of piece.text.split(' ')) expect(words.has(word)).toBe(true);
  });

  it('overlaps consecutive pieces by at most overlapTokens, and not at all with 0', () => {
    const text = randomText(7, 2_000);
    const overlapping = splitByTokens(text, 60, 10);
    checkPieces(text, overlapping, 60);
    for (let i = 1; i < overlapping.length; i++) {
      const previous = overlapping[i - 1]!;
      const current = overlapping[i]!;
      expect(current.start).toBeLessThan(previous.end);
      expect(countTokens(text.slice(current.start, previous.end))).toBeLessThanOrEqual(10);
    }
    const disjoint = splitByTokens(text, 60, 0);
    checkPieces(text, disjoint, 60);
    for (let i = 1; i < disjoint.length; i++) {
      expect(disjoint[i]!.start).toBeGreaterThanOrEqual(disjoint[i - 1]!.end);
    }
    expect(overlapping.length).toBeGreaterThan(disjoint.length);
  });

  it('is deterministic and holds its invariants on random text', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const text = randomText(seed, 300 + seed * 17);
      const budget = 5 + seed * 3;
      const pieces = splitByTokens(text, budget, seed % 4 === 0 ? 0 : Math.floor(budget / 3));
      checkPieces(text, pieces, budget);
      expect(splitByTokens(text, budget, seed % 4 === 0 ? 0 : Math.floor(budget / 3))).toEqual(pieces);
    }
  });

  it('splits a giant word inside the word, within budget', () => {
    const text = `awal ${'x'.repeat(5_000)} akhir`;
    const pieces = splitByTokens(text, 50, 5);
    checkPieces(text, pieces, 50);
    expect(pieces.map((piece) => piece.text).join('')).toContain('x'.repeat(200));
  });

  it('handles a budget smaller than one unit and a large input in bounded time', () => {
    const pieces = splitByTokens('pertanggungjawaban keuangan', 1, 0);
    expect(pieces.length).toBeGreaterThan(1);
    const large = randomText(3, 200_000);
    const many = splitByTokens(large, 350, 40);
    expect(many.length).toBeGreaterThan(100);
  });

  it('rejects invalid budgets', () => {
    expect(() => splitByTokens('a', 0, 0)).toThrow(RangeError);
    expect(() => splitByTokens('a', 1.5, 0)).toThrow(RangeError);
    expect(() => splitByTokens('a', 10, -1)).toThrow(RangeError);
    expect(() => splitByTokens('a', Number.NaN, 0)).toThrow(RangeError);
  });
});
