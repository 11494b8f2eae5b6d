import { describe, expect, it } from 'vitest';
import { parseDeclaredLength, readLimited } from './read-limited.js';

class TooLarge extends Error {}

/** A stream of `chunks`, recording whether it was cancelled and how many chunks were pulled. */
function streamOf(chunks: Uint8Array[]): {
  stream: ReadableStream<Uint8Array>;
  state: { cancelled: boolean; pulled: number };
} {
  const state = { cancelled: false, pulled: 0 };
  let next = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulled++;
        const chunk = chunks[next++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

const bytesOf = (length: number, fill = 7): Uint8Array => new Uint8Array(length).fill(fill);

describe('readLimited', () => {
  it('reads a stream whole, in order', async () => {
    const { stream } = streamOf([Uint8Array.of(1, 2), Uint8Array.of(3), Uint8Array.of(4, 5, 6)]);
    const bytes = await readLimited(stream, 6, () => new TooLarge());
    expect([...bytes]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('reads a null stream as no bytes', async () => {
    expect((await readLimited(null, 10, () => new TooLarge())).byteLength).toBe(0);
    expect((await readLimited(undefined, 10, () => new TooLarge())).byteLength).toBe(0);
  });

  it('fails with the caller’s error and cancels the stream as soon as the limit would be passed', async () => {
    const { stream, state } = streamOf([bytesOf(4), bytesOf(4), bytesOf(4), bytesOf(4)]);
    await expect(readLimited(stream, 6, () => new TooLarge('big'))).rejects.toThrow(TooLarge);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBe(2);
  });

  it('accepts exactly maxBytes', async () => {
    const { stream } = streamOf([bytesOf(3), bytesOf(3)]);
    expect((await readLimited(stream, 6, () => new TooLarge())).byteLength).toBe(6);
  });

  it('refuses a declared length above the limit before reading', async () => {
    const { stream, state } = streamOf([bytesOf(1)]);
    await expect(readLimited(stream, 6, () => new TooLarge(), { declaredLength: ' 7 ' })).rejects.toThrow(
      TooLarge,
    );
    expect(state.pulled).toBe(0);
    expect(state.cancelled).toBe(true);
    await expect(readLimited(null, 6, () => new TooLarge(), { declaredLength: '7' })).rejects.toThrow(
      TooLarge,
    );
  });

  it('does not trust a declared length: a body longer or shorter than declared is read as it is', async () => {
    const longer = streamOf([bytesOf(3, 1), bytesOf(3, 2)]);
    expect([
      ...(await readLimited(longer.stream, 10, () => new TooLarge(), { declaredLength: '4' })),
    ]).toEqual([1, 1, 1, 2, 2, 2]);
    const shorter = streamOf([bytesOf(2, 1)]);
    expect([
      ...(await readLimited(shorter.stream, 10, () => new TooLarge(), { declaredLength: '5' })),
    ]).toEqual([1, 1]);
    const lying = streamOf([bytesOf(4), bytesOf(4)]);
    await expect(readLimited(lying.stream, 6, () => new TooLarge(), { declaredLength: '2' })).rejects.toThrow(
      TooLarge,
    );
  });

  it('passes errors of the stream through', async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new RangeError('connection reset'));
      },
    });
    await expect(readLimited(stream, 6, () => new TooLarge())).rejects.toThrow('connection reset');
  });

  it('joins a large body read in many steps', async () => {
    const chunk = bytesOf(1024 * 1024, 3);
    const { stream } = streamOf(Array.from({ length: 9 }, () => chunk));
    const bytes = await readLimited(stream, 9 * 1024 * 1024, () => new TooLarge());
    expect(bytes.byteLength).toBe(9 * 1024 * 1024);
    expect(bytes.every((value) => value === 3)).toBe(true);
  });
});

describe('parseDeclaredLength', () => {
  it('reads plain decimal lengths only', () => {
    expect(parseDeclaredLength('12')).toBe(12);
    expect(parseDeclaredLength(' 12 ')).toBe(12);
    expect(parseDeclaredLength(null)).toBeUndefined();
    expect(parseDeclaredLength('')).toBeUndefined();
    expect(parseDeclaredLength('1e9')).toBeUndefined();
    expect(parseDeclaredLength('-1')).toBeUndefined();
  });
});
