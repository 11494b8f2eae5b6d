/**
 * End-to-end tests of the embeddable widget in headless Chromium: a real engine on PGlite with the
 * `docs` collection ingested from Redux docs files, the real server serving `packages/web/dist`
 * (widget.js, its verifier widget-verify.js and the demo page /demo/docs/), and host pages on other
 * origins served by a tiny `node:http` server (`/<collection>?lang=id|en`). The widget is driven
 * through its `data-testid`s (Playwright locators pierce its open shadow root).
 *
 * Covered: a streamed answer on the demo page (no CSP violation), its thumbs and comment stored with
 * its certificate; the widget's own verification —
 * its verifier fetched from the server only once an answer arrives, the keys pinned in the page's
 * localStorage, the badge from its own check; a tampered answer (the server's reply intercepted and a
 * figure changed) shown as failed, with no live link; a changed server key shown as a warning, not
 * verified; quoted code as a code block with its lines; [n] markers that lead to their source; the
 * question as a message and the textarea cleared; sources inside the panel at 375 px; the widget on
 * another origin allowed by SAKSI_ALLOWED_ORIGINS, and refused on one that is not; selection mode
 * grounded in the selected chunk; Escape; axe; a disguised link in a plain-text document shown as text.
 * Screenshots go to test/screenshots/widget-<what>-<375|1366>-<id|en>.png. Skipped when
 * `/usr/bin/chromium` is missing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Bundle, normalizeText, toBase64 } from '@saksi/proof';
import type { RunningServer } from '@saksi/server';
import type { TestEngine } from '@saksi/test-support/engine-fixture';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishOnlyPhrasesOf } from '../src/i18n-check.js';
import { CHECK_WORDS, STRINGS } from '../src/widget/strings.js';
import {
  BROWSER_TEST,
  checkAccessibility,
  chromiumAvailable,
  englishOnPage,
  expectNoHorizontalScroll,
  repoRoot,
  startWebHarness,
  type WebHarness,
  webRoot,
} from './browser-harness.js';

const hasChromium = chromiumAvailable('widget.e2e.test.ts', 'the widget end-to-end tests');

const docs = path.join(repoRoot, 'corpora/docs-redux/docs');

const DOC_FILES = ['introduction/CoreConcepts.md', 'api/Store.md', 'api/combineReducers.md'];
const QUESTION = 'What does a store hold?';
/** Answered from a code block of api/combineReducers.md. */
const CODE_QUESTION = 'How does combineReducers produce the state object?';
/** A sentence of api/Store.md that the demo page shows in one text node. */
const SELECTED = "It is equal to the last value returned by the store's reducer.";
const PHONE = { width: 375, height: 812 } as const;
const LAPTOP = { width: 1366, height: 768 } as const;
type Lang = 'en' | 'id';

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
/** The same office's notice in Indonesian, with a figure to change. */
const PENGUMUMAN = [
  'Pengumuman kantor pasar',
  '',
  'Retribusi pasar harian sebesar Rp5.000 dibayar di loket kantor pasar sebelum pukul 10.00 setiap hari.',
  '',
].join('\n');
/** Per language: the host page's collection, a question it answers, and a figure of that answer. */
const MARKET = {
  en: {
    collection: 'notices',
    question: 'How is the daily market levy paid?',
    figure: '10:00',
    altered: '11:00',
    uncovered: 'How much does parking at the airport cost?',
  },
  id: {
    collection: 'pasar',
    question: 'Berapa retribusi pasar harian?',
    figure: 'Rp5.000',
    altered: 'Rp50.000',
    uncovered: 'Berapa tarif parkir di bandara?',
  },
} as const;

function hostPage(serverUrl: string, collection: string, lang: Lang): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Another docs site</title></head>
<body><main><h1>${lang === 'id' ? 'Situs dokumentasi lain' : 'Another docs site'}</h1>
<p>A store holds the whole state tree of your application.</p></main>
<script src="${serverUrl}/widget.js" data-collection="${collection}" data-lang="${lang}" async></script>
</body></html>`;
}

async function listen(
  handler: Parameters<typeof createServer>[1],
): Promise<{ server: Server; origin: string }> {
  const host = createServer(handler);
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  return { server: host, origin: `http://127.0.0.1:${(host.address() as AddressInfo).port}` };
}

