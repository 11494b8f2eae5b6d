export {
  describeLlmConfig,
  LLM_DEFAULT_BASE_URLS,
  LLM_DEFAULTS,
  LLM_PROVIDERS,
  type LlmConfig,
  type LlmProvider,
  parseLlmConfig,
} from './config.js';
export { isLlmError, LlmError, type LlmErrorCode, type LlmErrorOptions } from './errors.js';
export {
  type AnswerModel,
  type AnswerModelRequest,
  type CreateAnswerModelOptions,
  createAnswerModel,
  type LlmFinishReason,
  type LlmStreamPart,
  type LlmUsage,
  retryAfterMs,
} from './model.js';
export {
  type BuildPromptInput,
  type BuiltPrompt,
  buildPrompt,
  type CitedAnswer,
  type CitedSentence,
  NO_ANSWER_TEXT,
  type PromptLanguage,
  type PromptProfile,
  type PromptSource,
  parseCitedAnswer,
} from './prompts.js';
