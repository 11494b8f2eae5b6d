/**
 * The Saksi answer certificate, v1, v1.1 and v1.2 (docs/certificate.md): types and runtime
 * validation. Building and signing one is build-certificate.ts (the `@saksi/proof/issue` entry point).
 *
 * Conventions (normative for every version):
 * - Digests are lowercase hex SHA-256 (FIPS 180-4) of the UTF-8 text exactly as stored (NFC, LF).
 * - Public keys and signatures are standard padded base64 (RFC 4648 §4).
 * - Offsets (`answer_start`/`answer_end`, `span.start`/`span.end`) count Unicode code points, so a
 *   verifier in any language gets the same slice (W3C Web Annotation `TextPositionSelector` semantics).
 * - The signature is Ed25519 (RFC 8032) over the RFC 8785 canonical bytes of the whole certificate.
 *
 * v1.1 adds, and only v1.1 and later allow: a claim's `composition` (how its text is recomputed from
 * its evidence) and `relevance`, and the answer's `relevance`, `outcome` and `refusal`.
 *
 * v1.2 adds, and only v1.2 allows: the outcome `related` and the answer's `check` (the answer check,
 * docs/certificate.md "The answer check"), which an answered or related answer must carry.
 */
import { isLowerHex, toHex } from './bytes.js';
import type { Composition } from './composition.js';
import { sha256 } from './hash.js';
import { canonicalizeToBytes } from './jcs.js';
import { checkObject, type Field, fail } from './validate.js';

export type { Composition, CompositionPart } from './composition.js';

/** The `schema` value of a v1 certificate (still accepted by every verifier). */
export const CERTIFICATE_SCHEMA_V1 = 'saksi.certificate/v1';
/** The `schema` value of a v1.1 certificate (still accepted by every verifier). */
export const CERTIFICATE_SCHEMA_V1_1 = 'saksi.certificate/v1.1';
/** The `schema` value of a v1.2 certificate: v1.1 and the answer check. */
export const CERTIFICATE_SCHEMA_V1_2 = 'saksi.certificate/v1.2';
/** The `schema` an issuer writes: v1.2. */
export const CERTIFICATE_SCHEMA = CERTIFICATE_SCHEMA_V1_2;
/** Every `schema` value a verifier accepts. */
export const CERTIFICATE_SCHEMAS = [
  CERTIFICATE_SCHEMA_V1,
  CERTIFICATE_SCHEMA_V1_1,
  CERTIFICATE_SCHEMA_V1_2,
] as const;
/** A `schema` value a verifier accepts. */
export type CertificateSchema = (typeof CERTIFICATE_SCHEMAS)[number];

export type QueryMode = 'full' | 'selection';
export type VerificationLabel = 'entailed' | 'not_supported' | 'contradicted';
/**
 * Why a claim is shown or not (docs/certificate.md, "Render policy"), plus `INTEGRITY_FAILURE`
 * decided by a verifier. `NOT_RELEVANT` is new in v1.1 and appears only in v1.1 certificates.
 */
export type RenderReason =
  | 'OK'
  | 'LOW_CONFIDENCE'
  | 'NO_EVIDENCE'
  | 'NOT_SUPPORTED'
  | 'CONTRADICTED'
  | 'NUMBER_MISMATCH'
  | 'ANCHOR_REQUIRED'
  | 'NOT_RELEVANT'
  | 'INTEGRITY_FAILURE';

export const VERIFICATION_LABELS: readonly VerificationLabel[] = [
  'entailed',
  'not_supported',
  'contradicted',
];
export const RENDER_REASONS: readonly RenderReason[] = [
  'OK',
  'LOW_CONFIDENCE',
  'NO_EVIDENCE',
  'NOT_SUPPORTED',
  'CONTRADICTED',
  'NUMBER_MISMATCH',
  'ANCHOR_REQUIRED',
  'NOT_RELEVANT',
  'INTEGRITY_FAILURE',
];

export interface Issuer {
  name: string;
  /** First 16 hex digits of SHA-256(public key) — see {@link issuerKeyId}. */
  key_id: string;
  /** Ed25519 public key, base64. */
  public_key: string;
}

