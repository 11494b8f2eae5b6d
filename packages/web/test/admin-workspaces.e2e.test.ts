/**
 * End-to-end test of the admin portal's workspaces and API keys (docs/api.md, "Admin routes") in headless
 * Chromium: a real engine on PGlite, the real server serving `packages/web/dist`, a first admin created with
 * `createAdmin`, and the page driven through `data-testid`s, roles and labels.
 *
 * One story: sign in; create a workspace; create a key with read + ingest and see its secret once, in
 * a labelled, live, copyable box with its warning; the key list shows the prefix and never the secret
 * (nor does the page after the box is closed or reloaded); the engine accepts the key; revoke it
 * through the confirmation dialog and it turns revoked, and the engine refuses it. axe-core on the
 * section; screenshots at desktop and 360 px width. Skipped when `/usr/bin/chromium` is missing.
 */
import { authenticateApiKey, createAdmin } from '@saksi/engine';
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
  startWebHarness,
  VIEWPORTS,
  type WebHarness,
} from './browser-harness.js';

const hasChromium = chromiumAvailable('admin-workspaces.e2e.test.ts', 'the workspace end-to-end tests');

const ADMIN_EMAIL = 'admin@saksi.test';
const ADMIN_PASSWORD = 'correct horse battery staple';
const WORKSPACE = 'Dinas Keuangan';
const KEY_NAME = 'ingest bot';

let web: WebHarness | undefined;
let test: TestEngine;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let secret = '';
const pageErrors: string[] = [];

