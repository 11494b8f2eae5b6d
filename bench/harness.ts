/**
 * A tiny timing harness: warm up, then time batches of calls with `process.hrtime.bigint()` until
 * a time budget or a sample cap is reached, and report the median time per call.
 *
 * Each sample is one batch of `batch` calls; `batch` is calibrated during warm-up so a sample lasts
 * about `sampleTargetNs`, which keeps the timer's own cost (~100 ns) negligible for fast cases.
 */

export interface BenchOptions {
  /** Warm-up time before measuring (ns). */
  warmupNs?: bigint;
  /** Measuring time budget (ns). */
  budgetNs?: bigint;
  /** Target length of one sample (ns). */
  sampleTargetNs?: bigint;
  /** Minimum samples, even past the budget (a slow case still gets a median). */
  minSamples?: number;
  /** Maximum samples. */
  maxSamples?: number;
}

export interface BenchResult {
  name: string;
  /** Median time of one call (ns). */
  medianNs: number;
  /** Fastest and slowest sample, per call (ns). */
  minNs: number;
  maxNs: number;
  /** 1e9 / medianNs. */
  opsPerSecond: number;
  samples: number;
  /** Calls per sample. */
  batch: number;
  /** Total measured calls. */
  calls: number;
}

const defaults: Required<BenchOptions> = {
  warmupNs: 300_000_000n,
  budgetNs: 2_000_000_000n,
  sampleTargetNs: 2_000_000n,
  minSamples: 15,
  maxSamples: 2_000,
};

/** Runs `fn` once, awaiting it only when it returns a promise (sync cases pay no microtask). */
async function once(fn: () => unknown): Promise<void> {
  const result = fn();
  if (result instanceof Promise) await result;
}

async function timeBatch(fn: () => unknown, batch: number): Promise<bigint> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < batch; i++) await once(fn);
  return process.hrtime.bigint() - start;
}

function median(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Measures `fn`; see the module comment for the method. */
export async function bench(
  name: string,
  fn: () => unknown,
  options: BenchOptions = {},
): Promise<BenchResult> {
  const settings = { ...defaults, ...options };

  // Warm-up (lets the JIT settle) and calibration of the batch size.
  let batch = 1;
  const warmupStart = process.hrtime.bigint();
  while (process.hrtime.bigint() - warmupStart < settings.warmupNs) {
    const elapsed = await timeBatch(fn, batch);
    if (elapsed < settings.sampleTargetNs / 2n && batch < 1_000_000) batch *= 2;
  }

  const perCall: number[] = [];
  const measureStart = process.hrtime.bigint();
  while (
    perCall.length < settings.maxSamples &&
    (perCall.length < settings.minSamples || process.hrtime.bigint() - measureStart < settings.budgetNs)
  ) {
    perCall.push(Number(await timeBatch(fn, batch)) / batch);
  }
  perCall.sort((a, b) => a - b);
  const medianNs = median(perCall);
  return {
    name,
    medianNs,
    minNs: perCall[0]!,
    maxNs: perCall[perCall.length - 1]!,
    opsPerSecond: 1e9 / medianNs,
    samples: perCall.length,
    batch,
    calls: perCall.length * batch,
  };
}

/** Wall time of one call of `fn` (ms), for one-off setup steps. */
export async function timeOnce<T>(fn: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}
