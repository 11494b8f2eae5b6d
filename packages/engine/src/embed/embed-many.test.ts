import { describe, expect, it } from 'vitest';
import { embedMany } from './embed-many.js';
import { isEmbeddingError } from './errors.js';
import type { EmbeddingModel } from './model.js';

/** A model that records its batches and encodes each value's number as its vector. */
function recordingModel(maxEmbeddingsPerCall: number, mutate?: (vectors: number[][]) => number[][]) {
  const batches: string[][] = [];
  const model: EmbeddingModel = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'recording',
    dimensions: 2,
    maxEmbeddingsPerCall,
    async doEmbed({ values }) {
      batches.push(values);
      await new Promise((resolve) => setTimeout(resolve, (values.length * 7) % 5));
      const vectors = values.map((value) => [Number(value), -Number(value)]);
      return { embeddings: mutate === undefined ? vectors : mutate(vectors) };
    },
  };
  return { model, batches };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return isEmbeddingError(error) ? error.code : 'other';
  }
  return undefined;
}

describe('embedMany', () => {
  it('batches by the model maxEmbeddingsPerCall and preserves order', async () => {
    const values = Array.from({ length: 23 }, (_, i) => String(i));
    for (const size of [1, 5, 23, 100]) {
      const { model, batches } = recordingModel(size);
      const progress: number[] = [];
      const vectors = await embedMany(model, values, {
        onProgress: (done, total) => progress.push(done / total),
      });
      expect(vectors).toEqual(values.map((value) => [Number(value), -Number(value)]));
      expect(batches.every((batch) => batch.length <= size)).toBe(true);
      expect(batches).toHaveLength(Math.ceil(23 / size));
      expect(progress.at(-1)).toBe(1);
    }
  });

  it('makes no call for no values', async () => {
    const { model, batches } = recordingModel(4);
    expect(await embedMany(model, [])).toEqual([]);
    expect(batches).toHaveLength(0);
  });

  it('checks the count and length of returned vectors', async () => {
    const short = recordingModel(4, (vectors) => vectors.slice(1));
    expect(await codeOf(embedMany(short.model, ['1', '2']))).toBe('EMBEDDING_BAD_RESPONSE');
    const wide = recordingModel(4, (vectors) => vectors.map((vector) => [...vector, 0]));
    expect(await codeOf(embedMany(wide.model, ['1']))).toBe('EMBEDDING_DIMENSION_MISMATCH');
  });

  it('stops between batches when aborted and rejects an invalid batch size', async () => {
    const { model, batches } = recordingModel(2);
    const controller = new AbortController();
    const pending = embedMany(model, ['1', '2', '3', '4', '5'], {
      abortSignal: controller.signal,
      onProgress: () => controller.abort(new Error('stop')),
    });
    await expect(pending).rejects.toThrow('stop');
    expect(batches).toHaveLength(1);
    await expect(embedMany(recordingModel(0).model, ['1'])).rejects.toBeInstanceOf(RangeError);
  });
});
