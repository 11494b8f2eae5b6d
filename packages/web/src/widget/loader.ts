/**
 * Loads the widget's verifier (`/widget-verify.js`, verifier.ts) from the server widget.js came
 * from, once, when the first answer arrives. It is a classic script (like widget.js itself), so a
 * page that allows widget.js allows it too and no CORS is needed; its IIFE sets
 * `window.SaksiWidgetVerifier`.
 */

import type { WidgetVerdict } from './verdict.js';
import type { VerifyAnswerInput } from './verifier.js';

/** The verifier file, next to widget.js. */
export const VERIFIER_FILE = '/widget-verify.js';
/** The global the verifier's IIFE assigns. */
export const VERIFIER_GLOBAL = 'SaksiWidgetVerifier';
/** The {@link VERIFIER_VERSION} this widget.js speaks. */
const EXPECTED_VERSION = 2;

export interface WidgetVerifier {
  VERIFIER_VERSION: number;
  verifyAnswer(input: VerifyAnswerInput): Promise<WidgetVerdict>;
}

/** What the loader touches of the page: a script element and the global it sets. */
export interface LoaderPage {
  createScript(src: string): { addEventListener(type: 'load' | 'error', listener: () => void): void };
  append(script: unknown): void;
  global(): unknown;
}

const loading = new Map<string, Promise<WidgetVerifier>>();

/** The page as the browser has it. */
export function browserPage(): LoaderPage {
  return {
    createScript(src) {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      return script;
    },
    append(script) {
      (document.head ?? document.documentElement).append(script as HTMLScriptElement);
    },
    global: () => (window as unknown as Record<string, unknown>)[VERIFIER_GLOBAL],
  };
}

/** The verifier of `server`, loaded once per page (a failed load is tried again next time). */
export function loadVerifier(server: string, page: LoaderPage = browserPage()): Promise<WidgetVerifier> {
  const known = loading.get(server);
  if (known) return known;
  const promise = new Promise<WidgetVerifier>((resolve, reject) => {
    const ready = asVerifier(page.global());
    if (ready) return resolve(ready);
    const script = page.createScript(`${server}${VERIFIER_FILE}`);
    script.addEventListener('load', () => {
      const verifier = asVerifier(page.global());
      if (verifier) resolve(verifier);
      else reject(new Error('The Saksi verifier did not start.'));
    });
    script.addEventListener('error', () => reject(new Error('The Saksi verifier could not be loaded.')));
    page.append(script);
  });
  loading.set(server, promise);
  promise.catch(() => loading.delete(server));
  return promise;
}

function asVerifier(value: unknown): WidgetVerifier | undefined {
  const candidate = value as Partial<WidgetVerifier> | null | undefined;
  return typeof candidate?.verifyAnswer === 'function' && candidate.VERIFIER_VERSION === EXPECTED_VERSION
    ? (candidate as WidgetVerifier)
    : undefined;
}
