/**
 * End-to-end tests of the admin portal (README.md, "In the browser") in headless Chromium: a real engine
 * on PGlite with a local anvil chain, the real server serving `packages/web/dist`, a first admin
 * created with `createAdmin`, and the page driven only through the admin contract's `data-testid`s,
 * roles and labels.
 *
 * One story, in order: a wrong password gets the generic error; sign in; upload a real PDF with its
 * metadata and follow the streamed progress to `done`; the row appears READY; anchor, reload, and the
 * row shows ANCHORED with its transaction; the public chat answers from that document; archive,
 * restore, delete (through the confirmation dialog); the Workspaces table counts the document from the
 * upload to the deletion without a reload; sign out. axe-core (no serious or critical
 * violation) on the sign-in form and the portal; screenshots at desktop and 360 px width go to
 * test/screenshots/admin-*.png. Skipped when `/usr/bin/chromium` is missing.
 */
import path from 'node:path';
import { createAdmin, DEFAULT_WORKSPACE } from '@saksi/engine';
import type { RunningServer } from '@saksi/server';
import type { TestEngine } from '@saksi/test-support/engine-fixture';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLang, type Lang, translate } from '../src/i18n.js';
import {
  attribute,
  BROWSER_TEST,
  checkAccessibility,
  chromiumAvailable,
  expectNoHorizontalScroll,
  repoRoot,
  startWebHarness,
  VIEWPORTS,
  type WebHarness,
} from './browser-harness.js';

const hasChromium = chromiumAvailable('admin.e2e.test.ts', 'the admin end-to-end tests');

/** A 4-page pdfLaTeX sample (see ../shared/data/files/pdf-samples/files.json). */
const PDF = path.resolve(
  repoRoot,
  '../shared/data/files/pdf-samples/004-pdflatex-4-pages/pdflatex-4-pages.pdf',
);
// Answered by a statement of the document (its own questions are never quoted back as answers).
const PDF_QUESTION = 'What information does a blind text like this give you?';
const COLLECTION = 'apbn-sampel';

const ADMIN_EMAIL = 'admin@saksi.test';
const ADMIN_PASSWORD = 'correct horse battery staple';

let web: WebHarness | undefined;
let test: TestEngine;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

