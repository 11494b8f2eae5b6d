/**
 * End-to-end tests of the web app (README.md, "In the browser") in headless Chromium: a real engine on PGlite
 * with a local anvil chain, the real server serving `packages/web/dist`, and the page driven only through
 * the `data-testid`s, roles and labels of the shared web contract.
 *
 * Covered: a streamed answer whose proof verifies in the browser (on-chain anchor included) with its
 * three results shown apart (authentic, supported, relevant), a refused answer shown as not answered
 * in neutral styling in both languages, the verify page on a tampered, a genuine and a forked bundle, the language switch, keyboard-only chat,
 * hostile document content (no script, no `javascript:` link, no remote image, no CSP violation), a
 * disguised link in a plain-text document (shown as its text and full address, no anchor; its own
 * "[1]" no citation marker),
 * axe-core on both pages in both themes, and screenshots at 360 px and desktop width (written to
 * test/screenshots/, never compared). Figures (time to first answer text, browser verification
 * time, claim count) are printed, with the median browser verification time of a 10-claim bundle
 * (reference issuer, the server's keys), a rollback against a remembered checkpoint, the restored
 * conversation after a reload, and the gzip size of the chat page's JavaScript. Skipped when
 * `/usr/bin/chromium` is missing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createAdmin, demoCollections, type LocalizedList, type LocalizedText } from '@saksi/engine';
import {
  type Bundle,
  matchSessionReference,
  type TrustedKeys,
  trustOptions,
  utf8Encode,
  verifyBundle,
} from '@saksi/proof';
import { issueBundle, MemoryLog } from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import type { RunningServer } from '@saksi/server';
import type { TestEngine } from '@saksi/test-support/engine-fixture';
import { GOLDEN_DOCUMENTS } from '@saksi/test-support/golden';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lang, translate } from '../src/i18n.js';
import { englishOnlyPhrases } from '../src/i18n-check.js';
import {
  attribute,
  BROWSER_TEST,
  checkAccessibility as checkPage,
  chromiumAvailable,
  englishOnPage,
  expectNoHorizontalScroll,
  repoRoot,
  startWebHarness,
  VIEWPORTS,
  type WebHarness,
  webRoot,
} from './browser-harness.js';

const hasChromium = chromiumAvailable('e2e.test.ts', 'the web end-to-end tests');

/** UU 22/2009 Pasal 285–291 (BAB XX, Ketentuan Pidana). */
function lawExcerpt(): string {
  const lines = readFileSync(
    path.resolve(repoRoot, '../shared/data/corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'),
    'utf8',
  ).split('\n');
  const start = lines.findIndex((line) => line.trim() === 'Pasal 285');
  const end = lines.findIndex((line) => line.trim() === 'Pasal 292');
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return `# UU 22/2009 BAB XX KETENTUAN PIDANA\n\n${lines.slice(start, end).join('\n')}\n`;
}

const HOSTILE = [
  '# Catatan gudang',
  '',
  'The warehouse note says the door code changed. <script>window.__pwned=1</script>',
  '',
  'The warehouse note links [click](javascript:window.__pwned=2) for the door code.',
  '',
  'The warehouse note shows ![x](http://evil.example/x.png) a door picture.',
  '',
  `The warehouse note has a long line: ${'door'.repeat(5000)}`,
  '',
  'The warehouse note is signed \u202Eedoc rood\u202C by the door keeper.',
  '',
].join('\n');

/** A plain-text notice whose Markdown-looking link hides an off-site address, and a literal "[1]". */
const DISGUISED_LINK = '[portal retribusi pasar resmi](https://evil.example/phish)';
const NOTICE = [
  'Pengumuman Dinas Pasar',
  '',
  `Retribusi pasar harian dibayar melalui ${DISGUISED_LINK} paling lambat pukul 10.00 setiap hari; lihat catatan [1] di papan pengumuman.`,
  '',
  'Pedagang yang terlambat membayar retribusi pasar dikenai teguran tertulis.',
  '',
].join('\n');
const NOTICE_QUESTION = 'Bagaimana cara membayar retribusi pasar harian?';

const LAW_QUESTION = 'Berapa denda pengendara sepeda motor yang tidak mengenakan helm standar nasional?';
/** Pasal 285 ayat (1) lists a motorcycle's required equipment: a long quoted answer. */
const LONG_QUESTION: Record<Lang, string> = {
  id: 'Berapa denda sepeda motor tanpa spion, klakson dan lampu?',
  en: 'What is the fine for a motorcycle without mirrors, horn and lights?',
};
/** Redux documentation pages the English collection holds (corpora/docs-redux). */
const REDUX_PAGES = [
  'docs/tutorials/fundamentals/part-2-concepts-data-flow.md',
  'docs/faq/General.md',
  'docs/tutorials/typescript.md',
];
const ADMIN_EMAIL = 'admin@saksi.test';
const ADMIN_PASSWORD = 'correct horse battery staple';
/** The two widths every screenshot of the chat's first minute and the admin list is taken at. */
const WIDTHS = { 375: { width: 375, height: 812 }, 1366: { width: 1366, height: 768 } } as const;

/** The title, description and example questions the demo gives a collection (engine/src/demo.ts). */
function demoPresentation(name: string): {
  title: LocalizedText;
  description: LocalizedText;
  examples: LocalizedList;
} {
  const demo = demoCollections(path.join(repoRoot, 'corpora')).find((collection) => collection.name === name);
  const { title, description, examples } = demo?.profile ?? {};
  if (!title || !description || !examples) throw new Error(`the demo collection ${name} has no presentation`);
  return { title, description, examples };
}
const HOSTILE_QUESTION = 'What does the warehouse note say about the door code?';
/** A question the traffic-law excerpt does not cover: a refusal. */
const REFUSED_QUESTION = 'How do I bake sourdough bread at home?';
/** Asks for a year no passage of UU 22/2009 mentions: related passages, not a confirmed answer. */
const RELATED_QUESTION =
  'Berapa denda pengendara sepeda motor yang tidak mengenakan helm standar nasional tahun 2013?';

interface Figures {
  firstTextMs?: number;
  answerVerifyMs?: number;
  /** What the page itself reports for `verifyBundle` (anchor lookup included). */
  answerVerifyReportedMs?: number;
  pageVerifyMs?: number;
  claims?: number;
  /** Median of `verifyBundle` on the 10-claim bundle as the verify page reports it, and click → verdict. */
  tenClaimVerifyMs?: number;
  tenClaimClickMs?: number;
  tenClaimRuns?: number;
  /** Gzip bytes of the JavaScript index.html loads (entry and module preloads), and the files. */
  chatJsGzipBytes?: number;
  chatJsFiles?: string[];
  /** At 375 px, after a long answer: the page's height, the answer's message and its verification panel. */
  longAnswer?: Partial<Record<Lang, { page: number; message: number; panel: number }>>;
}
const figures: Figures = {};

let web: WebHarness | undefined;
let test: TestEngine;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let keys: TrustedKeys;
let certificateId = '';
let bundleJson = '';
/** Requests the browser made to hosts other than the server and the local chain. */
const foreignRequests: string[] = [];
const pageErrors: string[] = [];

