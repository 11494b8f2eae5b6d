/**
 * What the web app's Chromium end-to-end tests share: a real engine (PGlite, optional local anvil
 * chain) behind the real server serving the built `packages/web/dist`, a browser context on it,
 * screenshots to test/screenshots/, and the checks every page gets (axe-core, no sideways scroll).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type RunningServer, startServer } from '@saksi/server';
import { launchChromium } from '@saksi/test-support/chromium';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

export { chromiumAvailable } from '@saksi/test-support/chromium';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const webRoot = path.join(repoRoot, 'packages/web/dist');
const screenshots = path.join(import.meta.dirname, 'screenshots');

/**
 * Each browser test's time limit: a test walks pages in two languages and widths with screenshots,
 * which on a loaded two-core machine takes well over the suite's default minute.
 */
export const BROWSER_TEST = { timeout: 180_000 } as const;

export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  mobile: { width: 360, height: 780 },
} as const;

export interface WebHarnessOptions {
  /** Engine environment (`SAKSI_ANCHOR`, `SAKSI_ALLOWED_ORIGINS`, …). */
  env: Record<string, string>;
  /** Runs on the open engine before the server starts (ingest, anchor, create an admin). */
  prepare?: (test: TestEngine) => Promise<void>;
  /** Whether `npm run build -w @saksi/web` must run first; by default when dist/index.html is missing. */
  needsBuild?: () => boolean;
}

