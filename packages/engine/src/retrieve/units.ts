/**
 * Units of a document that answer together: a statute's Pasal (its ayat), the elucidation of a Pasal
 * (its Penjelasan), or elsewhere one section (a document and a section path). After fusion each unit
 * keeps at most a few places in the top, so the ayat of one long Pasal, or the chunks of one long
 * section, do not fill all of them; the chunks it gives up follow the top in their order. A Pasal and
 * its elucidation are two units, so the rule and what it means can both be quoted.
 *
 * Adding a share of a sibling's score to a chunk (a Pasal's elucidation lifting its body) was measured
 * too and lowered Recall@5 on the traffic-law sets: elucidations often repeat the words of a question
 * about a neighbouring rule.
 */
import type { Queryable } from '../db/database.js';
import type { FusedItem } from './fusion.js';

export interface UnitOptions {
  /** Places one unit may take in the top `top`. */
  perUnit: number;
  /** The top whose places are shared out. */
  top: number;
}

/** `fused` with at most `perUnit` chunks of one unit in its first `top` places (see the module comment). */
export async function diversifyUnits(
  db: Queryable,
  fused: readonly FusedItem[],
  options: UnitOptions,
): Promise<FusedItem[]> {
  // Enough candidates to fill the top even when the best units each have many chunks.
  const head = fused.slice(0, options.top * (options.perUnit + 4));
  if (head.length <= options.perUnit) return [...fused];
  const rows = await db.query<{ id: string; unit: string }>(
    `SELECT id, document_id || CASE WHEN legal->>'pasal' IS NOT NULL THEN (CASE WHEN (legal->>'penjelasan')::boolean THEN ' penjelasan ' ELSE ' pasal ' END) || (legal->>'pasal')
                                    ELSE ' section ' || section_path::text END AS unit
       FROM chunks WHERE id = ANY($1::text[])`,
    [head.map((item) => item.id)],
  );
  const unitOf = new Map(rows.rows.map((row) => [row.id, row.unit]));
  const placed: FusedItem[] = [];
  const deferred: FusedItem[] = [];
  const taken = new Map<string, number>();
  for (const item of head) {
    const unit = unitOf.get(item.id) ?? item.id;
    const count = taken.get(unit) ?? 0;
    if (placed.length < options.top && count >= options.perUnit) {
      deferred.push(item);
      continue;
    }
    taken.set(unit, count + 1);
    placed.push(item);
  }
  return [...placed, ...deferred, ...fused.slice(head.length)];
}