describe.skipIf(!hasChromium)('admin workspaces and API keys end to end (Chromium)', BROWSER_TEST, () => {
  beforeAll(async () => {
    web = await startWebHarness({
      env: {},
      prepare: async (opened) => {
        await createAdmin(opened.engine.db, ADMIN_EMAIL, ADMIN_PASSWORD);
      },
    });
    ({ test, server, context } = web);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  });

  afterAll(async () => {
    await web?.close();
    const shots = web?.shots ?? [];
    if (shots.length > 0)
      console.log(['workspace screenshots:', ...shots.map((shot) => `  ${shot}`)].join('\n'));
  });

  it('signs in and creates a workspace, which is selected', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByTestId('admin-login-email').fill(ADMIN_EMAIL);
    await page.getByTestId('admin-login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('admin-login-submit').click();
    const section = page.getByTestId('workspaces-section');
    await section.waitFor({ state: 'visible' });
    const lang = await pageLang(page);
    expect(await section.getByRole('heading', { level: 2 }).textContent()).toBe(
      translate(lang, 'admin.workspaces.title'),
    );

    await page.getByLabel(translate(lang, 'admin.workspaces.name')).fill(WORKSPACE);
    await page.getByTestId('workspace-create').click();
    const row = page.getByTestId('workspace-row').filter({ hasText: WORKSPACE });
    await expect.poll(() => row.count()).toBe(1);
    const id = (await row.getAttribute('data-id')) ?? '';
    expect(id).toMatch(/^wsp_/);
    expect(await row.getByTestId('workspace-select').getAttribute('aria-pressed')).toBe('true');
    const panel = page.getByTestId('keys-panel');
    await panel.waitFor({ state: 'visible' });
    expect(await panel.getAttribute('data-workspace')).toBe(id);
    expect(await page.getByTestId('key-row').count()).toBe(0);
  });

  it('creates a read + ingest key and shows its secret once, with the warning', async () => {
    const lang = await pageLang(page);
    await page.getByTestId('key-name').fill(KEY_NAME);
    expect(await page.getByTestId('key-scope-read').isChecked()).toBe(true);
    await page.getByTestId('key-scope-ingest').check();
    expect(await page.getByTestId('key-scope-admin').isChecked()).toBe(false);
    await page.getByTestId('key-create').click();

    const value = page.getByTestId('new-key-value');
    await value.waitFor({ state: 'visible' });
    secret = await value.inputValue();
    expect(secret).toMatch(/^saksi_[A-Za-z0-9_-]{43}$/);
    expect(await page.getByTestId('new-key-region').getAttribute('aria-live')).toBe('polite');
    expect(await page.getByTestId('new-key-warning').textContent()).toBe(
      translate(lang, 'admin.keys.new.warning'),
    );
    // The box is labelled: the secret is reachable by its label.
    expect(
      await page.getByLabel(translate(lang, 'admin.keys.new.label', { name: KEY_NAME })).inputValue(),
    ).toBe(secret);
    await page.getByTestId('new-key-copy').click();
    await expect
      .poll(() => page.getByTestId('new-key-copy-state').textContent())
      .toBe(translate(lang, 'admin.keys.new.copied'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    const principal = await authenticateApiKey(test.engine.db, secret);
    expect(principal.scopes).toEqual(['read', 'ingest']);

    const keyRow = page.getByTestId('key-row');
    await expect.poll(() => keyRow.count()).toBe(1);
    expect(await keyRow.getAttribute('data-status')).toBe('active');
    expect(await keyRow.getByTestId('key-prefix').textContent()).toBe(`${secret.slice(0, 14)}…`);
    const rowText = (await keyRow.textContent()) ?? '';
    expect(rowText).toContain(KEY_NAME);
    expect(rowText).toContain('read, ingest');
    expect(rowText).not.toContain(secret);
    expect(rowText).toContain(translate(lang, 'admin.keys.never'));
    expect(await page.getByTestId('keys-table').innerHTML()).not.toContain(secret.slice(14));

    await checkAccessibility(page, '/admin (workspaces, new key shown)');
    await web?.screenshot(page, 'admin-workspaces-desktop');
    await page.setViewportSize(VIEWPORTS.mobile);
    await web?.screenshot(page, 'admin-workspaces-mobile');
    await expectNoHorizontalScroll(page);
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('never shows the secret again: not after closing the box, not after a reload', async () => {
    await page.getByTestId('new-key-done').click();
    await page.getByTestId('new-key').waitFor({ state: 'detached' });
    expect(await pageContains(page, secret)).toBe(false);
    const listed = await page.request.get(
      `${server.url}/api/v1/admin/workspaces/${await selectedWorkspace()}/keys`,
    );
    const text = await listed.text();
    expect(listed.status()).toBe(200);
    expect(text).toContain(secret.slice(0, 14));
    expect(text).not.toContain(secret);
    expect(text).not.toContain('key_hash');

    await page.reload();
    const row = page.getByTestId('workspace-row').filter({ hasText: WORKSPACE });
    await row.waitFor({ state: 'visible' });
    await row.getByTestId('workspace-select').click();
    await expect.poll(() => page.getByTestId('key-row').count()).toBe(1);
    expect(await page.getByTestId('new-key').count()).toBe(0);
    expect(await pageContains(page, secret)).toBe(false);
  });

  it('revokes the key after confirmation; it turns revoked and stops working', async () => {
    const keyRow = page.getByTestId('key-row');
    const revoke = keyRow.getByTestId('key-revoke');
    const confirm = page.getByTestId('confirm-revoke');
    // Escape cancels and returns the focus to the button.
    await revoke.click();
    await confirm.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    expect(await revoke.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await keyRow.getAttribute('data-status')).toBe('active');

    await revoke.click();
    await confirm.click();
    await expect.poll(() => attribute(keyRow, 'data-status')).toBe('revoked');
    expect(await keyRow.getByTestId('key-status').textContent()).toBe(
      translate(await pageLang(page), 'admin.keys.status.revoked'),
    );
    expect(await keyRow.getByTestId('key-revoke').count()).toBe(0);
    await expect(authenticateApiKey(test.engine.db, secret)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    const row = page.getByTestId('workspace-row').filter({ hasText: WORKSPACE });
    await expect.poll(async () => (await row.locator('td').nth(2).textContent())?.trim()).toBe('0');
    expect(pageErrors).toEqual([]);
  });
});

async function selectedWorkspace(): Promise<string> {
  return (await page.getByTestId('keys-panel').getAttribute('data-workspace')) ?? '';
}

/** Whether `text` is anywhere in the page: its markup or the value of any field. */
async function pageContains(target: Page, text: string): Promise<boolean> {
  return target.evaluate(
    (needle) =>
      document.documentElement.outerHTML.includes(needle) ||
      Array.from(document.querySelectorAll('input, textarea')).some((element) =>
        (element as HTMLInputElement).value.includes(needle),
      ),
    text,
  );
}

async function pageLang(target: Page): Promise<Lang> {
  const lang = await target.evaluate(() => document.documentElement.lang);
  if (!isLang(lang)) throw new Error(`unexpected <html lang="${lang}">`);
  return lang;
}
