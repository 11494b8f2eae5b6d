/**
 * Keys pinned in the reader's browser (trust on first use). The first time a reader verifies on a
 * server, its published keys (`/.well-known/saksi-keys.json`) are stored in this browser per origin;
 * later loads verify with the stored keys and compare what the server serves now with them. A
 * server that starts serving other keys — rotated, or taken over — is a loud warning, never a silent
 * change of what "verified" means. A reader can also pin keys from a file or an address of their own
 * choosing (an auditor's copy), and unpin.
 *
 * The fingerprint (widget/pinning.ts, shared with the widget) covers what decides a verdict — issuer
 * public keys, log and witness verifier keys, the required cosignatures and the pinned registries —
 * not the display names, and is independent of the order the keys are listed in.
 */
import { parseTrustedKeys, type TrustedKeys } from '@saksi/proof';
import { keysFingerprint } from './widget/pinning.js';

// One fingerprint for the same keys wherever a reader sees it: the app and the widget (whose pins
// live under their own storage key, `saksi.widget.keys.<server>`).
export { keysFingerprint, shortFingerprint } from './widget/pinning.js';

/** Where a pin came from. */
export type PinSource = 'first-use' | 'server' | 'file' | 'url';

export interface PinnedKeys {
  keys: TrustedKeys;
  /** {@link keysFingerprint} of `keys`. */
  fingerprint: string;
  /** RFC 3339 time the reader (or the first use) pinned them. */
  pinned_at: string;
  source: PinSource;
  /** For `url`: the address the keys were read from. */
  url?: string;
}

/** The subset of `Storage` the pins use (localStorage in the page, a map in tests). */
export interface PinStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const pinStorageKey = (origin: string) => `saksi.keys.pinned.${origin}`;

/** The pin stored for `origin`, or undefined (none, or unreadable: a damaged pin is dropped). */
export function readPin(storage: PinStorage | undefined, origin: string): PinnedKeys | undefined {
  let text: string | null = null;
  try {
    text = storage?.getItem(pinStorageKey(origin)) ?? null;
  } catch {
    return undefined;
  }
  if (text === null) return undefined;
  try {
    const stored = JSON.parse(text) as Partial<PinnedKeys>;
    const keys = parseTrustedKeys(stored.keys);
    const source: PinSource = ['first-use', 'server', 'file', 'url'].includes(stored.source as string)
      ? (stored.source as PinSource)
      : 'file';
    const pin: PinnedKeys = {
      keys,
      // Recomputed, never read: a stored fingerprint could disagree with the stored keys.
      fingerprint: keysFingerprint(keys),
      pinned_at: typeof stored.pinned_at === 'string' ? stored.pinned_at : '',
      source,
    };
    if (source === 'url' && typeof stored.url === 'string') pin.url = stored.url;
    return pin;
  } catch {
    return undefined;
  }
}

/** Stores `keys` as the pin for `origin` and returns it; false when the browser refuses storage. */
export function writePin(
  storage: PinStorage | undefined,
  origin: string,
  keys: TrustedKeys,
  source: PinSource,
  options: { url?: string; now?: Date } = {},
): PinnedKeys | false {
  const pin: PinnedKeys = {
    keys,
    fingerprint: keysFingerprint(keys),
    pinned_at: (options.now ?? new Date()).toISOString(),
    source,
  };
  if (source === 'url' && options.url !== undefined) pin.url = options.url;
  try {
    if (!storage) return false;
    storage.setItem(pinStorageKey(origin), JSON.stringify(pin));
    return pin;
  } catch {
    return false;
  }
}

export function removePin(storage: PinStorage | undefined, origin: string): void {
  try {
    storage?.removeItem(pinStorageKey(origin));
  } catch {}
}

/**
 * How the keys used for verification relate to what the server serves:
 * - `first-use`: nothing was pinned; the server's keys were pinned just now;
 * - `pinned`: the server serves the pinned keys;
 * - `changed`: the server serves other keys than the pinned ones (a loud warning; not verified);
 * - `pinned-offline`: the server could not be asked; the pinned keys are used;
 * - `unpinned`: the reader unpinned; the server's keys are used for this page only;
 * - `none`: no pin and no keys from the server: nothing can be verified.
 */
export type TrustStatus = 'first-use' | 'pinned' | 'changed' | 'pinned-offline' | 'unpinned' | 'none';

export interface TrustDecision {
  status: TrustStatus;
  /** The keys to verify with: the pinned ones whenever there is a pin. */
  keys?: TrustedKeys;
  pin?: PinnedKeys;
  /** The keys the server serves now, when it answered. */
  served?: TrustedKeys;
  servedFingerprint?: string;
}

/**
 * Decides which keys to verify with, pinning the served keys on first use. `served` is undefined
 * when the server could not be asked (offline) or served unreadable keys.
 */
export function decideTrust(
  storage: PinStorage | undefined,
  origin: string,
  served: TrustedKeys | undefined,
  options: { pinOnFirstUse?: boolean; now?: Date } = {},
): TrustDecision {
  const pin = readPin(storage, origin);
  const servedFingerprint = served ? keysFingerprint(served) : undefined;
  const withServed = <T extends TrustDecision>(decision: T): T => {
    if (served && servedFingerprint !== undefined) {
      decision.served = served;
      decision.servedFingerprint = servedFingerprint;
    }
    return decision;
  };
  if (pin) {
    if (!served) return { status: 'pinned-offline', keys: pin.keys, pin };
    return withServed({
      status: pin.fingerprint === servedFingerprint ? 'pinned' : 'changed',
      keys: pin.keys,
      pin,
    });
  }
  if (!served) return { status: 'none' };
  if (options.pinOnFirstUse === false) return withServed({ status: 'unpinned', keys: served });
  const written = writePin(storage, origin, served, 'first-use', options.now ? { now: options.now } : {});
  // A browser that refuses storage cannot pin: the server's keys are used for this page only.
  if (!written) return withServed({ status: 'unpinned', keys: served });
  return withServed({ status: 'first-use', keys: served, pin: written });
}
