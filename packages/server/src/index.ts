export { type AppOptions, createApp } from './app.js';
export {
  createErrorReporter,
  type ErrorContext,
  type ErrorReporter,
  reportFailedIngestion,
} from './error-reports.js';
export { ApiError, type ErrorBody, type ServerErrorCode } from './errors.js';
export { createLogger, type Logger, type LogLevel, Metrics, redact, redactText } from './observability.js';
export { openApiDocument } from './openapi.js';
export { type RunningServer, type ServerOptions, startServer } from './serve.js';
export { type RequestTrace, startTracing, type Tracing } from './tracing.js';
