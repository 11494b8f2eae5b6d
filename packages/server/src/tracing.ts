/**
 * Traces (docs/operations.md, "Traces"): one server span per HTTP request, named by the route's
 * pattern, child spans for an answer's stages, and one trace per ingestion with a span per stage,
 * exported over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set.
 *
 * Unset, {@link startTracing} returns null and the OpenTelemetry SDK is never even loaded: the
 * product sends nothing anywhere unless told to. Set, the SDK is imported then (`otel.ts`).
 */
import type { TracesConfig } from '@saksi/engine';
import type { Tracing } from './tracing-types.js';

export type { AnswerTimings, RequestTrace, Tracing } from './tracing-types.js';

/** Tracing for `config`, or null (nothing loaded) when no endpoint is configured. */
export async function startTracing(
  config: TracesConfig | undefined,
  options: { version: string },
): Promise<Tracing | null> {
  if (config === undefined) return null;
  const { createOtelTracing } = await import('./otel.js');
  return createOtelTracing(config, options);
}
