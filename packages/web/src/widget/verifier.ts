/**
 * The widget's verifier, built apart as `/widget-verify.js` (vite.widget-verify.config.ts) and loaded
 * by widget.js only when an answer arrives, so widget.js stays small. It checks an answer's bundle in
 * the reader's browser with @saksi/proof's `verifyBundle`, using the keys pinned in this browser for
 * the server (pinning.ts: trust on first use from the server's published keys), and returns the
 * badge (verdict.ts). Checked here: structure, issuer, signature, hashes, offsets, compositions,
 * citations, document proofs, anchor proofs, the question, the log checkpoint's signature and the
 * inclusion proof. Not checked here: the anchors on chain and the log's consistency with an earlier
 * checkpoint (the full proof page does those).
 *
 * The IIFE build assigns this module's exports to `window.SaksiWidgetVerifier`.
 */
import { TRUSTED_KEYS_PATH, trustedKeys } from '@saksi/client';
import { parseTrustedKeys, type TrustedKeys, trustOptions, verifyBundle } from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import type { WidgetLang } from './core.js';
import { checkPin, type PinStorage, pinKeys } from './pinning.js';
import { uncheckedVerdict, type WidgetVerdict, widgetVerdict } from './verdict.js';

/** Bumped when {@link VerifyAnswerInput} or {@link WidgetVerdict} change shape. */
export const VERIFIER_VERSION = 2;

/** Where a Saksi server publishes its keys (docs/api.md). */
export const KEYS_PATH = TRUSTED_KEYS_PATH;

export interface VerifyAnswerInput {
  /** The server's origin (widget.js's own). */
  server: string;
  /** The bundle as received (hostile: anything). */
  bundle: unknown;
  /** The question the reader asked: a bundle issued for another question fails. */
  question: string;
  lang: WidgetLang;
  /** The page's localStorage (undefined when refused). */
  storage?: PinStorage;
  /** Replace the pinned keys with the published ones first (the reader chose to trust a new key). */
  trustPublished?: boolean;
  fetch?: typeof fetch;
}

/** Checks `input.bundle` in this browser; never throws (a failure is a verdict). */
export async function verifyAnswer(input: VerifyAnswerInput): Promise<WidgetVerdict> {
  const published = await fetchKeys(input.server, input.fetch ?? fetch);
  if (input.trustPublished === true && published !== undefined)
    pinKeys(input.storage, input.server, published);
  const pin = checkPin(input.storage, input.server, published);
  if (pin.state === 'changed') return uncheckedVerdict('key-changed', pin);
  if (pin.keys === undefined) return uncheckedVerdict('unavailable', pin);
  const result = await verifyBundle(input.bundle, {
    ...trustOptions(pin.keys),
    presentedQuestion: input.question,
    vocabulary: SAKSI_VOCABULARY,
  });
  return widgetVerdict(result, pin, input.lang);
}

/** The server's published keys, or undefined when they cannot be fetched or read. */
async function fetchKeys(server: string, fetcher: typeof fetch): Promise<TrustedKeys | undefined> {
  try {
    return parseTrustedKeys(await trustedKeys({ baseUrl: server, credentials: 'omit', fetch: fetcher }));
  } catch {
    return undefined;
  }
}
