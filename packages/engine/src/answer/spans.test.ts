import { describe, expect, it } from 'vitest';
import { bestSupportingSpan } from './spans.js';

describe('bestSupportingSpan', () => {
  const chunk =
    'Pasal 287 (1) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan perintah atau larangan yang dinyatakan dengan Rambu Lalu Lintas dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah). (2) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan perintah atau larangan yang dinyatakan dengan Alat Pemberi Isyarat Lalu Lintas dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah).';

  it('picks the sentence that carries the claim, as an exact slice of the chunk', () => {
    const span = bestSupportingSpan(
      'Melanggar Alat Pemberi Isyarat Lalu Lintas didenda paling banyak Rp500.000,00.',
      chunk,
      'id',
    );
    expect(chunk.slice(span.start, span.end)).toBe(span.text);
    expect(span.text).toContain('Alat Pemberi Isyarat');
    expect(span.text).not.toContain('Rambu');
  });

  it('widens to the next sentence only when that adds coverage', () => {
    const text =
      'Redux stores state in one object. Reducers are pure functions. The store calls them on every action.';
    const narrow = bestSupportingSpan('Reducers are pure functions.', text, 'en');
    expect(narrow.text).toBe('Reducers are pure functions.');
    const wide = bestSupportingSpan(
      'Reducers are pure functions that the store calls on every action.',
      text,
      'en',
    );
    expect(wide.text).toBe('Reducers are pure functions. The store calls them on every action.');
  });

  it('returns the whole chunk when it has no sentences', () => {
    expect(bestSupportingSpan('anything', '', 'en')).toEqual({ start: 0, end: 0, text: '' });
  });
});