/** The newest change to what widget.js and widget-verify.js are built from. */
function newestWidgetSource(): number {
  const source = path.join(import.meta.dirname, '../src');
  const files = [
    ...readdirSync(path.join(source, 'widget')).map((name) => path.join(source, 'widget', name)),
    path.join(source, 'sources.ts'),
    path.join(source, 'markdown.ts'),
  ];
  return Math.max(...files.map((file) => statSync(file).mtimeMs));
}

describe.skipIf(!hasChromium)('docs widget end to end (Chromium)', BROWSER_TEST, () => {
  beforeAll(async () => {
    const widget = path.join(webRoot, 'widget.js');
    const verifier = path.join(webRoot, 'widget-verify.js');
    const demo = path.join(webRoot, 'demo/docs/index.html');
    let serverUrl = '';
    const serve: Parameters<typeof createServer>[1] = (request, response) => {
      const url = new URL(request.url ?? '/', 'http://host');
      const collection = url.pathname.slice(1) || 'docs';
      const lang: Lang = url.searchParams.get('lang') === 'id' ? 'id' : 'en';
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(hostPage(serverUrl, collection, lang));
    };
    ({ server: allowedHost, origin: allowedOrigin } = await listen(serve));
    ({ server: otherHost, origin: otherOrigin } = await listen(serve));
    web = await startWebHarness({
      env: { SAKSI_ANCHOR: 'none', SAKSI_ALLOWED_ORIGINS: allowedOrigin },
      needsBuild: () =>
        ![widget, verifier, demo].every(existsSync) ||
        Math.min(statSync(widget).mtimeMs, statSync(verifier).mtimeMs) < newestWidgetSource(),
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
        await opened.engine.collections.configure('docs', {
          public: true,
          base_url: 'https://redux.js.org/',
        });
        await opened.engine.ingest(
          'notices',
          {
            bytes: new TextEncoder().encode(NOTICE),
            filename: 'market-levy.txt',
            title: 'Market office notice',
          },
          { language: 'en' },
        );
        // The answer check was not calibrated on these two collections, which are released at the
        // strictest λ; the widget's verdicts below need released answers, so they accept the highest
        // risk (docs/engine.md, "The answer check").
        await opened.engine.collections.configure('notices', { public: true, answer_risk: 0.5 });
        await opened.engine.ingest(
          'pasar',
          {
            bytes: new TextEncoder().encode(PENGUMUMAN),
            filename: 'retribusi-pasar.txt',
            title: 'Pengumuman kantor pasar',
          },
          { language: 'id' },
        );
        await opened.engine.collections.configure('pasar', { public: true, answer_risk: 0.5 });
      },
    });
    ({ test, server, context } = web);
    serverUrl = server.url;
  });

  afterAll(async () => {
    await web?.close();
    await new Promise((resolve) => allowedHost?.close(resolve));
    await new Promise((resolve) => otherHost?.close(resolve));
    for (const name of ['widget.js', 'widget-verify.js']) {
      const file = path.join(webRoot, name);
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file);
      console.log(`${name}: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`);
    }
    console.log(['screenshots:', ...(web?.shots ?? []).map((shot) => `  ${shot}`)].join('\n'));
  });

  it('answers on the demo page: Ask → question → streamed answer → its own check and proof link', async () => {
    const page = await openPage(`${server.url}/demo/docs/`);
    const response = await page.request.get(`${server.url}/demo/docs/`);
    expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
    for (const script of ['widget.js', 'widget-verify.js']) {
      const served = await page.request.get(`${server.url}/${script}`);
      expect(served.headers()['cross-origin-resource-policy']).toBe('cross-origin');
      expect(served.headers()['cache-control']).toMatch(/max-age/);
    }
    expect(await page.locator('article').count()).toBe(2);

    const answer = await ask(page, QUESTION, { recordStates: true });
    expect((await answer.textContent()) ?? '').toMatch(/store/i);
    expect(await page.evaluate(() => (window as unknown as { __states: string[] }).__states)).toContain(
      'streaming',
    );
    expect(await verdictOf(page)).toBe('verified');
    const href = (await last(page, 'widget-verify-link').getAttribute('href')) ?? '';
    expect(href).toMatch(new RegExp(`^${escapeRegExp(server.url)}/verify/[A-Za-z0-9_-]+$`));
    expect(await page.getByTestId('widget-source').count()).toBeGreaterThan(0);
    // Each cited source links to its page and heading on the docs site, in a new tab without an opener.
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
    await screenshot(page, 'demo-answer', 'en');

    // Thumbs down, then a comment: each stored with the answer's certificate, a later one replacing it.
    const certificateId = href.split('/verify/')[1] ?? '';
    await last(page, 'widget-feedback-down').click();
    await expect
      .poll(() => last(page, 'widget-feedback-status').textContent())
      .toBe(STRINGS.en.feedbackThanks);
    expect(await last(page, 'widget-feedback-down').getAttribute('aria-pressed')).toBe('true');
    expect(await last(page, 'widget-feedback-up').getAttribute('aria-pressed')).toBe('false');
    await last(page, 'widget-feedback-comment').fill('It did not say what the state is made of.');
    await last(page, 'widget-feedback-send').click();
    const stored = async () =>
      (
        await test.engine.db.query<{ rating: string; comment: string | null }>(
          'SELECT rating, comment FROM answer_feedback WHERE certificate_id = $1',
          [certificateId],
        )
      ).rows;
    await expect
      .poll(async () => (await stored())[0]?.comment ?? null)
      .toBe('It did not say what the state is made of.');
    expect(await stored()).toEqual([
      { rating: 'down', comment: 'It did not say what the state is made of.' },
    ]);
    await screenshot(page, 'demo-feedback', 'en');
    expect(cspViolations).toEqual([]);
    await page.close();
  });

  for (const lang of ['en', 'id'] as const) {
    const market = MARKET[lang];

    it(`${lang}: checks each answer itself, its verifier loaded only when an answer arrives; the question is a message`, async () => {
      // A reader's browser of its own, that has seen no answer of this server yet.
      const own = await web!.browser.newContext({ viewport: LAPTOP });
      const page = await openPage(`${allowedOrigin}/${market.collection}?lang=${lang}`, own);
      const loads = verifierLoads(page);
      await page.getByTestId('widget-ask').click();
      await page.getByTestId('widget-panel').waitFor({ state: 'visible' });
      expect(loads).toEqual([]);
      const answer = await ask(page, market.question, { open: false });
      expect((await answer.textContent()) ?? '').toContain(market.figure);
      expect(await verdictOf(page)).toBe('verified');
      expect(loads).toEqual([`${server.url}/widget-verify.js`]);
      const badge = last(page, 'widget-badge');
      expect(await badge.getAttribute('data-authentic')).toBe('true');
      expect(await badge.getAttribute('data-pin')).toBe('first-use');
      expect(Number(await badge.getAttribute('data-supported'))).toBeGreaterThan(0);
      expect(await badge.getAttribute('data-supported')).toBe(await badge.getAttribute('data-claims'));
      expect(await last(page, 'widget-authentic').getAttribute('data-ok')).toBe('true');
      // The keys this check used are the server's, now pinned in the page's storage for its origin.
      const published = (await (await fetch(`${server.url}/.well-known/saksi-keys.json`)).json()) as {
        issuers: { public_key: string }[];
      };
      const pinned = await page.evaluate(
        (key) => localStorage.getItem(key),
        `saksi.widget.keys.${server.url}`,
      );
      expect(JSON.parse(pinned ?? '{}').issuers?.[0]?.public_key).toBe(published.issuers[0]?.public_key);
      // The question is a message of its own and the textarea is empty again.
      expect(await last(page, 'widget-question').textContent()).toContain(market.question);
      expect(await page.getByTestId('widget-input').inputValue()).toBe('');
      await screenshot(page, 'answer', lang);
      await page.setViewportSize(PHONE);
      await expectSourcesInsidePanel(page);
      await screenshot(page, 'answer', lang);

      // A second answer reuses the verifier already loaded; both questions stay as messages.
      await page.setViewportSize(LAPTOP);
      await ask(page, market.question, { open: false });
      expect(await verdictOf(page)).toBe('verified');
      expect(await last(page, 'widget-badge').getAttribute('data-pin')).toBe('pinned');
      expect(loads).toHaveLength(1);
      expect(await page.getByTestId('widget-question').count()).toBe(2);
      await own.close();
    });

    it(`${lang}: an answer whose figure was changed in transit is shown as failed, with no live link`, async () => {
      const page = await openPage(`${allowedOrigin}/${market.collection}?lang=${lang}`);
      await changeFigureInTransit(page, market.figure, market.altered);
      const answer = await ask(page, market.question);
      expect(await verdictOf(page)).toBe('failed');
      // The altered figure is what the reader sees, under the failed badge.
      expect((await answer.textContent()) ?? '').toContain(market.altered);
      const badge = last(page, 'widget-badge');
      expect(await badge.getAttribute('data-authentic')).toBe('false');
      expect(await last(page, 'widget-authentic').getAttribute('data-ok')).toBe('false');
      expect(await page.getByTestId('widget-supported').count()).toBe(0);
      expect(await last(page, 'widget-problems').locator('li').count()).toBeGreaterThan(0);
      // No link out of the panel but the one to the server's own proof page.
      expect(
        await last(page, 'widget-message')
          .locator('a[href^="http"]:not([data-testid="widget-verify-link"])')
          .count(),
      ).toBe(0);
      await checkAccessibility(page, `the failed widget (${lang})`);
      await screenshot(page, 'tampered', lang);
      await page.setViewportSize(PHONE);
      await expectSourcesInsidePanel(page);
      await screenshot(page, 'tampered', lang);
      await page.close();
    });

    it(`${lang}: a question the documents do not cover is shown as not answered, never as verified`, async () => {
      const page = await openPage(`${allowedOrigin}/${market.collection}?lang=${lang}`);
      await ask(page, market.uncovered);
      const verdict = await verdictOf(page);
      // Refused, or related passages (authentic quotes, not a confirmed answer): never verified.
      expect(['refused', 'not-answered', 'related']).toContain(verdict);
      const badge = last(page, 'widget-badge');
      expect(await badge.getAttribute('data-authentic')).toBe('true');
      expect(await page.getByTestId('widget-supported').count()).toBe(0);
      await checkAccessibility(page, `the refusal (${lang})`);
      await screenshot(page, 'refusal', lang);
      await page.setViewportSize(PHONE);
      await expectSourcesInsidePanel(page);
      await screenshot(page, 'refusal', lang);
      await page.close();
    });

    it(`${lang}: quoted code is a code block with its lines; each [n] leads to its source`, async () => {
      const page = await openPage(`${allowedOrigin}/docs?lang=${lang}`);
      await ask(page, CODE_QUESTION);
      expect(await verdictOf(page)).toBe('verified');
      const code = last(page, 'widget-code');
      const text = (await code.textContent()) ?? '';
      expect(text).toContain('rootReducer = combineReducers(');
      // The block keeps the document's lines and indentation.
      expect(text.split('\n').length).toBeGreaterThanOrEqual(5);
      expect(text).toMatch(/\n {2}potato: \{\n/);
      expect(await code.evaluate((element) => getComputedStyle(element).whiteSpace)).toBe('pre');
      const cites = last(page, 'widget-message').getByTestId('widget-cite');
      expect(await cites.count()).toBeGreaterThan(0);
      for (let index = 0; index < (await cites.count()); index++) {
        const cite = cites.nth(index);
        const target = ((await cite.getAttribute('href')) ?? '').slice(1);
        await cite.click();
        expect(await focusedId(page)).toBe(target);
        expect(await focusedTestId(page)).toBe('widget-source');
      }
      await checkAccessibility(page, `the code answer (${lang})`);
      expect(await last(page, 'widget-source-link').getAttribute('href')).toMatch(
        /^https:\/\/redux\.js\.org\//,
      );
      await screenshot(page, 'code', lang);
      await page.setViewportSize(PHONE);
      await expectSourcesInsidePanel(page);
      await checkAccessibility(page, `the code answer at 375 px (${lang})`);
      await screenshot(page, 'code', lang);
      await page.close();
    });

    it(`${lang}: a changed server key is a warning, not verified, until the reader trusts the new key`, async () => {
      // A reader's browser of its own: its first answer pins the real keys.
      const own = await web!.browser.newContext({ viewport: LAPTOP });
      const page = await openPage(`${allowedOrigin}/${market.collection}?lang=${lang}`, own);
      await ask(page, market.question);
      expect(await verdictOf(page)).toBe('verified');
      // Then the server (or someone in between) publishes another signing key.
      await page.route(`${server.url}/.well-known/saksi-keys.json`, async (route) => {
        const response = await route.fetch();
        const keys = (await response.json()) as { issuers: { name: string; public_key: string }[] };
        const issuers = keys.issuers.map(({ name }) => ({
          name,
          public_key: toBase64(new Uint8Array(32).fill(9)),
        }));
        await route.fulfill({ response, json: { ...keys, issuers } });
      });
      await ask(page, market.question, { open: false });
      expect(await verdictOf(page)).toBe('key-changed');
      const badge = last(page, 'widget-badge');
      expect(await badge.getAttribute('data-authentic')).toBe('null');
      expect(await page.getByTestId('widget-authentic').count()).toBe(1);
      expect(await badge.locator('.key').count()).toBe(2);
      await checkAccessibility(page, `the changed-key widget (${lang})`);
      await screenshot(page, 'key-changed', lang);
      await page.setViewportSize(PHONE);
      await screenshot(page, 'key-changed', lang);
      // Trusting the new key pins it; this answer was signed with the old one, so it fails.
      await last(page, 'widget-trust-key').click();
      expect(await verdictOf(page)).toBe('failed');
      await own.close();
    });
  }

  it('works on another origin listed in SAKSI_ALLOWED_ORIGINS, and fails cleanly on one that is not', async () => {
    const allowed = await openPage(`${allowedOrigin}/`);
    await ask(allowed, QUESTION);
    expect((await last(allowed, 'widget-answer').textContent()) ?? '').toMatch(/store/i);
    expect(await verdictOf(allowed)).toBe('verified');
    await screenshot(allowed, 'cross-origin', 'en');
    await allowed.close();

    const refused = await openPage(`${otherOrigin}/`);
    const answer = await ask(refused, QUESTION, { expect: 'error' });
    const text = (await answer.textContent()) ?? '';
    expect(text).not.toMatch(/state tree/i);
    expect(await answer.getByRole('alert').count()).toBe(1);
    expect(await refused.getByTestId('widget-badge').isVisible()).toBe(false);
    expect(await refused.getByTestId('widget-verify-link').isVisible()).toBe(false);
    await screenshot(refused, 'cross-origin-refused', 'en');
    await refused.close();
  });

  it('shows a disguised link in a .txt document as text with its full address, and its "[1]" as text', async () => {
    const page = await openPage(`${allowedOrigin}/notices`);
    const answer = await ask(page, 'How is the daily market levy paid?');
    expect(await verdictOf(page)).toBe('verified');
    // No anchor in the widget or on the page points off-site; the notice shows as written.
    expect(await page.locator('a[href*="evil.example"]').count()).toBe(0);
    expect(await answer.locator('a:not([href^="#"])').count()).toBe(0);
    const shown = (await answer.textContent()) ?? '';
    expect(shown).toContain(DISGUISED_LINK);
    expect(await answer.getByText('https://evil.example/phish').first().isVisible()).toBe(true);
    // One marker per claim, where the composer put it; the notice's own "[1]" stays text.
    const claims = Number(await last(page, 'widget-badge').getAttribute('data-claims'));
    expect(claims).toBeGreaterThan(0);
    expect(await answer.locator('sup.cite').count()).toBe(claims);
    expect(shown).toContain('see note [1] on the notice board.');
    await screenshot(page, 'disguised-link', 'en');
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
    await screenshot(page, 'selection-button', 'en');
    await button.click();
    await page.getByTestId('widget-panel').waitFor({ state: 'visible' });
    expect(await page.getByTestId('widget-quote').textContent()).toBe(SELECTED);
    expect(await page.getByTestId('widget-input').inputValue()).not.toBe('');
    await page.getByTestId('widget-send').click();
    const answer = last(page, 'widget-answer');
    await expect.poll(() => answer.getAttribute('data-state'), { timeout: 20_000 }).toBe('done');
    // The selection is quoted in the question's message, and no longer waits above the textarea.
    expect(await last(page, 'widget-question').textContent()).toContain(SELECTED);
    expect(await page.getByTestId('widget-quote-box').isVisible()).toBe(false);
    // Authentic; the answer check may release the passage's meaning as an answer or as related passages.
    expect(['verified', 'related']).toContain(await verdictOf(page));
    expect(await last(page, 'widget-badge').getAttribute('data-authentic')).toBe('true');

    const containing = await test.engine.db.query<{ id: string }>(
      'SELECT id FROM chunks WHERE position($1 in text) > 0',
      ['It is equal to the last value returned by the store'],
    );
    expect(containing.rows).toHaveLength(1);
    const href = (await last(page, 'widget-verify-link').getAttribute('href')) ?? '';
    const certificateId = href.split('/verify/')[1] ?? '';
    const bundle = (await (
      await fetch(`${server.url}/api/v1/certificates/${certificateId}`)
    ).json()) as Bundle;
    expect(bundle.certificate.query.mode).toBe('selection');
    expect(bundle.certificate.query.selection_sha256).toBe(
      createHash('sha256').update(normalizeText(SELECTED), 'utf8').digest('hex'),
    );
    expect(bundle.certificate.retrieval.results[0]?.chunk_id).toBe(containing.rows[0]?.id);
    // The answer cites the selected chunk.
    const cited = await page
      .getByTestId('widget-source')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-chunk-id')));
    expect(cited).toContain(containing.rows[0]?.id);
    await screenshot(page, 'selection-answer', 'en');
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

  it('has no serious or critical axe violation on the demo page with the panel open, at 1366 and 375 px', async () => {
    const page = await openPage(`${server.url}/demo/docs/`);
    await ask(page, QUESTION);
    expect(await verdictOf(page)).toBe('verified');
    await checkAccessibility(page, 'the demo page');
    await page.setViewportSize(PHONE);
    await expectSourcesInsidePanel(page);
    await checkAccessibility(page, 'the demo page at 375 px');
    await screenshot(page, 'demo-answer', 'en');
    await page.close();
  });

  it('raised no page error', () => {
    expect(pageErrors).toEqual([]);
  });
});

async function openPage(url: string, browserContext: BrowserContext = context): Promise<Page> {
  const page = await browserContext.newPage();
  await page.setViewportSize(LAPTOP);
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.goto(url);
  await page.getByTestId('widget-ask').waitFor({ state: 'visible' });
  return page;
}

/** The last element with `testId` (the newest answer's, when there are several). */
function last(page: Page, testId: string): Locator {
  return page.getByTestId(testId).last();
}

/** Opens the panel (unless `open` is false), asks `question` and waits for the answer's final state. */
async function ask(
  page: Page,
  question: string,
  options: { expect?: 'done' | 'error'; recordStates?: boolean; open?: boolean } = {},
): Promise<Locator> {
  if (options.open !== false) {
    await page.getByTestId('widget-ask').click();
    await page.getByTestId('widget-panel').waitFor({ state: 'visible' });
  }
  const before = await page.getByTestId('widget-answer').count();
  await page.getByTestId('widget-input').fill(question);
  if (options.recordStates)
    await page.evaluate(() => {
      const log = document.querySelector('[data-saksi-widget]')?.shadowRoot?.querySelector('.log');
      const states: string[] = [];
      (window as unknown as { __states: string[] }).__states = states;
      if (log)
        new MutationObserver((records) => {
          for (const record of records)
            states.push((record.target as Element).getAttribute('data-state') ?? '');
        }).observe(log, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
    });
  await page.getByTestId('widget-send').click();
  await expect.poll(() => page.getByTestId('widget-answer').count()).toBe(before + 1);
  const answer = last(page, 'widget-answer');
  await expect
    .poll(() => answer.getAttribute('data-state'), { timeout: 20_000 })
    .toBe(options.expect ?? 'done');
  return answer;
}

/** The newest badge's state once the widget's own check has finished. */
async function verdictOf(page: Page): Promise<string | null> {
  const badge = last(page, 'widget-badge');
  await expect
    .poll(async () => ((await badge.count()) > 0 ? badge.getAttribute('data-state') : null), {
      timeout: 20_000,
    })
    .toMatch(/^(?!checking$)[a-z-]+$/);
  return badge.getAttribute('data-state');
}

/** The verifier scripts the page requests, as they happen. */
function verifierLoads(page: Page): string[] {
  const loads: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/widget-verify.js')) loads.push(request.url());
  });
  return loads;
}

