/**
 * Pure helpers for an answer and its sources: the answer as safe Markdown (document text escaped,
 * only the composer's markers and words read as Markdown), the links it may make, citation text and
 * link, evidence highlighting by code-point offsets.
 */
import {
  type Bundle,
  type Citation,
  type Claim,
  type CompositionPart,
  type Evidence,
  plainLabel,
} from '@saksi/proof';
import { type Block, escapeMarkdown, parseMarkdown, safeHref } from './markdown.js';

/**
 * "UU 22/2009, Pasal 287 ayat (2)" or "Title, page 4" or "Title › Section › Sub"; names without
 * control or format characters, which could reorder what is shown around them.
 */
export function formatCitation(citation: Citation, pageWord = 'page'): string {
  const parts = [plainLabel(citation.document_title)];
  if (citation.pasal !== undefined) {
    parts.push(`Pasal ${citation.pasal}${citation.ayat !== undefined ? ` ayat (${citation.ayat})` : ''}`);
  } else if (citation.section_path !== undefined && citation.section_path.length > 0) {
    parts.push(citation.section_path.map(plainLabel).join(' › '));
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

/** The first `max` code points of `text` or fewer, cut at a space when one is near the end. */
export function textHead(text: string, max: number): string {
  const points = Array.from(text.trim());
  if (points.length <= max) return points.join('');
  const cut = points.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd();
}

/** The last `max` code points of `text` or fewer, cut at a space when one is near the start. */
export function textTail(text: string, max: number): string {
  const points = Array.from(text.trim());
  if (points.length <= max) return points.join('');
  const cut = points.slice(-max).join('');
  const space = cut.indexOf(' ');
  return (space !== -1 && space < max * 0.4 ? cut.slice(space + 1) : cut).trimStart();
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

/**
 * Block explorers of the Base presets (docs/anchoring.md, "Providers"); other chains show the hash as
 * "local chain".
 */
const EXPLORERS: Readonly<Record<number, string>> = {
  8453: 'https://basescan.org/tx/',
  84532: 'https://sepolia.basescan.org/tx/',
};

/** The explorer URL of an anchor transaction, or undefined for chains without a known explorer. */
export function explorerTxUrl(chainId: number, txHash: string): string | undefined {
  const base = EXPLORERS[chainId];
  return base !== undefined && /^0x[0-9a-fA-F]{64}$/.test(txHash) ? `${base}${txHash}` : undefined;
}

/** The media type of Markdown documents, as the retrieval results' `citation.mime` gives it. */
const MARKDOWN_MIME = 'text/markdown';

/**
 * The ids of the documents that were Markdown, from retrieval results whose citation carries the
 * document's `mime` (the chat's `retrieval` event). Results without it say nothing: their documents
 * are read as plain text.
 */
export function markdownDocuments(results: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  for (const item of results) {
    const result = item as { document_id?: unknown; citation?: { mime?: unknown } } | null;
    if (typeof result?.document_id === 'string' && result.citation?.mime === MARKDOWN_MIME)
      ids.add(result.document_id);
  }
  return ids;
}

/** What the retrieval results' `kind` says of a chunk that is a code block. */
const CODE_KIND = 'code';

/**
 * The ids of the chunks that are code blocks, from retrieval results carrying the chunk's `kind`
 * (the chat's `retrieval` event). Their quoted text is shown as code, its lines kept.
 */
export function codeChunks(results: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  for (const item of results) {
    const result = item as { chunk_id?: unknown; kind?: unknown } | null;
    if (typeof result?.chunk_id === 'string' && result.kind === CODE_KIND) ids.add(result.chunk_id);
  }
  return ids;
}

/**
 * Which links an answer may make: to the page of a document its claims cite — the citation's `url`,
 * with its heading anchor or without it. Every other address stays text (markdown.ts).
 */
export function citedLinkPolicy(bundle: Pick<Bundle, 'certificate'>): (href: string) => boolean {
  const allowed = new Set<string>();
  for (const claim of claimsOf(bundle)) {
    for (const evidence of Array.isArray(claim.evidence) ? claim.evidence : []) {
      const href = citationHref(evidence?.citation ?? {});
      if (href === undefined) continue;
      allowed.add(href);
      allowed.add(withoutFragment(href));
    }
  }
  return (href) => allowed.has(href);
}

function withoutFragment(href: string): string {
  const url = new URL(href);
  url.hash = '';
  return url.href;
}

/**
 * An answer as blocks to show. With its bundle: the certified answer, in which only the composer's
 * words and markers are Markdown and links go only to the cited pages ({@link answerMarkdown},
 * {@link citedLinkPolicy}). Without it (still streaming, or a restored answer whose proof is not
 * loaded, or malformed): `text`, all of it plain text — no marker, no link.
 */
export function answerBlocks(
  text: string,
  bundle: Pick<Bundle, 'certificate'> | undefined,
  markdown: ReadonlySet<string> = new Set(),
  code: ReadonlySet<string> = new Set(),
): Block[] {
  if (bundle !== undefined && typeof bundle?.certificate?.answer?.text === 'string') {
    try {
      return parseMarkdown(answerMarkdown(bundle, markdown, code), { allowLink: citedLinkPolicy(bundle) });
    } catch {
      // A malformed bundle: its answer is shown as plain text below, like one without a bundle.
    }
  }
  return parseMarkdown(escapeMarkdown(text));
}

/**
 * The certified answer as Markdown in which only what the answer composer wrote is syntax. The
 * claims sit at their code-point offsets in the answer (`answer_start`…`answer_end`); inside a claim:
 * - a composed claim (docs/certificate.md, "Composed claims") is its parts: `marker` parts are the
 *   citation markers, `span` parts document text, fixed words, labels, differences and spelled
 *   amounts plain text;
 * - any other claim (a quote, a model's sentence) has its evidence spans located in its text: they
 *   are document text; the rest (the markers after a quote, a model's sentence) is the composer's.
 * Document text is escaped so it reads back literally — a "[1]" or a `[text](https://…)` in a
 * document is never a marker or a link — except that the lists of a Markdown document (`markdown`:
 * the ids of such documents) stay lists, and the text of a code block (`code`: the ids of such
 * chunks) is code — a code span, or a fenced block when it has several lines; text outside the claims
 * (a refusal, the gaps between claims) is escaped too. A claim whose offsets or parts do not add up
 * is escaped whole.
 */
export function answerMarkdown(
  bundle: Pick<Bundle, 'certificate'>,
  markdown: ReadonlySet<string> = new Set(),
  code: ReadonlySet<string> = new Set(),
): string {
  const answer = typeof bundle.certificate?.answer?.text === 'string' ? bundle.certificate.answer.text : '';
  const points = Array.from(answer);
  let out = '';
  let cursor = 0;
  for (const claim of claimsOf(bundle)) {
    const start = claim.answer_start;
    const end = claim.answer_end;
    if (
      !Number.isInteger(start) ||
      !Number.isInteger(end) ||
      start < cursor ||
      end < start ||
      end > points.length
    )
      continue;
    const text = points.slice(start, end).join('');
    const pieces = text === claim.text ? claimPieces(claim) : undefined;
    out += escapeMarkdown(points.slice(cursor, start).join(''));
    out +=
      pieces === undefined
        ? escapeMarkdown(text)
        : pieces.map((piece) => pieceMarkdown(piece, markdown, code)).join('');
    cursor = end;
  }
  return out + escapeMarkdown(points.slice(cursor).join(''));
}

type Piece =
  /** Words of Saksi's own (template words, labels, differences, spelled amounts): plain text. */
  | { kind: 'plain'; text: string }
  /** Text of a cited document. */
  | { kind: 'document'; text: string; documentId: string; chunkId: string }
  /** What the composer wrote: its markers, a model's sentence; read as Markdown. */
  | { kind: 'composer'; text: string }
  | { kind: 'marker'; n: number };

function pieceMarkdown(piece: Piece, markdown: ReadonlySet<string>, code: ReadonlySet<string>): string {
  switch (piece.kind) {
    case 'plain':
      return escapeMarkdown(piece.text);
    case 'document':
      if (code.has(piece.chunkId)) return codeMarkdown(piece.text);
      return escapeMarkdown(piece.text, { keepLists: markdown.has(piece.documentId) });
    case 'composer':
      return piece.text;
    case 'marker':
      return `[${piece.n}]`;
  }
}

/**
 * `text` as literal code: a code span on one line, else a fenced block on lines of its own. The
 * backtick run is longer than any in the text, so nothing in it closes the code early
 * (CommonMark §6.1, §4.5).
 */
export function codeMarkdown(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (run) => run[0].length));
  if (!text.includes('\n')) {
    const ticks = '`'.repeat(longest + 1);
    // A space either side keeps a backtick at the edge apart from the run; the reader takes them off.
    const padded = text.trim() !== '' && (/^`|`$/.test(text) || /^ .* $/.test(text)) ? ` ${text} ` : text;
    return `${ticks}${padded}${ticks}`;
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `\n${fence}\n${text}\n${fence}\n`;
}

/** A claim's text cut into pieces by who wrote them; undefined when they do not add up to the text. */
function claimPieces(claim: Claim): Piece[] | undefined {
  const evidence: Evidence[] = Array.isArray(claim.evidence) ? claim.evidence : [];
  const pieces = claim.composition ? compositionPieces(claim, evidence) : quotePieces(claim.text, evidence);
  return pieces !== undefined && pieces.map(pieceText).join('') === claim.text ? pieces : undefined;
}

function pieceText(piece: Piece): string {
  return piece.kind === 'marker' ? `[${piece.n}]` : piece.text;
}

/**
 * The pieces of a composed claim, part by part; a recomputed figure (a difference, a spelled amount)
 * is the text up to the next part.
 */
function compositionPieces(claim: Claim, evidence: readonly Evidence[]): Piece[] | undefined {
  const parts = Array.isArray(claim.composition?.parts) ? claim.composition.parts : [];
  const known = (part: (typeof parts)[number]): Piece | undefined => {
    if ('fixed' in part && typeof part.fixed === 'string') return { kind: 'plain', text: part.fixed };
    if ('marker' in part && Number.isInteger(part.marker)) return { kind: 'marker', n: part.marker };
    if ('span' in part) {
      const item = evidence[part.span];
      return item && typeof item.span?.text === 'string'
        ? { kind: 'document', text: item.span.text, documentId: item.document_id, chunkId: item.chunk_id }
        : undefined;
    }
    if ('cite' in part) {
      const label = evidence[part.cite]?.citation?.label;
      return typeof label === 'string' ? { kind: 'plain', text: label } : undefined;
    }
    return undefined;
  };
  const text = claim.text;
  const pieces: Piece[] = [];
  let cursor = 0;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (isRecomputed(part)) {
      const next = parts.slice(index + 1).find((later) => !isRecomputed(later));
      const nextPiece = next === undefined ? undefined : known(next);
      if (next !== undefined && nextPiece === undefined) return undefined;
      const end = nextPiece === undefined ? text.length : text.indexOf(pieceText(nextPiece), cursor);
      if (end < 0) return undefined;
      pieces.push({ kind: 'plain', text: text.slice(cursor, end) });
      cursor = end;
      continue;
    }
    const piece = known(part);
    if (piece === undefined || !text.startsWith(pieceText(piece), cursor)) return undefined;
    pieces.push(piece);
    cursor += pieceText(piece).length;
  }
  return cursor === text.length ? pieces : undefined;
}

/** A part whose text the verifier computes from evidence rather than copies: a difference, a spelled amount. */
function isRecomputed(part: CompositionPart): boolean {
  return 'difference' in part || 'spelled' in part;
}

/** The pieces of a quote or a model's sentence: its evidence spans where they occur, the rest the composer's. */
function quotePieces(text: string, evidence: readonly Evidence[]): Piece[] {
  const found: { start: number; end: number; documentId: string; chunkId: string }[] = [];
  for (const item of evidence) {
    const span = typeof item?.span?.text === 'string' ? item.span.text : '';
    if (span === '') continue;
    let at = text.indexOf(span);
    while (at >= 0 && found.some((other) => at < other.end && at + span.length > other.start))
      at = text.indexOf(span, at + 1);
    if (at >= 0)
      found.push({ start: at, end: at + span.length, documentId: item.document_id, chunkId: item.chunk_id });
  }
  found.sort((a, b) => a.start - b.start);
  const pieces: Piece[] = [];
  let cursor = 0;
  for (const region of found) {
    if (region.start > cursor) pieces.push({ kind: 'composer', text: text.slice(cursor, region.start) });
    pieces.push({
      kind: 'document',
      text: text.slice(region.start, region.end),
      documentId: region.documentId,
      chunkId: region.chunkId,
    });
    cursor = region.end;
  }
  if (cursor < text.length) pieces.push({ kind: 'composer', text: text.slice(cursor) });
  return pieces;
}

/** The certificate's claims in answer order (malformed entries left out). */
function claimsOf(bundle: Pick<Bundle, 'certificate'>): Claim[] {
  const claims = bundle.certificate?.claims;
  return (Array.isArray(claims) ? claims : [])
    .filter(
      (claim): claim is Claim =>
        typeof claim === 'object' && claim !== null && typeof claim.text === 'string',
    )
    .sort((a, b) => a.answer_start - b.answer_start);
}
