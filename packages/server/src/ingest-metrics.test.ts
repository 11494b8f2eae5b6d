/**
 * Ingestion metrics (docs/operations.md) on a real listening server whose engine runs its worker
 * in-process, as `saksi serve` does: an uploaded document goes through its stages and /metrics shows
 * their histograms and the outcome of each ingestion.
 */
import { DEFAULT_WORKSPACE } from '@saksi/engine';
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from './observability.js';
import { type RunningServer, startServer } from './serve.js';

const GUIDE = `# Parking rules

## Fees

Parking in the city centre costs two euros per hour on weekdays.

## Exemptions

Residents with a permit park for free.
`;

describe('ingestion metrics', () => {
  let test: TestEngine;
  let server: RunningServer;

  beforeAll(async () => {
    test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
    server = await startServer(test.engine, {
      port: 0,
      host: '127.0.0.1',
      logger: createLogger('silent'),
    });
    test.engine.workers.start({ pollMs: 20 });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await test?.close();
  });

  async function settled(documentId: string): Promise<string> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const document = await test.engine.documents.get(documentId);
      if (document.status === 'READY' || document.status === 'FAILED') return document.status;
      if (Date.now() > deadline) throw new Error(`document ${documentId} still ${document.status}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('shows each stage of an uploaded document and the outcome of each ingestion', async () => {
    const submit = (bytes: Uint8Array, filename: string) =>
      test.engine.submit('parking', { bytes, filename }, { workspaceId: DEFAULT_WORKSPACE, language: 'en' });
    const good = await submit(utf8Encode(GUIDE), 'parking.md');
    expect(await settled(good.document.id)).toBe('READY');
    // Bytes that are no document the parser knows: the job fails at once, in the parse stage.
    const bad = await submit(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0xff, 0xfe]), 'tool.bin');
    expect(await settled(bad.document.id)).toBe('FAILED');
    // A synchronous ingestion of bytes already there is counted too.
    await test.engine.ingest(
      'parking',
      { bytes: utf8Encode(GUIDE), filename: 'again.md' },
      { language: 'en' },
    );

    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const stage of ['parse', 'chunk', 'embed', 'store'])
      expect(text).toMatch(new RegExp(`^saksi_ingest_stage_seconds_count\\{stage="${stage}"\\} [1-9]`, 'm'));
    expect(text).toMatch(/^saksi_ingest_stage_seconds_bucket\{stage="embed",le="1800"\} [1-9]/m);
    expect(text).toMatch(/^saksi_ingested_documents_total\{outcome="succeeded"\} 1$/m);
    expect(text).toMatch(/^saksi_ingested_documents_total\{outcome="failed"\} 1$/m);
    expect(text).toMatch(/^saksi_ingested_documents_total\{outcome="deduplicated"\} 1$/m);
    expect(text).toMatch(/^# TYPE saksi_ingest_stage_seconds histogram$/m);
  }, 120_000);
});
