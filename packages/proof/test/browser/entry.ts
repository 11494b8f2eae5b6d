/**
 * Browser entry for `golden.browser.test.ts`. esbuild bundles this file for `platform: 'browser'`
 * and fails on any `node:*` import, so a successful bundle shows that `@saksi/proof` (its
 * `src/index.ts`) is isomorphic. It imports nothing but the package's public entry points (the
 * verifier, `src/index.ts`, and the issuing helpers of `src/issue.ts` that build the inputs).
 *
 * The helpers are exported too, so the Node side of the test builds exactly the same options and
 * inputs; only `installBrowserApi` touches `window`.
 */
import {
  type AnchorLookup,
  type BundleVerification,
  canonicalize,
  hashLeaf,
  parseTrustedKeys,
  toHex,
  trustOptions,
  utf8Encode,
  type VerifyBundleOptions,
  verifyBundle,
  verifyConsistencyProof,
  verifyInclusionProof,
} from '../../src/index.js';
import { consistencyProof, inclusionProof, rootFromLeafHashes } from '../../src/issue.js';
import { SAKSI_VOCABULARY } from '../../src/vocabulary.js';

/** Serializable extras for one option set (functions cannot cross `page.evaluate`). */
export interface VerifyExtras {
  presentedQuestion?: string;
  lastCheckpoint?: string;
  consistencyProof?: string[];
  /** Adds {@link fixedAnchorLookup}. */
  anchor?: boolean;
}

/** The anchor lookup of the golden tests: the root exists, anchored at a fixed time. */
export const fixedAnchorLookup: AnchorLookup = async () => ({ exists: true, timestamp: 1_795_000_000 });

/** `verifyBundle` options from a trusted-keys document and the extras. */
export function optionsFor(keysJson: string, extras: VerifyExtras): VerifyBundleOptions {
  const options: VerifyBundleOptions = {
    ...trustOptions(parseTrustedKeys(keysJson)),
    vocabulary: SAKSI_VOCABULARY,
  };
  if (extras.presentedQuestion !== undefined) options.presentedQuestion = extras.presentedQuestion;
  if (extras.lastCheckpoint !== undefined) options.lastCheckpoint = extras.lastCheckpoint;
  if (extras.consistencyProof !== undefined) options.consistencyProof = extras.consistencyProof;
  if (extras.anchor === true) options.anchorLookup = fixedAnchorLookup;
  return options;
}

/** The bundle with the first character of its base64 signature changed (still valid base64). */
export function tamperSignature(bundle: unknown): unknown {
  const copy = structuredClone(bundle) as { signature: string };
  const first = copy.signature.charAt(0);
  copy.signature = (first === 'A' ? 'B' : 'A') + copy.signature.slice(1);
  return copy;
}

/** Verifies `bundle` with the given keys and extras. */
export function runVerify(
  bundle: unknown,
  keysJson: string,
  extras: VerifyExtras,
): Promise<BundleVerification> {
  return verifyBundle(bundle, optionsFor(keysJson, extras));
}

/** Verifies the bundle after {@link tamperSignature}. */
export function runTampered(
  bundle: unknown,
  keysJson: string,
  extras: VerifyExtras,
): Promise<BundleVerification> {
  return verifyBundle(tamperSignature(bundle), optionsFor(keysJson, extras));
}

/** Small deterministic checks of canonicalization and Merkle proofs (RFC 8785, RFC 9162). */
export interface SanityResult {
  canonical: string;
  root: string;
  inclusion: boolean;
  inclusionWrongIndex: boolean;
  consistency: boolean;
  consistencyWrongRoot: boolean;
}

export function runSanity(): SanityResult {
  const canonical = canonicalize({ b: 1, a: [true, null, 'x', 1e21, 0.5], '€': '\u00e9' });
  const leaves = Array.from({ length: 13 }, (_, i) => hashLeaf(utf8Encode(`leaf ${i}`)));
  const root = rootFromLeafHashes(leaves);
  const root7 = rootFromLeafHashes(leaves.slice(0, 7));
  const path = inclusionProof(leaves, 5);
  const proof = consistencyProof(leaves, 7, 13);
  return {
    canonical,
    root: toHex(root),
    inclusion: verifyInclusionProof(5, 13, leaves[5]!, path, root),
    inclusionWrongIndex: verifyInclusionProof(6, 13, leaves[5]!, path, root),
    consistency: verifyConsistencyProof(7, 13, proof, root7, root),
    consistencyWrongRoot: verifyConsistencyProof(7, 13, proof, root, root),
  };
}

/** What the page exposes on `window.saksi`. */
export interface SaksiBrowserApi {
  runVerify: typeof runVerify;
  runTampered: typeof runTampered;
  runSanity: typeof runSanity;
  /** True when no Node globals leaked into the page. */
  nodeFree: () => boolean;
}

declare global {
  interface Window {
    saksi?: SaksiBrowserApi;
  }
}

/** Puts the API on `window` (called at the bottom of the bundle's entry). */
export function installBrowserApi(target: Window): void {
  target.saksi = {
    runVerify,
    runTampered,
    runSanity,
    nodeFree: () => !('process' in globalThis) && !('Buffer' in globalThis) && !('require' in globalThis),
  };
}

if (typeof window !== 'undefined') installBrowserApi(window);
