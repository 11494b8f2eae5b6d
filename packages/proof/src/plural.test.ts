import { describe, expect, it } from 'vitest';
import { plural } from './plural.js';

describe('plural', () => {
  it('uses the singular for exactly one and the plural otherwise', () => {
    expect(plural(1, 'claim')).toBe('1 claim');
    expect(plural(0, 'claim')).toBe('0 claims');
    expect(plural(2, 'claim')).toBe('2 claims');
  });

  it('takes an irregular plural', () => {
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(12, 'entry', 'entries')).toBe('12 entries');
    expect(plural(2, 'witness', 'witnesses')).toBe('2 witnesses');
  });

  it('leaves Indonesian nouns unchanged when given the same word twice', () => {
    expect(plural(1, 'dokumen', 'dokumen')).toBe('1 dokumen');
    expect(plural(3, 'dokumen', 'dokumen')).toBe('3 dokumen');
  });
});
