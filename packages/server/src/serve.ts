/** Runs the app on Node's HTTP server (`@hono/node-server`). */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Engine } from '@saksi/engine';
import { type AppOptions, createApp } from './app.js';
import { reportFailedIngestion } from './error-reports.js';
import { Metrics } from './observability.js';
import { createBundleVerifier } from './verify-pool.js';

export interface ServerOptions extends AppOptions {
  /** 0 picks a free port. */
  port: number;
  host: string;
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:3000` (the actual port when 0 was asked for). */
  url: string;
  /** Stops accepting connections and resolves once open ones have ended. */
  close(): Promise<void>;
}

/** Starts listening; resolves once the port is bound (rejects when it cannot be, e.g. EADDRINUSE). */
export function startServer(engine: Engine, options: ServerOptions): Promise<RunningServer> {
  const metrics = options.metrics ?? new Metrics();
  const verifier = options.verifier ?? createBundleVerifier(engine.config.verification);
  const app = createApp(engine, {
    verifier,
    ...(options.webRoot !== undefined ? { webRoot: options.webRoot } : {}),
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
    ...(options.errors !== undefined ? { errors: options.errors } : {}),
    ...(options.tracing !== undefined ? { tracing: options.tracing } : {}),
    metrics,
  });
  // The ingestions of this engine (its in-process worker's jobs included) show in this server's
  // metrics and traces, and its failed jobs are reported as errors.
  const unobserve = engine.ingestion.observe((report) => {
    metrics.ingestion(report);
    options.tracing?.ingestion(report);
    if (options.errors !== undefined) reportFailedIngestion(options.errors, report);
  });
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => {
      unobserve();
      if (options.verifier === undefined) void verifier.close();
      reject(error);
    };
    const server = serve(
      { fetch: app.fetch, port: options.port, hostname: options.host },
      (info: AddressInfo) => {
        server.off('error', failed);
        const host =
          info.family === 'IPv6' || info.address.includes(':') ? `[${info.address}]` : info.address;
        resolve({
          url: `http://${host}:${info.port}`,
          close: () =>
            new Promise<void>((done, fail) => {
              unobserve();
              server.close((error) => {
                // The verification threads end once no request can reach them (a passed verifier is the caller's).
                const closed = options.verifier === undefined ? verifier.close() : Promise.resolve();
                closed.then(() => (error ? fail(error) : done()), fail);
              });
              // Idle keep-alive connections would otherwise hold close() open until they time out.
              if ('closeIdleConnections' in server) server.closeIdleConnections();
            }),
        });
      },
    );
    server.once('error', failed);
  });
}