/**
 * Intercepts the chat reply and changes `figure` to `altered` in the streamed text and in the
 * bundle's answer and claims — what someone between the server and the reader could do.
 */
async function changeFigureInTransit(page: Page, figure: string, altered: string): Promise<void> {
  await page.route(`${server.url}/api/v1/chat`, async (route) => {
    const response = await route.fetch();
    const text = await response.text();
    expect(text).toContain(figure);
    const body = text
      .split('\n\n')
      .map((block) => {
        const event = /^event: (\w+)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data === undefined || (event !== 'delta' && event !== 'bundle')) return block;
        const json = JSON.parse(data) as {
          text?: string;
          certificate?: { answer: { text: string }; claims: { text: string }[] };
        };
        if (json.text !== undefined) json.text = json.text.replaceAll(figure, altered);
        if (json.certificate) {
          json.certificate.answer.text = json.certificate.answer.text.replaceAll(figure, altered);
          for (const claim of json.certificate.claims) claim.text = claim.text.replaceAll(figure, altered);
        }
        return block.replace(/^data: .*$/m, () => `data: ${JSON.stringify(json)}`);
      })
      .join('\n\n');
    expect(body).toContain(altered);
    await route.fulfill({ response, body });
  });
}

/**
 * Nothing in the panel sticks out of it: the answer's blocks and the sources wrap or scroll inside,
 * the panel's body does not scroll sideways, the panel fits the viewport and the page does not scroll
 * sideways.
 */
