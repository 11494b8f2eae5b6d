/**
 * `page_url` (docs/api.md, "The page the question is asked on") on a real engine: in a docs
 * collection with a base URL, a question asked on a page is answered from that page when it can be,
 * from the whole collection when the page does not answer it, and a URL that is no page of the
 * collection changes nothing. The answer cache keeps page answers apart.
 */
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PAGES: Record<string, string> = {
  'docs/reducers.md': `# Reducers

## Updating state

A reducer updates the state by returning a new state object. A reducer must never change the existing state object in place.
`,
  'docs/hooks/rules.md': `---
slug: /hooks/rules-of-hooks
---

# Hooks

## Updating state

A component updates the state by calling the setter function that useState returns. A component must never assign to the state variable directly.
`,
  'docs/install.md': `# Installation

## Installing the package

Install the package with npm install example-store, or with yarn add example-store.
`,
};

let test: TestEngine;

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
  for (const [filename, text] of Object.entries(PAGES)) {
    await test.engine.ingest(
      'docs',
      { bytes: utf8Encode(text), filename },
      { language: 'en', profile: { base_url: 'https://docs.example.org/guide/', base_url_folder: 'docs' } },
    );
  }
}, 120_000);

afterAll(async () => {
  await test?.close();
});

const ask = (question: string, page_url?: string) =>
  test.engine.ask('docs', { question, ...(page_url !== undefined ? { page_url } : {}) });

describe('a question asked on a page', () => {
  it('is answered from that page when the page answers it', async () => {
    const onHooks = await ask(
      'How do I update the state?',
      'https://docs.example.org/guide/hooks/rules-of-hooks',
    );
    expect(onHooks.found, onHooks.answer).toBe(true);
    expect(onHooks.answer).toContain('setter function');
    expect(onHooks.answer).not.toContain('reducer');
    // Asked nowhere in particular, the same question is answered from the other page.
    const nowhere = await ask('How do I update the state?');
    expect(nowhere.answer).toContain('reducer');
    // The same URL with a fragment, a query and a trailing slash is the same page.
    const onReducers = await ask(
      'How do I update the state?',
      'https://docs.example.org/guide/reducers/?tab=1#rules',
    );
    expect(onReducers.found, onReducers.answer).toBe(true);
    expect(onReducers.answer).toContain('returning a new state object');
    expect(onReducers.answer).not.toContain('setter');
    // Every cited passage is the page's.
    const cited = new Set(
      onReducers.bundle.certificate.claims.flatMap((claim) => claim.evidence.map((e) => e.chunk_id)),
    );
    const pageChunks = onReducers.results.filter(
      (result) => result.document_id === onReducers.results[0]!.document_id,
    );
    expect([...cited].every((id) => pageChunks.some((chunk) => chunk.chunk_id === id))).toBe(true);
  });

  it('is answered from the whole collection when the page does not answer it', async () => {
    const answer = await ask(
      'How do I install the package?',
      'https://docs.example.org/guide/hooks/rules-of-hooks',
    );
    // The passage is quoted (as the answer, or as related passages when the answer check of this
    // uncalibrated collection does not confirm it): not a refusal.
    expect(answer.bundle.certificate.answer.outcome, answer.answer).not.toBe('refused');
    expect(answer.answer).toContain('npm install example-store');
  });

  it('a URL that is no page of the collection changes nothing', async () => {
    const plain = await ask('How does a component update the state?');
    for (const url of [
      'https://elsewhere.example/guide/reducers',
      'https://docs.example.org/other/reducers',
      'https://docs.example.org/guide/no-such-page',
      'not a url',
    ]) {
      const answer = await ask('How does a component update the state?', url);
      expect(answer.answer, url).toBe(plain.answer);
    }
  });

  it('the answer cache keeps an answer asked on a page apart from the same question elsewhere', async () => {
    const first = await ask('How do I update the state?', 'https://docs.example.org/guide/reducers');
    const again = await ask('How do I update the state?', 'https://docs.example.org/guide/reducers');
    expect(again.cached).toBe(true);
    expect(again.answer).toBe(first.answer);
    const otherPage = await ask(
      'How do I update the state?',
      'https://docs.example.org/guide/hooks/rules-of-hooks',
    );
    expect(otherPage.answer).not.toBe(first.answer);
    expect(otherPage.answer).toContain('setter function');
  });
});
