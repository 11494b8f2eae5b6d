/**
 * End-to-end tests of the verdict a citizen reads, in headless Chromium against a real engine (PGlite,
 * a local anvil chain) behind the real server: the verdict of a good answer (three results, one
 * sentence and one colour each, in the page's language, details collapsed), a refusal in both
 * languages, the tamper view (a real bundle's figure and its evidence changed: red banner, the old and
 * new figure side by side, failing checks in words, no download or QR), keys pinned in the browser
 * (trust on first use, a changed key is a loud warning and nothing is verified, pins from a file and
 * an address, unpin), bad input on /verify (50 MB, deep nesting, another server's bundle, a relevance
 * of "high" with no support), and the verify page offline from its service worker.
 *
 * Screenshots at 375 and 1366 px in both languages go to test/screenshots/verdict-<what>-<w>-<lang>.png;
 * every page shot is also checked for sideways scrolling and with axe-core.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Bundle, TrustedKeys } from '@saksi/proof';
import { utf8Encode } from '@saksi/proof';
import type { RunningServer } from '@saksi/server';
import type { TestEngine } from '@saksi/test-support/engine-fixture';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishOnlyPhrases } from '../src/i18n-check.js';
import {
  attribute,
  BROWSER_TEST,
  checkAccessibility,
  chromiumAvailable,
  englishOnPage,
  expectNoHorizontalScroll,
  repoRoot,
  startWebHarness,
  type WebHarness,
} from './browser-harness.js';

const hasChromium = chromiumAvailable('verify.e2e.test.ts', 'the verdict end-to-end tests');

const WIDTHS = { 375: { width: 375, height: 812 }, 1366: { width: 1366, height: 900 } } as const;
const LANGS = ['en', 'id'] as const;

/** UU 22/2009 Pasal 285–291 (BAB XX, Ketentuan Pidana). */
function lawExcerpt(): string {
  const lines = readFileSync(
    path.resolve(repoRoot, '../shared/data/corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'),
    'utf8',
  ).split('\n');
  const start = lines.findIndex((line) => line.trim() === 'Pasal 285');
  const end = lines.findIndex((line) => line.trim() === 'Pasal 292');
  expect(start).toBeGreaterThan(0);
  return `# UU 22/2009 BAB XX KETENTUAN PIDANA\n\n${lines.slice(start, end).join('\n')}\n`;
}

const LAW_QUESTION = 'Berapa denda pengendara sepeda motor yang tidak mengenakan helm standar nasional?';
const REFUSED_QUESTION = 'How do I bake sourdough bread at home?';
/** The figure the helmet answer states, and the one a forger puts in its place. */
const FIGURE = 'Rp250.000,00';
const FORGED = 'Rp25.000,00';

const goldenBundle = readFileSync(
  path.resolve(repoRoot, 'packages/proof/__fixtures__/golden-v1.1-bundle.json'),
  'utf8',
);

let web: WebHarness | undefined;
let test: TestEngine;
let server: RunningServer;
let browser: Browser;
let keys: TrustedKeys;
let bundleJson = '';
let refusedId = '';
const pageErrors: string[] = [];
const foreignRequests: string[] = [];
/** Addresses the reader types in to pin keys from: the only other hosts the page may ask. */
const READER_CHOSEN = new Set([
  'https://keys.invalid/saksi-keys.json',
  'https://keys.example/saksi-keys.json',
]);

