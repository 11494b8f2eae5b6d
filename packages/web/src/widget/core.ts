/**
 * The widget's pure parts (no DOM): its options from the `<script>` tag, the request body, the
 * answer's paragraphs, the retrieved and the cited sources, and where each "[n]" marker points.
 */
import { plainLabel } from '@saksi/proof';

export type WidgetLang = 'id' | 'en';
export type WidgetPosition = 'bottom-right' | 'bottom-left';

export interface WidgetOptions {
  /** Origin of the Saksi server (from the script's own `src`). */
  server: string;
  collection: string;
  lang: WidgetLang;
  position: WidgetPosition;
}

/** Longest selection sent (characters), as the engine uses. */
export const MAX_SELECTION = 2_000;
/** Longest `page_url` the API accepts. */
const MAX_PAGE_URL = 2_000;

export class WidgetError extends Error {
  constructor(
    readonly code: 'WIDGET_CONFIG' | 'WIDGET_NETWORK' | 'WIDGET_HTTP' | 'WIDGET_STREAM',
    message: string,
  ) {
    super(message);
    this.name = 'WidgetError';
  }
}

/**
 * Options from the script tag: `src` gives the server origin; `data-collection` is required;
 * `data-lang` (`id`|`en`, else the page's `<html lang>`, else the browser's language) and
 * `data-position` (`bottom-right`|`bottom-left`).
 */
export function readOptions(
  script: { src: string; dataset: Record<string, string | undefined> },
  pageLang: string,
  browserLang: string,
): WidgetOptions {
  let server: string;
  try {
    const url = new URL(script.src);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
    server = url.origin;
  } catch {
    throw new WidgetError('WIDGET_CONFIG', 'Saksi widget: load widget.js with an http(s) src.');
  }
  const collection = script.dataset['collection']?.trim() ?? '';
  if (collection === '')
    throw new WidgetError(
      'WIDGET_CONFIG',
      'Saksi widget: set data-collection="<collection name>" on the script tag.',
    );
  const pick = (value: string | undefined): WidgetLang | undefined => {
    const lower = value?.trim().toLowerCase() ?? '';
    if (lower === 'id' || lower.startsWith('id-') || lower === 'in') return 'id';
    if (lower === 'en' || lower.startsWith('en-')) return 'en';
    return undefined;
  };
  const lang = pick(script.dataset['lang']) ?? pick(pageLang) ?? pick(browserLang) ?? 'en';
  const position: WidgetPosition =
    script.dataset['position'] === 'bottom-left' ? 'bottom-left' : 'bottom-right';
  return { server, collection, lang, position };
}

/** The selection as sent: whitespace collapsed, at most {@link MAX_SELECTION} characters. */
export function cleanSelection(text: string): string {
  return Array.from(text.replace(/\s+/g, ' ').trim()).slice(0, MAX_SELECTION).join('');
}

export interface AskRequest {
  collection: string;
  question: string;
  session_id?: string;
  mode?: 'selection';
  selection?: string;
  page_url?: string;
}

/** The JSON body of `POST /api/v1/chat`. */
export function chatBody(
  options: Pick<WidgetOptions, 'collection'>,
  question: string,
  context: { selection?: string; pageUrl?: string; sessionId?: string },
): AskRequest {
  const body: AskRequest = { collection: options.collection, question: question.trim() };
  if (context.sessionId !== undefined) body.session_id = context.sessionId;
  const selection = context.selection !== undefined ? cleanSelection(context.selection) : '';
  if (selection !== '') {
    body.mode = 'selection';
    body.selection = selection;
    if (context.pageUrl !== undefined) body.page_url = context.pageUrl.slice(0, MAX_PAGE_URL);
  }
  return body;
}

