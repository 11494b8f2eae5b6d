/**
 * Ingestion runs at a lower priority than the questions this process answers (docs/engine.md,
 * "Bounds on one document"): queries and answers mark themselves as foreground work while they run,
 * and ingestion's storing steps wait for them, up to a bound, before writing the next batch of
 * chunks, which then is small. The count is per process, as the CPU and (on PGlite) the database
 * connection they compete for are.
 */

let inFlight = 0;

/** Runs `work` as foreground work: storing steps started meanwhile give way to it. */
export async function asForeground<T>(work: () => Promise<T>): Promise<T> {
  inFlight++;
  try {
    return await work();
  } finally {
    inFlight--;
  }
}

/** Whether foreground work is running in this process. */
export function foregroundBusy(): boolean {
  return inFlight > 0;
}

/** How often a waiting storing step looks again. */
const POLL_MS = 2;

/**
 * Waits until no foreground work runs, or `mostMs` have passed (ingestion is slowed, never starved).
 * Returns whether it waited.
 */
export async function giveWayToForeground(mostMs: number): Promise<boolean> {
  if (inFlight === 0) return false;
  const until = performance.now() + mostMs;
  while (inFlight > 0 && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}
