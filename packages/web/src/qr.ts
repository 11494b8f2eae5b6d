/**
 * A minimal QR code encoder (ISO/IEC 18004:2015): byte mode, error correction L or M, versions 1–10
 * (up to 213 bytes at M, 271 at L), which is plenty for a `/verify/<certificate_id>` URL. Mask
 * selection follows §7.8.3 with the same penalty reading as the `qrcode` npm package, so both
 * produce the same module matrix (see qr.test.ts).
 */

export type QrErrorCorrection = 'L' | 'M';

export interface QrCode {
  version: number;
  /** Modules per side (17 + 4 × version), without the quiet zone. */
  size: number;
  mask: number;
  errorCorrection: QrErrorCorrection;
  /** `modules[row][column]` is true for a dark module. */
  modules: boolean[][];
}

export class QrError extends Error {
  constructor(
    readonly code: 'QR_TOO_LONG' | 'QR_INVALID_OPTION',
    message: string,
  ) {
    super(message);
    this.name = 'QrError';
  }
}

export const QR_MAX_VERSION = 10;

/** Per version 1–10: [error-correction codewords per block, blocks in group 1, data codewords per
 * block in group 1, blocks in group 2, data codewords per block in group 2] (ISO 18004 Table 9). */
const BLOCKS: Record<QrErrorCorrection, readonly (readonly [number, number, number, number, number])[]> = {
  L: [
    [7, 1, 19, 0, 0],
    [10, 1, 34, 0, 0],
    [15, 1, 55, 0, 0],
    [20, 1, 80, 0, 0],
    [26, 1, 108, 0, 0],
    [18, 2, 68, 0, 0],
    [20, 2, 78, 0, 0],
    [24, 2, 97, 0, 0],
    [30, 2, 116, 0, 0],
    [18, 2, 68, 2, 69],
  ],
  M: [
    [10, 1, 16, 0, 0],
    [16, 1, 28, 0, 0],
    [26, 1, 44, 0, 0],
    [18, 2, 32, 0, 0],
    [24, 2, 43, 0, 0],
    [16, 4, 27, 0, 0],
    [18, 4, 31, 0, 0],
    [22, 2, 38, 2, 39],
    [22, 3, 36, 2, 37],
    [26, 4, 43, 1, 44],
  ],
};

/** Alignment pattern centres per version (ISO 18004 Annex E). */
const ALIGNMENT: readonly (readonly number[])[] = [
  [],
  [6, 18],
  [6, 22],
  [6, 26],
  [6, 30],
  [6, 34],
  [6, 22, 38],
  [6, 24, 42],
  [6, 26, 46],
  [6, 28, 50],
];

/** Format information error-correction level bits (ISO 18004 Table 12). */
const LEVEL_BITS: Record<QrErrorCorrection, number> = { L: 0b01, M: 0b00 };

const MODE_BYTE = 0b0100;

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D).
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let value = 1;
  for (let index = 0; index < 255; index++) {
    EXP[index] = value;
    LOG[value] = index;
    value <<= 1;
    if (value & 0x100) value ^= 0x11d;
  }
  for (let index = 255; index < 512; index++) EXP[index] = EXP[index - 255]!;
}

function gfMultiply(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!;
}

/** Reed–Solomon error-correction codewords of `data` (generator ∏ (x − α^i), i < degree). */
export function reedSolomon(data: Uint8Array, degree: number): Uint8Array {
  let generator = [1];
  for (let index = 0; index < degree; index++) {
    const next = new Array<number>(generator.length + 1).fill(0);
    for (let term = 0; term < generator.length; term++) {
      next[term] = next[term]! ^ generator[term]!;
      next[term + 1] = next[term + 1]! ^ gfMultiply(generator[term]!, EXP[index]!);
    }
    generator = next;
  }
  const remainder = new Uint8Array(degree);
  for (const byte of data) {
    const factor = byte ^ remainder[0]!;
    remainder.copyWithin(0, 1);
    remainder[degree - 1] = 0;
    for (let term = 0; term < degree; term++)
      remainder[term] = remainder[term]! ^ gfMultiply(generator[term + 1]!, factor);
  }
  return remainder;
}

function dataCapacity(version: number, level: QrErrorCorrection): number {
  const [, blocks1, data1, blocks2, data2] = BLOCKS[level][version - 1]!;
  return blocks1 * data1 + blocks2 * data2;
}

