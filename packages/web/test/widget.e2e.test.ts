/**
 * End-to-end tests of the embeddable widget (issue 5, items 6 and 7) in headless Chromium: a real
 * engine on PGlite with the `docs` collection ingested from Redux docs files, the real server serving
 * `packages/web/dist` (widget.js and the demo page /demo/docs/), and host pages on other origins
 * served by a tiny `node:http` server. The widget is driven through its `data-testid`s (Playwright
 * locators pierce its open shadow root).
 *
 * Covered: a streamed answer with its summary on the demo page (no CSP violation); the widget on
 * another origin allowed by SAKSI_ALLOWED_ORIGINS, and refused (an error, no answer) on one that is
 * not; selection mode grounded in the selected chunk with `selection_sha256` in the certificate;
 * Escape closes the panel and gives focus back to the Ask button; axe on the demo page with the panel
 * open; a disguised link in a plain-text document shown as its text and full address (no anchor, its
 * own "[1]" no citation marker). Screenshots go to test/screenshots/widget-*.png. Skipped when `/usr/bin/chromium` is missing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Bundle, normalizeText } from '@saksi/proof';
import type { RunningServer } from '@saksi/server';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEngine } from '../../engine/test/engine-fixture.js';
import {
  attribute,
  checkAccessibility,
  chromiumAvailable,
  repoRoot,
  startWebHarness,
  VIEWPORTS,
  type WebHarness,
  webRoot,
} from './browser-harness.js';

const hasChromium = chromiumAvailable('widget.e2e.test.ts', 'the widget end-to-end tests');

const docs = path.join(repoRoot, 'corpora/docs-redux/docs');

const DOC_FILES = ['introduction/CoreConcepts.md', 'api/Store.md', 'api/combineReducers.md'];
const QUESTION = 'What does a store hold?';
/** A sentence of api/Store.md that the demo page shows in one text node. */
const SELECTED = "It is equal to the last value returned by the store's reducer.";
const SUMMARY = /^\d+\D+\/ \d+\D+\/ \d+\D+$/;

let web: WebHarness | undefined;
let test: TestEngine;
let server: RunningServer;
let context: BrowserContext;
/** Host pages on other origins: one allowed by SAKSI_ALLOWED_ORIGINS, one not. */
let allowedHost: Server;
let otherHost: Server;
let allowedOrigin = '';
let otherOrigin = '';
const pageErrors: string[] = [];
const cspViolations: string[] = [];

/** A plain-text notice whose Markdown-looking link hides an off-site address, and a literal "[1]". */
const DISGUISED_LINK = '[official market levy portal](https://evil.example/phish)';
const NOTICE = [
  'Market office notice',
  '',
  `The daily market levy is paid through the ${DISGUISED_LINK} before 10:00 every day; see note [1] on the notice board.`,
  '',
].join('\n');

function hostPage(serverUrl: string, collection = 'docs'): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Another docs site</title></head>
<body><main><h1>Another docs site</h1>
<p>A store holds the whole state tree of your application.</p></main>
<script src="${serverUrl}/widget.js" data-collection="${collection}" async></script>
</body></html>`;
}

async function listen(
  handler: Parameters<typeof createServer>[1],
): Promise<{ server: Server; origin: string }> {
  const host = createServer(handler);
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  return { server: host, origin: `http://127.0.0.1:${(host.address() as AddressInfo).port}` };
}

