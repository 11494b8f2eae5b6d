/**
 * Headless Chromium for the browser tests of every package: where it is, whether it is there (tests
 * are skipped, with a warning, when it is not; CI installs it), and one launch with the same flags.
 *
 * It lives beside the proof package's browser test because that is the lowest package with one:
 * `packages/web/test` imports it from here (web already depends on proof), never the other way round.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** The Chromium binary: `SAKSI_CHROMIUM`, or the Debian package's path. */
export const CHROMIUM = process.env['SAKSI_CHROMIUM'] ?? '/usr/bin/chromium';

/** Whether Chromium is installed; when it is not, warns that `file` skips `what`. */
export function chromiumAvailable(file: string, what: string): boolean {
  const found = existsSync(CHROMIUM);
  if (!found)
    console.warn(
      `${file}: skipping ${what}, ${CHROMIUM} is missing (apt-get install chromium, or set SAKSI_CHROMIUM)`,
    );
  return found;
}

/** Launches headless Chromium without a sandbox, GPU, background traffic or first-run screens. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
