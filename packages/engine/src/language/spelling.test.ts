import { describe, expect, it } from 'vitest';
import { normalizeSpelling } from './spelling.js';

describe('normalizeSpelling', () => {
  it('writes out everyday Indonesian verb forms and chat abbreviations', () => {
    expect(normalizeSpelling('Pengendara yg nggak ngalah sama orang yg nyebrang')).toBe(
      'Pengendara yang nggak mengalah sama orang yang menyeberang',
    );
    expect(normalizeSpelling('uang tiketnya dibalikin ga? sopirnya nurunin penumpang')).toBe(
      'uang tiketnya dikembalikan ga? sopirnya menurunkan penumpang',
    );
  });

  it('matches whole words, whatever their case, and leaves other words, numbers and code alone', () => {
    expect(normalizeSpelling('Nyebrang di Jl. Sudirman 2023')).toBe('menyeberang di Jl. Sudirman 2023');
    expect(normalizeSpelling('penyeberangan orgasme createStore')).toBe('penyeberangan orgasme createStore');
  });
});