describe.skipIf(!hasChromium)('the verdict, tamper view and pinned keys (Chromium)', BROWSER_TEST, () => {
  beforeAll(async () => {
    web = await startWebHarness({
      env: { SAKSI_ANCHOR: 'local' },
      prepare: async (opened) => {
        await opened.engine.ingest(
          'lalu-lintas',
          { bytes: utf8Encode(lawExcerpt()), filename: 'uu-22-2009-pasal-285-291.md', title: 'UU 22/2009' },
          { language: 'id' },
        );
        await opened.engine.anchoring.runNow();
        await opened.engine.collections.configure('lalu-lintas', { public: true, domain: 'legal' });
      },
    });
    ({ test, server, browser } = web);
    keys = test.engine.trustedKeys();
  });

  afterAll(async () => {
    await web?.close();
    console.log(['verdict screenshots:', ...(web?.shots ?? []).map((shot) => `  ${shot}`)].join('\n'));
  });

  it('shows the verdict of a good answer on top, in the page language, with the checks under Details', async () => {
    const context = await newContext();
    const page = await open(context, '/');
    await page.getByTestId('collection-picker').selectOption('lalu-lintas');
    await page.getByTestId('chat-input').fill(LAW_QUESTION);
    await page.getByTestId('chat-send').click();
    const assistant = page.getByTestId('message-assistant').last();
    await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 30_000 }).toBe('done');
    const panel = assistant.getByTestId('verify-panel');
    await settled(panel);
    expect(await panel.getAttribute('data-kind')).toBe('verified');
    expect(await panel.getAttribute('data-trust')).toBe('first-use');
    expect(await lines(panel)).toEqual({
      authentic: 'pass tone-good',
      supported: 'pass tone-good',
      relevant: 'relevant tone-good',
    });
    const href = (await assistant.getByTestId('verify-link').getAttribute('href')) ?? '';
    const id = href.split('/verify/')[1] ?? '';
    bundleJson = await (await fetch(`${server.url}/api/v1/certificates/${id}`)).text();
    expect((JSON.parse(bundleJson) as Bundle).certificate.answer.text).toContain(FIGURE);
    // The details are collapsed; every check is there with its explanation.
    expect(await panel.getByTestId('verify-details').getAttribute('open')).toBeNull();
    expect(await panel.locator('[data-testid^="check-"]').count()).toBe(16);

    // The panel on the verify page, in both languages, at both widths.
    await page.goto(`${server.url}/verify/${id}`);
    const result = page.getByTestId('verify-result');
    await settled(result);
    expect(await result.getAttribute('data-trust')).toBe('pinned');
    for (const lang of LANGS) {
      await setLang(page, lang);
      const text = (await result.textContent()) ?? '';
      if (lang === 'id') {
        expect(await result.getByTestId('result-authentic').textContent()).toMatch(
          /^Asli.*Kutipan tidak berubah/,
        );
        expect(text).toMatch(/diperiksa dalam [\d,]+ (milidetik|detik)/);
        // No English explanation, no raw "OK", no "md" on the Indonesian page.
        expect(text).not.toMatch(/The signature|Every text|signature over|\bOK\b|\d md\b/);
      } else {
        expect(await result.getByTestId('result-authentic').textContent()).toMatch(
          /^Authentic.*unchanged since Saksi signed/,
        );
        expect(text).toMatch(/checked in [\d.]+ m?s/);
        expect(text).not.toMatch(/Tanda tangan|Setiap teks|\bOK\b/);
      }
      // The anchor's transaction is shortened, the full value kept for the copy button.
      const tx = result.getByTestId('anchor-tx').first();
      expect(await tx.getAttribute('data-value')).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await tx.locator('code [aria-hidden="true"]').first().textContent()).toMatch(
        /^0x[0-9a-f]{8}…[0-9a-f]{6}$/,
      );
      for (const width of [1366, 375] as const) {
        await page.setViewportSize(WIDTHS[width]);
        await checkPage(page, `verify page, verified answer (${lang}, ${width})`, lang);
        await shot(page, `verdict-panel-${width}-${lang}`);
      }
      // The details opened: every check in plain words, the certificate, the anchors.
      const details = result.getByTestId('verify-details');
      await details.locator('summary').click();
      expect(await details.getAttribute('open')).not.toBeNull();
      await checkPage(page, `verify page, details (${lang}, 375)`, lang);
      await shot(page, `verdict-details-375-${lang}`);
      await details.locator('summary').click();
      await page.setViewportSize(WIDTHS[1366]);
    }
    await context.close();
  });

  it('shows a refusal as a refusal, in both languages: never verified, what the collection covers, related passages', async () => {
    const context = await newContext();
    const page = await open(context, '/');
    await page.getByTestId('collection-picker').selectOption('lalu-lintas');
    await page.getByTestId('chat-input').fill(REFUSED_QUESTION);
    await page.getByTestId('chat-send').click();
    const assistant = page.getByTestId('message-assistant').last();
    await expect.poll(() => attribute(assistant, 'data-state'), { timeout: 30_000 }).toBe('done');
    const panel = assistant.getByTestId('verify-panel');
    await settled(panel);
    expect(await panel.getAttribute('data-kind')).toBe('refused');
    expect(await panel.getAttribute('data-answered')).toBe('false');
    expect(await panel.getAttribute('class')).not.toContain('verdict-verified');
    expect(await panel.getByTestId('result-answer').getAttribute('data-reason')).toBe('NOT_COVERED');
    expect(await panel.getByTestId('result-supported').count()).toBe(0);
    const refusal = panel.getByTestId('refusal');
    // The chat's refusal note says what the collection covers; the panel does not say it again.
    await assistant.getByTestId('refusal-note').waitFor({ state: 'visible' });
    expect(await refusal.getByTestId('refusal-related').locator('li').count()).toBeGreaterThan(0);
    expect(await refusal.getByTestId('refusal-collection').count()).toBe(0);
    const href = (await assistant.getByTestId('verify-link').getAttribute('href')) ?? '';
    refusedId = href.split('/verify/')[1] ?? '';
    expect(refusedId).not.toBe('');
    for (const [lang, heading, reason] of [
      ['en', /Not answered/, /Saksi declined to answer: the documents in the collection do not cover/],
      ['id', /Tidak terjawab/, /Saksi tidak menjawab: dokumen di koleksi ini tidak membahas/],
    ] as const) {
      await setLang(page, lang);
      const text = (await panel.textContent()) ?? '';
      expect(await panel.getByTestId('verify-heading').textContent()).toMatch(heading);
      expect(await panel.getByTestId('result-answer').textContent()).toMatch(reason);
      expect(text).not.toMatch(
        /Verified in your browser|Terverifikasi di peramban|0 verified|0 terverifikasi/,
      );
      expect(await panel.getByTestId('verify-summary').count()).toBe(0);
      for (const width of [1366, 375] as const) {
        await page.setViewportSize(WIDTHS[width]);
        await checkPage(page, `chat, refusal (${lang}, ${width})`, lang);
        await shot(page, `verdict-refusal-${width}-${lang}`);
      }
      await page.setViewportSize(WIDTHS[1366]);
    }
    // On the verify page too (no chat results: the collection and how many passages were searched).
    await page.goto(`${server.url}/verify/${refusedId}`);
    const result = page.getByTestId('verify-result');
    await settled(result);
    expect(await result.getAttribute('data-kind')).toBe('refused');
    expect(await result.getByTestId('refusal-signed').textContent()).toContain('Closest passages');
    await result.getByTestId('refusal-collection').waitFor({ state: 'visible' });
    await context.close();
  });

  it('shows what changed in a tampered bundle: red banner, old and new figure side by side, no download', async () => {
    expect(bundleJson).not.toBe('');
    const context = await newContext();
    const page = await open(context, '/verify');
    await page.getByTestId('pinned-fingerprint').waitFor({ state: 'visible' });
    // The figure changed in the sentence, the answer, the quote and the quoted passage itself.
    const tampered = forge(JSON.parse(bundleJson) as Bundle, { passage: true });
    await paste(page, JSON.stringify(tampered));
    const result = page.getByTestId('verify-result');
    await expect.poll(() => attribute(result, 'data-verdict'), { timeout: 20_000 }).toBe('failed');
    expect(await result.getAttribute('data-kind')).toBe('tampered');
    const banner = result.getByTestId('verdict-banner');
    expect(await banner.getAttribute('role')).toBe('alert');
    const diff = result.getByTestId('tamper-diff');
    await diff.getByTestId('diff-row').first().waitFor({ state: 'visible' });
    // The published copy (same certificate number, verified in the browser) gives the originals.
    await expect
      .poll(() => diff.locator('[data-testid="diff-row"][data-basis="published"]').count(), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    const sentence = diff.locator('[data-testid="diff-row"][data-where="claim"]').first();
    expect(await sentence.getByTestId('diff-original').locator('mark').allTextContents()).toContain(FIGURE);
    expect(await sentence.getByTestId('diff-shown').locator('mark').allTextContents()).toContain(FORGED);
    const passage = diff.locator('[data-testid="diff-row"][data-where="passage"]').first();
    expect(await passage.getByTestId('diff-original').locator('mark').allTextContents()).toContain(FIGURE);
    const failing = await result
      .getByTestId('failing-check')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-check')));
    expect(failing).toEqual(expect.arrayContaining(['signature', 'hashes', 'log_inclusion']));
    expect(await result.getByTestId('download-proof').count()).toBe(0);
    expect(await result.getByTestId('verify-qr').count()).toBe(0);
    expect(await lines(result)).toEqual({
      authentic: 'fail tone-bad',
      supported: 'unknown tone-neutral',
      relevant: 'unknown tone-neutral',
    });
    for (const [lang, words] of [
      ['en', /This answer was changed after it was signed — do not rely on it/],
      ['id', /Jawaban ini diubah setelah ditandatangani — jangan mengandalkannya/],
    ] as const) {
      await setLang(page, lang);
      expect(await banner.textContent()).toMatch(words);
      for (const width of [1366, 375] as const) {
        await page.setViewportSize(WIDTHS[width]);
        await checkPage(page, `verify page, tampered bundle (${lang}, ${width})`, lang);
        await shot(page, `verdict-tamper-${width}-${lang}`);
      }
      await page.setViewportSize(WIDTHS[1366]);
    }

    // Only the sentence and the quote changed: the passage's hash still holds the original figure.
    await paste(page, JSON.stringify(forge(JSON.parse(bundleJson) as Bundle, { passage: false })));
    await expect.poll(() => attribute(result, 'data-kind'), { timeout: 20_000 }).toBe('tampered');
    const row = result.locator('[data-testid="diff-row"][data-where="claim"]').first();
    await row.waitFor({ state: 'visible' });
    expect(await row.getByTestId('diff-original').locator('mark').allTextContents()).toContain(FIGURE);
    await context.close();
  });

  it('pins the keys on first use and warns loudly, verifying nothing, when the server serves other keys', async () => {
    expect(bundleJson).not.toBe('');
    const id = (JSON.parse(bundleJson) as Bundle).certificate.certificate_id;
    const context = await newContext();
    const page = await open(context, `/verify/${id}`);
    const result = page.getByTestId('verify-result');
    await settled(result);
    expect(await result.getAttribute('data-verdict')).toBe('verified');
    expect(await page.getByTestId('trusted-keys').getAttribute('data-trust')).toBe('first-use');
    const pinned = (await page.getByTestId('pinned-fingerprint').textContent()) ?? '';
    expect(pinned).toMatch(/^[0-9a-f]{4}( [0-9a-f]{4}){3}$/);

    // A later load: the server now serves another issuer key (rotated, or taken over).
    const other = otherKeys();
    await context.route('**/.well-known/saksi-keys.json', (route) => route.fulfill({ json: other }));
    await page.reload();
    const warning = page.getByTestId('key-warning');
    await warning.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await warning.getAttribute('role')).toBe('alert');
    await settled(result);
    expect(await result.getAttribute('data-verdict')).toBe('failed');
    expect(await result.getAttribute('data-kind')).toBe('key-changed');
    expect(await result.getByTestId('download-proof').count()).toBe(0);
    expect(await page.getByTestId('pinned-fingerprint').textContent()).toBe(pinned);
    expect(await page.getByTestId('served-fingerprint').textContent()).not.toBe(pinned);
    for (const lang of LANGS) {
      await setLang(page, lang);
      expect(await result.getByTestId('verdict-banner').textContent()).toMatch(
        lang === 'en' ? /keys changed since you pinned them/ : /Kunci server ini berubah/,
      );
      await checkPage(page, `verify page, changed key (${lang})`, lang);
      await shot(page, `verdict-keychanged-1366-${lang}`);
    }
    await setLang(page, 'en');

    // The reader accepts the new keys: the genuine bundle is then signed by keys they do not trust.
    await page.getByTestId('pin-served').first().click();
    await expect.poll(() => attribute(result, 'data-kind'), { timeout: 20_000 }).toBe('untrusted');
    expect(await page.getByTestId('pinned-fingerprint').textContent()).not.toBe(pinned);

    // Pinning the real keys from a file the reader chose. While the server serves other keys the
    // warning stays and nothing is verified; once it serves the pinned ones again, verified.
    await page.getByTestId('pin-file').setInputFiles({
      name: 'saksi-keys.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(keys)),
    });
    await expect
      .poll(async () => (await page.getByTestId('pinned-fingerprint').textContent()) ?? '')
      .toBe(pinned);
    expect(await page.getByTestId('pin-source').textContent()).toMatch(/Pinned from a file/);
    await expect.poll(() => attribute(result, 'data-kind'), { timeout: 20_000 }).toBe('key-changed');
    await context.unroute('**/.well-known/saksi-keys.json');
    await page.reload();
    await expect.poll(() => attribute(page.getByTestId('trusted-keys'), 'data-trust')).toBe('pinned');
    await expect.poll(() => attribute(result, 'data-verdict'), { timeout: 20_000 }).toBe('verified');

    // Unpin, then pin from an address of the reader's choosing.
    await page.getByTestId('unpin').click();
    await expect.poll(() => attribute(page.getByTestId('trusted-keys'), 'data-trust')).toBe('unpinned');
    await page.getByTestId('pin-url').fill('javascript:alert(1)');
    await page.getByTestId('pin-url-run').click();
    await expect
      .poll(async () => (await page.getByTestId('pin-notice').textContent()) ?? '')
      .toMatch(/https:\/\//);
    await page.getByTestId('pin-url').fill([...READER_CHOSEN][0]!);
    await page.getByTestId('pin-url-run').click();
    await expect
      .poll(async () => (await page.getByTestId('pin-notice').textContent()) ?? '')
      .toMatch(/could not be read from https:\/\/keys\.invalid/);
    // Another site's address (the publisher's, say): the page's policy lets it read https: data.
    const published = await (await fetch(`${server.url}/.well-known/saksi-keys.json`)).text();
    await context.route('https://keys.example/saksi-keys.json', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        headers: { 'access-control-allow-origin': '*' },
        body: published,
      }),
    );
    await page.getByTestId('pin-url').fill('https://keys.example/saksi-keys.json');
    await page.getByTestId('pin-url-run').click();
    await expect.poll(() => attribute(page.getByTestId('trusted-keys'), 'data-trust')).toBe('pinned');
    expect(await page.getByTestId('pin-source').textContent()).toContain(
      'https://keys.example/saksi-keys.json',
    );
    await expect.poll(() => attribute(result, 'data-kind'), { timeout: 20_000 }).toBe('verified');
    await context.close();
  });

  it('reads bad input on /verify as readable errors, never freezes, never shows anything as verified', async () => {
    expect(bundleJson).not.toBe('');
    const context = await newContext();
    const page = await open(context, '/verify');
    await page.getByTestId('pinned-fingerprint').waitFor({ state: 'visible' });
    const error = page.getByTestId('verify-error');
    const result = page.getByTestId('verify-result');

    // 50 MB: refused by its size before a byte of it is read.
    const started = performance.now();
    const huge = path.join(mkdtempSync(path.join(tmpdir(), 'saksi-verdict-')), 'huge.json');
    writeFileSync(huge, Buffer.alloc(50 * 1024 * 1024, 0x20));
    await page.getByTestId('verify-file').setInputFiles(huge);
    await expect.poll(() => attribute(error, 'data-code'), { timeout: 30_000 }).toBe('TOO_LARGE');
    expect(await error.textContent()).toMatch(/50[.,]0 MB.*16[.,]0 MB/);
    expect(await result.count()).toBe(0);
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    console.log(`50 MB file: refused ${Math.round(performance.now() - started)} ms after choosing it`);
    rmSync(path.dirname(huge), { recursive: true, force: true });

    // A million levels of nesting: refused by depth, quickly.
    const deep = `{"certificate":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    await page.getByTestId('verify-input').fill(deep);
    const clicked = performance.now();
    await page.getByTestId('verify-run').click();
    await expect.poll(() => attribute(error, 'data-code')).toBe('TOO_DEEP');
    expect(performance.now() - clicked).toBeLessThan(5_000);
    expect(await result.count()).toBe(0);
    await shot(page, 'verdict-badinput-1366-en', false);

    // Another server's genuine bundle: not signed by the pinned keys — not "changed", not verified.
    await paste(page, goldenBundle);
    await expect.poll(() => attribute(result, 'data-kind'), { timeout: 20_000 }).toBe('untrusted');
    expect(await result.getAttribute('data-verdict')).toBe('failed');
    expect(await result.getByTestId('verdict-banner').textContent()).toMatch(
      /saksi-golden.*01223bb33d4795cc/,
    );
    expect(await result.getByTestId('download-proof').count()).toBe(0);

    // Relevance "high" and no claim to support it: not a bundle at all.
    const high = JSON.parse(bundleJson) as {
      certificate: { answer: { relevance: unknown }; claims: unknown[] };
    };
    high.certificate.answer.relevance = 'high';
    high.certificate.claims = [];
    await paste(page, JSON.stringify(high));
    await expect.poll(() => attribute(result, 'data-kind'), { timeout: 20_000 }).toBe('malformed');
    expect(await result.getByTestId('verdict-banner').textContent()).toMatch(
      /certificate\.answer\.relevance/,
    );
    // The same with a number for a score: the signature no longer matches.
    const scored = JSON.parse(bundleJson) as Bundle;
    scored.certificate.answer.relevance = {
      score: 1,
      threshold: 0.3,
      method: { id: 'lexical-v4', version: '4' },
    };
    scored.certificate.claims = [];
    await paste(page, JSON.stringify(scored));
    await expect.poll(() => attribute(result, 'data-kind'), { timeout: 20_000 }).toBe('tampered');
    expect(await result.getAttribute('data-verdict')).toBe('failed');
    expect(await result.getByTestId('result-relevant').getAttribute('data-status')).toBe('unknown');

    // Text that is not JSON, and a repeated name.
    await page.getByTestId('verify-input').fill('{"certificate": ');
    await page.getByTestId('verify-run').click();
    await expect.poll(() => attribute(error, 'data-code')).toBe('NOT_JSON');
    await page.getByTestId('verify-input').fill('{"certificate":1,"certificate":2}');
    await page.getByTestId('verify-run').click();
    await expect.poll(() => attribute(error, 'data-code')).toBe('DUPLICATE_NAME');
    expect(await result.count()).toBe(0);
    await setLang(page, 'id');
    expect(await error.textContent()).toMatch(/Ini bukan bukti Saksi/);
    await checkPage(page, 'verify page, bad input (id)', 'id');

    // A certificate id the server does not know: a sentence in the page's language, not the
    // server's English message.
    const missing = await open(context, '/verify/cert_00000000000000000000000000000000');
    const notFound = missing.getByTestId('verify-error');
    await notFound.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await notFound.textContent()).toBe(
      'Tidak ditemukan: mungkin sudah dihapus, atau alamatnya salah.',
    );
    expect(await missing.getByTestId('verify-result').count()).toBe(0);
    await context.close();
  });

  it('works offline once loaded: the app shell and proof code from the service worker, the pinned keys', async () => {
    expect(bundleJson).not.toBe('');
    const context = await newContext();
    const page = await open(context, '/verify');
    await page.getByTestId('pinned-fingerprint').waitFor({ state: 'visible' });
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await context.setOffline(true);
    try {
      const response = await page.reload();
      expect(response?.fromServiceWorker()).toBe(true);
      await page.getByTestId('trusted-keys').waitFor({ state: 'visible' });
      await expect
        .poll(() => attribute(page.getByTestId('trusted-keys'), 'data-trust'))
        .toBe('pinned-offline');
      await paste(page, bundleJson);
      const result = page.getByTestId('verify-result');
      await expect.poll(() => attribute(result, 'data-verdict'), { timeout: 20_000 }).toBe('verified');
      expect(await result.getByTestId('offline-note').count()).toBe(1);
      expect(await result.getByTestId('check-anchor_onchain').getAttribute('data-status')).toBe('skip');
      // A tampered bundle offline: the diff comes from the bundle's own hashed passage.
      await paste(page, JSON.stringify(forge(JSON.parse(bundleJson) as Bundle, { passage: false })));
      await expect.poll(() => attribute(result, 'data-kind'), { timeout: 20_000 }).toBe('tampered');
      const row = result.locator('[data-testid="diff-row"][data-where="claim"]').first();
      await row.waitFor({ state: 'visible' });
      expect(await row.getAttribute('data-basis')).toBe('composition');
      expect(await row.getByTestId('diff-original').locator('mark').allTextContents()).toContain(FIGURE);
      await shot(page, 'verdict-offline-tamper-375-en', true, WIDTHS[375]);
    } finally {
      await context.setOffline(false);
    }
    // No API answer was cached.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys())
          urls.push(new URL(request.url).pathname);
      return urls;
    });
    expect(cached).toContain('/');
    expect(cached.some((url) => url.startsWith('/assets/'))).toBe(true);
    expect(cached.filter((url) => url.startsWith('/api/') || url.startsWith('/.well-known/'))).toEqual([]);
    await context.close();
  });

  it('made no request to another host and raised no page error', () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: WIDTHS[1366], locale: 'en-GB' });
  const rpc = test.engine.anchoring.chain()?.rpc_url ?? '';
  context.on('request', (request) => {
    const url = request.url();
    if (
      !url.startsWith(server.url) &&
      !(rpc !== '' && url.startsWith(rpc)) &&
      !url.startsWith('data:') &&
      !READER_CHOSEN.has(url)
    )
      foreignRequests.push(url);
  });
  return context;
}

async function open(context: BrowserContext, route: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  await page.goto(`${server.url}${route}`);
  return page;
}

/** Waits until a verify panel or result has its verdict. */
async function settled(panel: Locator): Promise<void> {
  await expect
    .poll(async () => (await attribute(panel, 'data-verdict')) ?? 'missing', { timeout: 30_000 })
    .toMatch(/^(verified|failed)$/);
}

async function paste(page: Page, text: string): Promise<void> {
  await page.getByTestId('verify-input').fill(text);
  await page.getByTestId('verify-run').click();
}

async function setLang(page: Page, lang: 'en' | 'id'): Promise<void> {
  await page.getByTestId('lang-switch').selectOption(lang);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
}

/** Each result line's `data-status` and tone class. */
async function lines(scope: Locator): Promise<Record<string, string>> {
  return scope.getByTestId('verify-results').evaluate((element) => {
    const found: Record<string, string> = {};
    for (const line of Array.from(element.querySelectorAll('[data-testid^="result-"]'))) {
      const id = line.getAttribute('data-testid')?.slice('result-'.length) ?? '';
      const tone = Array.from(line.classList).find((name) => name.startsWith('tone-')) ?? '';
      found[id] = `${line.getAttribute('data-status')} ${tone}`;
    }
    return found;
  });
}

/**
 * The helmet answer with its figure changed in the sentence, the answer and the quote (offsets moved
 * with it), and with `passage` also in the quoted passage: hashes and signature left as they were.
 */
function forge(bundle: Bundle, options: { passage: boolean }): Bundle {
  const swap = (text: string) => text.split(FIGURE).join(FORGED);
  const certificate = bundle.certificate;
  certificate.answer.text = swap(certificate.answer.text);
  let changed = 0;
  for (const claim of certificate.claims) {
    if (!claim.text.includes(FIGURE)) continue;
    claim.text = swap(claim.text);
    claim.answer_end -= 1;
    changed++;
    for (const evidence of claim.evidence) {
      if (!evidence.span.text.includes(FIGURE)) continue;
      evidence.span.text = swap(evidence.span.text);
      evidence.span.end -= 1;
    }
  }
  expect(changed).toBeGreaterThan(0);
  if (options.passage) for (const chunk of bundle.chunks) chunk.text = swap(chunk.text);
  return bundle;
}

/** The server's keys with another issuer key: what a server that changed its key serves. */
function otherKeys(): TrustedKeys {
  return { ...structuredClone(keys), issuers: [{ name: 'saksi', public_key: `${'B'.repeat(42)}A=` }] };
}

/**
 * No sideways scroll, axe, and on an Indonesian page no value of the English tables outside what the
 * certificate and the documents say (the chat's answer included).
 */
async function checkPage(page: Page, label: string, lang: 'en' | 'id' = 'en'): Promise<void> {
  await expectNoHorizontalScroll(page);
  await checkAccessibility(page, label, { alsoBlocking: ['heading-order', 'page-has-heading-one'] });
  if (lang === 'id')
    expect(await englishOnPage(page, englishOnlyPhrases(), ['[data-testid="answer-text"]']), label).toEqual(
      [],
    );
}

async function shot(
  page: Page,
  name: string,
  fullPage = true,
  viewport?: { width: number; height: number },
): Promise<void> {
  if (viewport) await page.setViewportSize(viewport);
  await web?.screenshot(page, name, { fullPage });
}
