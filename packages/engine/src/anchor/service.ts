/**
 * Anchoring rounds (docs/anchoring.md, "Rounds"). A round takes the document roots waiting to be anchored (up
 * to the batch size) plus the latest log root, builds an RFC 6962 tree over them, and writes its root
 * on chain with one `anchorRoot` transaction, whatever the number of documents.
 *
 * Crash safety: the round and its members are committed (BUILT) before anything is sent; the signed
 * transaction and its hash are committed (SENT) before it is broadcast; only then do we wait for the
 * receipt (CONFIRMED). `reconcile()` runs on every start and before every round: a SENT round whose
 * transaction was mined is confirmed, a pending one is awaited, a lost one is rebroadcast from the
 * stored bytes (same hash), and a root already on chain is confirmed from its RootAnchored event —
 * so a root is never sent in a second transaction.
 */
import { type Anchor, fromHex, hashLeaf, toHex } from '@saksi/proof';
import type { Hex } from 'viem';
import type { Database, Queryable } from '../db/database.js';
import { newId } from '../ids.js';
import { buildDocumentTree } from '../ingest/document-tree.js';
import { AnchorError, type AnchorProvider, type AnchorReceipt } from './provider.js';

/** Advisory lock key of round building (one builder across processes sharing a database). */
const ANCHOR_LOCK = 5_414_570;

export interface AnchorServiceOptions {
  batchSize: number;
  intervalMs: number;
  logIntervalMs: number;
  confirmTimeoutMs: number;
  onEvent?: (event: AnchorEvent) => void;
}

export type AnchorEvent =
  | { type: 'round-built'; round_id: string; documents: number; batch_root: string }
  | { type: 'round-sent'; round_id: string; tx_hash: string }
  | {
      type: 'round-confirmed';
      round_id: string;
      tx_hash: string;
      block_number: number;
      /** Documents this confirmation marked ANCHORED. */
      documents: number;
      /** The log size whose root the round anchors; null when it anchors no log root. */
      log_size: number | null;
    }
  | { type: 'error'; round_id?: string; code: string; message: string };

export interface RoundRow {
  id: string;
  status: 'BUILT' | 'SENT' | 'CONFIRMED';
  provider: string;
  chain_id: number;
  contract: string;
  batch_root: string;
  size: number;
  log_size: number | null;
  log_root: string | null;
  tx_hash: string | null;
  raw_tx: string | null;
  nonce: number | null;
  block_number: number | null;
  block_timestamp: number | null;
  gas_used: number | null;
  attempts: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  confirmed_at: string | null;
}

/** Round columns with bigint columns cast, so `pg` and PGlite both return numbers. */
export const ROUND_COLUMNS = `id, status, provider, chain_id, contract, batch_root, size, log_size, log_root, tx_hash,
  raw_tx, nonce, block_number::float8 AS block_number, block_timestamp::float8 AS block_timestamp,
  gas_used::float8 AS gas_used, attempts, last_error, created_at, sent_at, confirmed_at`;

export class AnchorService {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private failures = 0;
  private stopped = false;

  constructor(
    readonly db: Database,
    readonly provider: AnchorProvider,
    private readonly options: AnchorServiceOptions,
  ) {}

