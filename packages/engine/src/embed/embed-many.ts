import { EmbeddingError } from './errors.js';
import type { EmbeddingModel } from './model.js';

/** Options of {@link embedMany}. */
export interface EmbedManyOptions {
  abortSignal?: AbortSignal;
  /** Called after each batch with the number of values embedded so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Embeds any number of values with `model`, in batches of `model.maxEmbeddingsPerCall` (read from the
 * model, never assumed), one batch at a time. Returns one vector per value, in the order of `values`.
 *
 * @example
 * const vectors = await embedMany(createHashEmbeddingModel(), chunks.map((chunk) => chunk.text));
 * @throws EmbeddingError from the model, or `EMBEDDING_BAD_RESPONSE` / `EMBEDDING_DIMENSION_MISMATCH`
 *   when a model returns the wrong number or length of vectors; the abort reason when aborted.
 */
export async function embedMany(
  model: EmbeddingModel,
  values: string[],
  options: EmbedManyOptions = {},
): Promise<number[][]> {
  const { abortSignal, onProgress } = options;
  const limit = model.maxEmbeddingsPerCall;
  if (!(limit >= 1)) {
    throw new RangeError(`${model.provider}/${model.modelId} has an invalid maxEmbeddingsPerCall: ${limit}`);
  }
  const batchSize = Number.isFinite(limit) ? Math.floor(limit) : Math.max(values.length, 1);
  const result: number[][] = [];
  for (let start = 0; start < values.length; start += batchSize) {
    abortSignal?.throwIfAborted();
    const batch = values.slice(start, start + batchSize);
    const { embeddings } = await model.doEmbed(
      abortSignal === undefined ? { values: batch } : { values: batch, abortSignal },
    );
    if (embeddings.length !== batch.length) {
      throw new EmbeddingError(
        'EMBEDDING_BAD_RESPONSE',
        `${model.provider}/${model.modelId} returned ${embeddings.length} vectors for ${batch.length} values.`,
      );
    }
    for (const embedding of embeddings) {
      if (embedding.length !== model.dimensions) {
        throw new EmbeddingError(
          'EMBEDDING_DIMENSION_MISMATCH',
          `${model.provider}/${model.modelId} returned a vector of length ${embedding.length}, ` +
            `expected ${model.dimensions}.`,
        );
      }
      result.push(embedding);
    }
    onProgress?.(result.length, values.length);
  }
  return result;
}
