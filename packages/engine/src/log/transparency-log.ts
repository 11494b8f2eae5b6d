/**
 * The transparency log (docs/transparency-log.md) on Postgres: RFC 6962 over certificate entries, C2SP
 * checkpoints signed by the log key and cosigned by the configured witnesses.
 *
 * Single writer: every append takes a transaction-scoped advisory lock, so concurrent servers on one
 * PostgreSQL integrate in a strict order; the caller's transaction commits the entry, its subtree
 * nodes and the new checkpoint together, so a certificate is handed out only once its entry is durable.
 * Proofs come from stored complete-subtree hashes (see tree.ts), cached in memory and re-read whenever
 * the stored size differs from the cached one (another writer, or a rolled-back append).
 */
import { type Checkpoint, fromHex, hashLeaf, parseNote, toBase64, toHex } from '@saksi/proof';
import { cosignatureLine, type NoteSigner, signCheckpoint } from '@saksi/proof/issue';
import type { Database, Queryable } from '../db/database.js';
import { EngineError } from '../errors.js';
import {
  consistencyPath,
  inclusionPath,
  type NodeLookup,
  nodesCreatedByAppend,
  rootAt,
  type SubtreeMemo,
} from './tree.js';

/** Advisory lock key of the log sequencer. */
const LOG_LOCK = 5_414_569;

export interface LogAppendResult {
  leaf_index: number;
  size: number;
  inclusion_proof: string[];
  checkpoint: string;
  cosignatures: string[];
}

export interface LogEntryInput {
  certificateId: string;
  /** The leaf input: canonical JSON of the certificate's log entry (docs/transparency-log.md). */
  leafInput: Uint8Array;
}

export interface LogBatch {
  /** One result per entry, in order; all share the batch's checkpoint. */
  results: LogAppendResult[];
  size: number;
  /** Merges the batch's subtree nodes into the in-memory cache; call after the transaction commits. */
  applyToCache(): void;
}

export interface StoredCheckpoint {
  origin: string;
  size: number;
  root_hash: string;
  /** The log-signed note. */
  checkpoint: string;
  /** Witness cosignature lines. */
  cosignatures: string[];
}

export class TransparencyLog {
  readonly origin: string;
  private readonly signer: NoteSigner;
  private readonly cosigners: NoteSigner[];
  private readonly nodes = new Map<string, Uint8Array>();
  private cachedSize = 0;

  constructor(options: { origin: string; signer: NoteSigner; cosigners?: NoteSigner[] }) {
    this.origin = options.origin;
    this.signer = options.signer;
    this.cosigners = options.cosigners ?? [];
  }

  private readonly lookup: NodeLookup = (level, index) => {
    const hash = this.nodes.get(`${level}/${index}`);
    if (!hash) throw new EngineError('LOG_ERROR', `The log is missing subtree node ${level}/${index}.`);
    return hash;
  };

  private async storedSize(db: Queryable): Promise<number> {
    const result = await db.query<{ size: number }>(
      'SELECT coalesce(max(leaf_index) + 1, 0)::integer AS size FROM log_entries',
    );
    return result.rows[0]?.size ?? 0;
  }

  /** Makes the node cache match the database. */
  private async sync(db: Queryable): Promise<number> {
    const size = await this.storedSize(db);
    if (size !== this.cachedSize) {
      this.nodes.clear();
      const rows = await db.query<{ level: number; node_index: number; hash: string }>(
        'SELECT level, node_index, hash FROM log_nodes',
      );
      for (const row of rows.rows) this.nodes.set(`${row.level}/${row.node_index}`, fromHex(row.hash, 32));
      this.cachedSize = size;
    }
    return size;
  }

  /**
   * Appends one entry inside the caller's transaction `tx` and signs the checkpoint that includes it.
   * The entry is durable when `tx` commits.
   */
  async append(tx: Queryable, certificateId: string, leafInput: Uint8Array): Promise<LogAppendResult> {
    const batch = await this.appendBatch(tx, [{ certificateId, leafInput }]);
    // The cache re-syncs by size on the next read if `tx` rolls back.
    batch.applyToCache();
    return batch.results[0]!;
  }