describe.skipIf(!hasChromium)('admin portal end to end (Chromium)', BROWSER_TEST, () => {
  beforeAll(async () => {
    web = await startWebHarness({
      env: { SAKSI_ANCHOR: 'local' },
      prepare: async (opened) => {
        await createAdmin(opened.engine.db, ADMIN_EMAIL, ADMIN_PASSWORD);
      },
    });
    ({ test, server, context } = web);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  });

  afterAll(async () => {
    await web?.close();
    const shots = web?.shots ?? [];
    if (shots.length > 0) console.log(['admin screenshots:', ...shots.map((shot) => `  ${shot}`)].join('\n'));
  });

  it('refuses a wrong password with the generic message, then signs in', async () => {
    await page.goto(`${server.url}/admin`);
    const email = page.getByTestId('admin-login-email');
    await email.waitFor({ state: 'visible' });
    expect(await email.getAttribute('autocomplete')).toBe('username');
    expect(await page.getByTestId('admin-login-password').getAttribute('autocomplete')).toBe(
      'current-password',
    );
    // Labelled fields: reachable by their label text.
    expect(await page.getByLabel(/email/i).count()).toBeGreaterThan(0);
    await checkAccessibility(page, '/admin (sign-in form)');
    await screenshot(page, 'admin-login-desktop');

    await email.fill(ADMIN_EMAIL);
    await page.getByTestId('admin-login-password').fill('not the password at all');
    await page.getByTestId('admin-login-submit').click();
    const error = page.getByTestId('admin-login-error');
    await error.waitFor({ state: 'visible' });
    expect(await error.getAttribute('role')).toBe('alert');
    const lang = await pageLang(page);
    expect((await error.textContent()) ?? '').toBe(translate(lang, 'admin.login.failed'));
    // An unknown email gets exactly the same words.
    await email.fill('nobody@saksi.test');
    const [unknown] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/v1/admin/login')),
      page.getByTestId('admin-login-submit').click(),
    ]);
    expect(unknown.status()).toBe(401);
    await expect.poll(() => page.getByTestId('admin-login-submit').isEnabled()).toBe(true);
    expect((await error.textContent()) ?? '').toBe(translate(lang, 'admin.login.failed'));
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'admin-login-mobile');
    await expectNoHorizontalScroll(page);
    await page.setViewportSize(VIEWPORTS.desktop);

    await email.fill(ADMIN_EMAIL);
    await page.getByTestId('admin-login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('admin-login-submit').click();
    await page.getByTestId('admin-logout').waitFor({ state: 'visible' });
    await page.getByTestId('documents-table').waitFor({ state: 'visible' });
    expect(await page.getByTestId('document-row').count()).toBe(0);
    await expect.poll(workspaceDocuments).toBe('0');
  });

  it('uploads a PDF with its metadata, follows the progress to done, and lists it READY', async () => {
    await page.getByTestId('upload-file').setInputFiles(PDF);
    await page.getByTestId('upload-collection').fill(COLLECTION);
    await page.getByTestId('upload-type').selectOption('APBN');
    await page.getByTestId('upload-year').fill('2025');
    await page.getByTestId('upload-source').fill('https://jdih.kemenkeu.go.id/');
    const submit = page.getByTestId('upload-submit');
    expect(await submit.isEnabled()).toBe(true);
    // Record every stage the progress bar shows while the upload runs.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __stages: string[] }).__stages = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[data-testid="upload-progress"]');
        const stage = bar?.getAttribute('data-stage') ?? '';
        if (stage !== '' && seen[seen.length - 1] !== stage) seen.push(stage);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await submit.click();
    const progress = page.getByTestId('upload-progress');
    await expect.poll(() => attribute(progress, 'data-state'), { timeout: 30_000 }).toBe('done');
    expect(await progress.getAttribute('data-stage')).toBe('done');
    const stages = await page.evaluate(() => (window as unknown as { __stages: string[] }).__stages);
    expect(stages, stages.join(' → ')).toContain('parsing');
    expect(stages.at(-1)).toBe('done');

    const toast = page.locator('[data-testid="toast"][data-kind="success"]');
    await toast.first().waitFor({ state: 'visible' });
    expect(await toast.first().getAttribute('role')).toBe('status');
    await screenshot(page, 'admin-upload-desktop');

    const row = page.getByTestId('document-row');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getAttribute('data-status')).toBe('READY');
    expect(await row.getAttribute('data-anchor-state')).toBe('PENDING_ANCHOR');
    const id = (await row.getAttribute('data-id')) ?? '';
    const stored = await test.engine.documents.get(id);
    expect(stored).toMatchObject({ document_type: 'APBN', fiscal_year: 2025, collection: COLLECTION });
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(String(stored.chunk_count));
    expect(text).toContain((stored.root ?? '').slice(0, 10));
    // The workspace the admin uploads into counts the document at once, without a reload.
    await expect.poll(workspaceDocuments).toBe('1');
  });

  it('shows the anchor state and its transaction after anchoring', async () => {
    await test.engine.anchoring.runNow();
    await page.reload();
    const row = page.getByTestId('document-row');
    await expect.poll(() => attribute(row, 'data-anchor-state'), { timeout: 15_000 }).toBe('ANCHORED');
    // The tx the server reports for this document (the page's cookie signs the request in).
    const listed = (await (await page.request.get(`${server.url}/api/v1/admin/documents`)).json()) as {
      items: { id: string; anchor: { tx_hash: string; explorer_url: string | null } | null }[];
    };
    const anchor = listed.items[0]?.anchor;
    expect(anchor?.tx_hash ?? '').toMatch(/^0x[0-9a-f]{64}$/i);
    if (anchor?.explorer_url) {
      expect(await row.locator('a').first().getAttribute('href')).toBe(anchor.explorer_url);
    } else {
      expect((await row.textContent()) ?? '').toContain(anchor?.tx_hash);
    }

    await checkAccessibility(page, '/admin (portal, light)');
    await page.getByTestId('theme-switch').click();
    await checkAccessibility(page, '/admin (portal, dark)');
    await page.getByTestId('theme-switch').click();
    await screenshot(page, 'admin-portal-desktop');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'admin-portal-mobile');
    await expectNoHorizontalScroll(page);
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it("calibrates the collection's answer check from a question file, and removes the calibration", async () => {
    const section = page.getByTestId('calibration-section');
    await section.scrollIntoViewIfNeeded();
    await page.getByTestId('calibration-collection').selectOption(COLLECTION);
    await expect.poll(() => page.getByTestId('calibration-summary').textContent()).not.toBe('');
    expect(await page.getByTestId('calibration-sha256').count()).toBe(0);
    // A line that is not JSON is named before anything is sent.
    await page.getByTestId('calibration-file').setInputFiles({
      name: 'broken.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from('{"question":"What is this?","must_mention":["text"]}\nnot json\n'),
    });
    await expect.poll(() => page.getByTestId('calibration-problem').textContent()).toMatch(/2/);
    expect(await page.getByTestId('calibration-run').isDisabled()).toBe(true);
    const lines = [
      ...Array.from({ length: 26 }, (_, index) =>
        JSON.stringify({
          question: `${PDF_QUESTION}${index > 0 ? ` (${index})` : ''}`,
          must_mention: ['text'],
        }),
      ),
      ...[
        'Who won the 1998 World Cup?',
        'What is the price of rice?',
        'Who is the mayor?',
        'When is the election?',
      ].map((question) => JSON.stringify({ question, answerable: false })),
    ];
    await page.getByTestId('calibration-file').setInputFiles({
      name: 'questions.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(`${lines.join('\n')}\n`),
    });
    await expect.poll(() => page.getByTestId('calibration-loaded').textContent()).toMatch(/30/);
    await page.getByTestId('calibration-run').click();
    await page.getByTestId('calibration-sha256').waitFor({ state: 'visible', timeout: 60_000 });
    expect((await page.getByTestId('calibration-sha256').textContent()) ?? '').toMatch(/^[0-9a-f]{64}$/);
    expect((await page.getByTestId('calibration-summary').textContent()) ?? '').toMatch(/30/);
    const stored = (await (
      await page.request.get(`${server.url}/api/v1/collections/${COLLECTION}/calibration`)
    ).json()) as { calibration: { sha256: string; questions: number } | null };
    expect(stored.calibration?.questions).toBe(30);
    expect(await page.getByTestId('calibration-sha256').textContent()).toBe(stored.calibration?.sha256);
    await checkAccessibility(page, '/admin (calibration)');
    await screenshot(page, 'admin-calibration-desktop');
    await page.getByTestId('calibration-remove').click();
    await expect.poll(() => page.getByTestId('calibration-sha256').count()).toBe(0);
  });

  it('the public chat answers from the uploaded document', async () => {
    // The operator makes the collection public; a visitor (no admin session) asks in the chat.
    await test.engine.collections.configure(COLLECTION, { public: true });
    const visitor = await web!.browser.newContext({ viewport: VIEWPORTS.desktop });
    const chat = await visitor.newPage();
    chat.on('pageerror', (error) => pageErrors.push(`${chat.url()}: ${error.message}`));
    await chat.goto(`${server.url}/`);
    await chat.getByTestId('collection-picker').selectOption(COLLECTION);
    await chat.getByTestId('chat-input').fill(PDF_QUESTION);
    await chat.getByTestId('chat-send').click();
    const assistant = chat.getByTestId('message-assistant').last();
    await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 30_000 }).toBe('done');
    const toggle = assistant.getByTestId('sources-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const source = assistant.getByTestId('source-item').first();
    await source.waitFor({ state: 'visible' });
    const [item] = (await test.engine.documents.list({ collection: COLLECTION })).items;
    expect((await source.textContent()) ?? '').toContain(item?.title ?? '(no document)');
    await visitor.close();
  });

  it('archives, restores, and deletes (after confirmation) the document', async () => {
    const row = page.getByTestId('document-row');
    await row.getByTestId('document-archive').click();
    await expect.poll(() => attribute(row, 'data-status')).toBe('ARCHIVED');
    await row.getByTestId('document-restore').click();
    await expect.poll(() => attribute(row, 'data-status')).toBe('READY');
    // An archived document is still the workspace's: still counted.
    expect(await workspaceDocuments()).toBe('1');

    await page.getByTestId('filter-status').selectOption('ARCHIVED');
    await expect.poll(() => row.count()).toBe(0);
    await page.getByTestId('filter-status').selectOption('');
    await expect.poll(() => row.count()).toBe(1);
    expect((await page.getByTestId('page-info').textContent()) ?? '').toMatch(/1\D+1/);
    expect(await page.getByTestId('page-next').isDisabled()).toBe(true);

    // Cancelling (Escape) keeps the row and returns focus to the delete button.
    const remove = row.getByTestId('document-delete');
    await remove.click();
    const confirm = page.getByTestId('confirm-delete');
    await confirm.waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.activeElement?.closest('dialog')?.open ?? false)).toBe(true);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    expect(await remove.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await row.count()).toBe(1);

    await remove.click();
    await confirm.click();
    await expect.poll(() => row.count()).toBe(0);
    const deleted = page.locator('[data-testid="toast"][data-kind="success"]');
    expect(await deleted.count()).toBeGreaterThan(0);
    expect((await test.engine.documents.list({})).total).toBe(0);
    await expect.poll(workspaceDocuments).toBe('0');
  });

  it('an expired session returns to the form with its own message; signing in again works', async () => {
    await test.engine.db.query("UPDATE auth_sessions SET expires_at = now() - interval '1 minute'");
    await page.getByTestId('filter-type').selectOption('APBD');
    const error = page.getByTestId('admin-login-error');
    await error.waitFor({ state: 'visible' });
    expect((await error.textContent()) ?? '').toBe(translate(await pageLang(page), 'admin.login.expired'));
    await page.getByTestId('admin-login-email').fill(ADMIN_EMAIL);
    await page.getByTestId('admin-login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('admin-login-submit').click();
    await page.getByTestId('admin-logout').waitFor({ state: 'visible' });
  });

  it('signs out back to the form; the session is gone', async () => {
    await page.getByTestId('admin-logout').click();
    await page.getByTestId('admin-login-email').waitFor({ state: 'visible' });
    await page.reload();
    await page.getByTestId('admin-login-email').waitFor({ state: 'visible' });
    expect(await page.getByTestId('admin-login-error').count()).toBe(0);
    const me = await page.evaluate(async () => (await fetch('/api/v1/admin/me')).status);
    expect(me).toBe(401);
  });

  it('after repeated failures says how long to wait, in other words than the generic message', async () => {
    const lang = await pageLang(page);
    const [before, after] = translate(lang, 'admin.login.rateLimited', { seconds: '\u0000' }).split('\u0000');
    const error = page.getByTestId('admin-login-error');
    await page.getByTestId('admin-login-email').fill(ADMIN_EMAIL);
    await page.getByTestId('admin-login-password').fill('still not the password');
    let text = '';
    for (let attempt = 0; attempt < 8 && !text.startsWith(before ?? '?'); attempt++) {
      await page.getByTestId('admin-login-submit').click();
      await error.waitFor({ state: 'visible' });
      await expect.poll(() => page.getByTestId('admin-login-submit').isEnabled()).toBe(true);
      text = (await error.textContent()) ?? '';
    }
    expect(text.startsWith(before ?? '?') && text.endsWith(after ?? '?'), text).toBe(true);
    const seconds = Number(text.slice((before ?? '').length, text.length - (after ?? '').length));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(15 * 60);
    expect(pageErrors).toEqual([]);
  });
});

async function pageLang(target: Page): Promise<Lang> {
  const lang = await target.evaluate(() => document.documentElement.lang);
  if (!isLang(lang)) throw new Error(`unexpected <html lang="${lang}">`);
  return lang;
}

/** The Documents column of the admin's own workspace (where the portal uploads) in the Workspaces table. */
async function workspaceDocuments(): Promise<string | undefined> {
  const row = page.locator(`[data-testid="workspace-row"][data-id="${DEFAULT_WORKSPACE}"]`);
  if ((await row.count()) === 0) return undefined;
  return (await row.locator('td').nth(1).textContent())?.trim();
}

async function screenshot(target: Page, name: string): Promise<void> {
  await web?.screenshot(target, name);
}
