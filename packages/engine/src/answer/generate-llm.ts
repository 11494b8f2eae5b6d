/**
 * The `llm` generator (docs/language-models.md): the retrieved chunks go to the configured model as numbered,
 * nonce-delimited sources under the collection's prompt (legal, budget, docs, general); the streamed
 * text is passed on as it arrives; the finished answer is split into sentence claims with their `[n]`
 * citations. A sentence citing no retrieved source keeps no evidence (and is blocked as
 * NO_EVIDENCE); a citation number beyond the sources is dropped and reported. The certified answer is
 * the sentences with their markers normalised (`text [1][2]`), so each claim occurs in it verbatim.
 */
import type { AnswerModel, LlmUsage } from '../llm/model.js';
import {
  buildPrompt,
  NO_ANSWER_TEXT,
  type PromptProfile,
  type PromptTurn,
  parseCitedAnswer,
} from '../llm/prompts.js';
import type { AnswerSource } from './extractive.js';
import type { Language } from './stem.js';

export interface GeneratedClaim {
  /** The claim as it appears in the certified answer: the sentence and its markers. */
  text: string;
  /** The sentence alone, as the verifier reads it. */
  sentence: string;
  /** Indexes into the sources the claim cites (0-based). */
  sources: number[];
  /** Citation numbers that point at no retrieved source. */
  invalid_citations: number[];
}

export interface LlmGeneration {
  found: boolean;
  text: string;
  /** What the model streamed, before the markers were normalised. */
  raw: string;
  claims: GeneratedClaim[];
  usage: LlmUsage;
  finish_reason: string;
}

export interface LlmGenerateInput {
  question: string;
  sources: readonly (AnswerSource & { label?: string })[];
  profile: PromptProfile;
  language: Language;
  /** Earlier turns of the chat, oldest first: context for the question, never a source. */
  conversation?: readonly PromptTurn[];
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

/** The prompt profile of a collection: its profile's `domain`, else legal for Indonesian, docs for English. */
export function promptProfileOf(profile: Record<string, unknown>, language: Language): PromptProfile {
  const domain = profile['domain'];
  if (domain === 'legal' || domain === 'budget' || domain === 'docs' || domain === 'general') return domain;
  return language === 'id' ? 'legal' : 'general';
}

function citationOf(source: AnswerSource & { label?: string }): string {
  const parts = [
    source.label ?? source.citation.document_title,
    source.citation.section_path?.join(' › '),
    source.citation.page !== undefined ? `p. ${source.citation.page}` : undefined,
  ];
  return parts.filter((part) => part !== undefined && part !== '').join(' — ');
}

export async function generateWithModel(model: AnswerModel, input: LlmGenerateInput): Promise<LlmGeneration> {
  const prompt = buildPrompt({
    profile: input.profile,
    language: input.language,
    question: input.question,
    ...(input.conversation?.length ? { conversation: input.conversation } : {}),
    sources: input.sources.map((source, index) => ({
      n: index + 1,
      citation: citationOf(source),
      text: source.text,
    })),
  });
  let raw = '';
  let usage: LlmUsage = { inputTokens: null, outputTokens: null };
  let finishReason = 'other';
  for await (const part of model.doStream({
    system: prompt.system,
    prompt: prompt.prompt,
    ...(input.signal ? { signal: input.signal } : {}),
  })) {
    if (part.type === 'text') {
      raw += part.text;
      input.onDelta?.(part.text);
    } else {
      usage = part.usage;
      finishReason = part.finishReason;
    }
  }
  const parsed = parseCitedAnswer(raw, input.sources.length);
  if (parsed.noAnswer || parsed.sentences.length === 0) {
    return {
      found: false,
      text: NO_ANSWER_TEXT[input.language],
      raw,
      claims: [],
      usage,
      finish_reason: finishReason,
    };
  }
  const claims: GeneratedClaim[] = parsed.sentences.map((sentence) => {
    const markers = sentence.citations.map((n) => `[${n}]`).join('');
    return {
      text: markers ? `${sentence.text} ${markers}` : sentence.text,
      sentence: sentence.text,
      sources: sentence.citations.map((n) => n - 1),
      invalid_citations: sentence.invalidCitations,
    };
  });
  return {
    found: true,
    text: claims.map((claim) => claim.text).join(' '),
    raw,
    claims,
    usage,
    finish_reason: finishReason,
  };
}
