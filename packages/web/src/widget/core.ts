/**
 * The widget's pure parts (no DOM): its options from the `<script>` tag, the request body, the
 * answer's paragraphs, sources and the verified / blocked / total summary of a bundle.
 */

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

/** The sources of a `retrieval` event (malformed entries are skipped). */
export function sourcesOf(event: Record<string, unknown>): WidgetSource[] {
  const results = Array.isArray(event['results']) ? event['results'] : [];
  return results.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const result = item as Record<string, unknown>;
    const citation = (
      typeof result['citation'] === 'object' && result['citation'] !== null ? result['citation'] : {}
    ) as Record<string, unknown>;
    const title = typeof citation['document_title'] === 'string' ? citation['document_title'] : '';
    const section = Array.isArray(citation['section_path'])
      ? citation['section_path'].filter((part): part is string => typeof part === 'string')
      : [];
    const pasal = typeof citation['pasal'] === 'string' ? `Pasal ${citation['pasal']}` : '';
    const label = [title, ...section.slice(-1), pasal].filter((part) => part !== '').join(' › ');
    if (typeof result['chunk_id'] !== 'string') return [];
    const url = httpUrl(citation['url']);
    const source: WidgetSource = {
      chunkId: result['chunk_id'],
      title: label.replace(BIDI_CONTROLS, ''),
      snippet: typeof result['snippet'] === 'string' ? result['snippet'].replace(BIDI_CONTROLS, '') : '',
    };
    if (url !== undefined) source.url = url;
    return [source];
  });
}

export interface Summary {
  verified: number;
  blocked: number;
  total: number;
}

/** Verified / blocked / total from the bundle's recorded render decisions. */
export function summarize(bundle: unknown): Summary {
  const certificate = (bundle as { certificate?: { claims?: unknown } } | null)?.certificate;
  const claims = Array.isArray(certificate?.claims) ? (certificate.claims as unknown[]) : [];
  let verified = 0;
  for (const claim of claims) {
    const render = (claim as { render?: { rendered?: unknown } } | null)?.render;
    if (render?.rendered === true) verified++;
  }
  return { verified, blocked: claims.length - verified, total: claims.length };
}

/** `<server>/verify/<id>` for a certificate id the server issued (anything else: no link). */
export function verifyUrl(server: string, certificateId: unknown): string | undefined {
  if (typeof certificateId !== 'string' || !/^[A-Za-z0-9_-]{1,200}$/.test(certificateId)) return undefined;
  return `${server}/verify/${certificateId}`;
}