export interface Query {
  text: string;
  sha256: string;
  /** 16+ random bytes as hex, so two identical questions still get distinct certificates. */
  nonce: string;
  mode: QueryMode;
  selection_sha256?: string;
  session_id?: string;
}

export interface RewriteVariant {
  text: string;
  weight: number;
  kind: string;
}

export interface RetrievalResult {
  chunk_id: string;
  document_id: string;
  chunk_sha256: string;
  rank: number;
  score: number;
}

export interface Retrieval {
  collection: string;
  parameters: {
    top_k: number;
    rrf_k: number;
    weights: Record<string, number>;
    rewrite_variants: RewriteVariant[];
    /** SHA-256 (hex) of the canonical JSON of the collection glossary the question was rewritten with. */
    glossary_sha256?: string;
  };
  results: RetrievalResult[];
}

export interface Generator {
  kind: 'extractive' | 'llm';
  model: string;
  version: string;
}

export interface Answer {
  text: string;
  sha256: string;
  generator: Generator;
  /** v1.1: how well all the answer's evidence answers the question. */
  relevance?: ClaimRelevance;
  /** v1.1: whether the issuer answered or refused (v1.2: or released related passages). */
  outcome?: AnswerOutcome;
  /** v1.1, only with outcome `refused`: why. */
  refusal?: Refusal;
  /** v1.2, required with outcome `answered` or `related` and only with them: the answer check. */
  check?: AnswerCheck;
}

/**
 * Whether an answer answers the question (`answered`), or refuses to (`refused`), both since v1.1;
 * or, since v1.2, gives authentic passages that are related to the question but not a confirmed
 * answer to it (`related`).
 */
export type AnswerOutcome = 'answered' | 'related' | 'refused';
/** Every outcome; `related` is allowed only in a v1.2 certificate. */
export const ANSWER_OUTCOMES: readonly AnswerOutcome[] = ['answered', 'related', 'refused'];

/**
 * v1.2: the answer check (docs/certificate.md, "The answer check") — the issuer's calibrated score
 * that the answer answers the question, the threshold it was released at and the risk that
 * threshold was calibrated for, and what the issuer read from the question (its asked type and
 * constraints), which a verifier recomputes.
 */
export interface AnswerCheck {
  /** The method that scored the answer, e.g. `{ id: "answer-check", version: "1" }`. */
  method: { id: string; version: string };
  /** In [0, 1]. */
  score: number;
  /** In [0, 1]: the answer is confirmed only at or above it. */
  threshold: number;
  /**
   * In (0, 1), both excluded: the false-assurance risk `threshold` was calibrated for — the expected
   * rate of wrong answers released as answers, for questions like the calibration questions.
   */
  alpha: number;
  /** SHA-256 of the calibration report the threshold comes from, lowercase hex. */
  calibration_sha256: string;
  /** The asked type the issuer read from the question (`amount`, `duration`, …, `other`). */
  asked: string;
  /** The constraints the issuer read from the question (`year:2019`, …): sorted, distinct, at most 32. */
  constraints: string[];
}

/**
 * v1.1: why an answer was refused — a slot the documents cannot fill (a fiscal year the collection
 * lacks), evidence that does not cover the question, no evidence at all, or a question with nothing
 * to search for.
 */
export type RefusalReason = 'MISSING_SLOT' | 'NOT_COVERED' | 'NO_EVIDENCE' | 'INVALID_QUESTION';
export const REFUSAL_REASONS: readonly RefusalReason[] = [
  'MISSING_SLOT',
  'NOT_COVERED',
  'NO_EVIDENCE',
  'INVALID_QUESTION',
];

/** v1.1: the refusal of an answer whose outcome is `refused`. */
export interface Refusal {
  reason: RefusalReason;
}

/** The method that scored relevance, e.g. `{ id: "lexical-v3", version: "3" }` or the LLM judge. */
export interface RelevanceMethod {
  id: string;
  version: string;
}

