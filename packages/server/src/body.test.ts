import { describe, expect, it } from 'vitest';
import { readBodyLimited } from './body.js';
import { ApiError } from './errors.js';

/** `total` bytes counting up (mod 251, so no two nearby pieces look alike), in pieces of `piece`. */
function pieces(total: number, piece: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let start = 0; start < total; start += piece) {
    const part = new Uint8Array(Math.min(piece, total - start));
    for (let index = 0; index < part.length; index++) part[index] = (start + index) % 251;
    out.push(part);
  }
  return out;
}

function request(parts: Uint8Array[], declared?: number): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  const headers = declared === undefined ? {} : { 'content-length': String(declared) };
  // `duplex` is required for a stream body, and missing from the DOM typings of RequestInit.
  const init = { method: 'POST', body, headers, duplex: 'half' } as RequestInit;
  return new Request('http://saksi.test/upload', init);
}

/** Whether `bytes` are exactly `parts` joined (toEqual compares 9 MB element by element, for minutes). */
const isJoined = (bytes: Uint8Array, parts: Uint8Array[]) => Buffer.from(bytes).equals(Buffer.concat(parts));

describe('readBodyLimited', () => {
  // 9 MB in 64 KiB pieces: more than two of the steps between turns of the event loop.
  const parts = pieces(9_000_000, 64 * 1024);

  it('gives the exact bytes with a declared length (copied into place) and without one (joined)', async () => {
    expect(isJoined(await readBodyLimited(request(parts, 9_000_000), 10_000_000), parts)).toBe(true);
    expect(isJoined(await readBodyLimited(request(parts), 10_000_000), parts)).toBe(true);
  });

  it('gives the exact bytes when the declared length is wrong either way', async () => {
    expect(isJoined(await readBodyLimited(request(parts, 8_000_000), 10_000_000), parts)).toBe(true);
    expect(isJoined(await readBodyLimited(request(parts, 9_500_000), 10_000_000), parts)).toBe(true);
  });

  it('refuses a body over the limit by its declared length or by counting, with the given code', async () => {
    for (const declared of [9_000_000, undefined]) {
      const error = await readBodyLimited(request(parts, declared), 5_000_000, 'FILE_TOO_LARGE').catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: 'FILE_TOO_LARGE', status: 413 });
    }
  });

  it('lets the event loop turn while it reads a large body', async () => {
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    try {
      await readBodyLimited(request(parts, 9_000_000), 10_000_000);
    } finally {
      clearInterval(ticker);
    }
    expect(turns).toBeGreaterThan(0);
  });
});