  /**
   * Integrates `entries` in order inside the caller's transaction `tx`: one multi-row insert for the
   * entries and their subtree nodes, and one signed (and locally cosigned) checkpoint for the batch.
   * Call `applyToCache()` after `tx` commits; until then the in-memory node cache is untouched, so a
   * rollback leaves nothing behind.
   */
  async appendBatch(tx: Queryable, entries: readonly LogEntryInput[]): Promise<LogBatch> {
    if (entries.length === 0) throw new EngineError('INVALID_INPUT', 'An empty batch has nothing to append.');
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOG_LOCK]);
    const first = await this.sync(tx);
    // Everything below up to the inserts is synchronous, so a concurrent re-sync of the cache cannot
    // interleave; new nodes live in `overlay` until the transaction commits.
    const overlay = new Map<string, Uint8Array>();
    const lookup: NodeLookup = (level, index) =>
      overlay.get(`${level}/${index}`) ?? this.lookup(level, index);
    const entryRows: unknown[] = [];
    const nodeRows: unknown[] = [];
    entries.forEach((entry, offset) => {
      const index = first + offset;
      const leafHash = hashLeaf(entry.leafInput);
      for (const node of nodesCreatedByAppend(lookup, index, leafHash)) {
        overlay.set(`${node.level}/${node.index}`, node.hash);
        nodeRows.push(node.level, node.index, toHex(node.hash));
      }
      entryRows.push(index, entry.certificateId, toBase64(entry.leafInput), toHex(leafHash));
    });
    const size = first + entries.length;
    const memo: SubtreeMemo = new Map();
    const checkpoint: Checkpoint = {
      origin: this.origin,
      size,
      rootHash: rootAt(lookup, size, memo),
      extensions: [],
    };
    const note = signCheckpoint(checkpoint, this.signer);
    const text = parseNote(note).text;
    const cosignatures = this.cosigners.map((cosigner) => cosignatureLine(text, cosigner));
    const results = entries.map((_, offset) => ({
      leaf_index: first + offset,
      size,
      inclusion_proof: inclusionPath(lookup, first + offset, 0, size, memo).map(toHex),
      checkpoint: note,
      cosignatures,
    }));
    await insertRows(tx, 'log_entries (leaf_index, certificate_id, leaf_input, leaf_hash)', 4, entryRows);
    await insertRows(tx, 'log_nodes (level, node_index, hash)', 3, nodeRows);
    await tx.query(
      'INSERT INTO log_checkpoints (size, root_hash, note, cosignatures) VALUES ($1, $2, $3, $4)',
      [size, toHex(checkpoint.rootHash), note, JSON.stringify(cosignatures)],
    );
    return {
      results,
      size,
      applyToCache: () => {
        if (this.cachedSize !== first) return; // another writer moved on; the next read re-syncs
        for (const [key, hash] of overlay) this.nodes.set(key, hash);
        this.cachedSize = size;
      },
    };
  }

  /** The latest signed checkpoint, or null for an empty log. */
  async latestCheckpoint(db: Database): Promise<StoredCheckpoint | null> {
    const result = await db.query<{ size: number; root_hash: string; note: string; cosignatures: string[] }>(
      'SELECT size, root_hash, note, cosignatures FROM log_checkpoints ORDER BY size DESC LIMIT 1',
    );
    const row = result.rows[0];
    if (!row) return null;
    return {
      origin: this.origin,
      size: row.size,
      root_hash: row.root_hash,
      checkpoint: row.note,
      cosignatures: row.cosignatures,
    };
  }

  /** RFC 9162 inclusion proof of entry `index` in the tree of `size` entries (default: current size). */
  async inclusionProof(
    db: Database,
    index: number,
    size?: number,
  ): Promise<{ leaf_index: number; tree_size: number; proof: string[] }> {
    const current = await this.sync(db);
    const treeSize = size ?? current;
    if (!Number.isSafeInteger(treeSize) || treeSize < 1 || treeSize > current) {
      throw new EngineError('INVALID_INPUT', `tree_size must be between 1 and the log size ${current}.`);
    }
    if (!Number.isSafeInteger(index) || index < 0 || index >= treeSize) {
      throw new EngineError('INVALID_INPUT', `leaf_index must be between 0 and ${treeSize - 1}.`);
    }
    return {
      leaf_index: index,
      tree_size: treeSize,
      proof: inclusionPath(this.lookup, index, 0, treeSize).map(toHex),
    };
  }

  /** RFC 9162 consistency proof between two sizes. */
  async consistencyProof(
    db: Database,
    first: number,
    second?: number,
  ): Promise<{ first: number; second: number; proof: string[] }> {
    const current = await this.sync(db);
    const to = second ?? current;
    if (!Number.isSafeInteger(to) || to < 1 || to > current) {
      throw new EngineError('INVALID_INPUT', `second must be between 1 and the log size ${current}.`);
    }
    if (!Number.isSafeInteger(first) || first < 1 || first > to) {
      throw new EngineError('INVALID_INPUT', `first must be between 1 and ${to}.`);
    }
    return { first, second: to, proof: consistencyPath(this.lookup, first, to).map(toHex) };
  }

  /** The number of entries. */
  async size(db: Database): Promise<number> {
    return this.sync(db);
  }

  /** The entry at `index` as stored (leaf input base64), for auditors and tiles. */
  async entry(
    db: Database,
    index: number,
  ): Promise<{ leaf_index: number; certificate_id: string; leaf_input: string } | null> {
    const result = await db.query<{ leaf_index: number; certificate_id: string; leaf_input: string }>(
      'SELECT leaf_index, certificate_id, leaf_input FROM log_entries WHERE leaf_index = $1',
      [index],
    );
    return result.rows[0] ?? null;
  }
}

/** Multi-row INSERT of `values` (row-major, `columns` per row), chunked to stay under the bind limit. */
async function insertRows(tx: Queryable, target: string, columns: number, values: readonly unknown[]) {
  const rowsPerStatement = Math.floor(30_000 / columns);
  for (let start = 0; start < values.length; start += rowsPerStatement * columns) {
    const slice = values.slice(start, start + rowsPerStatement * columns);
    const tuples: string[] = [];
    for (let row = 0; row < slice.length / columns; row++) {
      const placeholders = Array.from({ length: columns }, (_, column) => `$${row * columns + column + 1}`);
      tuples.push(`(${placeholders.join(', ')})`);
    }
    await tx.query(`INSERT INTO ${target} VALUES ${tuples.join(', ')}`, slice);
  }
}
