/**
 * Feedback and the usage page in headless Chromium (docs/api.md, "Feedback" and "Admin routes"): a real
 * engine on PGlite behind the real server serving `packages/web/dist`. A reader asks in the chat,
 * gives a thumbs up and a comment (stored with the answer's certificate); an admin opens the usage
 * page, whose figures are the server's, in English and Indonesian, at desktop and phone width, and
 * downloads its CSV. Earlier answers are spread over the last days so the charts have something to
 * draw. axe-core on both pages; screenshots go to test/screenshots/usage-*.png and chat-feedback-*.png.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createAdmin } from '@saksi/engine';
import { utf8Encode } from '@saksi/proof';
import type { RunningServer } from '@saksi/server';
import type { TestEngine } from '@saksi/test-support/engine-fixture';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNumber } from '../src/format.js';
import { translate } from '../src/i18n.js';
import {
  BROWSER_TEST,
  checkAccessibility,
  chromiumAvailable,
  expectNoHorizontalScroll,
  startWebHarness,
  VIEWPORTS,
  type WebHarness,
  webRoot,
} from './browser-harness.js';

/** When the sources this test drives last changed. */
function newestSource(): number {
  const sources = [
    'feedback.tsx',
    'chat.tsx',
    'i18n.ts',
    'app.tsx',
    'styles.css',
    'admin/usage.tsx',
    'admin/usage.css',
    'admin/bar-chart.tsx',
    'admin/usage-api.ts',
    'admin/admin-page.tsx',
  ];
  return Math.max(...sources.map((file) => statSync(path.join(import.meta.dirname, '../src', file)).mtimeMs));
}

const hasChromium = chromiumAvailable('usage.e2e.test.ts', 'the feedback and usage browser tests');

const ADMIN_EMAIL = 'admin@saksi.test';
const ADMIN_PASSWORD = 'correct horse battery staple';
const LAW = `# UU Contoh Lalu Lintas

Pasal 106

(8) Setiap orang yang mengemudikan Sepeda Motor dan Penumpang Sepeda Motor wajib menggunakan helm yang memenuhi standar nasional Indonesia.

Pasal 291

(1) Setiap orang yang mengemudikan Sepeda Motor tidak menggunakan helm standar nasional Indonesia dipidana dengan pidana kurungan paling lama 1 (satu) bulan atau denda paling banyak Rp250.000,00 (dua ratus lima puluh ribu rupiah).
`;
/** Earlier questions, answered or refused, each moved to a day of the last week. */
const EARLIER = [
  'Naik motor wajib pakai helm?',
  'Berapa denda tidak memakai helm?',
  'Berapa harga tiket pesawat ke Bali?',
  'Apakah penumpang sepeda motor wajib memakai helm?',
  'berapa harga tiket pesawat ke bali',
  'Siapa juara piala dunia?',
  'Apa hukuman tidak pakai helm SNI?',
  'Kapan pemilu berikutnya?',
];
const CHAT_QUESTION = 'Helm apa yang wajib dipakai pengendara sepeda motor?';

let web: WebHarness | undefined;
let test: TestEngine;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

