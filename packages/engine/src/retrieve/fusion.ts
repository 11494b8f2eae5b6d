/**
 * Weighted reciprocal rank fusion (Cormack et al., 2009, with per-list weights): every ranked list
 * contributes weight / (k + rank) to each item it contains; k = 60 by default (docs/engine.md, "Retrieval").
 */
export interface RankedList {
  /** Item ids, best first. */
  ids: readonly string[];
  weight: number;
  /** A label for debugging, e.g. `lexical:original`. */
  label: string;
}

export interface FusedItem {
  id: string;
  score: number;
  /** Best (lowest) rank of the item in each list it appears in, by list label. */
  ranks: Record<string, number>;
}

export const DEFAULT_RRF_K = 60;

export function weightedRrf(lists: readonly RankedList[], k = DEFAULT_RRF_K): FusedItem[] {
  const items = new Map<string, FusedItem>();
  for (const list of lists) {
    list.ids.forEach((id, index) => {
      const rank = index + 1;
      let item = items.get(id);
      if (!item) {
        item = { id, score: 0, ranks: {} };
        items.set(id, item);
      }
      if (item.ranks[list.label] === undefined) {
        item.score += list.weight / (k + rank);
        item.ranks[list.label] = rank;
      }
    });
  }
  return [...items.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
