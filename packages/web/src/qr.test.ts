import { describe, expect, it } from 'vitest';
import vectors from './__fixtures__/qr-vectors.json' with { type: 'json' };
import { encodeQr, isQrError, penalty, qrPath, reedSolomon } from './qr.js';

const rowsOf = (modules: boolean[][]) => modules.map((row) => row.map((dark) => (dark ? '1' : '0')).join(''));

describe('encodeQr', () => {
  it.each(vectors.vectors)(
    'matches the qrcode package: $errorCorrection v$version, $text.length bytes',
    (vector) => {
      const code = encodeQr(vector.text, { errorCorrection: vector.errorCorrection as 'L' | 'M' });
      expect(code.version).toBe(vector.version);
      expect(code.size).toBe(17 + 4 * vector.version);
      expect(code.mask).toBe(vector.mask);
      expect(rowsOf(code.modules)).toEqual(vector.rows);
    },
  );

  it('picks the mask with the lowest penalty', () => {
    const text = vectors.vectors[3]!.text;
    const chosen = encodeQr(text);
    for (let mask = 0; mask < 8; mask++)
      expect(penalty(encodeQr(text, { mask }).modules)).toBeGreaterThanOrEqual(penalty(chosen.modules));
  });

  it('refuses text beyond version 10 and bad options with typed errors', () => {
    let error: unknown;
    try {
      encodeQr('x'.repeat(214), { errorCorrection: 'M' });
    } catch (caught) {
      error = caught;
    }
    expect(isQrError(error, 'QR_TOO_LONG')).toBe(true);
    expect(encodeQr('x'.repeat(213), { errorCorrection: 'M' }).version).toBe(10);
    expect(() => encodeQr('x', { mask: 8 })).toThrow(expect.objectContaining({ code: 'QR_INVALID_OPTION' }));
  });
});

describe('reedSolomon', () => {
  it('gives the ISO 18004 Annex I example error-correction codewords (1-M "01234567")', () => {
    const data = Uint8Array.from([16, 32, 12, 86, 97, 128, 236, 17, 236, 17, 236, 17, 236, 17, 236, 17]);
    expect([...reedSolomon(data, 10)]).toEqual([165, 36, 212, 193, 237, 54, 199, 135, 44, 85]);
  });
});

describe('qrPath', () => {
  it('draws one unit square per dark module, offset by the quiet zone', () => {
    const code = encodeQr('a');
    const dark = code.modules.flat().filter(Boolean).length;
    const path = qrPath(code, 4);
    expect(path.match(/M/g)?.length).toBe(dark);
    expect(path.startsWith('M4 4h1v1h-1z')).toBe(true); // the finder's top-left corner
  });
});