  /**
   * Runs rounds in the background: the first at once (it reconciles what an earlier run left open),
   * then every interval, backing off exponentially (up to a minute) while rounds fail.
   */
  start(): void {
    if (this.timer || this.ticking) return;
    this.stopped = false;
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private ticking = false;

  private async tick(): Promise<void> {
    if (this.stopped) return;
    this.timer = null;
    this.ticking = true;
    try {
      await this.runOnce();
      this.failures = 0;
    } catch (error) {
      this.failures++;
      const code = error instanceof AnchorError ? error.code : 'ANCHOR_ERROR';
      this.emit({ type: 'error', code, message: error instanceof Error ? error.message : String(error) });
    }
    this.ticking = false;
    if (this.stopped) return;
    const backoff = this.failures === 0 ? 0 : Math.min(60_000, 1_000 * 2 ** (this.failures - 1));
    this.timer = setTimeout(() => void this.tick(), Math.max(this.options.intervalMs, backoff));
    this.timer.unref?.();
  }

  /** One pass: reconcile open rounds, then build and submit a new round if anything waits. Serialized. */
  async runOnce(): Promise<RoundRow | null> {
    const previous = this.running ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(async () => {
        await this.reconcile();
        const round = await this.buildRound();
        if (!round) return null;
        return this.submit(round);
      });
    this.running = run;
    return run;
  }

  /** Settles every BUILT or SENT round of this chain and contract (called on start and before each round). */
  async reconcile(): Promise<void> {
    const open = await this.db.query<RoundRow>(
      `SELECT ${ROUND_COLUMNS} FROM anchor_rounds WHERE status <> 'CONFIRMED' AND chain_id = $1 AND lower(contract) = lower($2) ORDER BY created_at`,
      [this.provider.chainId, this.provider.contract],
    );
    for (const round of open.rows) await this.submit(round);
  }

  /** Takes the waiting document roots (and the log root) into a new BUILT round; null when nothing waits. */
  async buildRound(): Promise<RoundRow | null> {
    const built = await this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ANCHOR_LOCK]);
      const documents = await tx.query<{ id: string; root: string }>(
        `SELECT id, root FROM documents WHERE status = 'READY' AND anchor_state = 'PENDING_ANCHOR' AND root IS NOT NULL ORDER BY created_at, id LIMIT $1`,
        [this.options.batchSize],
      );
      const log = await latestLogRoot(tx);
      const lastLog = await tx.query<{ log_size: number | null; created_at: string }>(
        `SELECT log_size, created_at FROM anchor_rounds WHERE log_size IS NOT NULL AND chain_id = $1 ORDER BY log_size DESC LIMIT 1`,
        [this.provider.chainId],
      );
      const lastLogSize = lastLog.rows[0]?.log_size ?? 0;
      const logGrew = log !== null && log.size > lastLogSize;
      const logDue =
        logGrew &&
        (lastLog.rows[0] === undefined ||
          Date.now() - Date.parse(lastLog.rows[0].created_at) >= this.options.logIntervalMs);
      if (documents.rows.length === 0 && !logDue) return null;
      const includeLog = logGrew && log !== null;
      const leaves = [
        ...documents.rows.map((row) => ({ kind: 'document' as const, document_id: row.id, root: row.root })),
        ...(includeLog ? [{ kind: 'log' as const, document_id: null, root: log.root_hash }] : []),
      ];
      const leafHashes = leaves.map((leaf) => hashLeaf(fromHex(leaf.root, 32)));
      const tree = buildDocumentTree(leafHashes);
      const batchRoot = toHex(tree.root);
      const roundId = newId('anc');
      await tx.query(
        `INSERT INTO anchor_rounds (id, status, provider, chain_id, contract, batch_root, size, log_size, log_root)
         VALUES ($1, 'BUILT', $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (chain_id, contract, batch_root) DO NOTHING`,
        [
          roundId,
          this.provider.kind,
          this.provider.chainId,
          this.provider.contract,
          batchRoot,
          leaves.length,
          includeLog ? log.size : null,
          includeLog ? log.root_hash : null,
        ],
      );
      // The same set of roots was anchored before (e.g. a document re-ingested elsewhere): reuse it.
      const round = await tx.query<RoundRow>(
        `SELECT ${ROUND_COLUMNS} FROM anchor_rounds WHERE chain_id = $1 AND contract = $2 AND batch_root = $3`,
        [this.provider.chainId, this.provider.contract, batchRoot],
      );
      const row = round.rows[0]!;
      if (row.id === roundId) {
        const values: unknown[] = [];
        leaves.forEach((leaf, index) => {
          const proof = tree.proof(index).map(toHex);
          values.push(roundId, index, leaf.kind, leaf.document_id, leaf.root, JSON.stringify(proof));
        });
        const tuples = leaves.map(
          (_, i) =>
            `($${i * 6 + 1}, $${i * 6 + 2}, $${i * 6 + 3}, $${i * 6 + 4}, $${i * 6 + 5}, $${i * 6 + 6})`,
        );
        for (let start = 0; start < tuples.length; start += 5_000) {
          await tx.query(
            `INSERT INTO anchor_members (round_id, leaf_index, kind, document_id, root, proof) VALUES ${tuples.slice(start, start + 5_000).join(', ')}`,
            values.slice(start * 6, (start + 5_000) * 6),
          );
        }
      }
      if (documents.rows.length > 0) {
        await tx.query(
          `UPDATE documents SET anchor_state = $1, anchor_round_id = $2, updated_at = now() WHERE id = ANY($3::text[])`,
          [row.status === 'CONFIRMED' ? 'ANCHORED' : 'ANCHORING', row.id, documents.rows.map((d) => d.id)],
        );
      }
      return { row, fresh: row.id === roundId, documents: documents.rows.length };
    });
    if (!built) return null;
    if (built.fresh) {
      this.emit({
        type: 'round-built',
        round_id: built.row.id,
        documents: built.documents,
        batch_root: built.row.batch_root,
      });
    }
    return built.row;
  }

  /** Drives one round to CONFIRMED as far as the chain allows now. */
  async submit(round: RoundRow): Promise<RoundRow> {
    let current = round;
    const root = `0x${current.batch_root}` as Hex;
    if (current.status === 'CONFIRMED') return current;
    if (current.status === 'SENT' && current.tx_hash) {
      const state = await this.provider.doTransactionState(current.tx_hash as Hex);
      if (state === 'unknown') {
        // Lost (e.g. the node restarted before mining it): the root may still be on chain by another tx.
        const found = await this.findIfAnchored(root);
        if (found) return this.confirm(current, found);
        try {
          await this.provider.doBroadcast(current.raw_tx as Hex);
        } catch (error) {
          if (!(error instanceof AnchorError) || error.code !== 'TX_FAILED') throw error;
          // The stored bytes can no longer be mined (nonce used): sign a new transaction.
          current = await this.update(
            current.id,
            `status = 'BUILT', tx_hash = NULL, raw_tx = NULL, nonce = NULL`,
          );
          return this.submit(current);
        }
      }
      return this.awaitReceipt(current);
    }
    // BUILT: nothing sent yet (or a crash between signing and storing: the chain tells).
    const found = await this.findIfAnchored(root);
    if (found) return this.confirm(current, found);
    let prepared: Awaited<ReturnType<AnchorProvider['doPrepare']>>;
    try {
      prepared = await this.provider.doPrepare(root, current.id);
    } catch (error) {
      if (error instanceof AnchorError && error.code === 'ALREADY_ANCHORED') {
        const anchored = await this.provider.doFindAnchor(root);
        if (anchored) return this.confirm(current, anchored);
      }
      await this.recordError(current, error);
      throw error;
    }
    current = await this.update(
      current.id,
      `status = 'SENT', tx_hash = $2, raw_tx = $3, nonce = $4, attempts = attempts + 1, sent_at = now(), last_error = NULL`,
      [prepared.txHash, prepared.rawTx, prepared.nonce],
    );
    this.emit({ type: 'round-sent', round_id: current.id, tx_hash: prepared.txHash });
    await this.provider.doBroadcast(prepared.rawTx);
    return this.awaitReceipt(current);
  }

  private async awaitReceipt(round: RoundRow): Promise<RoundRow> {
    try {
      const receipt = await this.provider.doWaitForReceipt(
        round.tx_hash as Hex,
        this.options.confirmTimeoutMs,
      );
      if (!receipt) return round; // still pending: the next reconciliation looks again
      return this.confirm(round, receipt);
    } catch (error) {
      if (error instanceof AnchorError && error.code === 'TX_FAILED') {
        // Reverted: if the root is on chain anyway (someone else anchored it), confirm from the event.
        const found = await this.findIfAnchored(`0x${round.batch_root}` as Hex);
        if (found) return this.confirm(round, found);
        await this.update(round.id, `status = 'BUILT', tx_hash = NULL, raw_tx = NULL, nonce = NULL`);
      }
      await this.recordError(round, error);
      throw error;
    }
  }

  private async findIfAnchored(root: Hex): Promise<AnchorReceipt | null> {
    const onChain = await this.provider.doVerifyRoot(root);
    if (!onChain.exists) return null;
    return this.provider.doFindAnchor(root);
  }

  private async confirm(round: RoundRow, receipt: AnchorReceipt): Promise<RoundRow> {
    const confirmed = await this.db.transaction(async (tx) => {
      const updated = await tx.query<RoundRow>(
        `UPDATE anchor_rounds SET status = 'CONFIRMED', tx_hash = $2, block_number = $3, block_timestamp = $4,
           gas_used = $5, confirmed_at = now(), last_error = NULL WHERE id = $1 RETURNING ${ROUND_COLUMNS}`,
        [round.id, receipt.txHash, receipt.blockNumber, receipt.timestamp, Number(receipt.gasUsed)],
      );
      const documents = await tx.query(
        `UPDATE documents SET anchor_state = 'ANCHORED', updated_at = now() WHERE anchor_round_id = $1 AND anchor_state <> 'ANCHORED'`,
        [round.id],
      );
      return { row: updated.rows[0]!, documents: documents.rowCount };
    });
    this.emit({
      type: 'round-confirmed',
      round_id: round.id,
      tx_hash: receipt.txHash,
      block_number: receipt.blockNumber,
      documents: confirmed.documents,
      log_size: round.log_size,
    });
    return confirmed.row;
  }

  private async update(id: string, assignments: string, values: unknown[] = []): Promise<RoundRow> {
    const result = await this.db.query<RoundRow>(
      `UPDATE anchor_rounds SET ${assignments} WHERE id = $1 RETURNING ${ROUND_COLUMNS}`,
      [id, ...values],
    );
    return result.rows[0]!;
  }

  private async recordError(round: RoundRow, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    await this.db
      .query('UPDATE anchor_rounds SET last_error = $2 WHERE id = $1', [round.id, message.slice(0, 500)])
      .catch(() => undefined);
  }

  private emit(event: AnchorEvent): void {
    this.options.onEvent?.(event);
  }
}

