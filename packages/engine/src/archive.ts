/**
 * Archiving (docs/api.md, "Admin routes"; docs/engine.md, "Retrieval"): an ARCHIVED document keeps its
 * chunks, proofs and anchors but is not retrieved; restoring makes it READY again. Only READY ↔ ARCHIVED
 * moves are allowed.
 */
import type { Database } from './db/database.js';
import { EngineError } from './errors.js';
import { type DocumentRecord, getDocument } from './ingest/pipeline.js';

async function move(
  db: Database,
  id: string,
  from: 'READY' | 'ARCHIVED',
  to: 'READY' | 'ARCHIVED',
  action: string,
): Promise<DocumentRecord> {
  const moved = await db.transaction(async (tx) => {
    const result = await tx.query(
      `UPDATE documents SET status = $3, updated_at = now() WHERE id = $1 AND status = $2`,
      [id, from, to],
    );
    if (result.rowCount === 0) return false;
    await tx.query('INSERT INTO audit_log (action, target) VALUES ($1, $2)', [action, id]);
    return true;
  });
  const document = await getDocument(db, id);
  if (!document) throw new EngineError('NOT_FOUND', `No document ${id}.`);
  if (!moved)
    throw new EngineError(
      'CONFLICT',
      `Document ${id} is ${document.status}; only ${from} documents can be ${to === 'ARCHIVED' ? 'archived' : 'restored'}.`,
    );
  return document;
}

/** READY → ARCHIVED: the document is no longer retrieved. NOT_FOUND / CONFLICT otherwise. */
export function archiveDocument(db: Database, id: string): Promise<DocumentRecord> {
  return move(db, id, 'READY', 'ARCHIVED', 'document.archive');
}

/** ARCHIVED → READY: the document is retrieved again. NOT_FOUND / CONFLICT otherwise. */
export function restoreDocument(db: Database, id: string): Promise<DocumentRecord> {
  return move(db, id, 'ARCHIVED', 'READY', 'document.restore');
}
