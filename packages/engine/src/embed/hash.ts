/**
 * The offline default embedding model: deterministic feature hashing (docs/engine.md, "Retrieval").
 *
 * **This model is lexical, not semantic.** Two texts are close only when they share words, word
 * pairs or pieces of words; synonyms, paraphrases and translations that share no surface form are
 * not close ("SIM" and "Surat Izin Mengemudi" are unrelated to it). It exists so Saksi retrieves with
 * no AI service configured and no model download, and so the vector arm has something deterministic to
 * index; query rewriting and the lexical arm carry the rest. Configure an `openai-compatible` model for
 * semantic retrieval.
 *
 * Features, after normalization (lowercase, NFKD, combining marks removed, words are runs of Unicode
 * letters and digits):
 * - each word, weight {@link WORD_WEIGHT};
 * - each pair of adjacent words, weight {@link BIGRAM_WEIGHT};
 * - each character 3-, 4- and 5-gram of a word padded as `<word>` (so prefixes and suffixes are marked),
 *   weight {@link CHAR_NGRAM_WEIGHT}; they let affixed Indonesian forms meet (`pengemudi`, `mengemudikan`).
 *
 * Each feature is hashed with 32-bit FNV-1a (a different seed per feature family) followed by the
 * MurmurHash3 finalizer; the low 31 bits choose the dimension and the top bit the sign (the "hashing
 * trick" of Weinberger et al., 2009, signed to keep inner products unbiased). Each dimension is damped
 * with a signed square root (so repeated function words do not dominate), then the vector is
 * L2-normalized. A text without letters or digits
 * embeds as the zero vector (never NaN). The result depends only on the text and `dimensions`.
 */

import type { EmbeddingModel, EmbeddingModelCallOptions, EmbeddingModelResult } from './model.js';

export const HASH_PROVIDER = 'hash';
export const HASH_MODEL_ID = 'saksi-hash-v1';
export const DEFAULT_HASH_DIMENSIONS = 384;
export const HASH_MAX_EMBEDDINGS_PER_CALL = 2048;

/** Weight of a word feature. */
export const WORD_WEIGHT = 1;
/** Weight of a word-pair feature. */
export const BIGRAM_WEIGHT = 0.7;
/** Weight of a character n-gram feature. */
export const CHAR_NGRAM_WEIGHT = 0.3;

const MIN_NGRAM = 3;
const MAX_NGRAM = 5;
/** Words longer than this (code points) contribute their word feature only, not n-grams. */
const MAX_NGRAM_WORD_LENGTH = 64;

// FNV-1a 32-bit (draft-eastlake-fnv): offset basis 2166136261, prime 16777619. One seed per family.
const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SEED_WORD = fnvStep(FNV_OFFSET_BASIS, 0x57); // 'W'
const SEED_BIGRAM = fnvStep(FNV_OFFSET_BASIS, 0x42); // 'B'
const SEED_NGRAM = fnvStep(FNV_OFFSET_BASIS, 0x4e); // 'N'
const WORD_SEPARATOR = 0x20;
const PAD_START = 0x3c; // '<'
const PAD_END = 0x3e; // '>'

const COMBINING_MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

function fnvStep(hash: number, codeUnit: number): number {
  return Math.imul(hash ^ codeUnit, FNV_PRIME) >>> 0;
}

function fnvString(hash: number, text: string, from = 0, to = text.length): number {
  let state = hash;
  for (let i = from; i < to; i++) state = Math.imul(state ^ text.charCodeAt(i), FNV_PRIME);
  return state >>> 0;
}

/** MurmurHash3 `fmix32`: spreads FNV's weak low bits before the modulo. */
function finalize(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function add(vector: Float64Array, hash: number, weight: number): void {
  const mixed = finalize(hash);
  const index = (mixed & 0x7fffffff) % vector.length;
  vector[index] = vector[index]! + (mixed >>> 31 === 1 ? -weight : weight);
}

/** Lowercase, NFKD, without combining marks: `"Pengemudi Café"` → `"pengemudi cafe"`. */
export function normalizeForHashing(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(COMBINING_MARKS, '');
}

/** The words the hash model sees in `text` (see {@link normalizeForHashing}). */
export function hashingWords(text: string): string[] {
  return normalizeForHashing(text).match(WORD) ?? [];
}

/** Embeds one text (see the module comment). Pure and deterministic. */
export function hashEmbed(text: string, dimensions: number): number[] {
  const vector = new Float64Array(dimensions);
  const words = hashingWords(text);
  let previous: number | undefined;
  for (const word of words) {
    const wordHash = fnvString(SEED_WORD, word);
    add(vector, wordHash, WORD_WEIGHT);
    if (previous !== undefined)
      add(vector, fnvString(fnvStep(previous, WORD_SEPARATOR), word), BIGRAM_WEIGHT);
    previous = fnvString(SEED_BIGRAM, word);
    addCharNgrams(vector, word);
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    const value = vector[i]!;
    const damped = value < 0 ? -Math.sqrt(-value) : Math.sqrt(value);
    vector[i] = damped;
    norm += damped * damped;
  }
  const result = new Array<number>(dimensions);
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < dimensions; i++) result[i] = vector[i]! * scale;
  return result;
}

/** Adds the 3–5-grams of `<word>`, hashing straight from the code units (no substrings). */
function addCharNgrams(vector: Float64Array, word: string): void {
  const length = word.length + 2; // padded with '<' and '>'
  if (length < MIN_NGRAM || word.length > MAX_NGRAM_WORD_LENGTH) return;
  const codeUnitAt = (index: number): number =>
    index === 0 ? PAD_START : index === length - 1 ? PAD_END : word.charCodeAt(index - 1);
  for (let start = 0; start + MIN_NGRAM <= length; start++) {
    let hash = SEED_NGRAM;
    for (let n = 1; n <= MAX_NGRAM && start + n <= length; n++) {
      hash = fnvStep(hash, codeUnitAt(start + n - 1));
      if (n >= MIN_NGRAM) add(vector, fnvStep(hash, n), CHAR_NGRAM_WEIGHT);
    }
  }
}

/** Options of {@link createHashEmbeddingModel}. */
export interface HashEmbeddingModelOptions {
  /** Vector length; a positive integer. Default 384. */
  dimensions?: number;
}

/**
 * Creates the offline feature-hashing embedding model (provider `hash`, model `saksi-hash-v1`).
 *
 * **Lexical, not semantic**: it matches shared words and word pieces, not meaning (see the module
 * comment). Deterministic: the same text and dimensions always give the same vector, on any machine.
 *
 * @example
 * const model = createHashEmbeddingModel({ dimensions: 384 });
 * const { embeddings } = await model.doEmbed({ values: ['denda lampu merah'] });
 * @throws RangeError when `dimensions` is not a positive integer
 */
export function createHashEmbeddingModel(options: HashEmbeddingModelOptions = {}): EmbeddingModel {
  const dimensions = options.dimensions ?? DEFAULT_HASH_DIMENSIONS;
  if (!Number.isSafeInteger(dimensions) || dimensions < 1) {
    throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
  }
  return {
    specificationVersion: 'v1',
    provider: HASH_PROVIDER,
    modelId: HASH_MODEL_ID,
    dimensions,
    maxEmbeddingsPerCall: HASH_MAX_EMBEDDINGS_PER_CALL,
    async doEmbed({ values, abortSignal }: EmbeddingModelCallOptions): Promise<EmbeddingModelResult> {
      abortSignal?.throwIfAborted();
      return { embeddings: values.map((value) => hashEmbed(value, dimensions)) };
    },
  };
}
