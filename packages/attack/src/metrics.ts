/**
 * Metrics of the attack harness (docs/attacks.md) and their uncertainty: rates over outcomes grouped by
 * bundle, with percentile bootstrap confidence intervals that resample bundles (a cluster bootstrap:
 * the mutations of one bundle are not independent of each other), seeded so a report is reproducible.
 */

/** A seeded pseudo-random source (mulberry32): reproducible, not for keys. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  bytes(length: number): Uint8Array;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    bytes: (length) => Uint8Array.from({ length }, () => Math.floor(next() * 256)),
  };
}

/** Outcomes of one bundle (a cluster): how many of its trials succeeded. */
export interface Cluster {
  successes: number;
  trials: number;
}

export interface Estimate {
  /** successes / trials over all clusters; null when there are no trials. */
  rate: number | null;
  successes: number;
  trials: number;
  /** Number of clusters (bundles) the trials come from. */
  clusters: number;
  /** Percentile bootstrap interval; null when there are no trials. */
  low: number | null;
  high: number | null;
}

export interface BootstrapOptions {
  resamples?: number;
  seed?: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

export const BOOTSTRAP_RESAMPLES = 1000;

/**
 * The pooled rate of `clusters` with a percentile bootstrap interval: each resample draws as many
 * clusters as there are, with replacement, and takes the pooled rate of the draw.
 */
export function bootstrapRate(clusters: readonly Cluster[], options: BootstrapOptions = {}): Estimate {
  const used = clusters.filter((cluster) => cluster.trials > 0);
  const successes = used.reduce((sum, cluster) => sum + cluster.successes, 0);
  const trials = used.reduce((sum, cluster) => sum + cluster.trials, 0);
  if (trials === 0) return { rate: null, successes: 0, trials: 0, clusters: 0, low: null, high: null };
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const level = options.level ?? 0.95;
  const random = createRandom(options.seed ?? 1);
  const rates = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    let t = 0;
    for (let i = 0; i < used.length; i++) {
      const cluster = used[random.int(used.length)]!;
      s += cluster.successes;
      t += cluster.trials;
    }
    rates[r] = s / t;
  }
  rates.sort();
  const alpha = (1 - level) / 2;
  return {
    rate: successes / trials,
    successes,
    trials,
    clusters: used.length,
    low: quantile(rates, alpha),
    high: quantile(rates, 1 - alpha),
  };
}

/** The `q` quantile of sorted values (linear interpolation between closest ranks). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below]!;
  const high = sorted[above]!;
  return low + (high - low) * (position - below);
}

/** Groups boolean outcomes by cluster key, in first-seen order. */
export function clustersOf<T>(
  items: readonly T[],
  key: (item: T) => string,
  success: (item: T) => boolean,
): Cluster[] {
  const map = new Map<string, Cluster>();
  for (const item of items) {
    const id = key(item);
    let cluster = map.get(id);
    if (!cluster) {
      cluster = { successes: 0, trials: 0 };
      map.set(id, cluster);
    }
    cluster.trials++;
    if (success(item)) cluster.successes++;
  }
  return [...map.values()];
}

/**
 * Utility-under-attack clusters: each item contributes a fraction in [0, 1] (its `value`) — the
 * pooled "rate" is then the mean value, bootstrapped over clusters like any other rate.
 */
export function valueClusters<T>(
  items: readonly T[],
  key: (item: T) => string,
  value: (item: T) => number | null,
): Cluster[] {
  const map = new Map<string, Cluster>();
  for (const item of items) {
    const v = value(item);
    if (v === null) continue;
    const id = key(item);
    let cluster = map.get(id);
    if (!cluster) {
      cluster = { successes: 0, trials: 0 };
      map.set(id, cluster);
    }
    cluster.trials++;
    cluster.successes += v;
  }
  return [...map.values()];
}

/** "97.3% [95.1, 99.0]" (or "–" without trials). */
export function formatEstimate(estimate: Estimate): string {
  if (estimate.rate === null) return '–';
  const pct = (value: number | null) => (value === null ? '?' : (value * 100).toFixed(1));
  return `${pct(estimate.rate)}% [${pct(estimate.low)}, ${pct(estimate.high)}]`;
}