/**
 * v1.1: how well evidence answers the question, for a claim (`claim.relevance`) or for the whole
 * answer (`answer.relevance`). Below `threshold` the claim is not shown as an answer (render reason
 * `NOT_RELEVANT`) and the answer counts as not answered.
 */
export interface ClaimRelevance {
  /** In [0, 1]. */
  score: number;
  /** In [0, 1]. */
  threshold: number;
  method: RelevanceMethod;
}

/** RFC 6962 inclusion proof of a leaf in a tree of `tree_size` leaves; `path` is hex, leaf-to-root. */
export interface MerklePath {
  leaf_index: number;
  tree_size: number;
  path: string[];
}

export interface DocumentProof extends MerklePath {
  /** RFC 6962 root over the document's chunk hashes (docs/certificate.md, "Document proof"). */
  document_root: string;
}

export interface Anchor {
  chain_id: number;
  /** 0x-prefixed EVM address of the DocumentRegistry contract. */
  contract: string;
  tx_hash: string;
  block_number: number;
  /** RFC 6962 root of the anchoring round, written on chain (hex, no 0x). */
  batch_root: string;
  /** Inclusion of the document root in the batch. */
  batch_proof: MerklePath;
}

export interface Citation {
  document_title: string;
  page?: number;
  section_path?: string[];
  pasal?: string;
  ayat?: string;
  /** How the citation reads, e.g. "Pasal 287 ayat (2) UU 22/2009". */
  label?: string;
  url?: string;
}

export interface Span {
  start: number;
  end: number;
  text: string;
  sha256: string;
}

export interface Evidence {
  chunk_id: string;
  document_id: string;
  chunk_sha256: string;
  span: Span;
  document_proof: DocumentProof;
  anchor?: Anchor;
  citation: Citation;
}

export interface ClaimVerification {
  label: VerificationLabel;
  confidence: number;
  verifier: { id: string; version: string };
}

export interface Claim {
  claim_id: string;
  text: string;
  sha256: string;
  answer_start: number;
  answer_end: number;
  evidence: Evidence[];
  verification: ClaimVerification;
  render: { rendered: boolean; reason: RenderReason };
  /** v1.1: present when the text is composed from the evidence and fixed template words. */
  composition?: Composition;
  /** v1.1: how well this claim's evidence answers the question. */
  relevance?: ClaimRelevance;
}

export interface Policy {
  confidence_threshold: number;
  require_anchor: boolean;
  fail_closed: true;
}

export interface Certificate {
  schema: CertificateSchema;
  certificate_id: string;
  issued_at: string;
  issuer: Issuer;
  query: Query;
  retrieval: Retrieval;
  answer: Answer;
  claims: Claim[];
  policy: Policy;
}

/** The log part of a bundle: where the certificate sits in the transparency log. */
export interface BundleLog {
  /** The log's origin line (C2SP tlog-checkpoint). */
  origin: string;
  leaf_index: number;
  /** RFC 9162 §2.1.3 inclusion proof to the checkpoint's root, hex. */
  inclusion_proof: string[];
  /** The checkpoint as a C2SP signed note, signed by the log key. */
  checkpoint: string;
  /** Witness cosignature lines (C2SP tlog-cosignature), each `— name base64`. */
  cosignatures: string[];
}

/** The text of a cited chunk, carried so a verifier can check spans at their offsets. */
export interface BundleChunk {
  chunk_id: string;
  text: string;
}

/** What a client receives and keeps: the certificate, its signature, its log proof and cited chunks. */
export interface Bundle {
  certificate: Certificate;
  /** Ed25519 signature over `canonicalize(certificate)`, base64. */
  signature: string;
  log: BundleLog;
  chunks: BundleChunk[];
}

/** Leaf input of the transparency log (docs/transparency-log.md, "Entries and checkpoints"). */
export interface LogEntry {
  certificate_id: string;
  certificate_sha256: string;
  signature: string;
  issued_at: string;
}

// ---------------------------------------------------------------------------------------------
// Text helpers shared with the verifier

/** Length of `text` in Unicode code points. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/**
 * `text` from code point `start` (inclusive) to `end` (exclusive), or `undefined` when the range is
 * outside the text. Linear in the length of the text; no intermediate arrays.
 */
