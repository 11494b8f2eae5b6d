/**
 * {@link Tracing} on the OpenTelemetry SDK (`@opentelemetry/sdk-trace-base`, OTLP/HTTP exporter),
 * loaded only when traces are configured (`tracing.ts`). The provider is not registered globally:
 * only the spans made here are exported, none from libraries that would instrument themselves.
 *
 * Attributes hold no secret and no question: the route's pattern (never the path, which holds
 * session and certificate ids), the status, the request id, stage timings, job and document ids.
 */
import {
  type Context,
  context as contexts,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
} from '@opentelemetry/semantic-conventions';
import type { IngestReport, TracesConfig } from '@saksi/engine';
import type { RequestTrace, Tracing } from './tracing-types.js';

/** Spans are sent in batches at most this often (ms), and at shutdown. */
const EXPORT_DELAY_MS = 1_000;

export function createOtelTracing(config: TracesConfig, options: { version: string }): Tracing {
  const exporter = new OTLPTraceExporter({ url: config.url, headers: config.headers });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: config.serviceName,
      [ATTR_SERVICE_VERSION]: options.version,
    }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: EXPORT_DELAY_MS })],
  });
  const tracer = provider.getTracer('saksi', options.version);
  const propagator = new W3CTraceContextPropagator();

  return {
    startRequest(method, headers) {
      const carrier: Record<string, string> = {};
      const parent = headers.get('traceparent');
      const state = headers.get('tracestate');
      if (parent !== null) carrier['traceparent'] = parent;
      if (state !== null) carrier['tracestate'] = state;
      const incoming = propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
      const span = tracer.startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method } },
        incoming,
      );
      return requestTrace(tracer, span, method);
    },
    ingestion(report) {
      ingestionTrace(tracer, report);
    },
    async flush() {
      await provider.forceFlush();
    },
    async shutdown() {
      await provider.shutdown();
    },
  };
}

function requestTrace(tracer: Tracer, span: Span, method: string): RequestTrace {
  const parent = trace.setSpan(contexts.active(), span);
  return {
    answer(found, cached, timings) {
      span.setAttribute('saksi.answer.found', found);
      span.setAttribute('saksi.answer.cached', cached);
      if (cached) return;
      // The stages ran one after the other and ended about now: placed back to back from their times.
      const end = Date.now();
      const certifyStart = end - timings.certify_ms;
      const answerStart = certifyStart - timings.answer_ms;
      const retrievalStart = answerStart - timings.total_ms;
      child(tracer, parent, 'answer.retrieval', retrievalStart, answerStart, {
        'saksi.embed_ms': timings.embed_ms,
        'saksi.lexical_ms': timings.lexical_ms,
        'saksi.vector_ms': timings.vector_ms,
        'saksi.fuse_ms': timings.fuse_ms,
      });
      child(tracer, parent, 'answer.generation', answerStart, certifyStart, {
        'saksi.stage.includes': 'selection or generation, claim verification',
      });
      child(tracer, parent, 'answer.certification', certifyStart, end, {
        'saksi.stage.includes': 'signing, transparency log append',
      });
    },
    end({ route, status, requestId }) {
      span.updateName(`${method} ${route}`);
      span.setAttribute(ATTR_HTTP_ROUTE, route);
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      span.setAttribute('saksi.request_id', requestId);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

function child(
  tracer: Tracer,
  parent: Context,
  name: string,
  start: number,
  end: number,
  attributes: Record<string, string | number>,
): void {
  tracer.startSpan(name, { startTime: start, attributes }, parent).end(end);
}

function ingestionTrace(tracer: Tracer, report: IngestReport): void {
  const code = (report.error as { code?: unknown } | undefined)?.code;
  const span = tracer.startSpan(
    'ingest',
    {
      kind: SpanKind.CONSUMER,
      startTime: report.startedAt,
      attributes: {
        'saksi.ingest.outcome': report.outcome,
        ...(report.jobId !== undefined ? { 'saksi.job_id': report.jobId } : {}),
        ...(report.documentId !== undefined ? { 'saksi.document_id': report.documentId } : {}),
        ...(report.attempt !== undefined ? { 'saksi.job.attempt': report.attempt } : {}),
        ...(report.ocrPages !== undefined ? { 'saksi.ocr_pages': report.ocrPages } : {}),
        // The error's code only: its message may quote the document.
        ...(report.error !== undefined ? { 'error.type': typeof code === 'string' ? code : 'INTERNAL' } : {}),
      },
    },
    ROOT_CONTEXT,
  );
  const parent = trace.setSpan(ROOT_CONTEXT, span);
  for (const stage of report.stages)
    child(tracer, parent, `ingest.${stage.stage}`, stage.startedAt, stage.startedAt + stage.ms, {});
  if (report.outcome === 'failed' || report.outcome === 'retrying')
    span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(report.startedAt + report.ms);
}
