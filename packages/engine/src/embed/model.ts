/**
 * The embedding-model seam (docs/architecture.md, "Packages and layers"), in the style of the Vercel AI SDK's
 * `EmbeddingModel`: a small versioned interface with one `do*` method. Concrete providers live beside it
 * (`hash.ts`, `openai-compatible.ts`); batching code ({@link embedMany}) reads
 * `maxEmbeddingsPerCall` instead of hard-coding a batch size.
 */

/** Options of one {@link EmbeddingModel.doEmbed} call. */
export interface EmbeddingModelCallOptions {
  /** Texts to embed; at most `maxEmbeddingsPerCall` of them. */
  values: string[];
  abortSignal?: AbortSignal;
}

/** Result of one {@link EmbeddingModel.doEmbed} call. */
export interface EmbeddingModelResult {
  /** One vector per value, in the order of `values`, each of length `dimensions`. */
  embeddings: number[][];
  /** Tokens the provider reports as used, when it reports them. */
  usage?: { tokens: number };
}

/** A text embedding model. Implementations fail with `EmbeddingError`. */
export interface EmbeddingModel {
  readonly specificationVersion: 'v1';
  /** Provider name, e.g. `hash` or `openai-compatible`. */
  readonly provider: string;
  /** Model id as the provider names it, e.g. `saksi-hash-v1` or `text-embedding-3-small`. */
  readonly modelId: string;
  /** Length of every vector this model returns (one dimension per collection). */
  readonly dimensions: number;
  /** Largest number of values one `doEmbed` call accepts. */
  readonly maxEmbeddingsPerCall: number;
  doEmbed(options: EmbeddingModelCallOptions): Promise<EmbeddingModelResult>;
}
