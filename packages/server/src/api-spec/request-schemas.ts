/**
 * Request schemas (zod) of the developer API routes (docs/api.md), single-sourced: the routes validate
 * with them and the OpenAPI document is generated from them. As in schemas.ts, unknown fields are
 * ignored and `null` counts as absent for optional JSON fields.
 */
import { PACK_IDS } from '@saksi/engine';
import { z } from 'zod';
import { COLLECTION_NAME, listDocumentsSchema, text, uploadFieldsSchema } from '../schemas.js';

const collection = z
  .string()
  .regex(
    COLLECTION_NAME,
    'must be 1–63 characters of a-z, 0-9, ".", "_" and "-", starting with a letter or digit',
  );
const fiscalYear = z.number().int().min(1900).max(2200);
const nonEmpty = (max: number) => text(max).refine((value) => value.trim().length > 0, 'must not be empty');

/** A text per interface language (`id`, `en`), each optional. */
function localizedText(max: number) {
  return z.object({ id: nonEmpty(max).nullish(), en: nonEmpty(max).nullish() });
}

/** A whole number in a query string. */
const integerString = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const API_KEY_SCOPES = ['read', 'ingest', 'admin'] as const;
export const WEBHOOK_EVENTS = ['document.ready', 'document.failed'] as const;
export const JOB_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED'] as const;

/** `POST /api/v1/workspaces` */
export const createWorkspaceBody = z.object({
  name: nonEmpty(80).describe('1–80 letters, digits, spaces, ".", "_" or "-"'),
});

/** `POST /api/v1/keys` */
export const createKeyBody = z.object({
  name: nonEmpty(100),
  scopes: z
    .array(z.enum(API_KEY_SCOPES))
    .min(1)
    .max(API_KEY_SCOPES.length)
    .describe('`admin` implies every scope'),
});

/** `POST /api/v1/collections` */
export const createCollectionBody = z.object({
  name: collection,
  language: z.enum(['id', 'en']),
  public: z.boolean().nullish().describe('Anyone may chat with a public collection without a key'),
  domain: z.enum(['legal', 'budget', 'docs', 'general']).nullish(),
  base_url: z
    .string()
    .max(2_000)
    .nullish()
    .describe(
      'The http(s) site the documents are published on: citations of Markdown pages carry <page>#<heading> (INVALID_BASE_URL otherwise)',
    ),
  base_url_folder: z
    .string()
    .max(500)
    .nullish()
    .describe('The folder of the stored document paths the base URL serves (e.g. "docs"); default all'),
  title: localizedText(120)
    .nullish()
    .describe('A human name per interface language, e.g. {"en": "Traffic law"}'),
  description: localizedText(300).nullish().describe('One line on what the collection holds, per language'),
  examples: z
    .object({ id: z.array(text(300)).max(5).nullish(), en: z.array(text(300)).max(5).nullish() })
    .nullish()
    .describe('Up to 5 example questions per interface language, shown as a first step in the chat'),
  answer_risk: z
    .number()
    .min(0.01)
    .max(0.5)
    .nullish()
    .describe(
      'The share of wrong answers the answer check may release as answering (α, 0.01–0.5; default 0.05): a collection the check was not calibrated on is released at the strictest calibrated threshold for it (docs/engine.md, "The answer check")',
    ),
});

/**
 * The questions an admin labelled for calibrating a collection's answer check (docs/evaluation.md,
 * "Calibrating a collection"). The engine checks each (INVALID_INPUT names the bad one).
 */
export const collectionCalibrationBody = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().describe('A question as readers ask it'),
        answerable: z.boolean().optional().describe('Whether the documents answer it (default true)'),
        must_mention: z
          .array(z.string())
          .optional()
          .describe('Phrases a right answer mentions at least one of; required for an answerable question'),
      }),
    )
    .describe('At least 30 and at most 1,000 questions, unanswerable ones among them'),
});

/** A collection's document packs, as an admin chooses them (docs/engine.md, "Document-type packs"). */
export const collectionPacksBody = z.object({
  packs: z
    .array(z.enum(PACK_IDS))
    .min(1)
    .max(PACK_IDS.length)
    .nullable()
    .describe(
      "The packs that read and answer from the collection's documents, each once; null returns to detection (every pack, each recognizing its own documents)",
    ),
});