/** The data and error-correction codewords, interleaved (ISO 18004 §7.6). */
function codewords(bytes: Uint8Array, version: number, level: QrErrorCorrection): number[] {
  const capacity = dataCapacity(version, level);
  const bits: number[] = [];
  const push = (value: number, length: number) => {
    for (let bit = length - 1; bit >= 0; bit--) bits.push((value >>> bit) & 1);
  };
  push(MODE_BYTE, 4);
  push(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) push(byte, 8);
  push(0, Math.min(4, capacity * 8 - bits.length)); // terminator
  while (bits.length % 8 !== 0) bits.push(0);
  const data: number[] = [];
  for (let index = 0; index < bits.length; index += 8) {
    let byte = 0;
    for (let bit = 0; bit < 8; bit++) byte = (byte << 1) | bits[index + bit]!;
    data.push(byte);
  }
  for (let pad = 0; data.length < capacity; pad++) data.push(pad % 2 === 0 ? 0xec : 0x11);

  const [ecLength, blocks1, data1, blocks2, data2] = BLOCKS[level][version - 1]!;
  const dataBlocks: Uint8Array[] = [];
  let offset = 0;
  for (let block = 0; block < blocks1 + blocks2; block++) {
    const length = block < blocks1 ? data1 : data2;
    dataBlocks.push(Uint8Array.from(data.slice(offset, offset + length)));
    offset += length;
  }
  const ecBlocks = dataBlocks.map((block) => reedSolomon(block, ecLength));
  const result: number[] = [];
  for (let index = 0; index < Math.max(data1, data2); index++)
    for (const block of dataBlocks) if (index < block.length) result.push(block[index]!);
  for (let index = 0; index < ecLength; index++) for (const block of ecBlocks) result.push(block[index]!);
  return result;
}

function maskBit(mask: number, row: number, column: number): boolean {
  switch (mask) {
    case 0:
      return (row + column) % 2 === 0;
    case 1:
      return row % 2 === 0;
    case 2:
      return column % 3 === 0;
    case 3:
      return (row + column) % 3 === 0;
    case 4:
      return (Math.floor(row / 2) + Math.floor(column / 3)) % 2 === 0;
    case 5:
      return ((row * column) % 2) + ((row * column) % 3) === 0;
    case 6:
      return (((row * column) % 2) + ((row * column) % 3)) % 2 === 0;
    default:
      return (((row * column) % 3) + ((row + column) % 2)) % 2 === 0;
  }
}

class Matrix {
  readonly modules: boolean[][];
  readonly reserved: boolean[][];
  constructor(readonly size: number) {
    this.modules = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
    this.reserved = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  }
  set(row: number, column: number, dark: boolean): void {
    this.modules[row]![column] = dark;
    this.reserved[row]![column] = true;
  }
}

function drawFunctionPatterns(matrix: Matrix, version: number): void {
  const { size } = matrix;
  for (const [top, left] of [
    [0, 0],
    [0, size - 7],
    [size - 7, 0],
  ] as const) {
    // Finder pattern with its light separator.
    for (let dy = -1; dy <= 7; dy++) {
      for (let dx = -1; dx <= 7; dx++) {
        const row = top + dy;
        const column = left + dx;
        if (row < 0 || row >= size || column < 0 || column >= size) continue;
        const ring = Math.max(Math.abs(dy - 3), Math.abs(dx - 3));
        matrix.set(row, column, ring !== 2 && ring !== 4);
      }
    }
  }
  for (let index = 8; index < size - 8; index++) {
    matrix.set(6, index, index % 2 === 0);
    matrix.set(index, 6, index % 2 === 0);
  }
  const centres = ALIGNMENT[version - 1]!;
  const last = centres.length - 1;
  centres.forEach((row, i) => {
    centres.forEach((column, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return; // finders
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++)
          matrix.set(row + dy, column + dx, Math.max(Math.abs(dy), Math.abs(dx)) !== 1);
    });
  });
  // Reserve the format areas (filled per mask) and draw the dark module.
  drawFormat(matrix, 'M', 0);
  if (version >= 7) {
    let remainder = version;
    for (let index = 0; index < 12; index++) remainder = (remainder << 1) ^ ((remainder >>> 11) * 0x1f25);
    const bits = (version << 12) | remainder;
    for (let index = 0; index < 18; index++) {
      const dark = ((bits >>> index) & 1) === 1;
      const a = size - 11 + (index % 3);
      const b = Math.floor(index / 3);
      matrix.set(b, a, dark);
      matrix.set(a, b, dark);
    }
  }
}

/** The 15 format bits (BCH(15,5), generator 0x537, XOR mask 0x5412), both copies. */
function drawFormat(matrix: Matrix, level: QrErrorCorrection, mask: number): void {
  const { size } = matrix;
  const data = (LEVEL_BITS[level] << 3) | mask;
  let remainder = data;
  for (let index = 0; index < 10; index++) remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
  const bits = ((data << 10) | remainder) ^ 0x5412;
  const bit = (index: number) => ((bits >>> index) & 1) === 1;
  for (let index = 0; index <= 5; index++) matrix.set(index, 8, bit(index));
  matrix.set(7, 8, bit(6));
  matrix.set(8, 8, bit(7));
  matrix.set(8, 7, bit(8));
  for (let index = 9; index < 15; index++) matrix.set(8, 14 - index, bit(index));
  for (let index = 0; index < 8; index++) matrix.set(8, size - 1 - index, bit(index));
  for (let index = 8; index < 15; index++) matrix.set(size - 15 + index, 8, bit(index));
  matrix.set(size - 8, 8, true);
}