async function expectSourcesInsidePanel(page: Page): Promise<void> {
  const found = await page.evaluate(() => {
    const root = document.querySelector('[data-saksi-widget]')?.shadowRoot;
    const panel = root?.querySelector('.panel')?.getBoundingClientRect();
    const body = root?.querySelector('.body');
    if (!root || !panel || !body) return { missing: true, outside: [], sideways: 0, panel: 0, width: 0 };
    const outside = Array.from(root.querySelectorAll('.answer > *, .sources li, .sources li *, .badge *'))
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && (box.right > panel.right + 1 || box.left < panel.left - 1);
      })
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
    return {
      missing: false,
      outside,
      sideways: body.scrollWidth - body.clientWidth,
      panel: panel.right,
      width: document.documentElement.clientWidth,
    };
  });
  expect(found.missing).toBe(false);
  expect(found.outside, 'elements outside the panel').toEqual([]);
  expect(found.sideways, 'the panel body scrolls sideways').toBeLessThanOrEqual(1);
  expect(found.panel).toBeLessThanOrEqual(found.width);
  await expectNoHorizontalScroll(page);
}

/** The `data-testid` of the focused element inside the widget's shadow root. */
function focusedTestId(page: Page): Promise<string> {
  return page.evaluate(() => {
    const host = document.querySelector('[data-saksi-widget]');
    if (document.activeElement !== host) return `outside:${document.activeElement?.tagName ?? ''}`;
    return host?.shadowRoot?.activeElement?.getAttribute('data-testid') ?? '';
  });
}