describe.skipIf(!hasChromium)('web app end to end (Chromium)', BROWSER_TEST, () => {
  beforeAll(async () => {
    web = await startWebHarness({
      env: { SAKSI_ANCHOR: 'local' },
      prepare: async (opened) => {
        await opened.engine.ingest(
          'lalu-lintas',
          { bytes: utf8Encode(lawExcerpt()), filename: 'uu-22-2009-pasal-285-291.md', title: 'UU 22/2009' },
          { language: 'id' },
        );
        await opened.engine.ingest(
          'catatan',
          { bytes: utf8Encode(HOSTILE), filename: 'catatan.md', title: 'Catatan gudang' },
          { language: 'en' },
        );
        await opened.engine.ingest(
          'pengumuman',
          { bytes: utf8Encode(NOTICE), filename: 'pengumuman-pasar.txt', title: 'Pengumuman Dinas Pasar' },
          { language: 'id' },
        );
        for (const page of REDUX_PAGES) {
          await opened.engine.ingest(
            'docs',
            { bytes: readFileSync(path.join(repoRoot, 'corpora/docs-redux', page)), filename: page },
            { language: 'en' },
          );
        }
        // A scanned budget statute: its Pasal 3 figure is misread ("Rp2.233. 196.7O 1.660.0O0,0O").
        await opened.engine.ingest(
          'apbn',
          {
            bytes: readFileSync(path.join(repoRoot, 'corpora/apbn-uu/uu-2019-20.md')),
            filename: 'uu-2019-20.md',
            fiscal_year: 2020,
          },
          { language: 'id', profile: { domain: 'budget' } },
        );
        await opened.engine.anchoring.runNow();
        // The demo's titles, descriptions and example questions; the other collections get a title only.
        await opened.engine.collections.configure('lalu-lintas', demoPresentation('lalu-lintas'));
        // The demo's vocabularies (corpora/*/glossary.json), as the demo collections get them.
        for (const name of ['lalu-lintas', 'apbn']) {
          const demo = demoCollections(path.join(repoRoot, 'corpora')).find((item) => item.name === name);
          if (demo)
            await opened.engine.collections.setGlossary(
              name,
              JSON.parse(readFileSync(demo.glossary, 'utf8')),
            );
        }
        await opened.engine.collections.configure('docs', { public: true, ...demoPresentation('docs') });
        await opened.engine.collections.configure('catatan', {
          title: { id: 'Catatan gudang', en: 'Warehouse notes' },
        });
        await opened.engine.collections.configure('pengumuman', {
          title: { id: 'Pengumuman Dinas Pasar', en: 'Market office notices' },
        });
        await createAdmin(opened.engine.db, ADMIN_EMAIL, ADMIN_PASSWORD);
        // The chat here is the public one (no key), as on the demo collections.
        await opened.engine.collections.configure('lalu-lintas', { public: true });
        await opened.engine.collections.configure('pengumuman', { public: true });
        await opened.engine.collections.configure('apbn', {
          public: true,
          title: { id: 'APBN 2020', en: 'State budget 2020' },
        });
        // Its citations link to the page on a docs site (only http(s) links are ever made).
        await opened.engine.collections.configure('catatan', {
          public: true,
          base_url: 'https://docs.example.org/gudang/',
        });
      },
    });
    ({ test, server, browser, context } = web);
    keys = test.engine.trustedKeys();
    const rpc = test.engine.anchoring.chain()?.rpc_url ?? '';
    context.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(server.url) && !(rpc !== '' && url.startsWith(rpc)) && !url.startsWith('data:'))
        foreignRequests.push(url);
    });
  });

  afterAll(async () => {
    await web?.close();
    console.log(
      [
        'web e2e figures:',
        `  time from send to first answer text: ${figures.firstTextMs?.toFixed(0) ?? '?'} ms`,
        `  browser verification of the answer (done → verdict): ${figures.answerVerifyMs?.toFixed(0) ?? '?'} ms`,
        `  browser verification of the answer as the page reports it: ${figures.answerVerifyReportedMs ?? '?'} ms`,
        `  verify page, genuine bundle (click → verdict): ${figures.pageVerifyMs?.toFixed(0) ?? '?'} ms`,
        `  claims in the bundle: ${figures.claims ?? '?'}`,
        `  10-claim bundle, verifyBundle in the page (median of ${figures.tenClaimRuns ?? '?'}): ${figures.tenClaimVerifyMs?.toFixed(1) ?? '?'} ms (target ≤ 50 ms); click → verdict ${figures.tenClaimClickMs?.toFixed(0) ?? '?'} ms`,
        `  chat page JavaScript, gzip: ${figures.chatJsGzipBytes ?? '?'} bytes (${figures.chatJsFiles?.join(', ') ?? '?'})`,
        ...Object.entries(figures.longAnswer ?? {}).map(
          ([lang, heights]) =>
            `  long answer at 375 px (${lang}): page ${heights.page} px, message ${Math.round(heights.message)} px, of which the verification panel ${Math.round(heights.panel)} px`,
        ),
        'screenshots:',
        ...(web?.shots ?? []).map((shot) => `  ${shot}`),
      ].join('\n'),
    );
  });

  it('streams an answer whose proof verifies in the browser, anchor on chain included', async () => {
    const page = await openPage('/');
    await page.getByTestId('collection-picker').selectOption('lalu-lintas');
    await page.getByTestId('chat-input').fill(LAW_QUESTION);
    const send = page.getByTestId('chat-send');
    await expect.poll(() => send.isEnabled()).toBe(true);
    const assistant = page.getByTestId('message-assistant').last();
    const sentAt = performance.now();
    await send.click();
    await assistant.waitFor({ state: 'visible' });
    await page.waitForFunction(() => {
      const messages = document.querySelectorAll('[data-testid="message-assistant"]');
      const last = messages[messages.length - 1] as HTMLElement | undefined;
      return (last?.textContent?.trim().length ?? 0) > 0;
    });
    figures.firstTextMs = performance.now() - sentAt;
    await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 20_000 }).toBe('done');
    const doneAt = performance.now();
    expect((await page.getByTestId('message-user').last().textContent()) ?? '').toContain('helm');

    const panel = assistant.getByTestId('verify-panel');
    await settled(panel);
    figures.answerVerifyMs = performance.now() - doneAt;
    const checks = await checkStatuses(panel);
    expect(checks, JSON.stringify(checks)).toMatchObject({ signature: 'pass', anchor_onchain: 'pass' });
    for (const [id, status] of Object.entries(checks)) expect([id, status]).not.toEqual([id, 'fail']);
    expect(await panel.getAttribute('data-verdict')).toBe('verified');
    const reported = /(\d+(?:\.\d+)?)\s*ms/.exec(
      (await panel.locator('.verify-heading').first().textContent()) ?? '',
    );
    if (reported?.[1] !== undefined) figures.answerVerifyReportedMs = Number(reported[1]);
    // The three results, each its own line: authentic, supported (by construction), relevant (scored).
    expect(await threeResults(panel)).toEqual({
      authentic: 'pass',
      supported: 'pass',
      relevant: 'relevant',
    });
    expect(await panel.getAttribute('data-answered')).toBe('true');
    expect(await panel.getByTestId('result-answer').count()).toBe(0);
    // The score and method, and the check count, are kept on the lines (the sentences are plain words).
    expect(await panel.getByTestId('result-relevant').getAttribute('data-score')).toMatch(/^\d\.\d\d$/);
    // The answer check of a v1.2 certificate, or the relevance score of an older one: one minimum.
    expect(['answer-check', 'lexical-v4']).toContain(
      await panel.getByTestId('result-relevant').getAttribute('data-method'),
    );
    expect(await panel.getByTestId('result-relevant').getAttribute('data-threshold')).toMatch(/^\d\.\d\d$/);
    expect(await panel.getByTestId('result-authentic').getAttribute('data-total')).toBe('16');
    const kinds = await panel
      .getByTestId('claim-supported')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
    expect(kinds.length).toBeGreaterThan(0);
    for (const kind of kinds) expect(['verbatim', 'composed']).toContain(kind);
    // No per-claim relevance minimum beside the answer's: the panel shows one.
    expect(await panel.getByTestId('claim-relevant').count()).toBe(0);
    const claims = panel.getByTestId('claim-item');
    figures.claims = await claims.count();
    expect(figures.claims).toBeGreaterThan(0);
    expect((await panel.getByTestId('verify-summary').textContent()) ?? '').toMatch(
      /\d+\D*\/\s*\d+\D*\/\s*\d+/,
    );

    const toggle = assistant.getByTestId('sources-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const source = assistant.getByTestId('source-item').first();
    await source.waitFor({ state: 'visible' });
    expect((await source.textContent()) ?? '').toMatch(/Pasal\s+2(8[5-9]|9[01])/);
    expect(await source.locator('mark').count()).toBeGreaterThan(0);
    // A collection without a base URL: its sources name the passage without a link.
    expect(await source.getByTestId('source-link').count()).toBe(0);

    const href = (await assistant.getByTestId('verify-link').getAttribute('href')) ?? '';
    certificateId = href.split('/verify/')[1] ?? '';
    expect(certificateId).toMatch(/^[A-Za-z0-9_-]+$/);
    await assistant.getByTestId('download-proof').waitFor({ state: 'visible' });
    bundleJson = await (await fetch(`${server.url}/api/v1/certificates/${certificateId}`)).text();

    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await checkAccessibility(page, `/ (answer shown, ${theme})`);
    }
    await screenshot(page, 'chat-desktop');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'chat-mobile');
    await expectNoHorizontalScroll(page);
    await page.close();
  });

  it('restores the conversation after a reload and answers a follow-up in the same session', async () => {
    expect(certificateId).not.toBe('');
    const page = await openPage('/');
    // The collection and its session id are remembered: the past messages come back from the server.
    const user = page.getByTestId('message-user');
    await expect.poll(() => user.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect((await user.first().textContent()) ?? '').toContain('helm');
    const restored = page.getByTestId('message-assistant').first();
    expect(await restored.getAttribute('data-state')).toBe('done');
    // The last answers fetch their certificates at once: sources and verification work after a reload.
    const panel = restored.getByTestId('verify-panel');
    await settled(panel);
    expect(await panel.getAttribute('data-verdict')).toBe('verified');
    expect(await restored.getByTestId('verify-link').getAttribute('href')).toBe(`/verify/${certificateId}`);
    await restored.getByTestId('sources-toggle').click();
    await restored.getByTestId('source-item').first().waitFor({ state: 'visible' });
    expect(await panel.getByTestId('verify-qr').count()).toBe(1);
    // The transaction is shown shortened; the full hash is kept for the copy button.
    expect(await panel.getByTestId('anchor-tx').first().getAttribute('data-value')).toMatch(
      /^0x[0-9a-f]{64}$/,
    );

    const before = await user.count();
    await page.getByTestId('chat-input').fill('kalau penumpangnya?');
    await page.getByTestId('chat-send').click();
    const followUp = page.getByTestId('message-assistant').last();
    await expect.poll(() => user.count()).toBe(before + 1);
    await expect.poll(() => attribute(followUp, 'data-state'), { timeout: 20_000 }).toBe('done');
    await settled(followUp.getByTestId('verify-panel'));
    const id = ((await followUp.getByTestId('verify-link').getAttribute('href')) ?? '').split('/verify/')[1];
    const bundle = (await (await fetch(`${server.url}/api/v1/certificates/${id}`)).json()) as Bundle;
    // The certificate keeps the user's own words, and the session is the restored one: both answers'
    // references belong to the session the page remembers, though they share no value.
    expect(bundle.certificate.query.text).toBe('kalau penumpangnya?');
    const first = JSON.parse(bundleJson) as Bundle;
    const sessionIds = await page.evaluate(() =>
      Object.keys(localStorage)
        .filter((key) => key.startsWith('saksi.session.'))
        .map((key) => localStorage.getItem(key)),
    );
    const restoredSession = sessionIds.filter(
      (id) => id !== null && matchSessionReference(first.certificate, id).status === 'belongs',
    );
    expect(restoredSession).toHaveLength(1);
    expect(matchSessionReference(bundle.certificate, restoredSession[0]!).status).toBe('belongs');
    expect(bundle.certificate.query.session_id).not.toBe(first.certificate.query.session_id);
    await page.close();
  });

  it('verifies in the browser a budget figure stated through its words, the OCR digits never shown', async () => {
    const page = await openPage('/');
    await page.getByTestId('collection-picker').selectOption('apbn');
    await page.getByTestId('chat-input').fill('berapa pendapatan negara tahun 2020?');
    const send = page.getByTestId('chat-send');
    await expect.poll(() => send.isEnabled()).toBe(true);
    const assistant = page.getByTestId('message-assistant').last();
    await send.click();
    await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 20_000 }).toBe('done');
    const panel = assistant.getByTestId('verify-panel');
    await settled(panel);
    expect(await panel.getAttribute('data-verdict')).toBe('verified');
    const kinds = await panel
      .getByTestId('claim-supported')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
    expect(kinds).toEqual(['composed']);
    const answer = (await assistant.getByTestId('answer-text').textContent()) ?? '';
    expect(answer).toContain('Rp2.233.196.701.660.000,00');
    expect(answer).not.toMatch(/7O|0O0|2O2O/);
    await screenshot(page, 'chat-budget-spelled-desktop');
    await page.close();
  });

  it('the verify page fails a tampered bundle with its reason code and verifies the genuine one', async () => {
    expect(bundleJson).not.toBe('');
    const bundle = JSON.parse(bundleJson) as Bundle;
    const tampered = structuredClone(bundle);
    const claim = tampered.certificate.claims[0];
    if (!claim) throw new Error('the answer has no claim to tamper with');
    claim.text = claim.text.replace(/[a-z]/, (letter) => (letter === 'a' ? 'b' : 'a'));
    expect(claim.text).not.toBe(bundle.certificate.claims[0]?.text);
    const expected = await verifyBundle(tampered, { ...trustOptions(keys), vocabulary: SAKSI_VOCABULARY });
    const codes = expected.checks.flatMap((check) => check.problems.map((problem) => problem.code));
    expect(codes.length).toBeGreaterThan(0);

    const page = await openPage('/verify');
    await page.getByTestId('trusted-keys').waitFor({ state: 'visible' });
    await page.getByTestId('verify-input').fill(JSON.stringify(tampered, null, 2));
    await page.getByTestId('verify-run').click();
    const result = page.getByTestId('verify-result');
    await expect.poll(() => attribute(result, 'data-verdict'), { timeout: 20_000 }).toBe('failed');
    const shown = (await result.textContent()) ?? '';
    expect(
      codes.some((code) => shown.includes(code)),
      `none of ${codes.join(', ')} is shown`,
    ).toBe(true);
    expect((await checkStatuses(result))['signature']).toBe('fail');
    // Not authentic: supported and relevant are not judged from a certificate that cannot be relied on.
    expect(await threeResults(result)).toEqual({
      authentic: 'fail',
      supported: 'unknown',
      relevant: 'unknown',
    });
    await screenshot(page, 'verify-failed-desktop');

    await page.getByTestId('verify-input').fill(bundleJson);
    const started = performance.now();
    await page.getByTestId('verify-run').click();
    await expect.poll(() => attribute(result, 'data-verdict'), { timeout: 20_000 }).toBe('verified');
    figures.pageVerifyMs = performance.now() - started;
    expect((await checkStatuses(result))['anchor_onchain']).toBe('pass');
    expect(await result.getByTestId('claim-item').count()).toBe(bundle.certificate.claims.length);

    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await checkAccessibility(page, `/verify (${theme})`);
    }
    await screenshot(page, 'verify-desktop');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'verify-mobile');
    await expectNoHorizontalScroll(page);
    await page.close();
  });

  it('opens /verify/<certificate_id> directly and warns about a forked log checkpoint', async () => {
    expect(certificateId).not.toBe('');
    const bundle = JSON.parse(bundleJson) as Bundle;
    // Another checkpoint of the same size with a different root: a fork the verifier must flag.
    const lines = bundle.log.checkpoint.split('\n');
    const root = lines[2] ?? '';
    const forkedRoot = `${root.startsWith('A') ? 'B' : 'A'}${root.slice(1)}`;
    const forked = [lines[0], lines[1], forkedRoot, ...lines.slice(3)].join('\n');
    const page = await context.newPage();
    watch(page);
    await page.goto(`${server.url}/`);
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key as string, value as string),
      [`saksi.checkpoint.${bundle.log.origin}`, forked],
    );
    await page.goto(`${server.url}/verify/${certificateId}`);
    await page.getByTestId('checkpoint-warning').waitFor({ state: 'visible', timeout: 20_000 });
    expect(await page.getByTestId('checkpoint-warning').getAttribute('role')).toBe('alert');
    await page.evaluate(() => localStorage.clear());
    await page.close();
  });

  it('shows a refused answer as not answered and related passages as not a confirmed answer, never under the verified heading, in both languages', async () => {
    const page = await openPage('/');
    await page.getByTestId('collection-picker').selectOption('lalu-lintas');
    await page.getByTestId('chat-input').fill(REFUSED_QUESTION);
    await page.getByTestId('chat-send').click();
    const assistant = page.getByTestId('message-assistant').last();
    await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 20_000 }).toBe('done');
    const panel = assistant.getByTestId('verify-panel');
    await settled(panel);
    // Authentic (every integrity check passed), yet not an answer.
    expect(await panel.getAttribute('data-verdict')).toBe('verified');
    expect(await panel.getAttribute('data-answered')).toBe('false');
    expect(await panel.getAttribute('class')).toContain('verdict-refused');
    expect(await panel.getAttribute('class')).not.toContain('verdict-verified');
    expect(await panel.locator('.claim.ok').count()).toBe(0);
    const outcome = panel.getByTestId('result-answer');
    expect(await outcome.getAttribute('data-status')).toBe('refused');
    expect(await outcome.getAttribute('data-reason')).toBe('NOT_COVERED');
    expect(await panel.getByTestId('result-authentic').getAttribute('data-status')).toBe('pass');
    // The passages the search found are listed once, as related passages, never as "sources".
    expect(await panel.getByTestId('refusal-related').locator('li').count()).toBeGreaterThan(0);
    expect(await assistant.getByTestId('sources-toggle').count()).toBe(0);
    const heading = panel.locator('.verify-heading');
    for (const [lang, words] of [
      ['id', /Tidak terjawab/],
      ['en', /Not answered/],
    ] as const) {
      await page.getByTestId('lang-switch').selectOption(lang);
      await expect.poll(async () => (await heading.textContent()) ?? '').toMatch(words);
    }
    expect((await page.getByTestId('result-authentic').textContent()) ?? '').toMatch(/^Authentic/);
    await page.getByTestId('lang-switch').selectOption('id');
    await expect
      .poll(async () => (await page.getByTestId('result-authentic').textContent()) ?? '')
      .toMatch(/^Asli/);
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await checkAccessibility(page, `/ (refused answer, ${theme})`);
    }
    await setTheme(page, 'light');
    await screenshot(page, 'chat-refused-desktop');

    // A year the passages do not mention: authentic quotes, related passages, not a confirmed answer.
    await page.getByTestId('chat-input').fill(RELATED_QUESTION);
    await page.getByTestId('chat-send').click();
    const related = page.getByTestId('message-assistant').last();
    await expect.poll(() => attribute(related, 'data-state'), { timeout: 20_000 }).toBe('done');
    const relatedPanel = related.getByTestId('verify-panel');
    await settled(relatedPanel);
    expect(await relatedPanel.getAttribute('data-verdict')).toBe('verified');
    expect(await relatedPanel.getAttribute('data-kind')).toBe('related');
    expect(await relatedPanel.getAttribute('data-answered')).toBe('false');
    expect(await relatedPanel.getAttribute('class')).not.toContain('verdict-verified');
    expect(await relatedPanel.getByTestId('result-answer').getAttribute('data-status')).toBe('related');
    expect(await relatedPanel.getByTestId('result-relevant').getAttribute('data-status')).toBe(
      'not_relevant',
    );
    expect(await relatedPanel.locator('.result.tone-good').count()).toBe(1); // authentic only
    expect(await relatedPanel.locator('.claim.ok').count()).toBe(0);
    // The text is shown as related passages, with the reason; its bundle is downloaded neutrally.
    expect(await related.getByTestId('answer-text').getAttribute('data-outcome')).toBe('related');
    await expect
      .poll(async () => (await related.getByTestId('related-note').textContent()) ?? '')
      .toMatch(/2013/);
    expect(await related.getByTestId('refusal-note').count()).toBe(0);
    for (const [lang, words, download] of [
      ['id', /Bagian terkait — bukan jawaban yang dikonfirmasi/, /Unduh bundel bertanda tangan/],
      ['en', /Related passages — not a confirmed answer/, /Download the signed bundle/],
    ] as const) {
      await page.getByTestId('lang-switch').selectOption(lang);
      await expect
        .poll(async () => (await relatedPanel.locator('.verify-heading').textContent()) ?? '')
        .toMatch(words);
      expect((await relatedPanel.getByTestId('download-proof').textContent()) ?? '').toMatch(download);
    }
    await checkAccessibility(page, '/ (related passages)');
    await related.scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-related-desktop');
    await page.close();
  });

  it('switches the language: <html lang> and the visible labels follow', async () => {
    const page = await openPage('/');
    const switcher = page.getByTestId('lang-switch');
    const before = await page.evaluate(() => document.documentElement.lang);
    expect(['id', 'en']).toContain(before);
    const target = before === 'id' ? 'en' : 'id';
    const labelsBefore = await visibleLabels(page);
    const tag = await switcher.evaluate((element) => element.tagName);
    if (tag === 'SELECT') await switcher.selectOption(target);
    else {
      const option = switcher.locator(`[value="${target}"], [data-value="${target}"], [lang="${target}"]`);
      if ((await option.count()) > 0) await option.first().click();
      else await switcher.click();
    }
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(target);
    expect(await visibleLabels(page)).not.toBe(labelsBefore);
    await page.close();
  });

  it('chats with the keyboard only: Tab to the input, type, Enter sends', async () => {
    const page = await openPage('/');
    let focused = '';
    for (let presses = 0; presses < 40 && focused !== 'chat-input'; presses++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
    }
    expect(focused).toBe('chat-input');
    await page.keyboard.type('Apakah penumpang sepeda motor wajib memakai helm?');
    await page.keyboard.press('Enter');
    await page.getByTestId('message-user').first().waitFor({ state: 'visible' });
    const assistant = page.getByTestId('message-assistant').last();
    await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 20_000 }).toBe('done');
    expect(await page.getByTestId('chat-input').inputValue()).toBe('');
    await page.close();
  });

  it('renders hostile document content inertly: no script, no javascript: link, no remote image', async () => {
    const page = await openPage('/');
    await page.evaluate(() => {
      const violations: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = violations;
      document.addEventListener('securitypolicyviolation', (event) =>
        violations.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    await page.getByTestId('collection-picker').selectOption('catatan');
    await page.getByTestId('chat-input').fill(HOSTILE_QUESTION);
    await page.getByTestId('chat-send').click();
    const assistant = page.getByTestId('message-assistant').last();
    await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 20_000 }).toBe('done');
    const toggle = assistant.getByTestId('sources-toggle');
    if ((await toggle.count()) > 0 && (await toggle.getAttribute('aria-expanded')) !== 'true')
      await toggle.click();
    await settled(assistant.getByTestId('verify-panel'));
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toContain('warehouse note');
    const state = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      javascriptLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
      remoteImages: Array.from(document.images).filter((image) => !image.src.startsWith(location.origin))
        .length,
      scripts: Array.from(document.scripts).filter(
        (script) => script.src === '' && script.textContent?.includes('pwned'),
      ).length,
      violations: (window as unknown as { __violations: string[] }).__violations,
    }));
    // The sources link to the page and heading on the collection's site, in a new tab, no opener.
    const links = await assistant.getByTestId('source-link').all();
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(await link.getAttribute('href')).toBe('https://docs.example.org/gudang/catatan#catatan-gudang');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await link.getAttribute('target')).toBe('_blank');
    }
    expect(state).toEqual({
      pwned: undefined,
      javascriptLinks: 0,
      remoteImages: 0,
      scripts: 0,
      violations: [],
    });
    // The CSP is in force: an injected inline script is refused.
    await expect(page.addScriptTag({ content: 'window.__pwned = 3;' })).rejects.toThrow(
      /Content Security Policy/,
    );
    const response = await page.request.get(`${server.url}/`);
    expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'hostile-mobile');
    await expectNoHorizontalScroll(page);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(foreignRequests.filter((url) => url.includes('evil.example'))).toEqual([]);
    await page.close();
  });

  it('shows a disguised link in a .txt document as text with its full address, and its "[1]" as text', async () => {
    const page = await openPage('/');
    await page.getByTestId('collection-picker').selectOption('pengumuman');
    await page.getByTestId('chat-input').fill(NOTICE_QUESTION);
    await page.getByTestId('chat-send').click();
    const assistant = page.getByTestId('message-assistant').last();
    await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 20_000 }).toBe('done');
    await settled(assistant.getByTestId('verify-panel'));
    expect(await assistant.getByTestId('verify-panel').getAttribute('data-verdict')).toBe('verified');
    const answer = assistant.getByTestId('answer-text');
    // No anchor anywhere points off-site; the document's text shows as written, address included.
    expect(await page.locator('a[href*="evil.example"]').count()).toBe(0);
    expect(await answer.locator('a').count()).toBe(0);
    const shown = (await answer.textContent()) ?? '';
    expect(shown).toContain(DISGUISED_LINK);
    expect(await answer.getByText('https://evil.example/phish').first().isVisible()).toBe(true);
    // Markers only where the composer put them (one per quoted claim), never the notice's own "[1]".
    const id = ((await assistant.getByTestId('verify-link').getAttribute('href')) ?? '').split('/verify/')[1];
    const bundle = (await (await fetch(`${server.url}/api/v1/certificates/${id}`)).json()) as Bundle;
    expect(bundle.certificate.answer.text).toContain('catatan [1] di papan');
    expect(await answer.locator('sup.cite').count()).toBe(bundle.certificate.claims.length);
    expect(shown).toContain('lihat catatan [1] di papan pengumuman.');
    await screenshot(page, 'disguised-link-desktop');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'disguised-link-mobile');
    await expectNoHorizontalScroll(page);
    await page.close();
  });

  it('verifies a 10-claim bundle in the page (median time) and warns on a rollback', async () => {
    // A 10-claim bundle from the reference issuer, signed with this server's issuer, log and witness
    // keys, in a log of its own (so it verifies against the published keys; no anchor: it is skipped).
    const signing = test.engine.keys;
    const log = new MemoryLog(signing.logOrigin);
    const claim = {
      text: 'Pelanggarnya dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 [1].',
      evidence: [
        {
          chunk_id: 'uu22-p287-a2',
          span_text:
            'dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah)',
        },
      ],
    };
    const claims = Array.from({ length: 10 }, () => claim);
    const issue = (question: string) =>
      issueBundle({
        documents: GOLDEN_DOCUMENTS,
        question,
        answer: claims.map((item) => item.text).join(' '),
        claims,
        collection: 'uu-22-2009-llaj',
        issuerName: signing.issuer.name,
        issuerSecretKey: signing.issuerSecretKey,
        log,
        logSigner: signing.logSigner,
        cosigners: signing.cosigners,
      });
    const tenClaims = issue('Berapa denda menerobos lampu merah?');
    expect(tenClaims.certificate.claims.length).toBe(10);
    expect(
      (await verifyBundle(tenClaims, { ...trustOptions(keys), vocabulary: SAKSI_VOCABULARY })).verdict,
    ).toBe('verified');

    // A fresh context: no checkpoint remembered yet.
    const fresh = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await fresh.newPage();
    watch(page);
    await page.goto(`${server.url}/verify`);
    await page.getByTestId('trusted-keys').waitFor({ state: 'visible' });
    await page.getByTestId('verify-input').fill(JSON.stringify(tenClaims));
    const result = page.getByTestId('verify-result');
    const reported: number[] = [];
    const clicks: number[] = [];
    const runs = 7;
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      await page.getByTestId('verify-run').click();
      await expect.poll(() => attribute(result, 'data-verdict'), { timeout: 20_000 }).toBe('verified');
      await expect
        .poll(async () => /\d\s*ms/.test((await result.locator('.verify-heading').textContent()) ?? ''))
        .toBe(true);
      clicks.push(performance.now() - started);
      const match = /(\d+(?:\.\d+)?)\s*ms/.exec(
        (await result.locator('.verify-heading').textContent()) ?? '',
      );
      reported.push(Number(match?.[1]));
    }
    expect(await result.getByTestId('claim-item').count()).toBe(10);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    figures.tenClaimRuns = runs;
    figures.tenClaimVerifyMs = median(reported.slice(1)); // the first run also warms up the page
    figures.tenClaimClickMs = median(clicks.slice(1));
    expect(figures.tenClaimVerifyMs).toBeGreaterThan(0);

    // Rollback: the browser has seen a larger checkpoint of this log; the older bundle's checkpoint
    // cannot be proven consistent with it (the server's log is another tree), so the page warns.
    issue('Denda tidak bawa SIM berapa?');
    log.append(utf8Encode('{"later":1}'));
    const larger = log.signedCheckpoint(signing.logSigner);
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key as string, value as string),
      [`saksi.checkpoint.${signing.logOrigin}`, larger],
    );
    await page.getByTestId('verify-run').click();
    await page.getByTestId('checkpoint-warning').waitFor({ state: 'visible', timeout: 20_000 });
    expect(await page.getByTestId('checkpoint-warning').getAttribute('role')).toBe('alert');
    expect(await result.getAttribute('data-verdict')).toBe('failed');
    expect((await checkStatuses(result))['checkpoint_consistency']).toBe('fail');
    await page.close();
    await fresh.close();
  });

  it('measures the gzip size of the JavaScript the chat page loads', () => {
    const html = readFileSync(path.join(webRoot, 'index.html'), 'utf8');
    const files = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
    expect(files.length).toBeGreaterThan(0);
    const assets = new Set(readdirSync(path.join(webRoot, 'assets')).map((name) => `assets/${name}`));
    let total = 0;
    for (const file of new Set(files)) {
      expect(assets.has(file), file).toBe(true);
      total += gzipSync(readFileSync(path.join(webRoot, file)), { level: 9 }).length;
    }
    figures.chatJsGzipBytes = total;
    figures.chatJsFiles = [...new Set(files)];
  });

  it('opens on a collection in the page language, with its title, description and example questions that ask themselves', async () => {
    for (const lang of ['id', 'en'] as const) {
      const name = lang === 'id' ? 'lalu-lintas' : 'docs';
      const demo = demoPresentation(name);
      const { visitor, page } = await visit(lang, 375);
      const picker = page.getByTestId('collection-picker');
      await expect.poll(() => picker.inputValue()).toBe(name);
      // Human names, never a slug with a document count.
      const options = (await picker.locator('option').allTextContents()).map((text) => text.trim());
      expect(options).toContain(demo.title[lang]);
      for (const option of options) expect(option).not.toMatch(/^[a-z0-9._-]+(\s*\(\d+\))?$/);
      const welcome = page.getByTestId('chat-welcome');
      await welcome.waitFor({ state: 'visible' });
      expect(await welcome.getByTestId('collection-title').textContent()).toBe(demo.title[lang]);
      expect((await welcome.getByTestId('collection-description').textContent()) ?? '').toContain(
        demo.description[lang] ?? '?',
      );
      const examples = welcome.getByTestId('example-question');
      expect(await examples.allTextContents()).toEqual(demo.examples[lang]);
      // No keyboard shortcuts on a phone.
      expect(await page.getByTestId('keyboard-hint').isVisible()).toBe(false);
      await expectNoHorizontalScroll(page);
      await checkAccessibility(page, `/ (first visit, ${lang}, 375 px)`);
      if (lang === 'id') expect(await appEnglishOnPage(page)).toEqual([]);
      await shoot(page, 'empty', 375, lang);

      await page.setViewportSize(WIDTHS[1366]);
      expect(await page.getByTestId('keyboard-hint').isVisible()).toBe(true);
      await expectNoHorizontalScroll(page);
      await shoot(page, 'empty', 1366, lang);

      // An example question asks itself: it becomes the user's message and gets a verified answer.
      const question = demo.examples[lang]?.[0] ?? '?';
      await examples.first().click();
      const assistant = page.getByTestId('message-assistant').last();
      await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 20_000 }).toBe('done');
      expect(await page.getByTestId('message-user').last().locator('.user-text').textContent()).toBe(
        question,
      );
      const panel = assistant.getByTestId('verify-panel');
      await settled(panel);
      expect(await panel.getAttribute('data-verdict')).toBe('verified');
      expect(await panel.getAttribute('data-answered')).toBe('true');
      expect(await page.getByTestId('chat-input').inputValue()).toBe('');
      expect(await page.getByTestId('chat-welcome').count()).toBe(0);
      await expectNoHorizontalScroll(page);
      await shoot(page, 'answer', 1366, lang);
      await page.setViewportSize(WIDTHS[375]);
      // Compact on a phone: the sources start folded.
      expect(await assistant.getByTestId('sources-toggle').getAttribute('aria-expanded')).toBe('false');
      await expectNoHorizontalScroll(page);
      await checkAccessibility(page, `/ (answer to an example, ${lang}, 375 px)`);
      if (lang === 'id') expect(await appEnglishOnPage(page)).toEqual([]);
      await shoot(page, 'answer', 375, lang);
      // The choice is remembered: asking chose the collection.
      expect(await page.evaluate(() => localStorage.getItem('saksi.collection'))).toBe(name);
      await visitor.close();
    }
  });

  it('keeps a long answer short on a phone: the answer and long quotes fold behind "Show more", the sources start folded', async () => {
    for (const lang of ['id', 'en'] as const) {
      const { visitor, page } = await visit(lang, 1366);
      await page.getByTestId('collection-picker').selectOption('lalu-lintas');
      await page.getByTestId('chat-input').fill(LONG_QUESTION[lang]);
      await page.getByTestId('chat-send').click();
      const assistant = page.getByTestId('message-assistant').last();
      await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 20_000 }).toBe('done');
      await settled(assistant.getByTestId('verify-panel'));
      const answer = assistant.getByTestId('answer-text');
      expect((await answer.textContent()) ?? '').toContain('Pasal 285');
      expect(await answer.getAttribute('data-folded')).toBe('true');
      // Wide: the whole answer shows and there is nothing to unfold.
      expect(await clipped(answer)).toBe(false);
      expect(await assistant.getByTestId('fold-toggle').first().isVisible()).toBe(false);
      await expectNoHorizontalScroll(page);
      await shoot(page, 'long', 1366, lang);

      await page.setViewportSize(WIDTHS[375]);
      expect(await clipped(answer)).toBe(true);
      const box = await answer.boundingBox();
      expect(box?.height ?? 0).toBeLessThanOrEqual(260);
      const toggle = assistant.getByTestId('fold-toggle').first();
      expect(await toggle.isVisible()).toBe(true);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      const sources = assistant.getByTestId('sources-toggle');
      expect(await sources.getAttribute('aria-expanded')).toBe('false');
      const heights = await page.evaluate(() => {
        const message = document.querySelector(
          '[data-testid="message-assistant"]:last-of-type',
        ) as HTMLElement;
        const panel = message.querySelector('[data-testid="verify-panel"]') as HTMLElement | null;
        return {
          page: document.documentElement.scrollHeight,
          message: message.getBoundingClientRect().height,
          panel: panel?.getBoundingClientRect().height ?? 0,
        };
      });
      figures.longAnswer ??= {};
      figures.longAnswer[lang] = heights;
      // The answer, its fold toggle and the sources line (the verification panel is measured apart).
      expect(heights.message - heights.panel).toBeLessThanOrEqual(420);
      await expectNoHorizontalScroll(page);
      await checkAccessibility(page, `/ (long answer folded, ${lang}, 375 px)`);
      if (lang === 'id') expect(await appEnglishOnPage(page)).toEqual([]);
      await shoot(page, 'long', 375, lang);

      // "Show more" unfolds it; a long quote in the sources folds the same way.
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await answer.getAttribute('data-folded')).toBe('false');
      expect(await clipped(answer)).toBe(false);
      expect(await toggle.textContent()).toBe(translate(lang, 'chat.showLess'));
      await sources.click();
      await assistant.getByTestId('source-item').first().waitFor({ state: 'visible' });
      await expectNoHorizontalScroll(page);
      await visitor.close();
    }
  });

  it('on a touch screen offers no keyboard shortcuts, whatever its width', async () => {
    const tablet = await browser.newContext({
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
      isMobile: true,
      locale: 'en-GB',
    });
    const page = await tablet.newPage();
    watch(page);
    await page.goto(`${server.url}/`);
    await page.getByTestId('chat-welcome').waitFor({ state: 'visible' });
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
    expect(await page.getByTestId('keyboard-hint').isVisible()).toBe(false);
    expect(await page.getByTestId('chat-input').getAttribute('placeholder')).not.toMatch(/Enter/);
    await tablet.close();
  });

  it('says a refusal in the page language, with what the collection covers and questions it can answer', async () => {
    const demo = demoPresentation('lalu-lintas');
    const { visitor, page } = await visit('en', 375);
    await page.getByTestId('collection-picker').selectOption('lalu-lintas');
    await page.getByTestId('chat-input').fill(REFUSED_QUESTION);
    await page.getByTestId('chat-send').click();
    const assistant = page.getByTestId('message-assistant').last();
    await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 20_000 }).toBe('done');
    const note = assistant.getByTestId('refusal-note');
    for (const lang of ['en', 'id'] as const) {
      await page.getByTestId('lang-switch').selectOption(lang);
      await expect
        .poll(async () => (await note.textContent()) ?? '')
        .toContain(translate(lang, 'chat.refusedTitle'));
      expect((await note.textContent()) ?? '').toContain(demo.description[lang] ?? '?');
      expect(await note.getByTestId('example-question').allTextContents()).toEqual(demo.examples[lang]);
      await settled(assistant.getByTestId('verify-panel'));
      await expectNoHorizontalScroll(page);
      if (lang === 'id') expect(await appEnglishOnPage(page)).toEqual([]);
      await shoot(page, 'refusal', 375, lang);
    }
    // An example in the note asks itself in the same collection.
    await note.getByTestId('example-question').first().click();
    await expect.poll(() => page.getByTestId('message-assistant').count()).toBe(2);
    await visitor.close();
  });

  it('shows a server error as a sentence in the page language, never the server’s English message', async () => {
    const { visitor, page } = await visit('id', 1366);
    await page.getByTestId('collection-picker').selectOption('pengumuman');
    // The operator closes the collection while the page is open: the server refuses the question.
    await test.engine.collections.configure('pengumuman', { public: false });
    try {
      await page.getByTestId('chat-input').fill(NOTICE_QUESTION);
      await page.getByTestId('chat-send').click();
      const alert = page.getByTestId('chat-error');
      await alert.waitFor({ state: 'visible', timeout: 20_000 });
      const shown = (await alert.textContent()) ?? '';
      const reply = await fetch(`${server.url}/api/v1/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ collection: 'pengumuman', question: NOTICE_QUESTION }),
      });
      const { error } = (await reply.json()) as { error: { code: string; message: string } };
      expect(reply.ok).toBe(false);
      expect(shown).not.toContain(error.message);
      expect(
        Object.values(indonesianErrors()).some((sentence) => shown.includes(sentence)),
        shown,
      ).toBe(true);
      expect(await appEnglishOnPage(page)).toEqual([]);
    } finally {
      await test.engine.collections.configure('pengumuman', { public: true });
    }
    await visitor.close();
  });

  it('lists documents with translated statuses, short hashes with a copy button and local numbers, in both languages', async () => {
    let archived = '';
    for (const lang of ['id', 'en'] as const) {
      const { visitor, page } = await visit(lang, 1366, '/admin');
      await visitor.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await page.getByTestId('admin-login-email').fill(ADMIN_EMAIL);
      await page.getByTestId('admin-login-password').fill(ADMIN_PASSWORD);
      await page.getByTestId('admin-login-submit').click();
      const rows = page.getByTestId('document-row');
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
      if (archived === '') {
        // One archived document, so the list shows two statuses.
        const notice = rows.filter({ hasText: 'Pengumuman Dinas Pasar' });
        archived = (await notice.getAttribute('data-id')) ?? '';
        await notice.getByTestId('document-archive').click();
        await expect.poll(() => attribute(notice, 'data-status')).toBe('ARCHIVED');
      }
      const statuses = await page.getByTestId('document-status').allTextContents();
      expect(new Set(statuses)).toEqual(
        new Set([translate(lang, 'admin.status.READY'), translate(lang, 'admin.status.ARCHIVED')]),
      );
      const filter = (await page.getByTestId('filter-status').locator('option').allTextContents()).slice(1);
      for (const option of filter) expect(option).not.toMatch(/^[A-Z_]+$/);
      // Short hashes: the first 10 and last 6 characters, the whole value one click away.
      const tx = page.getByTestId('document-tx').first();
      const full = (await tx.getAttribute('data-value')) ?? '';
      expect(full).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await tx.locator('code [aria-hidden="true"]').textContent()).toBe(
        `${full.slice(0, 10)}…${full.slice(-6)}`,
      );
      await tx.getByTestId('copy-hash').click();
      await expect
        .poll(async () => (await tx.getByTestId('copy-hash').textContent()) ?? '')
        .toBe(`${translate(lang, 'hash.copied')}: ${translate(lang, 'admin.txLabel')}`);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(full);
      const root = page.getByTestId('document-root').first();
      expect(((await root.locator('code').textContent()) ?? '').length).toBeLessThan(64 + 20);
      // The glossary panel: the collection's vocabulary with its hash; a bad edit names its entry, stores nothing.
      const glossary = page.getByTestId('glossary-section');
      await glossary.getByTestId('glossary-collection').selectOption('lalu-lintas');
      await expect
        .poll(() => glossary.getByTestId('glossary-json').inputValue(), { timeout: 10_000 })
        .toContain('"lampu merah"');
      const sha256 = await glossary.getByTestId('glossary-sha256').textContent();
      expect(sha256).toMatch(/^[0-9a-f]{64}$/);
      await glossary
        .getByTestId('glossary-json')
        .fill('{"format":"saksi-glossary","version":1,"dictionary":[{"terms":["SIM"],"expansion":"x"}]}');
      await glossary.getByTestId('glossary-save').click();
      await expect
        .poll(() => glossary.getByTestId('glossary-problem').textContent())
        .toContain('dictionary[0].terms[0]');
      await glossary.getByTestId('glossary-json').fill('{');
      await glossary.getByTestId('glossary-save').click();
      await expect
        .poll(() => glossary.getByTestId('glossary-problem').textContent())
        .toBe(translate(lang, 'admin.glossary.notJson'));
      expect(await glossary.getByTestId('glossary-sha256').textContent()).toBe(sha256);
      // The archive notice would cover rows in the screenshots.
      for (const close of await page.locator('[data-testid="toast"] .toast-close').all()) await close.click();
      await expectNoHorizontalScroll(page);
      await checkAccessibility(page, `/admin (documents, ${lang}, 1366 px)`);
      if (lang === 'id') expect(await appEnglishOnPage(page)).toEqual([]);
      await shoot(page, 'admin-list', 1366, lang);
      await page.setViewportSize(WIDTHS[375]);
      await expectNoHorizontalScroll(page);
      // One line per hash on a phone: the short hash and its button fit beside the cell's label.
      const height = await tx.evaluate((element) => element.getBoundingClientRect().height);
      expect(height).toBeLessThanOrEqual(40);
      await shoot(page, 'admin-list', 375, lang);
      await visitor.close();
    }
    // Back as it was.
    await test.engine.db.query("UPDATE documents SET status = 'READY' WHERE id = $1", [archived]);
  });

  it('made no request to another host and raised no page error', () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

/** Waits until a verify panel has its verdict. */
async function settled(panel: Locator): Promise<void> {
  await expect
    .poll(async () => (await attribute(panel, 'data-verdict')) ?? 'missing', { timeout: 20_000 })
    .toMatch(/^(verified|failed)$/);
}

function watch(page: Page): void {
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
}

async function openPage(route: string): Promise<Page> {
  const page = await context.newPage();
  watch(page);
  await page.goto(`${server.url}${route}`);
  await page.waitForLoadState('networkidle');
  return page;
}

/** The `data-status` of the three results in a verify panel or result. */
async function threeResults(scope: Locator): Promise<Record<string, string | null>> {
  return {
    authentic: await scope.getByTestId('result-authentic').getAttribute('data-status'),
    supported: await scope.getByTestId('result-supported').getAttribute('data-status'),
    relevant: await scope.getByTestId('result-relevant').getAttribute('data-status'),
  };
}

/** `check-<id>` → `data-status` inside a verify panel or result. */
async function checkStatuses(scope: Locator): Promise<Record<string, string>> {
  return scope.evaluate((element) => {
    const statuses: Record<string, string> = {};
    for (const check of Array.from(element.querySelectorAll('[data-testid^="check-"]'))) {
      const id = check.getAttribute('data-testid')?.slice('check-'.length) ?? '';
      statuses[id] = check.getAttribute('data-status') ?? '';
    }
    return statuses;
  });
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const current = () => page.evaluate(() => document.documentElement.dataset['theme'] ?? '');
  if ((await current()) !== theme) await page.getByTestId('theme-switch').click();
  await expect.poll(current).toBe(theme);
}

/** axe-core on the page: serious or critical violations fail, and the heading structure (one <h1> per page, no skipped levels). */
function checkAccessibility(page: Page, label: string): Promise<void> {
  return checkPage(page, label, { alsoBlocking: ['heading-order', 'page-has-heading-one'] });
}

async function screenshot(page: Page, name: string): Promise<void> {
  await web?.screenshot(page, name);
}

/** The page's visible text outside the messages: labels, buttons, placeholders. */
async function visibleLabels(page: Page): Promise<string> {
  return page.evaluate(() => {
    const placeholders = Array.from(document.querySelectorAll('[placeholder]')).map((e) =>
      e.getAttribute('placeholder'),
    );
    const labels = Array.from(document.querySelectorAll('[aria-label]')).map((e) =>
      e.getAttribute('aria-label'),
    );
    return `${document.body.textContent}\n${placeholders.join('\n')}\n${labels.join('\n')}`;
  });
}

/** A fresh visitor (its own storage) whose browser speaks `lang`, on `route` at one of the two widths. */
async function visit(
  lang: Lang,
  width: keyof typeof WIDTHS,
  route = '/',
): Promise<{ visitor: BrowserContext; page: Page }> {
  const visitor = await browser.newContext({
    viewport: WIDTHS[width],
    locale: lang === 'id' ? 'id-ID' : 'en-GB',
  });
  const rpc = test.engine.anchoring.chain()?.rpc_url ?? '';
  visitor.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(server.url) && !(rpc !== '' && url.startsWith(rpc)) && !url.startsWith('data:'))
      foreignRequests.push(url);
  });
  const page = await visitor.newPage();
  watch(page);
  await page.goto(`${server.url}${route}`);
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
  return { visitor, page };
}

/** Saves `chat-<what>-<width>-<lang>.png`. */
async function shoot(page: Page, what: string, width: keyof typeof WIDTHS, lang: Lang): Promise<void> {
  await web?.screenshot(page, `chat-${what}-${width}-${lang}`);
}

/** Whether an element hides part of its content (folded). */
function clipped(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element.scrollHeight > element.clientHeight + 1);
}

/** The Indonesian error sentences, for telling them apart from the server's English message. */
function indonesianErrors(): Record<string, string> {
  const keys = [
    'errors.NOT_FOUND',
    'errors.UNAUTHENTICATED',
    'errors.FORBIDDEN',
    'errors.INVALID_INPUT',
  ] as const;
  return Object.fromEntries(keys.map((key) => [key, translate('id', key)]));
}

/**
 * The app's English-table values an Indonesian page shows. Left out besides certified text: the
 * answer (certified text in the question's language) and the chat's verification panel (the verify
 * page's own test checks the panel).
 */
function appEnglishOnPage(page: Page): Promise<string[]> {
  return englishOnPage(page, englishOnlyPhrases(), [
    '[data-testid="verify-panel"]',
    '[data-testid="answer-text"]',
  ]);
}