/** One glossary entry: everyday terms (lower case) → the documents' phrase or phrases. */
const glossaryEntry = z.object({
  terms: z.array(z.string().min(1).max(100)).min(1).max(64).describe('Lower case, unique within the list'),
  expansion: z
    .union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).min(1).max(16)])
    .describe("The documents' wording: one phrase or several"),
});

/**
 * A collection's glossary file (docs/glossary.md), as `PUT /collections/{name}/glossary` takes it and
 * `GET` returns it. The engine checks it (INVALID_GLOSSARY names the bad entry).
 */
export const glossarySchema = z
  .object({
    format: z.literal('saksi-glossary'),
    version: z.literal(1),
    description: z.string().max(500).optional(),
    pattern_groups: z
      .array(z.enum(['traffic', 'budget', 'docs']))
      .max(3)
      .optional()
      .describe('Pattern-rule groups the collection uses'),
    dictionary: z
      .array(glossaryEntry)
      .max(5_000)
      .optional()
      .describe("Everyday words → the documents' terms, in the documents' language"),
    translations: z
      .array(z.object({ from: z.enum(['id', 'en']), entries: z.array(glossaryEntry).max(5_000) }))
      .max(2)
      .optional()
      .describe("Questions in another language: its words → the documents' terms"),
  })
  .meta({ id: 'Glossary' });

/** `POST /api/v1/uploads`: the metadata of a large file whose bytes follow by PUT. */
export const createUploadBody = z.object({
  collection,
  filename: nonEmpty(500),
  size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullish().describe('Declared size in bytes'),
  mime: text(200).nullish(),
  title: nonEmpty(500).nullish(),
  language: z.enum(['id', 'en']).nullish(),
  document_type: text(100).nullish(),
  fiscal_year: fiscalYear.nullish(),
  source: text(2_000).nullish(),
});

/** `POST /api/v1/webhooks` */
export const createWebhookBody = z.object({
  url: z
    .string()
    .max(2_000)
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an http(s) URL'),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).nullish().describe('Default: every event'),
});

/** `POST /api/v1/query` */
export const queryBodyV1 = z.object({
  collection,
  question: nonEmpty(4_000),
  top_k: z.number().int().min(1).max(50).nullish().describe('1–50, default 5'),
  document_type: text(100).nullish(),
  fiscal_year: fiscalYear.nullish(),
});

/** Query string of `GET /api/v1/jobs`. */
export const listJobsQuery = z.object({
  status: z.enum(JOB_STATUSES).optional(),
  limit: integerString(1, 100).optional().describe('1–100, default 20'),
  offset: integerString(0, 1_000_000_000).optional().describe('Default 0'),
});

/** Query string of `GET /api/v1/documents/:id/chunks`. */
export const listChunksQuery = z.object({
  limit: integerString(1, 100).optional().describe('1–100, default 20'),
  offset: integerString(0, 1_000_000_000).optional().describe('Default 0'),
});

/** `POST /log/cosignatures`: a witness's cosignature on a stored checkpoint. */
export const cosignatureRequestSchema = z.object({
  size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  cosignature: text(1_000).refine((value) => !value.includes('\n'), 'must be one line without its newline'),
});

/** The kinds of document the admin portal files uploads under. */
export const ADMIN_DOCUMENT_TYPES = ['APBN', 'APBD', 'other'] as const;

export const adminLoginBody = z.object({ email: z.string().max(320), password: z.string().max(4_096) });
export const adminUploadFields = uploadFieldsSchema.extend({
  document_type: z.enum(ADMIN_DOCUMENT_TYPES).optional(),
});
export const adminListQuery = listDocumentsSchema.extend({
  document_type: z.enum(ADMIN_DOCUMENT_TYPES).optional(),
});
export const adminWorkspaceBody = z.object({ name: z.string().min(1).max(200) });
export const adminKeyBody = z.object({
  name: z.string().min(1).max(200),
  scopes: z
    .array(z.enum(API_KEY_SCOPES))
    .min(1)
    .max(API_KEY_SCOPES.length * 2),
});
