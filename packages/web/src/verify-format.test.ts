import { describe, expect, it } from 'vitest';
import { formatDuration, formatScore } from './verify-format.js';

describe('formatDuration', () => {
  it('writes times in the page language, never the abbreviation "md"', () => {
    expect(formatDuration(12.34, 'en')).toBe('12.3 ms');
    expect(formatDuration(12.34, 'id')).toBe('12,3 milidetik');
    expect(formatDuration(40, 'id')).toBe('40 milidetik');
    expect(formatDuration(1250, 'en')).toBe('1.3 s');
    expect(formatDuration(1250, 'id')).toBe('1,3 detik');
    expect(formatDuration(Number.NaN, 'en')).toBe('?');
  });
});

describe('formatScore', () => {
  it('writes two decimals with the language separator', () => {
    expect(formatScore(0.7412, 'en')).toBe('0.74');
    expect(formatScore(1, 'id')).toBe('1,00');
    expect(formatScore(undefined, 'id')).toBe('?');
  });
});
