/**
 * Retrieval and answer metrics (docs/evaluation.md). A ranking is the list of the relevant-item keys its
 * results match, best first (`null` for a result that matches none); relevance is binary.
 *
 * - Recall@k: 1 when at least one relevant item is among the top k (the specification's sense),
 *   averaged over the answerable questions.
 * - Full recall@k: the share of all relevant items (pooled over questions) found in the top k.
 * - Precision@5: the share of the top 5 results that are relevant.
 * - MRR: the mean of 1 / rank of the first relevant result (0 when none in the list).
 * - nDCG@10: gain 1 for the first result of each relevant item (a second chunk of the same Pasal gains
 *   nothing), discounted by log2(rank + 1), divided by the ideal DCG of min(|relevant|, 10) items.
 */
import { amountsMatch, parseAmounts } from '@saksi/proof';

export type Ranking = readonly (string | null)[];

export const RECALL_CUTOFFS = [1, 3, 5, 10] as const;

export function hitAt(ranking: Ranking, k: number): number {
  return ranking.slice(0, k).some((key) => key !== null) ? 1 : 0;
}

/** Distinct relevant items found in the top k. */
export function foundAt(ranking: Ranking, k: number): number {
  return new Set(ranking.slice(0, k).filter((key): key is string => key !== null)).size;
}

export function precisionAt(ranking: Ranking, k: number): number {
  return ranking.slice(0, k).filter((key) => key !== null).length / k;
}

export function reciprocalRank(ranking: Ranking): number {
  const index = ranking.findIndex((key) => key !== null);
  return index < 0 ? 0 : 1 / (index + 1);
}

export function ndcgAt(ranking: Ranking, relevantCount: number, k: number): number {
  if (relevantCount <= 0) return 0;
  const seen = new Set<string>();
  let dcg = 0;
  for (const [index, key] of ranking.slice(0, k).entries()) {
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    dcg += 1 / Math.log2(index + 2);
  }
  let ideal = 0;
  for (let index = 0; index < Math.min(relevantCount, k); index++) ideal += 1 / Math.log2(index + 2);
  return dcg / ideal;
}

export interface RetrievalMetrics {
  questions: number;
  'recall@1': number;
  'recall@3': number;
  'recall@5': number;
  'recall@10': number;
  'full_recall@5': number;
  'full_recall@10': number;
  'precision@5': number;
  mrr: number;
  'ndcg@10': number;
}

export interface RankedQuestion {
  ranking: Ranking;
  relevantCount: number;
}

const round = (value: number) => Math.round(value * 1e4) / 1e4;

/** Means over questions with at least one relevant item (the others have nothing to find). */
export function retrievalMetrics(questions: readonly RankedQuestion[]): RetrievalMetrics {
  const scored = questions.filter((question) => question.relevantCount > 0);
  const n = scored.length;
  const mean = (f: (question: RankedQuestion) => number) =>
    n === 0 ? 0 : round(scored.reduce((sum, question) => sum + f(question), 0) / n);
  const relevantTotal = scored.reduce((sum, question) => sum + question.relevantCount, 0);
  const pooled = (k: number) =>
    relevantTotal === 0
      ? 0
      : round(scored.reduce((sum, question) => sum + foundAt(question.ranking, k), 0) / relevantTotal);
  return {
    questions: n,
    'recall@1': mean((q) => hitAt(q.ranking, 1)),
    'recall@3': mean((q) => hitAt(q.ranking, 3)),
    'recall@5': mean((q) => hitAt(q.ranking, 5)),
    'recall@10': mean((q) => hitAt(q.ranking, 10)),
    'full_recall@5': pooled(5),
    'full_recall@10': pooled(10),
    'precision@5': mean((q) => precisionAt(q.ranking, 5)),
    mrr: mean((q) => reciprocalRank(q.ranking)),
    'ndcg@10': mean((q) => ndcgAt(q.ranking, q.relevantCount, 10)),
  };
}

/**
 * Number formats normalized for `must_mention` substring matching: `Rp` and spaces after it dropped, Indonesian thousands dots removed, the
 * decimal comma made a point, and zero decimals (`,00`) dropped — so `Rp12.000.000,00`, `Rp 12.000.000`
 * and `12000000` all read `12000000`; letters lower-cased, whitespace collapsed.
 */
