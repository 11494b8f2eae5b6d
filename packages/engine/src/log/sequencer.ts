/**
 * The log sequencer (docs/transparency-log.md, "Entries and checkpoints"): group commit for the transparency
 * log. Appends that arrive while a batch is being committed wait and go together into the next one — one
 * transaction, one multi-row insert and one signed checkpoint per batch — so throughput grows with load while
 * a lone request waits for nobody. Each item's own rows (the certificate, chat messages) are written by its
 * `write` callback in the same transaction, so a certificate never refers to a missing log entry.
 *
 * If a batch fails, its items are retried one by one so one bad item cannot fail its neighbours.
 */
import type { Database, Queryable } from '../db/database.js';
import type { LogAppendResult, LogEntryInput, TransparencyLog } from './transparency-log.js';

export interface LogWrite extends LogEntryInput {
  /** Writes the rows that refer to the entry, inside the batch's transaction. */
  write?: (tx: Queryable, result: LogAppendResult) => Promise<void>;
}

interface Pending {
  item: LogWrite;
  resolve: (result: LogAppendResult) => void;
  reject: (error: unknown) => void;
}

export interface SequencerStats {
  batches: number;
  entries: number;
  largestBatch: number;
}

export class LogSequencer {
  private readonly queue: Pending[] = [];
  private running = false;
  private readonly maxBatch: number;
  readonly stats: SequencerStats = { batches: 0, entries: 0, largestBatch: 0 };

  constructor(
    private readonly db: Database,
    private readonly log: TransparencyLog,
    options: { maxBatch?: number } = {},
  ) {
    this.maxBatch = options.maxBatch ?? 512;
  }

  /** Resolves once the entry and its rows are committed, with its proof against the batch checkpoint. */
  append(item: LogWrite): Promise<LogAppendResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        // One macrotask of grace: callers resolved by the previous batch get to queue their next
        // append, so a steady load forms full batches instead of alternating 1 and n−1.
        await new Promise((resolve) => setImmediate(resolve));
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.commit(batch.map((pending) => pending.item));
          for (const [index, pending] of batch.entries()) pending.resolve(results[index]!);
        } catch (error) {
          if (batch.length === 1) {
            batch[0]!.reject(error);
            continue;
          }
          for (const pending of batch) {
            try {
              pending.resolve((await this.commit([pending.item]))[0]!);
            } catch (single) {
              pending.reject(single);
            }
          }
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async commit(items: readonly LogWrite[]): Promise<LogAppendResult[]> {
    const batch = await this.db.transaction(async (tx) => {
      const appended = await this.log.appendBatch(tx, items);
      for (const [index, item] of items.entries()) await item.write?.(tx, appended.results[index]!);
      return appended;
    });
    batch.applyToCache();
    this.stats.batches++;
    this.stats.entries += items.length;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, items.length);
    return batch.results;
  }
}