/** Places the codeword bits in the two-column zigzag from the bottom right (ISO 18004 §7.7.3). */
function placeCodewords(matrix: Matrix, data: readonly number[]): void {
  const { size } = matrix;
  let bitIndex = 0;
  const total = data.length * 8;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let step = 0; step < size; step++) {
      const upward = ((right + 1) & 2) === 0;
      const row = upward ? size - 1 - step : step;
      for (let offset = 0; offset < 2; offset++) {
        const column = right - offset;
        if (matrix.reserved[row]![column]) continue;
        if (bitIndex < total) {
          matrix.modules[row]![column] = ((data[bitIndex >>> 3]! >>> (7 - (bitIndex & 7))) & 1) === 1;
          bitIndex++;
        }
      }
    }
  }
}

function applyMask(matrix: Matrix, mask: number): void {
  for (let row = 0; row < matrix.size; row++)
    for (let column = 0; column < matrix.size; column++)
      if (!matrix.reserved[row]![column] && maskBit(mask, row, column))
        matrix.modules[row]![column] = !matrix.modules[row]![column];
}

/** Penalty score of ISO 18004 §7.8.3 (N1 runs, N2 blocks, N3 finder-like, N4 balance). */
export function penalty(modules: readonly (readonly boolean[])[]): number {
  const size = modules.length;
  const at = (row: number, column: number) => (modules[row]![column] ? 1 : 0);
  let points = 0;
  for (let line = 0; line < size; line++) {
    for (const horizontal of [true, false]) {
      let run = 0;
      let last = -1;
      let pattern = 0;
      for (let index = 0; index < size; index++) {
        const value = horizontal ? at(line, index) : at(index, line);
        if (value === last) run++;
        else {
          if (run >= 5) points += 3 + (run - 5);
          last = value;
          run = 1;
        }
        pattern = ((pattern << 1) & 0x7ff) | value;
        if (index >= 10 && (pattern === 0x5d0 || pattern === 0x05d)) points += 40;
      }
      if (run >= 5) points += 3 + (run - 5);
    }
  }
  let dark = 0;
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      dark += at(row, column);
      if (row < size - 1 && column < size - 1) {
        const block = at(row, column) + at(row, column + 1) + at(row + 1, column) + at(row + 1, column + 1);
        if (block === 0 || block === 4) points += 3;
      }
    }
  }
  points += Math.abs(Math.ceil((dark * 100) / (size * size) / 5) - 10) * 10;
  return points;
}

/** Encodes `text` (as UTF-8) in byte mode in the smallest version 1–10 that holds it. */
export function encodeQr(
  text: string,
  options: { errorCorrection?: QrErrorCorrection; mask?: number } = {},
): QrCode {
  const level = options.errorCorrection ?? 'M';
  if (level !== 'L' && level !== 'M')
    throw new QrError('QR_INVALID_OPTION', 'Error correction must be L or M.');
  if (
    options.mask !== undefined &&
    !(Number.isInteger(options.mask) && options.mask >= 0 && options.mask <= 7)
  )
    throw new QrError('QR_INVALID_OPTION', 'The mask must be 0–7.');
  const bytes = new TextEncoder().encode(text);
  let version = 1;
  // mode (4 bits) + count (8 bits below version 10, 16 from it) + the bytes
  while (
    version <= QR_MAX_VERSION &&
    4 + (version < 10 ? 8 : 16) + bytes.length * 8 > dataCapacity(version, level) * 8
  )
    version++;
  if (version > QR_MAX_VERSION)
    throw new QrError(
      'QR_TOO_LONG',
      `The text is ${bytes.length} bytes; a version ${QR_MAX_VERSION} QR code at level ${level} holds ${dataCapacity(QR_MAX_VERSION, level) - 3}.`,
    );
  const data = codewords(bytes, version, level);
  const size = 17 + 4 * version;
  const template = new Matrix(size);
  drawFunctionPatterns(template, version);
  placeCodewords(template, data);

  const build = (mask: number) => {
    const matrix = new Matrix(size);
    for (let row = 0; row < size; row++) {
      matrix.modules[row] = [...template.modules[row]!];
      matrix.reserved[row] = template.reserved[row]!;
    }
    drawFormat(matrix, level, mask);
    applyMask(matrix, mask);
    return matrix;
  };
  let best: { mask: number; matrix: Matrix; score: number } | undefined;
  for (const mask of options.mask !== undefined ? [options.mask] : [0, 1, 2, 3, 4, 5, 6, 7]) {
    const matrix = build(mask);
    const score = penalty(matrix.modules);
    if (best === undefined || score < best.score) best = { mask, matrix, score };
  }
  return { version, size, mask: best!.mask, errorCorrection: level, modules: best!.matrix.modules };
}

/** The dark modules as one SVG path (`M x y h1 v1 h-1 z` per module), offset by a `quiet` zone. */
export function qrPath(code: QrCode, quiet = 4): string {
  const parts: string[] = [];
  code.modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x + quiet} ${y + quiet}h1v1h-1z`);
    });
  });
  return parts.join('');
}

export function isQrError(error: unknown, code?: QrError['code']): error is QrError {
  return error instanceof QrError && (code === undefined || error.code === code);
}