/** U+202A–U+202E and U+2066–U+2069: text could be shown reversed. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** Answer text → paragraphs of plain text (blank lines separate them; bidi controls removed). */
export function paragraphs(text: string): string[] {
  return text
    .replace(BIDI_CONTROLS, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

export interface WidgetSource {
  chunkId: string;
  title: string;
  snippet: string;
  /** The page and heading the citation links to (an absolute http(s) URL), if any. */
  url?: string;
}

/** `value` as an absolute http(s) URL, or undefined (`javascript:`, relative, unparsable, not text). */
export function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

type Loose = Record<string, unknown>;

function record(value: unknown): Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : {};
}

/**
 * How a citation reads: its `label` when it has one ("Pasal 287 ayat (2) UU 22/2009"), else
 * "Title › last section › Pasal n" without repeats (control and format characters removed: names
 * cannot reorder what is around them).
 */
export function citationTitle(value: unknown): string {
  const citation = record(value);
  const text = (key: string) => (typeof citation[key] === 'string' ? (citation[key] as string).trim() : '');
  if (text('label') !== '') return plainLabel(text('label'));
  const section = Array.isArray(citation['section_path'])
    ? citation['section_path'].filter((part): part is string => typeof part === 'string')
    : [];
  const pasal = text('pasal') !== '' ? `Pasal ${text('pasal')}` : '';
  return [text('document_title'), ...section.slice(-1), pasal]
    .map(plainLabel)
    .filter((part, index, all) => part !== '' && part !== all[index - 1])
    .join(' › ');
}

/** The sources of a `retrieval` event (malformed entries are skipped). */
export function sourcesOf(event: Loose): WidgetSource[] {
  const results = Array.isArray(event['results']) ? event['results'] : [];
  return results.flatMap((item: unknown) => {
    const result = record(item);
    if (typeof result['chunk_id'] !== 'string') return [];
    const citation = record(result['citation']);
    const url = httpUrl(citation['url']);
    const source: WidgetSource = {
      chunkId: result['chunk_id'],
      title: citationTitle(citation),
      snippet: typeof result['snippet'] === 'string' ? result['snippet'].replace(BIDI_CONTROLS, '') : '',
    };
    if (url !== undefined) source.url = url;
    return [source];
  });
}

/** A source the answer cites, with the quoted text and the markers that point at it. */
export interface CitedSource extends WidgetSource {
  /** The marker numbers ("[n]") of the answer that point at this source, ascending. */
  markers: number[];
}

export interface CitedSources {
  /** In order of first citation. */
  sources: CitedSource[];
  /** Marker number → index in `sources`. */
  targets: Map<number, number>;
}

/** Longest quote shown per source (code points); the rest is an ellipsis. */
const MAX_QUOTE = 1_200;

/**
 * The sources a bundle's claims cite, and where each "[n]" marker of the answer points. A claim's
 * markers are its composition's `marker` parts, else the run of markers that ends its text; they go
 * to its evidence chunks in order (the last chunk takes any extra markers), the first claim to use a
 * number deciding it. Each source's quote is the evidence spans taken from it. Malformed entries of
 * a hostile bundle are skipped.
 */
export function citedSources(bundle: unknown): CitedSources {
  const claims = record(record(bundle)['certificate'])['claims'];
  const sorted = (Array.isArray(claims) ? claims : [])
    .map(record)
    .filter((claim) => typeof claim['text'] === 'string' && Array.isArray(claim['evidence']))
    .sort((a, b) => Number(a['answer_start']) - Number(b['answer_start']));
  const sources: CitedSource[] = [];
  const quotes: string[][] = [];
  const byChunk = new Map<string, number>();
  const targets = new Map<number, number>();
  for (const claim of sorted) {
    const chunks: number[] = [];
    for (const item of claim['evidence'] as unknown[]) {
      const evidence = record(item);
      const chunkId = evidence['chunk_id'];
      if (typeof chunkId !== 'string') continue;
      let index = byChunk.get(chunkId);
      if (index === undefined) {
        index = sources.length;
        byChunk.set(chunkId, index);
        const citation = record(evidence['citation']);
        const source: CitedSource = { chunkId, title: citationTitle(citation), snippet: '', markers: [] };
        const url = httpUrl(citation['url']);
        if (url !== undefined) source.url = url;
        sources.push(source);
        quotes.push([]);
      }
      const span = record(evidence['span'])['text'];
      const quote = quotes[index];
      if (typeof span === 'string' && quote !== undefined && !quote.includes(span)) quote.push(span);
      if (!chunks.includes(index)) chunks.push(index);
    }
    if (chunks.length === 0) continue;
    claimMarkers(claim).forEach((n, position) => {
      const target = chunks[Math.min(position, chunks.length - 1)];
      if (target !== undefined && !targets.has(n)) targets.set(n, target);
    });
  }
  for (const [n, index] of targets) sources[index]?.markers.push(n);
  sources.forEach((source, index) => {
    source.markers.sort((a, b) => a - b);
    const text = (quotes[index] ?? []).join(' … ').replace(BIDI_CONTROLS, '');
    const points = Array.from(text);
    source.snippet = points.length > MAX_QUOTE ? `${points.slice(0, MAX_QUOTE).join('')}…` : text;
  });
  return { sources, targets };
}

/** The "[n]" markers of a claim: its composition's marker parts, else those ending its text. */
export function claimMarkers(claim: Loose): number[] {
  const composition = record(claim['composition']);
  if (Array.isArray(composition['parts'])) {
    return composition['parts'].flatMap((part) => {
      const marker = record(part)['marker'];
      return typeof marker === 'number' && Number.isInteger(marker) && marker > 0 ? [marker] : [];
    });
  }
  const text = typeof claim['text'] === 'string' ? claim['text'] : '';
  const tail = /(?:\s*\[\d{1,3}\])+\s*$/.exec(text)?.[0] ?? '';
  return Array.from(tail.matchAll(/\[(\d{1,3})\]/g), (match) => Number(match[1])).filter((n) => n > 0);
}

/** `<server>/verify/<id>` for a certificate id the server issued (anything else: no link). */
export function verifyUrl(server: string, certificateId: unknown): string | undefined {
  if (typeof certificateId !== 'string' || !/^[A-Za-z0-9_-]{1,200}$/.test(certificateId)) return undefined;
  return `${server}/verify/${certificateId}`;
}
