/** Pure helpers for the sources list: citation text and link, evidence highlighting by code-point offsets. */
import type { Bundle, Citation } from '@saksi/proof';
import { safeHref } from './markdown.js';

/** "UU 22/2009, Pasal 287 ayat (2)" or "Title, page 4" or "Title › Section › Sub". */
export function formatCitation(citation: Citation, pageWord = 'page'): string {
  const parts = [citation.document_title];
  if (citation.pasal !== undefined) {
    parts.push(`Pasal ${citation.pasal}${citation.ayat !== undefined ? ` ayat (${citation.ayat})` : ''}`);
  } else if (citation.section_path !== undefined && citation.section_path.length > 0) {
    parts.push(citation.section_path.join(' › '));
  }
  if (citation.page !== undefined) parts.push(`${pageWord} ${citation.page}`);
  return parts.join(', ');
}

/**
 * Where a citation links to: its `url` (the page and heading on the collection's site) when that is an
 * absolute http(s) URL; anything else (`javascript:`, relative, unparsable) gives no link.
 */
export function citationHref(citation: Pick<Citation, 'url'>): string | undefined {
  return typeof citation.url === 'string' ? safeHref(citation.url) : undefined;
}

export interface Segment {
  text: string;
  marked: boolean;
}

/**
 * Splits `text` into plain and marked pieces for the given code-point ranges (merged when they
 * overlap; out-of-range ones clipped), showing at most `around` code points of plain text either
 * side of the marks (with an ellipsis where text was cut). No ranges: the first `2 × around` code points.
 */
export function highlightSegments(
  text: string,
  ranges: readonly { start: number; end: number }[],
  around = 240,
): Segment[] {
  const points = Array.from(text);
  const clipped = ranges
    .map((range) => ({
      start: Math.max(0, Math.min(points.length, Math.floor(range.start))),
      end: Math.max(0, Math.min(points.length, Math.floor(range.end))),
    }))
    .filter((range) => range.end > range.start)
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const range of clipped) {
    const last = merged[merged.length - 1];
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  const first = merged[0];
  const last = merged[merged.length - 1];
  const from = first ? Math.max(0, first.start - around) : 0;
  const to = last ? Math.min(points.length, last.end + around) : Math.min(points.length, around * 2);
  const segments: Segment[] = [];
  const push = (start: number, end: number, marked: boolean) => {
    if (end > start) segments.push({ text: points.slice(start, end).join(''), marked });
  };
  if (from > 0) segments.push({ text: '…', marked: false });
  let cursor = from;
  for (const range of merged) {
    push(cursor, range.start, false);
    push(range.start, range.end, true);
    cursor = range.end;
  }
  push(cursor, to, false);
  if (to < points.length) segments.push({ text: '…', marked: false });
  return segments;
}

export interface CitedChunk {
  chunk_id: string;
  document_id: string;
  text: string;
  citation: Citation;
  spans: { start: number; end: number }[];
  /** 1-based numbers of the claims citing it. */
  claims: number[];
}

/** The chunks the bundle's claims cite, in order of first citation, with their evidence spans. */
export function citedChunks(bundle: Bundle): CitedChunk[] {
  const texts = new Map(bundle.chunks.map((chunk) => [chunk.chunk_id, chunk.text]));
  const byId = new Map<string, CitedChunk>();
  bundle.certificate.claims.forEach((claim, index) => {
    for (const evidence of claim.evidence) {
      let entry = byId.get(evidence.chunk_id);
      if (!entry) {
        entry = {
          chunk_id: evidence.chunk_id,
          document_id: evidence.document_id,
          text: texts.get(evidence.chunk_id) ?? evidence.span.text,
          citation: evidence.citation,
          spans: [],
          claims: [],
        };
        byId.set(evidence.chunk_id, entry);
      }
      if (texts.has(evidence.chunk_id))
        entry.spans.push({ start: evidence.span.start, end: evidence.span.end });
      else entry.spans.push({ start: 0, end: Array.from(evidence.span.text).length });
      if (!entry.claims.includes(index + 1)) entry.claims.push(index + 1);
    }
  });
  return [...byId.values()];
}

/** Block explorers of the Base presets (DESIGN.md §10); other chains show the hash as "local chain". */
const EXPLORERS: Readonly<Record<number, string>> = {
  8453: 'https://basescan.org/tx/',
  84532: 'https://sepolia.basescan.org/tx/',
};

/** The explorer URL of an anchor transaction, or undefined for chains without a known explorer. */
export function explorerTxUrl(chainId: number, txHash: string): string | undefined {
  const base = EXPLORERS[chainId];
  return base !== undefined && /^0x[0-9a-fA-F]{64}$/.test(txHash) ? `${base}${txHash}` : undefined;
}
