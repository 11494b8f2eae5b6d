/**
 * Request schemas (zod). Unknown fields are ignored (zod objects strip them); `null` counts as absent
 * for optional fields. Strings must be well-formed Unicode without NUL, since they end up in
 * PostgreSQL text and in RFC 8785 canonical JSON, neither of which can hold them.
 */
import {
  type ListDocumentsQuery,
  MAX_FEEDBACK_COMMENT,
  MAX_TOP_REFUSED,
  MAX_USAGE_DAYS,
} from '@saksi/engine';
import { z } from 'zod';
import { text } from './request-text.js';

export { text };

/** Collection names as the engine creates them. */
export const COLLECTION_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;
/** Identifiers the engine hands out (`doc_…`, `ses_…`, UUIDs): anything else cannot exist. */
export const IDENTIFIER = /^[A-Za-z0-9_-]{1,100}$/;

const collection = z
  .string()
  .regex(
    COLLECTION_NAME,
    'must be 1–63 characters of a-z, 0-9, ".", "_" and "-", starting with a letter or digit',
  );
const topK = z.number().int().min(1).max(50);
const fiscalYear = z.number().int().min(1900).max(2200);

/**
 * The most messages a chat request's `messages[]` may hold. Only the newest few turns reach the model
 * (`SAKSI_SESSION_PROMPT_TURNS`); the request's byte limit bounds the rest.
 */
export const MAX_CHAT_MESSAGES = 10_000;

/** One message of the conversation a stateless client keeps (`messages[]`). */
const chatMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: text(20_000),
});

/** `POST /api/v1/chat` */
export const chatRequestSchema = z
  .object({
    question: text(4_000).nullish().describe('The question'),
    message: text(4_000).nullish().describe('The question, under the name some chat clients use'),
    messages: z
      .array(chatMessage)
      .max(MAX_CHAT_MESSAGES)
      .nullish()
      .describe(
        'The conversation as a stateless client keeps it, oldest first: without `question` or `message`, its last user message is the question. The newest turns are context for the language model, never evidence; sessions keep their own otherwise.',
      ),
    context: z
      .object({ pageUrl: text(2_000).nullish() })
      .nullish()
      .describe("The page the widget is on (the docs site's `context.pageUrl`); same as `page_url`"),
    collection,
    session_id: z
      .string()
      .regex(IDENTIFIER, 'is not a session id this server issued')
      .nullish()
      .describe('Continue a session returned earlier'),
    mode: z.enum(['full', 'selection']).nullish(),
    selection: text(20_000).nullish().describe('Selected text (mode `selection`)'),
    page_url: text(2_000).nullish(),
    top_k: topK.nullish(),
    document_type: text(100).nullish(),
    fiscal_year: fiscalYear.nullish(),
    stream: z.boolean().nullish(),
  })
  .refine((body) => questionOf(body).trim().length > 0, {
    message: 'is required (send "question", "message", or "messages" ending with a user message)',
    path: ['question'],
  })
  .refine((body) => questionOf(body).length <= 4_000, {
    message: 'must be at most 4000 characters',
    path: ['question'],
  })
  .refine((body) => body.mode !== 'selection' || (body.selection ?? '').trim().length > 0, {
    message: 'is required when mode is "selection"',
    path: ['selection'],
  });
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** The question of a chat request: `question`, `message`, or the last message when it is the user's. */
export function questionOf(body: {
  question?: string | null | undefined;
  message?: string | null | undefined;
  messages?: readonly { role: 'user' | 'assistant'; content: string }[] | null | undefined;
}): string {
  const explicit = body.question ?? body.message;
  if (explicit != null) return explicit;
  const last = body.messages?.at(-1);
  return last?.role === 'user' ? last.content : '';
}

/**
 * The earlier turns of a chat request's `messages[]` (without the question itself), oldest first:
 * each user message with the assistant reply that follows it (empty when none does).
 */
export function conversationOf(body: ChatRequest): { question: string; answer: string }[] {
  const messages = [...(body.messages ?? [])];
  const last = messages.at(-1);
  // The question itself, when the client ends its messages with it (with or without `question`).
  if (last?.role === 'user' && last.content.trim() === questionOf(body).trim()) messages.pop();
  const turns: { question: string; answer: string }[] = [];
  for (const message of messages) {
    if (message.role === 'user') turns.push({ question: message.content, answer: '' });
    else if (turns.length > 0 && turns.at(-1)!.answer === '') turns.at(-1)!.answer = message.content;
  }
  return turns;
}