export function sliceCodePoints(text: string, start: number, end: number): string | undefined {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start)
    return undefined;
  let unitStart = -1;
  let point = 0;
  let i = 0;
  for (; i <= text.length; point++) {
    if (point === start) unitStart = i;
    if (point === end) return text.slice(unitStart, i);
    if (i === text.length) break;
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    i += code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return undefined;
}

/** Code point offset of `search` in `text` starting at code point `from`, or -1. */
export function indexOfCodePoints(text: string, search: string, from = 0): number {
  const fromUnits = sliceCodePoints(text, 0, from)?.length ?? -1;
  if (fromUnits < 0) return -1;
  const unitIndex = text.indexOf(search, fromUnits);
  return unitIndex < 0 ? -1 : codePointLength(text.slice(0, unitIndex));
}

/**
 * Normalizes text the way Saksi stores and hashes it: Unicode NFC and LF line ends
 * (docs/certificate.md, "Encodings").
 *
 * @example
 * normalizeText('e\u0301\r\n'); // 'é\n'
 */
export function normalizeText(text: string): string {
  return text.replace(/\r\n?/g, '\n').normalize('NFC');
}

/**
 * White space at either end of a question: ECMAScript's WhiteSpace and LineTerminator (ECMA-262
 * §12.2, §12.3; Unicode 15 category Zs), spelled out so that a verifier in any language removes the
 * same characters. U+0085 and U+200B are not white space here.
 */
const QUESTION_EDGE_SPACE =
  /^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$/g;

/**
 * Normalizes a question before it is hashed and signed, and before a presented question is compared
 * with a certificate's (docs/certificate.md, "The question"): {@link normalizeText}, then white space
 * removed from both ends. White space inside the question is kept.
 *
 * @example
 * normalizeQuestion('  Berapa denda?\r\n'); // 'Berapa denda?'
 */
export function normalizeQuestion(question: string): string {
  return normalizeText(question).replace(QUESTION_EDGE_SPACE, '');
}

/** Key id of an issuer key: the first 16 hex digits of SHA-256(raw public key). */
export function issuerKeyId(publicKey: Uint8Array): string {
  return toHex(sha256(publicKey)).slice(0, 16);
}

// ---------------------------------------------------------------------------------------------
// Validation

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TX_HASH = /^0x[0-9a-f]{64}$/;

const text: Field = { kind: 'string', max: 1_000_000 };
const shortText: Field = { kind: 'string', max: 1_000, min: 1 };
const digest: Field = { kind: 'hex', bytes: 32 };
const count: Field = { kind: 'integer', min: 0 };
const merklePath: Field = {
  kind: 'object',
  fields: {
    leaf_index: count,
    tree_size: { kind: 'integer', min: 1 },
    path: { kind: 'array', max: 64, items: digest },
  },
};

const relevance: Field = {
  kind: 'object',
  optional: true,
  fields: {
    score: { kind: 'number', min: 0, max: 1 },
    threshold: { kind: 'number', min: 0, max: 1 },
    method: { kind: 'object', fields: { id: shortText, version: shortText } },
  },
};
/** An index into a claim's evidence (at most 64 items). */
const evidenceIndex: Field = { kind: 'integer', min: 0, max: 63 };
const composition: Field = {
  kind: 'object',
  optional: true,
  fields: {
    template: { kind: 'string', min: 1, max: 100 },
    language: { kind: 'literal', values: ['id', 'en'] },
    parts: {
      kind: 'array',
      min: 1,
      max: 64,
      items: {
        kind: 'variant',
        variants: {
          fixed: { kind: 'string', min: 1, max: 200 },
          span: evidenceIndex,
          cite: evidenceIndex,
          marker: { kind: 'integer', min: 1, max: 999 },
          difference: { kind: 'array', min: 2, max: 2, items: evidenceIndex },
          spelled: evidenceIndex,
        },
      },
    },
  },
};