export function normalizeForMatch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\brp\.?\s*/g, '')
    .replace(/\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?/g, (figure) => {
      const [whole, decimals] = figure.replace(/\./g, '').split(',');
      const fraction = (decimals ?? '').replace(/0+$/, '');
      return fraction ? `${whole}.${fraction}` : (whole ?? '');
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Whether `answer` mentions `phrase`: a phrase that is only figures (`Rp222.506.897.630.000,00`,
 * `20,59%`) matches when each of its amounts equals an amount of the answer under the proof core's
 * `amountsMatch` (so `Rp222,5 triliun` matches the exact figure within rounding); any other phrase
 * matches as a substring after {@link normalizeForMatch}.
 */
export function mentions(answer: string, phrase: string): boolean {
  const needle = normalizeForMatch(phrase);
  if (needle.length === 0) return false;
  if (normalizeForMatch(answer).includes(needle)) return true;
  const amounts = parseAmounts(phrase);
  let rest = phrase;
  for (const amount of amounts) rest = rest.replace(amount.raw, ' ');
  if (amounts.length === 0 || /\p{L}/u.test(rest.replace(/\b(?:rp|idr|usd|persen|percent)\b/gi, ' ')))
    return false;
  const found = parseAmounts(answer);
  return amounts.every((amount) => found.some((other) => amountsMatch(amount, other)));
}

/** The language an answer is normalized in: English strips articles, Indonesian normalizes figures. */
export type AnswerLanguage = 'id' | 'en';

/** ASCII punctuation, as Python's `string.punctuation` that the SQuAD evaluation script strips. */
const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/**
 * An answer normalized for exact match, token F1 and ROUGE-L. English follows the SQuAD 2.0
 * evaluation script (Rajpurkar et al. 2018): lower-case, ASCII punctuation removed, the articles
 * "a", "an", "the" removed, whitespace collapsed. Indonesian first normalizes figures as the
 * `must_mention` matcher does ({@link normalizeForMatch}: `Rp12.000.000,00` → `12000000`,
 * `49,07` → `49.07`), then removes punctuation and symbols except a decimal point between digits.
 */
export function normalizeAnswer(text: string, language: AnswerLanguage): string {
  if (language === 'en')
    return text
      .toLowerCase()
      .replace(ASCII_PUNCTUATION, '')
      .replace(/\b(?:a|an|the)\b/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  return normalizeForMatch(text)
    .replace(/(?<!\d)\.|\.(?!\d)|[^\p{L}\p{N}\s.]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const tokensOf = (text: string, language: AnswerLanguage) =>
  normalizeAnswer(text, language).split(' ').filter(Boolean);

/** Harmonic mean of precision and recall (0 when both are 0). */
const fMeasure = (precision: number, recall: number) =>
  precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);

/** 1 when the normalized prediction equals the normalized gold answer, else 0. */
export function exactMatch(prediction: string, gold: string, language: AnswerLanguage): number {
  return normalizeAnswer(prediction, language) === normalizeAnswer(gold, language) ? 1 : 0;
}

/**
 * Token F1 as in the SQuAD evaluation script: the overlap of the two bags of normalized tokens;
 * when either side has no tokens, 1 if both are empty, else 0.
 */
export function tokenF1(prediction: string, gold: string, language: AnswerLanguage): number {
  const predicted = tokensOf(prediction, language);
  const expected = tokensOf(gold, language);
  if (predicted.length === 0 || expected.length === 0) return predicted.length === expected.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const token of expected) counts.set(token, (counts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      same++;
      counts.set(token, left - 1);
    }
  }
  return fMeasure(same / predicted.length, same / expected.length);
}

/** Length of the longest common subsequence of two token lists (two rows of the table). */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  let current = new Array<number>(b.length + 1).fill(0);
  for (const token of a) {
    for (let j = 1; j <= b.length; j++)
      current[j] =
        token === b[j - 1] ? (previous[j - 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, current[j - 1] ?? 0);
    [previous, current] = [current, previous];
  }
  return previous[b.length] ?? 0;
}

/**
 * ROUGE-L (Lin 2004): the F-measure (β = 1) of the longest common subsequence of normalized tokens,
 * precision over the prediction's tokens and recall over the gold answer's.
 */
export function rougeL(prediction: string, gold: string, language: AnswerLanguage): number {
  const predicted = tokensOf(prediction, language);
  const expected = tokensOf(gold, language);
  if (predicted.length === 0 || expected.length === 0) return predicted.length === expected.length ? 1 : 0;
  const common = lcsLength(predicted, expected);
  return fMeasure(common / predicted.length, common / expected.length);
}

export interface AnswerTextScores {
  exact_match: number;
  f1: number;
  rouge_l: number;
}

/**
 * EM, token F1 and ROUGE-L of `prediction` against the gold answers, each the maximum over the gold
 * answers (the SQuAD convention); `null` when there is no gold answer.
 */
export function answerTextScores(
  prediction: string,
  golds: readonly string[],
  language: AnswerLanguage,
): AnswerTextScores | null {
  if (golds.length === 0) return null;
  const best = (score: (gold: string) => number) => Math.max(...golds.map(score));
  return {
    exact_match: best((gold) => exactMatch(prediction, gold, language)),
    f1: Math.round(best((gold) => tokenF1(prediction, gold, language)) * 1e4) / 1e4,
    rouge_l: Math.round(best((gold) => rougeL(prediction, gold, language)) * 1e4) / 1e4,
  };
}

/**
 * Which way a gated figure is better: `higher` (Recall@5, the `must_mention` hit rate, citation
 * precision…) or `lower` (false assurance).
 */
export type MetricDirection = 'higher' | 'lower';

/** A gate failure: a figure that moved more than the tolerance the wrong way from its baseline. */
export interface GateFailure {
  set: string;
  baseline: number;
  current: number;
  /** Which way the figure is better; a `lower` figure fails by rising. */
  direction: MetricDirection;
}

/**
 * The gated figures that moved more than `tolerance` the wrong way from the baseline: a
 * higher-is-better figure more than `tolerance` below it, a lower-is-better figure
 * (`directionOf(key) === 'lower'`) more than `tolerance` above it. Every key of the baseline is checked
 * and one missing from the run fails; a figure of the run that the baseline lacks is not checked.
 */
export function gateFailures(
  baseline: Readonly<Record<string, number>>,
  current: Readonly<Record<string, number>>,
  tolerance = 0.02,
  directionOf: (key: string) => MetricDirection = () => 'higher',
): GateFailure[] {
  const failures: GateFailure[] = [];
  for (const [set, expected] of Object.entries(baseline)) {
    const value = current[set];
    const direction = directionOf(set);
    // A small epsilon so 0.02 exactly (in floating point) does not fail.
    const worse =
      value === undefined ||
      (direction === 'higher' ? value < expected - tolerance - 1e-9 : value > expected + tolerance + 1e-9);
    if (worse) failures.push({ set, baseline: expected, current: value ?? Number.NaN, direction });
  }
  return failures;
}