/** `POST /api/v1/query` */
export const queryRequestSchema = z.object({
  question: text(4_000).refine((value) => value.trim().length > 0, 'must not be empty'),
  collection,
  top_k: topK.nullish(),
  document_type: text(100).nullish(),
  fiscal_year: fiscalYear.nullish(),
});

const integerString = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** Multipart fields of `POST /api/v1/documents` (besides `file`). */
export const uploadFieldsSchema = z.object({
  collection,
  language: z.enum(['id', 'en']).optional(),
  title: text(500)
    .refine((value) => value.trim().length > 0, 'must not be empty')
    .optional(),
  document_type: text(100).optional(),
  fiscal_year: integerString(1900, 2200).optional(),
  source: text(2_000).optional(),
});

/** Query string of `GET /api/v1/documents`. */
export const listDocumentsSchema = z.object({
  collection: collection.optional(),
  status: z.enum(['PENDING', 'PROCESSING', 'READY', 'FAILED', 'ARCHIVED']).optional(),
  document_type: text(100).optional(),
  fiscal_year: integerString(1900, 2200).optional(),
  limit: integerString(1, 100).optional(),
  offset: integerString(0, 1_000_000_000).optional(),
});

/** A parsed document list query as `Documents.list` options (absent fields left out). */
export function listDocumentsOptions(query: z.infer<typeof listDocumentsSchema>): ListDocumentsQuery {
  return {
    ...(query.collection !== undefined ? { collection: query.collection } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(query.document_type !== undefined ? { document_type: query.document_type } : {}),
    ...(query.fiscal_year !== undefined ? { fiscal_year: query.fiscal_year } : {}),
    ...(query.limit !== undefined ? { limit: query.limit } : {}),
    ...(query.offset !== undefined ? { offset: query.offset } : {}),
  };
}

/** Query string of `GET /api/v1/log/proof/inclusion`. */
export const inclusionQuerySchema = z.object({
  leaf_index: integerString(0, Number.MAX_SAFE_INTEGER),
  tree_size: integerString(1, Number.MAX_SAFE_INTEGER).optional(),
});

/** Query string of `GET /api/v1/log/proof/consistency`. */
export const consistencyQuerySchema = z.object({
  first: integerString(1, Number.MAX_SAFE_INTEGER),
  second: integerString(1, Number.MAX_SAFE_INTEGER).optional(),
});

/** Query string of `GET /api/v1/certificates/{id}`: `format=vc` for the W3C Verifiable Credential. */
export const certificateQuerySchema = z.object({
  format: z
    .enum(['vc'])
    .optional()
    .describe('`vc`: the certificate as a W3C Verifiable Credential instead of the bundle'),
});

/** A certificate id as the issuer writes it: a lowercase UUID (docs/certificate.md). */
const CERTIFICATE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `POST /api/v1/feedback`: a thumbs up or down on an answer, with an optional comment. */
export const feedbackRequestSchema = z.object({
  certificate_id: z.string().regex(CERTIFICATE_ID, 'must be a certificate id (a lowercase UUID)'),
  rating: z.enum(['up', 'down']),
  comment: text(MAX_FEEDBACK_COMMENT)
    .nullish()
    .describe(`At most ${MAX_FEEDBACK_COMMENT} characters; trimmed, and an empty one is none`),
});

/** Query string of `GET /api/v1/admin/usage` and `GET /api/v1/admin/usage.csv`. */
export const usageQuerySchema = z.object({
  days: integerString(1, MAX_USAGE_DAYS).optional().describe('Days in the period, ending today (default 30)'),
  collection: collection.optional().describe('One collection of the workspace (default: all)'),
  workspace: z
    .string()
    .regex(IDENTIFIER, 'is not a workspace id')
    .optional()
    .describe('The workspace (default `wsp_default`)'),
  tz: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/, 'must be an IANA time zone name such as Asia/Jakarta')
    .optional()
    .describe('IANA time zone where a day starts (default `UTC`)'),
  top: integerString(0, MAX_TOP_REFUSED).optional().describe('Refused questions to list (default 10)'),
});

/** Query string of `GET /api/v1/admin/usage.csv`: which table. */
export const usageCsvQuerySchema = usageQuerySchema.extend({
  table: z
    .enum(['days', 'refused'])
    .optional()
    .describe(
      '`days` (default): one row per day and a total; `refused`: the most frequent refused questions',
    ),
});