/** The answer check (v1.2). */
const answerCheck: Field = {
  kind: 'object',
  optional: true,
  fields: {
    method: { kind: 'object', fields: { id: shortText, version: shortText } },
    score: { kind: 'number', min: 0, max: 1 },
    threshold: { kind: 'number', min: 0, max: 1 },
    // Exclusive bounds: validateCertificate refuses 0 and 1.
    alpha: { kind: 'number', min: 0, max: 1 },
    calibration_sha256: digest,
    asked: shortText,
    constraints: { kind: 'array', max: 32, items: shortText },
  },
};

/**
 * The structure of a certificate of `schema`: the v1.1 fields exist only in v1.1 and v1.2, the
 * v1.2 ones (the outcome `related`, `answer.check`) only in v1.2.
 */
function certificateSchemaOf(schema: CertificateSchema): Field {
  const v11 = schema !== CERTIFICATE_SCHEMA_V1;
  const v12 = schema === CERTIFICATE_SCHEMA_V1_2;
  return {
    kind: 'object',
    fields: {
      schema: { kind: 'literal', values: CERTIFICATE_SCHEMAS },
      certificate_id: { kind: 'string', pattern: UUID, max: 36 },
      issued_at: { kind: 'string', pattern: RFC3339_UTC, max: 40 },
      issuer: {
        kind: 'object',
        fields: {
          name: shortText,
          key_id: { kind: 'hex', bytes: 8 },
          public_key: { kind: 'base64', bytes: 32 },
        },
      },
      query: {
        kind: 'object',
        fields: {
          text: { kind: 'string', max: 100_000 },
          sha256: digest,
          nonce: { kind: 'string', pattern: /^[0-9a-f]{32,128}$/, max: 128 },
          mode: { kind: 'literal', values: ['full', 'selection'] },
          selection_sha256: { ...digest, optional: true },
          session_id: { ...shortText, optional: true },
        },
      },
      retrieval: {
        kind: 'object',
        fields: {
          collection: shortText,
          parameters: {
            kind: 'object',
            fields: {
              top_k: { kind: 'integer', min: 1, max: 1000 },
              rrf_k: { kind: 'number', min: 0 },
              weights: { kind: 'record', max: 64, values: { kind: 'number' } },
              rewrite_variants: {
                kind: 'array',
                max: 64,
                items: {
                  kind: 'object',
                  fields: {
                    text: { kind: 'string', max: 10_000 },
                    weight: { kind: 'number' },
                    kind: shortText,
                  },
                },
              },
              glossary_sha256: { ...digest, optional: true },
            },
          },
          results: {
            kind: 'array',
            max: 1000,
            items: {
              kind: 'object',
              fields: {
                chunk_id: shortText,
                document_id: shortText,
                chunk_sha256: digest,
                rank: { kind: 'integer', min: 1 },
                score: { kind: 'number' },
              },
            },
          },
        },
      },
      answer: {
        kind: 'object',
        fields: {
          text,
          sha256: digest,
          generator: {
            kind: 'object',
            fields: {
              kind: { kind: 'literal', values: ['extractive', 'llm'] },
              model: shortText,
              version: shortText,
            },
          },
          ...(v11
            ? {
                relevance,
                outcome: {
                  kind: 'literal',
                  values: v12 ? ANSWER_OUTCOMES : ANSWER_OUTCOMES.filter((outcome) => outcome !== 'related'),
                  optional: true,
                },
                refusal: {
                  kind: 'object',
                  optional: true,
                  fields: { reason: { kind: 'literal', values: REFUSAL_REASONS } },
                },
              }
            : {}),
          ...(v12 ? { check: answerCheck } : {}),
        },
      },
      claims: {
        kind: 'array',
        max: 1000,
        items: {
          kind: 'object',
          fields: {
            claim_id: shortText,
            text,
            sha256: digest,
            answer_start: count,
            answer_end: count,
            evidence: {
              kind: 'array',
              max: 64,
              items: {
                kind: 'object',
                fields: {
                  chunk_id: shortText,
                  document_id: shortText,
                  chunk_sha256: digest,
                  span: {
                    kind: 'object',
                    fields: { start: count, end: count, text, sha256: digest },
                  },
                  document_proof: {
                    kind: 'object',
                    fields: { ...objectFields(merklePath), document_root: digest },
                  },
                  anchor: {
                    kind: 'object',
                    optional: true,
                    fields: {
                      chain_id: { kind: 'integer', min: 1 },
                      contract: { kind: 'string', pattern: ADDRESS, max: 42 },
                      tx_hash: { kind: 'string', pattern: TX_HASH, max: 66 },
                      block_number: count,
                      batch_root: digest,
                      batch_proof: merklePath,
                    },
                  },
                  citation: {
                    kind: 'object',
                    fields: {
                      document_title: { kind: 'string', max: 2_000 },
                      page: { kind: 'integer', min: 1, optional: true },
                      section_path: {
                        kind: 'array',
                        max: 32,
                        items: { kind: 'string', max: 1_000 },
                        optional: true,
                      },
                      pasal: { kind: 'string', max: 100, optional: true },
                      ayat: { kind: 'string', max: 100, optional: true },
                      label: { kind: 'string', max: 500, optional: true },
                      url: { kind: 'string', max: 4_000, optional: true },
                    },
                  },
                },
              },
            },
            verification: {
              kind: 'object',
              fields: {
                label: { kind: 'literal', values: VERIFICATION_LABELS },
                confidence: { kind: 'number', min: 0, max: 1 },
                verifier: { kind: 'object', fields: { id: shortText, version: shortText } },
              },
            },
            render: {
              kind: 'object',
              fields: {
                rendered: { kind: 'boolean' },
                reason: {
                  kind: 'literal',
                  values: v11 ? RENDER_REASONS : RENDER_REASONS.filter((reason) => reason !== 'NOT_RELEVANT'),
                },
              },
            },
            ...(v11 ? { composition, relevance } : {}),
          },
        },
      },
      policy: {
        kind: 'object',
        fields: {
          confidence_threshold: { kind: 'number', min: 0, max: 1 },
          require_anchor: { kind: 'boolean' },
          fail_closed: { kind: 'literal', values: [true] },
        },
      },
    },
  };
}