describe.skipIf(!hasChromium)('feedback and the usage page (Chromium)', BROWSER_TEST, () => {
  beforeAll(async () => {
    web = await startWebHarness({
      env: { SAKSI_ANCHOR: 'none' },
      // Build when the bundle is missing or older than this page's sources.
      needsBuild: () =>
        !existsSync(path.join(webRoot, 'index.html')) ||
        statSync(path.join(webRoot, 'index.html')).mtimeMs < newestSource(),
      prepare: async (opened) => {
        const { engine } = opened;
        await createAdmin(engine.db, ADMIN_EMAIL, ADMIN_PASSWORD);
        await engine.ingest('hukum', { bytes: utf8Encode(LAW), filename: 'uu-contoh.md' });
        await engine.collections.configure('hukum', {
          public: true,
          title: { id: 'UU contoh', en: 'Sample law' },
        });
        for (const [index, question] of EARLIER.entries()) {
          const answer = await engine.ask('hukum', { question });
          const id = answer.bundle.certificate.certificate_id;
          // Spread over the week, with answer times like a loaded server's; one recorded none.
          await engine.db.query(
            `UPDATE certificates SET issued_at = issued_at - make_interval(days => $2), latency_ms = $3 WHERE id = $1`,
            [id, (index % 6) + 1, index === 3 ? null : 400 + index * 170],
          );
          if (index % 3 === 0)
            await engine.db.query(
              `INSERT INTO answer_feedback (certificate_id, submitter, rating) VALUES ($1, $2, $3)`,
              [id, `address:seed-${index}`, index % 2 === 0 ? 'up' : 'down'],
            );
        }
      },
    });
    ({ test, server, context } = web);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  });

  afterAll(async () => {
    await web?.close();
    const shots = web?.shots ?? [];
    if (shots.length > 0) console.log(['usage screenshots:', ...shots.map((shot) => `  ${shot}`)].join('\n'));
  });

  it('takes a thumbs up and a comment on a chat answer, stored with its certificate', async () => {
    await page.goto(`${server.url}/`);
    await page.getByTestId('lang-switch').selectOption('en');
    await page.getByTestId('collection-picker').selectOption('hukum');
    await page.getByTestId('chat-input').fill(CHAT_QUESTION);
    await page.getByTestId('chat-send').click();
    const answer = page.getByTestId('message-assistant').last();
    await answer.and(page.locator('[data-state="done"]')).waitFor({ timeout: 60_000 });
    const up = answer.getByTestId('feedback-up');
    await up.waitFor({ state: 'visible' });
    await up.click();
    await expect
      .poll(() => answer.getByTestId('feedback-status').textContent())
      .toBe(translate('en', 'feedback.thanks'));
    expect(await up.getAttribute('aria-pressed')).toBe('true');

    const stored = async () =>
      (
        await test.engine.db.query<{ rating: string; comment: string | null; question: string }>(
          `SELECT f.rating, f.comment, c.certificate->'query'->>'text' AS question
             FROM answer_feedback f JOIN certificates c ON c.id = f.certificate_id
            WHERE f.submitter NOT LIKE 'address:seed-%'`,
        )
      ).rows;
    expect(await stored()).toEqual([{ rating: 'up', comment: null, question: CHAT_QUESTION }]);

    await answer.getByTestId('feedback-comment').fill('Jelas, dengan pasalnya.');
    await answer.getByTestId('feedback-send').click();
    await expect
      .poll(() => answer.getByTestId('feedback-status').textContent())
      .toBe(translate('en', 'feedback.thanksComment'));
    expect(await stored()).toEqual([
      { rating: 'up', comment: 'Jelas, dengan pasalnya.', question: CHAT_QUESTION },
    ]);
    await checkAccessibility(page, '/ (answer with feedback)');
    await web!.screenshot(page, 'chat-feedback-desktop-en');

    // Changing one's mind replaces the feedback; the Indonesian page says so in Indonesian.
    await page.getByTestId('lang-switch').selectOption('id');
    await answer.getByTestId('feedback-down').click();
    await expect
      .poll(() => answer.getByTestId('feedback-status').textContent())
      .toBe(translate('id', 'feedback.thanks'));
    // The comment given before stays with the new rating.
    expect(await stored()).toEqual([
      { rating: 'down', comment: 'Jelas, dengan pasalnya.', question: CHAT_QUESTION },
    ]);
    await answer.getByTestId('feedback-comment').waitFor({ state: 'visible' });
    await web!.screenshot(page, 'chat-feedback-desktop-id');
  });

  it('shows the usage page with the server’s figures, in both languages and at phone width', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByTestId('lang-switch').selectOption('en');
    await page.getByTestId('admin-login-email').fill(ADMIN_EMAIL);
    await page.getByTestId('admin-login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('admin-login-submit').click();
    await page.getByTestId('admin-nav-usage').click();
    expect(new URL(page.url()).pathname).toBe('/admin/usage');
    await page.getByTestId('usage-report').waitFor();
    await page.getByTestId('usage-period').selectOption('7');
    await expect.poll(() => page.locator('[data-testid="usage-days-table"] tbody tr').count()).toBe(7);

    // The figures are the server's, for the same query.
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const response = await context.request.get(
      `${server.url}/api/v1/admin/usage?days=7&tz=${encodeURIComponent(zone)}`,
    );
    expect(response.status()).toBe(200);
    const report = (await response.json()) as {
      totals: { questions: number; refused: number; up: number; down: number };
      top_refused: { question: string; count: number }[];
    };
    expect(report.totals.questions).toBe(EARLIER.length + 1);
    expect(report.totals.refused).toBeGreaterThan(0);
    const questionsCard = page.getByTestId('usage-card-questions');
    expect(await questionsCard.locator('.usage-figure').textContent()).toBe(
      formatNumber(report.totals.questions, 'en'),
    );
    expect(await page.getByTestId('usage-card-feedback').textContent()).toContain(
      translate('en', 'admin.usage.feedbackSplit', { up: report.totals.up, down: report.totals.down }),
    );
    expect(await page.getByTestId('usage-refused-row').count()).toBe(report.top_refused.length);
    expect(await page.getByTestId('usage-refused-row').first().textContent()).toContain(
      report.top_refused[0]!.question,
    );
    // Each chart is an image with a title and a description.
    for (const chart of ['chart-questions', 'chart-refusals', 'chart-feedback', 'chart-latency']) {
      const svg = page.getByTestId(chart).locator('svg[role="img"]');
      expect(await svg.locator('title').first().textContent()).not.toBe('');
      expect(await svg.locator('desc').textContent()).toMatch(/^Bar chart of .+ per day, /);
    }
    const questionsChart = page.getByTestId('chart-questions').locator('svg');
    expect(await questionsChart.locator('rect.bar-accent, rect.bar-fail').count()).toBeGreaterThan(3);

    // The CSV download, with the session's cookie.
    const href = await page.getByTestId('usage-csv').getAttribute('href');
    const csv = await context.request.get(`${server.url}${href}`);
    expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers()['content-disposition']).toMatch(
      /^attachment; filename="saksi-usage_wsp_default_all_/,
    );
    const lines = (await csv.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines.at(-2)!.startsWith(`total,${report.totals.questions},`)).toBe(true);

    await page.getByTestId('usage-days').locator('summary').click();
    await checkAccessibility(page, '/admin/usage');
    await expectNoHorizontalScroll(page);
    await web!.screenshot(page, 'usage-desktop-en');

    await page.getByTestId('lang-switch').selectOption('id');
    await expect
      .poll(() => page.getByTestId('usage-section').locator('h2').textContent())
      .toBe(translate('id', 'admin.usage.title'));
    expect(await page.getByTestId('usage-card-feedback').textContent()).toContain(
      translate('id', 'admin.usage.feedbackSplit', { up: report.totals.up, down: report.totals.down }),
    );
    await checkAccessibility(page, '/admin/usage (Indonesian)');
    await web!.screenshot(page, 'usage-desktop-id');

    await page.setViewportSize(VIEWPORTS.mobile);
    await expectNoHorizontalScroll(page);
    // As a phone user first sees it: the figures per day folded.
    await page.getByTestId('usage-days').locator('summary').click();
    await web!.screenshot(page, 'usage-mobile-id');
    await page.getByTestId('chart-questions').scrollIntoViewIfNeeded();
    await web!.screenshot(page, 'usage-mobile-id-charts', { fullPage: false });
    await page.setViewportSize(VIEWPORTS.desktop);
    expect(pageErrors).toEqual([]);
  });
});