describe.skipIf(!hasChromium)('docs widget end to end (Chromium)', () => {
  beforeAll(async () => {
    const widget = path.join(webRoot, 'widget.js');
    const demo = path.join(webRoot, 'demo/docs/index.html');
    const source = path.join(import.meta.dirname, '../src/widget/widget.ts');
    let serverUrl = '';
    const serve: Parameters<typeof createServer>[1] = (request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      // `/notices` embeds the widget on the collection of the plain-text notice.
      response.end(hostPage(serverUrl, request.url === '/notices' ? 'notices' : 'docs'));
    };
    ({ server: allowedHost, origin: allowedOrigin } = await listen(serve));
    ({ server: otherHost, origin: otherOrigin } = await listen(serve));
    web = await startWebHarness({
      env: { SAKSI_ANCHOR: 'none', SAKSI_ALLOWED_ORIGINS: allowedOrigin },
      needsBuild: () =>
        !existsSync(widget) || !existsSync(demo) || statSync(widget).mtimeMs < statSync(source).mtimeMs,
      prepare: async (opened) => {
        for (const file of DOC_FILES) {
          await opened.engine.ingest(
            'docs',
            { bytes: new Uint8Array(readFileSync(path.join(docs, file))), filename: file },
            { language: 'en' },
          );
        }
        // The widget's chat is anonymous: it works on public collections. Its citations link to the
        // pages on the Redux site (the files are stored relative to docs/, which the site serves).
        await opened.engine.configureCollection('docs', { public: true, base_url: 'https://redux.js.org/' });
        await opened.engine.ingest(
          'notices',
          {
            bytes: new TextEncoder().encode(NOTICE),
            filename: 'market-levy.txt',
            title: 'Market office notice',
          },
          { language: 'en' },
        );
        await opened.engine.configureCollection('notices', { public: true });
      },
    });
    ({ test, server, context } = web);
    serverUrl = server.url;
  });

  afterAll(async () => {
    await web?.close();
    await new Promise((resolve) => allowedHost?.close(resolve));
    await new Promise((resolve) => otherHost?.close(resolve));
    const widget = path.join(webRoot, 'widget.js');
    if (existsSync(widget)) {
      const { gzipSync } = await import('node:zlib');
      const bytes = readFileSync(widget);
      console.log(`widget.js: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`);
    }
    console.log(['screenshots:', ...(web?.shots ?? []).map((shot) => `  ${shot}`)].join('\n'));
  });

  it('answers on the demo page: Ask → question → streamed answer → summary and proof link', async () => {
    const page = await openPage(`${server.url}/demo/docs/`);
    const response = await page.request.get(`${server.url}/demo/docs/`);
    expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
    const widget = await page.request.get(`${server.url}/widget.js`);
    expect(widget.headers()['cross-origin-resource-policy']).toBe('cross-origin');
    expect(widget.headers()['cache-control']).toMatch(/max-age/);
    expect(await page.locator('article').count()).toBe(2);

    const answer = await ask(page, QUESTION, { recordStates: true });
    expect((await answer.textContent()) ?? '').toMatch(/store/i);
    expect(await page.evaluate(() => (window as unknown as { __states: string[] }).__states)).toContain(
      'streaming',
    );
    expect((await page.getByTestId('widget-summary').textContent()) ?? '').toMatch(SUMMARY);
    const href = (await page.getByTestId('widget-verify-link').getAttribute('href')) ?? '';
    expect(href).toMatch(new RegExp(`^${escapeRegExp(server.url)}/verify/[A-Za-z0-9_-]+$`));
    expect(await page.getByTestId('widget-source').count()).toBeGreaterThan(0);
    // Each source links to its page and heading on the docs site, in a new tab without an opener.
    const links = page.getByTestId('widget-source-link');
    expect(await links.count()).toBe(await page.getByTestId('widget-source').count());
    const first = links.first();
    expect(await first.getAttribute('href')).toMatch(
      /^https:\/\/redux\.js\.org\/(?:introduction\/core-concepts|api\/store|api\/combinereducers)(?:#[\w-]+)?$/,
    );
    expect(await first.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await first.getAttribute('target')).toBe('_blank');
    // The demo page names each page's path, linked to the page itself.
    expect(await page.locator('article .path a').first().getAttribute('href')).toBe(
      'https://redux.js.org/introduction/core-concepts',
    );
    await screenshot(page, 'widget-demo-answer');
    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('works on another origin listed in SAKSI_ALLOWED_ORIGINS, and fails cleanly on one that is not', async () => {
    const allowed = await openPage(`${allowedOrigin}/`);
    await ask(allowed, QUESTION);
    expect((await allowed.getByTestId('widget-answer').textContent()) ?? '').toMatch(/store/i);
    expect((await allowed.getByTestId('widget-summary').textContent()) ?? '').toMatch(SUMMARY);
    await screenshot(allowed, 'widget-cross-origin');
    await allowed.close();

    const refused = await openPage(`${otherOrigin}/`);
    const answer = await ask(refused, QUESTION, { expect: 'error' });
    const text = (await answer.textContent()) ?? '';
    expect(text).not.toMatch(/state tree/i);
    expect(await answer.getByRole('alert').count()).toBe(1);
    expect(await refused.getByTestId('widget-summary').isVisible()).toBe(false);
    expect(await refused.getByTestId('widget-verify-link').isVisible()).toBe(false);
    await screenshot(refused, 'widget-cross-origin-refused');
    await refused.close();
  });

  it('shows a disguised link in a .txt document as text with its full address, and its "[1]" as text', async () => {
    const page = await openPage(`${allowedOrigin}/notices`);
    const answer = await ask(page, 'How is the daily market levy paid?');
    // No anchor in the widget or on the page points off-site; the notice shows as written.
    expect(await page.locator('a[href*="evil.example"]').count()).toBe(0);
    expect(await answer.locator('a').count()).toBe(0);
    const shown = (await answer.textContent()) ?? '';
    expect(shown).toContain(DISGUISED_LINK);
    expect(await answer.getByText('https://evil.example/phish').first().isVisible()).toBe(true);
    // One marker per claim, where the composer put it; the notice's own "[1]" stays text.
    const claims = Number(
      /(\d+)\D*$/.exec((await page.getByTestId('widget-summary').textContent()) ?? '')?.[1],
    );
    expect(claims).toBeGreaterThan(0);
    expect(await answer.locator('sup.cite').count()).toBe(claims);
    expect(shown).toContain('see note [1] on the notice board.');
    await screenshot(page, 'widget-disguised-link');
    await page.close();
  });

  it('asks about a selected sentence: grounded in its chunk, selection_sha256 in the certificate', async () => {
    const page = await openPage(`${server.url}/demo/docs/`);
    const selected = await page.evaluate((sentence) => {
      const paragraph = Array.from(document.querySelectorAll('main p')).find((p) =>
        p.textContent?.includes(sentence),
      );
      const node = paragraph?.firstChild;
      if (!node || node.nodeType !== Node.TEXT_NODE) return '';
      const start = (node.textContent ?? '').indexOf(sentence);
      if (start < 0) return '';
      paragraph.scrollIntoView({ block: 'center' });
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, start + sentence.length);
      const selection = document.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      return selection?.toString() ?? '';
    }, SELECTED);
    expect(selected).toBe(SELECTED);
    const button = page.getByTestId('widget-selection-ask');
    await button.waitFor({ state: 'visible' });
    await screenshot(page, 'widget-selection-button');
    await button.click();
    await page.getByTestId('widget-panel').waitFor({ state: 'visible' });
    expect(await page.getByTestId('widget-quote').textContent()).toBe(SELECTED);
    expect(await page.getByTestId('widget-input').inputValue()).not.toBe('');
    const answer = page.getByTestId('widget-answer');
    await page.getByTestId('widget-send').click();
    await expect.poll(() => attribute(answer, 'data-state'), { timeout: 20_000 }).toBe('done');

    const containing = await test.engine.db.query<{ id: string }>(
      'SELECT id FROM chunks WHERE position($1 in text) > 0',
      ['It is equal to the last value returned by the store'],
    );
    expect(containing.rows).toHaveLength(1);
    const chunkIds = await page
      .getByTestId('widget-source')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-chunk-id')));
    expect(chunkIds[0]).toBe(containing.rows[0]?.id);

    const href = (await page.getByTestId('widget-verify-link').getAttribute('href')) ?? '';
    const certificateId = href.split('/verify/')[1] ?? '';
    const bundle = (await (
      await fetch(`${server.url}/api/v1/certificates/${certificateId}`)
    ).json()) as Bundle;
    expect(bundle.certificate.query.mode).toBe('selection');
    expect(bundle.certificate.query.selection_sha256).toBe(
      createHash('sha256').update(normalizeText(SELECTED), 'utf8').digest('hex'),
    );
    expect(bundle.certificate.retrieval.results[0]?.chunk_id).toBe(containing.rows[0]?.id);
    await screenshot(page, 'widget-selection-answer');
    await page.close();
  });

  it('Escape closes the panel and focus returns to the Ask button', async () => {
    const page = await openPage(`${server.url}/demo/docs/`);
    await page.getByTestId('widget-ask').click();
    await page.getByTestId('widget-panel').waitFor({ state: 'visible' });
    expect(await focusedTestId(page)).toBe('widget-input');
    expect(await page.getByTestId('widget-ask').getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await page.getByTestId('widget-panel').waitFor({ state: 'hidden' });
    expect(await focusedTestId(page)).toBe('widget-ask');
    expect(await page.getByTestId('widget-ask').getAttribute('aria-expanded')).toBe('false');
    // Keyboard only: Enter on the focused Ask button opens it again.
    await page.keyboard.press('Enter');
    await page.getByTestId('widget-panel').waitFor({ state: 'visible' });
    expect(await focusedTestId(page)).toBe('widget-input');
    await page.close();
  });

  it('has no serious or critical axe violation on the demo page with the panel open', async () => {
    const page = await openPage(`${server.url}/demo/docs/`);
    await ask(page, QUESTION);
    await checkAccessibility(page, 'the demo page');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'widget-mobile');
    await page.close();
  });

  it('raised no page error', () => {
    expect(pageErrors).toEqual([]);
  });
});

async function openPage(url: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.goto(url);
  await page.getByTestId('widget-ask').waitFor({ state: 'visible' });
  return page;
}

/** Opens the panel, asks `question` and waits for the answer's final state. */
async function ask(
  page: Page,
  question: string,
  options: { expect?: 'done' | 'error'; recordStates?: boolean } = {},
): Promise<Locator> {
  await page.getByTestId('widget-ask').click();
  await page.getByTestId('widget-panel').waitFor({ state: 'visible' });
  await page.getByTestId('widget-input').fill(question);
  if (options.recordStates)
    await page.evaluate(() => {
      const host = document.querySelector('[data-saksi-widget]');
      const answer = host?.shadowRoot?.querySelector('[data-testid="widget-answer"]');
      const states: string[] = [];
      (window as unknown as { __states: string[] }).__states = states;
      if (answer)
        new MutationObserver(() => states.push(answer.getAttribute('data-state') ?? '')).observe(answer, {
          attributes: true,
          attributeFilter: ['data-state'],
        });
    });
  await page.getByTestId('widget-send').click();
  const answer = page.getByTestId('widget-answer');
  await expect
    .poll(() => attribute(answer, 'data-state'), { timeout: 20_000 })
    .toBe(options.expect ?? 'done');
  return answer;
}

/** The `data-testid` of the focused element inside the widget's shadow root. */
function focusedTestId(page: Page): Promise<string> {
  return page.evaluate(() => {
    const host = document.querySelector('[data-saksi-widget]');
    if (document.activeElement !== host) return `outside:${document.activeElement?.tagName ?? ''}`;
    return host?.shadowRoot?.activeElement?.getAttribute('data-testid') ?? '';
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The viewport only: the widget floats over the host page. */
async function screenshot(page: Page, name: string): Promise<void> {
  await web?.screenshot(page, name, { fullPage: false });
}