const certificateSchemas: Record<CertificateSchema, Field> = {
  [CERTIFICATE_SCHEMA_V1]: certificateSchemaOf(CERTIFICATE_SCHEMA_V1),
  [CERTIFICATE_SCHEMA_V1_1]: certificateSchemaOf(CERTIFICATE_SCHEMA_V1_1),
  [CERTIFICATE_SCHEMA_V1_2]: certificateSchemaOf(CERTIFICATE_SCHEMA_V1_2),
};

const bundleSchema: Field = {
  kind: 'object',
  fields: {
    certificate: { kind: 'any' },
    signature: { kind: 'base64', bytes: 64 },
    log: {
      kind: 'object',
      fields: {
        origin: shortText,
        leaf_index: count,
        inclusion_proof: { kind: 'array', max: 64, items: digest },
        checkpoint: { kind: 'string', max: 1_000_000, min: 1 },
        cosignatures: { kind: 'array', max: 100, items: { kind: 'string', max: 1_000 } },
      },
    },
    chunks: {
      kind: 'array',
      max: 10_000,
      items: { kind: 'object', fields: { chunk_id: shortText, text: { kind: 'string', max: 10_000_000 } } },
    },
  },
};

function objectFields(field: Field): Record<string, Field> {
  if (field.kind !== 'object') throw new Error('unreachable');
  return field.fields;
}

/**
 * Checks that `value` is a structurally valid v1, v1.1 or v1.2 certificate (types, sizes, formats —
 * not hashes or signatures). The v1.1 fields are refused in a v1 certificate, the v1.2 ones (the
 * outcome `related`, `answer.check`) in v1 and v1.1; in v1.2 an answered or related answer must carry
 * its check and no other may. Throws `ProofError('CERTIFICATE_INVALID')` naming the first bad field.
 *
 * @example
 * const certificate = validateCertificate(JSON.parse(text)); // throws CERTIFICATE_INVALID when malformed
 */
