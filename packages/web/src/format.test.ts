import { describe, expect, it } from 'vitest';
import { formatBytes, formatNumber, formatTimestamp, shortHash } from './format.js';

describe('format', () => {
  it('writes numbers and sizes with the language’s separators', () => {
    expect(formatNumber(12345, 'id')).toBe('12.345');
    expect(formatNumber(12345, 'en')).toBe('12,345');
    expect(formatBytes(512, 'en')).toBe('512 B');
    expect(formatBytes(24_607, 'en')).toBe('24.0 KB');
    expect(formatBytes(24_607, 'id')).toBe('24,0 KB');
    expect(formatBytes(3 * 1024 * 1024, 'id')).toBe('3,0 MB');
  });

  it('writes database and ISO timestamps as local dates; leaves unparsable ones as given', () => {
    const id = formatTimestamp('2025-03-04 05:06:07.123+00', 'id');
    const en = formatTimestamp('2025-03-04T05:06:07Z', 'en');
    expect(id).toMatch(/2025/);
    expect(id).toMatch(/Mar/);
    expect(en).toMatch(/2025/);
    expect(id).not.toBe(en);
    expect(formatTimestamp('not a date', 'en')).toBe('not a date');
  });

  it('shortens a digest to its first 10 and last 6 characters', () => {
    const tx = `0x${'ab'.repeat(32)}`;
    expect(shortHash(tx)).toBe(`${tx.slice(0, 10)}…${tx.slice(-6)}`);
    expect(shortHash('0123456789abcdef')).toBe('0123456789abcdef');
    expect(shortHash('0123456789abcdefg')).toBe('0123456789abcdefg');
    expect(shortHash('0123456789abcdefgh')).toBe('0123456789…cdefgh');
  });
});