/** The `id` of the focused element inside the widget's shadow root. */
function focusedId(page: Page): Promise<string> {
  return page.evaluate(
    () => document.querySelector('[data-saksi-widget]')?.shadowRoot?.activeElement?.id ?? '',
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The widget's words (its checks' too) as flat tables, a function's arguments as `{placeholders}`. */
function widgetTable(lang: Lang): Record<string, string> {
  const table: Record<string, string> = {};
  for (const [key, value] of Object.entries(STRINGS[lang]))
    table[key] = typeof value === 'function' ? (value as (...args: string[]) => string)('{a}', '{b}') : value;
  for (const [key, value] of Object.entries(CHECK_WORDS[lang])) table[`check.${key}`] = value;
  return table;
}

/** What the documents and the reader say, in their own language: not the widget's words. */
const WIDGET_QUOTED = [
  '[data-testid="widget-answer"]',
  '[data-testid="widget-question"]',
  '[data-testid="widget-source"]',
  '[data-testid="widget-quote-box"]',
];

/**
 * The viewport only (the widget floats over the host page), named widget-<what>-<width>-<lang>; an
 * Indonesian widget shows none of the English table's words.
 */
async function screenshot(page: Page, what: string, lang: Lang): Promise<void> {
  if (lang === 'id')
    expect(
      await englishOnPage(
        page,
        englishOnlyPhrasesOf({ en: widgetTable('en'), id: widgetTable('id') }),
        WIDGET_QUOTED,
      ),
      `widget ${what} (id)`,
    ).toEqual([]);
  // The newest question at the top of the panel, as a reader who just asked sees it.
  await page.evaluate(() => {
    const root = document.querySelector('[data-saksi-widget]')?.shadowRoot;
    const questions = root?.querySelectorAll<HTMLElement>('[data-testid="widget-question"]');
    const body = root?.querySelector('.body');
    const newest = questions?.[questions.length - 1];
    if (body && newest) body.scrollTop = Math.max(0, newest.offsetTop - 8);
  });
  const width = page.viewportSize()?.width === PHONE.width ? PHONE.width : LAPTOP.width;
  await web?.screenshot(page, `widget-${what}-${width}-${lang}`, { fullPage: false });
}
