export type { AnchorRoundSummary, AnchorStatus, DocumentAnchor } from './anchor/anchoring.js';
export { AnchorError, type AnchorErrorCode, type AnchorProvider } from './anchor/provider.js';
export type { AnchorEvent, RoundRow } from './anchor/service.js';
export {
  type CollectionCalibration,
  collectionCalibrationOf,
  DEFAULT_ALPHA,
} from './answer/answer-check.js';
export type { QueryInput } from './answer/answers.js';
export type { AskEvent, AskInput, AskResult } from './answer/ask.js';
export {
  checkEntailment,
  type Entailment,
  type EntailmentLabel,
  type EntailmentOptions,
  type EntailmentReason,
} from './answer/entailment.js';
export {
  type AdminSession,
  type AdminUser,
  checkCsrfToken,
  createAdmin,
  csrfTokenFor,
  ensureFirstAdmin,
  hashPassword,
  type LoginResult,
  loadOrCreateAuthSecret,
  login,
  logout,
  MIN_PASSWORD_LENGTH,
  RateLimitedError,
  SESSION_SECONDS,
  sessionFor,
  verifyPassword,
} from './auth.js';
export type { CollectionPacks, RecordOwner } from './collection-service.js';
export {
  answerRiskOf,
  type Collection,
  type CollectionProfile,
  checkedProfile,
  collectionBaseUrl,
  collectionPresentation,
  DEFAULT_WORKSPACE,
  type LocalizedList,
  type LocalizedText,
  updateCollectionProfile,
} from './collections.js';
export {
  ANCHOR_PRESETS,
  type AnchorConfig,
  type EmbeddingConfig,
  type ErrorReportConfig,
  type KeySecrets,
  loadConfig,
  parseDsn,
  type SaksiConfig,
  type TracesConfig,
  type TrustProxyConfig,
} from './config.js';
export { type Database, openDatabase, type Queryable, type Transactional } from './db/database.js';
export { loadMigrations, migrate } from './db/migrate.js';
export { parseLsn, type ReplicaState, type ReplicaStatus } from './db/replica.js';
export {
  configureDemoCollections,
  type DemoCollection,
  type DemoProgress,
  demoCollections,
  loadDemoCollections,
} from './demo.js';
export type { ListDocumentsQuery } from './documents.js';
export type { EmbeddingModel } from './embed/model.js';
export { createEmbeddingModel, Engine, type EngineOptions } from './engine.js';
export {
  EngineError,
  type EngineErrorCode,
  isEngineError,
  isSaksiError,
  SaksiError,
  type SaksiErrorOptions,
} from './errors.js';
export {
  FEEDBACK_RATINGS,
  type FeedbackInput,
  type FeedbackRating,
  type FeedbackRecord,
  MAX_FEEDBACK_COMMENT,
  submitFeedback,
} from './feedback.js';
export { ENGINE_VERSION, type Health } from './health.js';
export {
  type EffectiveQuotas,
  failOrphanedDocuments,
  ingestJobHandler,
  publicJob,
  type SubmitResult,
} from './ingest/async.js';
export { BLOB_PART_BYTES } from './ingest/blob-store.js';
export { IngestError, type IngestErrorCode, isIngestError } from './ingest/errors.js';
export { isSupportedFile, SUPPORTED_EXTENSIONS } from './ingest/files.js';
export { explicitHeadingId, HeadingSlugger, slugify } from './ingest/heading-anchors.js';
export type {
  IngestListener,
  IngestOutcome,
  IngestReport,
  IngestStageTiming,
  IngestTimedStage,
} from './ingest/ingest-report.js';
export {
  citationUrl,
  docsPagePath,
  pageUrl,
  parseBaseFolder,
  parseBaseUrl,
} from './ingest/page-url.js';
export type {
  DocumentRecord,
  IngestInput,
  IngestProgress,
  IngestResult,
  IngestStage,
} from './ingest/pipeline.js';
export { countTokens } from './ingest/tokens.js';
export {
  type ClaimedJob,
  claimJob,
  completeJob,
  enqueueJob,
  type FinishedJob,
  getJob,
  JOB_STATUSES,
  JobLeaseLostError,
  type JobRow,
  type JobStatus,
  listJobs,
} from './jobs/queue.js';
export { type JobHandler, JobWorker, type JobWorkerOptions } from './jobs/worker.js';
export {
  DEFAULT_ISSUER_NAME,
  DEFAULT_LOG_ORIGIN,
  DEFAULT_WITNESS_NAME,
  generateKeyFiles,
  KEY_FILES,
  type KeyOptions,
  keyEnvironment,
  keysFromSecrets,
  loadOrCreateKeys,
  type SigningKeys,
} from './keys.js';
export {
  type AnswerModel,
  type AnswerModelRequest,
  buildPrompt,
  type CitedAnswer,
  type CitedSentence,
  type CreateAnswerModelOptions,
  createAnswerModel,
  describeLlmConfig,
  isLlmError,
  type LlmConfig,
  LlmError,
  type LlmErrorCode,
  type LlmFinishReason,
  type LlmProvider,
  type LlmStreamPart,
  type LlmUsage,
  NO_ANSWER_TEXT,
  type PromptLanguage,
  type PromptProfile,
  type PromptSource,
  parseCitedAnswer,
  parseLlmConfig,
} from './llm/index.js';
export { LogSequencer, type LogWrite } from './log/sequencer.js';
export {
  checkpointWithCosignatures,
  decodeEntryBundle,
  formatTilePath,
  parseTilePath,
  readEntryBundle,
  readHashTile,
  readTile,
  TILE_HEIGHT,
  TILE_WIDTH,
  type TilePath,
  tilesForTreeSize,
  tileWidth,
} from './log/tiles.js';
export type { LogAppendResult, StoredCheckpoint } from './log/transparency-log.js';
export { addCosignature, bestCheckpointFor, type CheckpointRecord } from './log/witness.js';
export type { HostResolver, ResolvedAddress } from './net/address-guard.js';
export { type OperationalReadings, operationalReadings } from './operations.js';
export {
  DOCUMENT_PACKS,
  type DocumentPack,
  legalCitationLabel,
  PACK_IDS,
  type PackId,
  parseRegulation,
  type RegulationAyat,
  type RegulationOutline,
  type RegulationPasal,
  type RegulationPoint,
  regulationOutline,
  regulationShortName,
} from './packs/registry.js';
export {
  chargeSharedRateLimit,
  type SharedRateLimit,
  type SharedRateLimitResult,
  sweepSharedRateLimits,
} from './rate-limits.js';
export type { Repositories, Repository } from './repositories.js';
export {
  type CollectionGlossary,
  GLOSSARY_FORMAT,
  GLOSSARY_VERSION,
  type GlossaryTranslation,
  glossarySha256,
  parseGlossary,
  parseGlossaryText,
} from './retrieve/collection-glossary.js';
export type { QueryVariant, RetrievalArms, RetrievedChunk, RetrieveResult } from './retrieve/retrieve.js';
export { type ChatMessage, type ChatSession, deleteChatSession, getChatSession } from './sessions.js';
export {
  createUpload,
  getUpload,
  markUploadProcessed,
  publicUpload,
  putUploadContent,
  type UploadRecord,
  uploadBytes,
} from './uploads.js';
export {
  csvField,
  MAX_TOP_REFUSED,
  MAX_USAGE_DAYS,
  type RefusedQuestion,
  refusedQuestionsCsv,
  type UsageDay,
  type UsageFigures,
  type UsageLatency,
  type UsageOptions,
  type UsageReport,
  usageDaysCsv,
  usageReport,
} from './usage.js';
export { type ReadLimitedOptions, readLimited } from './util/read-limited.js';
export {
  createWebhook,
  deleteWebhook,
  deliverDueWebhooks,
  enqueueWebhookEvent,
  listDeliveries,
  listWebhooks,
  signWebhookPayload,
  verifyWebhookSignature,
  WEBHOOK_DELIVERY_FAILED,
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookNetworkOptions,
  type WebhookRecord,
} from './webhooks.js';
export * from './workspaces.js';
