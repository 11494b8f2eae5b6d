/**
 * The optional LLM expansion layer of the query rewriter (docs/language-models.md): a `QueryExpander` turns a
 * question into a legal search query and key phrases; `expandQuery` merges them with the dictionary and
 * pattern variants (legal query at the `legal` weight, key phrases at the `phrases` weight). The model-backed
 * expander is `createLlmExpander` (llm/expander.ts, `SAKSI_QUERY_EXPANSION=llm`); without an expander,
 * or when it fails, the offline variants are used unchanged.
 */
import type { QueryVariant } from './retrieve.js';
import { type RewriteOptions, type RewriteResult, rewriteQueryDetailed } from './rewrite.js';

export interface QueryExpansion {
  /** The question restated in the documents' (statutory) language. */
  legalQuery: string;
  /** Key phrases the documents are likely to contain. */
  phrases: string[];
}

export interface QueryExpander {
  /** Identifies the model and prompt, for the retrieval parameters a certificate records. */
  version: string;
  doExpand(question: string, options: { language: 'id' | 'en' }): Promise<QueryExpansion>;
}

export interface ExpandedRewrite extends RewriteResult {
  /** Present when an expander was configured: its version, and the error code when it failed. */
  expander?: { version: string; error?: string };
}

const MAX_LEGAL_QUERY = 1_000;
const MAX_PHRASES = 8;
const MAX_PHRASE = 200;

function clean(text: unknown, max: number): string {
  return typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().slice(0, max) : '';
}

/** Dictionary and pattern variants, plus the expander's legal query and key phrases when one is given. */
export async function expandQuery(
  question: string,
  options: RewriteOptions & { expander?: QueryExpander; rewritten?: RewriteResult },
): Promise<ExpandedRewrite> {
  // The dictionary and pattern variants: the caller's when it has already rewritten the question.
  const result: ExpandedRewrite = options.rewritten ?? rewriteQueryDetailed(question, options);
  const { expander } = options;
  if (!expander) return result;
  let expansion: QueryExpansion;
  try {
    expansion = await expander.doExpand(question, { language: options.language });
  } catch (error) {
    const code =
      error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string'
        ? (error as { code: string }).code
        : 'EXPANDER_FAILED';
    return { ...result, expander: { version: expander.version, error: code } };
  }
  const seen = new Set(result.variants.map((variant) => variant.text.toLowerCase()));
  const added: QueryVariant[] = [];
  const add = (text: string, weight: number, kind: string) => {
    if (!text || seen.has(text.toLowerCase())) return;
    seen.add(text.toLowerCase());
    added.push({ text, weight, kind });
  };
  add(clean(expansion?.legalQuery, MAX_LEGAL_QUERY), result.weights.legal, 'llm-legal');
  const phrases = Array.isArray(expansion?.phrases)
    ? [...new Set(expansion.phrases.map((phrase) => clean(phrase, MAX_PHRASE)).filter(Boolean))].slice(
        0,
        MAX_PHRASES,
      )
    : [];
  add(phrases.join(' '), result.weights.phrases, 'llm-phrases');
  return { ...result, variants: [...result.variants, ...added], expander: { version: expander.version } };
}