export function validateCertificate(value: unknown): Certificate {
  const declared =
    typeof value === 'object' && value !== null && Object.hasOwn(value, 'schema')
      ? (value as { schema: unknown }).schema
      : undefined;
  const schema =
    declared === CERTIFICATE_SCHEMA_V1_1 || declared === CERTIFICATE_SCHEMA_V1_2
      ? declared
      : CERTIFICATE_SCHEMA_V1;
  checkObject(value, certificateSchemas[schema], 'certificate', 'CERTIFICATE_INVALID');
  const certificate = value as Certificate;
  const answer = certificate.answer;
  if (answer.refusal !== undefined && answer.outcome !== 'refused')
    fail('CERTIFICATE_INVALID', 'certificate.answer.refusal', 'is allowed only with outcome "refused"');
  if (schema === CERTIFICATE_SCHEMA_V1_2) validateAnswerCheck(answer);
  certificate.claims.forEach((claim, index) => {
    if (claim.answer_end < claim.answer_start) {
      fail('CERTIFICATE_INVALID', `certificate.claims[${index}].answer_end`, 'is before answer_start');
    }
    claim.evidence.forEach((evidence, e) => {
      const where = `certificate.claims[${index}].evidence[${e}]`;
      if (evidence.span.end < evidence.span.start)
        fail('CERTIFICATE_INVALID', `${where}.span.end`, 'is before start');
      const proof = evidence.document_proof;
      if (proof.leaf_index >= proof.tree_size) {
        fail('CERTIFICATE_INVALID', `${where}.document_proof.leaf_index`, 'is not below tree_size');
      }
    });
  });
  return certificate;
}

/** The rules of `answer.check` (v1.2) beyond its structure. */
function validateAnswerCheck(answer: Answer): void {
  const checked = answer.outcome === 'answered' || answer.outcome === 'related';
  const check = answer.check;
  if (check === undefined) {
    if (checked)
      fail('CERTIFICATE_INVALID', 'certificate.answer.check', `is missing (outcome "${answer.outcome}")`);
    return;
  }
  if (!checked)
    fail(
      'CERTIFICATE_INVALID',
      'certificate.answer.check',
      'is allowed only with outcome "answered" or "related"',
    );
  if (check.alpha <= 0 || check.alpha >= 1)
    fail('CERTIFICATE_INVALID', 'certificate.answer.check.alpha', 'must be between 0 and 1, both excluded');
  check.constraints.forEach((constraint, index) => {
    if (index > 0 && !(check.constraints[index - 1]! < constraint))
      fail(
        'CERTIFICATE_INVALID',
        `certificate.answer.check.constraints[${index}]`,
        'is not sorted or repeats',
      );
  });
}

/** Checks the structure of a bundle and of the certificate in it. Throws `BUNDLE_INVALID`/`CERTIFICATE_INVALID`. */
export function validateBundle(value: unknown): Bundle {
  checkObject(value, bundleSchema, 'bundle', 'BUNDLE_INVALID');
  validateCertificate((value as { certificate: unknown }).certificate);
  return value as Bundle;
}

// ---------------------------------------------------------------------------------------------
// Hashes, signing, the log leaf

/** SHA-256 of the certificate's RFC 8785 canonical bytes, hex. */
export function certificateSha256(certificate: Certificate): string {
  return toHex(sha256(canonicalizeToBytes(certificate)));
}

/** The transparency-log entry of a signed certificate (docs/certificate.md, "Log entry"). */
export function logEntryOf(certificate: Certificate, signature: string): LogEntry {
  return {
    certificate_id: certificate.certificate_id,
    certificate_sha256: certificateSha256(certificate),
    signature,
    issued_at: certificate.issued_at,
  };
}

/** Leaf input bytes of the log: RFC 8785 canonical JSON of the {@link LogEntry}. */
export function logLeafInput(certificate: Certificate, signature: string): Uint8Array {
  return canonicalizeToBytes(logEntryOf(certificate, signature));
}

/** Guard used by verifiers: a lowercase 32-byte hex digest. */
export function isDigest(value: unknown): value is string {
  return isLowerHex(value, 32);
}
