/**
 * How-to answers in documentation end to end (PGlite or PostgreSQL): the sentence that introduces a
 * code block and the block, stored as the next chunk of the section, follow the sentences that answer.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { trustOptions, verifyBundle } from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repository = path.resolve(import.meta.dirname, '../../../../..');
const faq = path.join(repository, 'corpora/docs-redux/docs/faq');

let test: TestEngine;
beforeAll(async () => {
  test = await openTestEngine();
  for (const file of ['CodeStructure.md', 'Actions.md'])
    await test.engine.ingest(
      'docs',
      { bytes: new Uint8Array(readFileSync(path.join(faq, file))), filename: `faq/${file}` },
      { language: 'en' },
    );
});
afterAll(async () => {
  await test?.close();
});

describe('how-to answers', () => {
  it('go on with the sentence that introduces code and the code chunk that follows it', async () => {
    const result = await test.engine.ask('docs', {
      question:
        'How can I read the auth token from the Redux store inside an axios interceptor without importing the store everywhere?',
    });
    expect(result.found).toBe(true);
    expect(result.plan.intent).toBe('procedure');
    const claims = result.bundle.certificate.claims;
    const introduction = claims.findIndex((claim) => /injectStore function .*instead:/.test(claim.text));
    expect(introduction).toBeGreaterThan(0);
    const code = claims[introduction + 1]!;
    expect(code.text).toMatch(/^let store;[\s\S]*export const injectStore = \(_store\) =>/);
    const codeChunk = result.results.find((chunk) => chunk.chunk_id === code.evidence[0]!.chunk_id);
    expect(codeChunk?.kind).toBe('code');
    expect(result.answer).toContain('config.headers.authorization = store.getState().auth.token;');
    const verdict = await verifyBundle(result.bundle, {
      ...trustOptions(test.engine.trustedKeys()),
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(verdict.verdict).toBe('verified');
  });
});