async function latestLogRoot(db: Queryable): Promise<{ size: number; root_hash: string } | null> {
  const result = await db.query<{ size: number; root_hash: string }>(
    'SELECT size, root_hash FROM log_checkpoints ORDER BY size DESC LIMIT 1',
  );
  return result.rows[0] ?? null;
}

/** The confirmed anchors of `documentIds` (latest round per document), as certificate evidence fields. */
export async function anchorsFor(
  db: Queryable,
  documentIds: readonly string[],
): Promise<Map<string, Anchor>> {
  const anchors = new Map<string, Anchor>();
  if (documentIds.length === 0) return anchors;
  const result = await db.query<{
    document_id: string;
    leaf_index: number;
    proof: string[];
    chain_id: number;
    contract: string;
    tx_hash: string;
    block_number: number;
    batch_root: string;
    size: number;
  }>(
    `SELECT DISTINCT ON (m.document_id) m.document_id, m.leaf_index, m.proof, r.chain_id, r.contract, r.tx_hash,
       r.block_number::float8 AS block_number, r.batch_root, r.size
     FROM anchor_members m JOIN anchor_rounds r ON r.id = m.round_id
     JOIN documents d ON d.id = m.document_id AND d.root = m.root
     WHERE m.document_id = ANY($1::text[]) AND r.status = 'CONFIRMED'
     ORDER BY m.document_id, r.confirmed_at DESC`,
    [documentIds],
  );
  for (const row of result.rows) {
    anchors.set(row.document_id, {
      chain_id: row.chain_id,
      contract: row.contract,
      tx_hash: row.tx_hash,
      block_number: row.block_number,
      batch_root: row.batch_root,
      batch_proof: { leaf_index: row.leaf_index, tree_size: row.size, path: row.proof },
    });
  }
  return anchors;
}

/** Rounds, newest first, for status displays. */
export async function listRounds(db: Queryable, limit = 20): Promise<RoundRow[]> {
  const result = await db.query<RoundRow>(
    `SELECT ${ROUND_COLUMNS} FROM anchor_rounds ORDER BY created_at DESC LIMIT $1`,
    [limit],
  );
  return result.rows;
}