export interface WebHarness {
  test: TestEngine;
  server: RunningServer;
  browser: Browser;
  /** A desktop-sized context on the server. */
  context: BrowserContext;
  /** Screenshots taken, relative to the repository root. */
  shots: string[];
  /** Saves `page` to test/screenshots/`name`.png (the whole page unless `fullPage` is false). */
  screenshot(page: Page, name: string, options?: { fullPage?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** Builds the web app if needed, opens the engine, starts the server and launches Chromium. */
export async function startWebHarness(options: WebHarnessOptions): Promise<WebHarness> {
  const needsBuild = options.needsBuild ?? (() => !existsSync(path.join(webRoot, 'index.html')));
  if (needsBuild()) {
    const built = spawnSync('npm', ['run', 'build', '-w', '@saksi/web'], { cwd: repoRoot, encoding: 'utf8' });
    expect(built.status, `${built.stdout}\n${built.stderr}`).toBe(0);
  }
  mkdirSync(screenshots, { recursive: true });
  const test = await openTestEngine({ env: options.env });
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  try {
    await options.prepare?.(test);
    server = await startServer(test.engine, { port: 0, host: '127.0.0.1', webRoot });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const shots: string[] = [];
    const opened = { test, server, browser };
    return {
      ...opened,
      context,
      shots,
      async screenshot(page, name, { fullPage = true } = {}) {
        const file = path.join(screenshots, `${name}.png`);
        await captureSettled(page, file, fullPage);
        shots.push(path.relative(repoRoot, file));
      },
      async close() {
        await context.close();
        await opened.browser.close();
        await opened.server.close();
        await test.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await server?.close();
    await test.close();
    throw error;
  }
}

/**
 * A screenshot with CSS animations frozen (the typing dots would otherwise keep the compositor busy).
 * On a loaded machine Chromium's capture can stall after a viewport change although the page is
 * ready; a stalled capture is tried once more after the next frames, and fails the test only then.
 */
async function captureSettled(page: Page, file: string, fullPage: boolean): Promise<void> {
  const options = { path: file, fullPage, animations: 'disabled', caret: 'hide', timeout: 20_000 } as const;
  // A whole page is captured at its full height, where a sticky composer would sit over the middle of
  // it: sticky elements are put back in the flow for the capture (through the CSSOM, which the CSP allows).
  const unstuck = fullPage
    ? await page.evaluate(() => {
        const sticky = Array.from(document.querySelectorAll<HTMLElement>('body *')).filter(
          (element) => getComputedStyle(element).position === 'sticky',
        );
        for (const element of sticky) {
          element.dataset['screenshotUnstuck'] = '';
          element.style.position = 'static';
        }
        return sticky.length;
      })
    : 0;
  try {
    await page.screenshot(options);
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'TimeoutError') throw error;
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await page.screenshot(options);
  } finally {
    if (unstuck > 0)
      await page.evaluate(() => {
        for (const element of Array.from(
          document.querySelectorAll<HTMLElement>('[data-screenshot-unstuck]'),
        )) {
          element.style.removeProperty('position');
          delete element.dataset['screenshotUnstuck'];
        }
      });
  }
}

/**
 * The phrases of `phrases` a rendered Indonesian page shows (its text, placeholders, labels and titles,
 * inside open shadow roots too), matched as whole words. Left out: what the certificate or the
 * documents say, in their own language — elements marked `data-certified`, and those matching `skip`.
 */
export async function englishOnPage(
  page: Page,
  phrases: readonly { key: string; phrase: string }[],
  skip: readonly string[] = [],
): Promise<string[]> {
  const text = await page.evaluate((skipped) => {
    const selector = ['[data-certified]', ...skipped].join(', ');
    const roots: (Document | ShadowRoot)[] = [document];
    for (let index = 0; index < roots.length; index++)
      for (const element of Array.from(roots[index]!.querySelectorAll('*')))
        if (element.shadowRoot) roots.push(element.shadowRoot);
    const hidden = roots.flatMap((root) => Array.from(root.querySelectorAll<HTMLElement>(selector)));
    const before = hidden.map((element) => element.hidden);
    for (const element of hidden) element.hidden = true;
    // innerText applies text-transform ("SOURCES"): the words are read as written (a style set
    // through the CSSOM, which the pages' CSP allows).
    const transformed = roots
      .flatMap((root) => Array.from(root.querySelectorAll<HTMLElement>('*')))
      .filter((element) => getComputedStyle(element).textTransform !== 'none');
    for (const element of transformed) element.style.textTransform = 'none';
    const parts: string[] = [];
    for (const root of roots) {
      const tops = root instanceof Document ? [root.body] : Array.from(root.children);
      // biome-ignore lint/performance/useDomNodeTextContent: only rendered text counts (not display: none)
      for (const top of tops) if (top instanceof HTMLElement) parts.push(top.innerText);
      for (const element of Array.from(
        root.querySelectorAll('[placeholder], [aria-label], [title], [alt]'),
      )) {
        if (element.closest(selector)) continue;
        for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
          const value = element.getAttribute(name);
          if (value) parts.push(value);
        }
      }
    }
    hidden.forEach((element, index) => {
      element.hidden = before[index]!;
    });
    for (const element of transformed) element.style.removeProperty('text-transform');
    return parts.join('\n');
  }, skip);
  const literal = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return phrases
    .filter(({ phrase }) =>
      new RegExp(`(?<![\\p{L}\\p{N}])${literal(phrase)}(?![\\p{L}\\p{N}])`, 'u').test(text),
    )
    .map(({ key, phrase }) => `${key}: ${phrase}`);
}

/** An attribute now, or null when the element is not (yet) there: polls never wait on a missing element. */
export async function attribute(locator: Locator, name: string): Promise<string | null> {
  return (await locator.count()) > 0 ? locator.first().getAttribute(name) : null;
}

let axeScript: string | undefined;

/** axe-core's browser build, read once. */
function axeSource(): string {
  axeScript ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeScript;
}

/**
 * axe-core on the page as it is; fails on serious or critical violations, and on the rules in
 * `alsoBlocking`, printing every violation.
 */
export async function checkAccessibility(
  page: Page,
  label: string,
  options: { alsoBlocking?: readonly string[] } = {},
): Promise<void> {
  // The pages' CSP refuses inline scripts (addScriptTag({ content }) is blocked, see the hostile
  // content test); DevTools evaluation is not subject to it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  expect(await page.evaluate(() => 'axe' in window)).toBe(true);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      // A target inside a shadow root is a list of selectors, host first.
      targets: violation.nodes
        .slice(0, 5)
        .map((node) =>
          node.target.map((part) => (Array.isArray(part) ? part.join(' >>> ') : String(part))).join(' '),
        ),
    }));
  });
  if (violations.length > 0)
    console.log(
      `axe on ${label}:\n${violations.map((v) => `  [${v.impact}] ${v.id}: ${v.help} — ${v.targets.join(', ')}`).join('\n')}`,
    );
  const also = options.alsoBlocking ?? [];
  const blocking = violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical' || also.includes(v.id),
  );
  const rules = also.length > 0 ? `serious/critical or ${also.join('/')}` : 'serious/critical';
  expect(blocking, `${rules} axe violations on ${label}`).toEqual([]);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: (string | string[])[] }[];
}

/** Fails when the page is wider than the viewport, naming the last elements that stick out. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const found = await page.evaluate(() => {
    const root = document.documentElement;
    const widest = Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 1)
      .slice(-3)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
    return { overflow: root.scrollWidth - root.clientWidth, widest };
  });
  expect(
    found.overflow,
    `the page scrolls sideways; too wide: ${found.widest.join(', ')}`,
  ).toBeLessThanOrEqual(1);
}
