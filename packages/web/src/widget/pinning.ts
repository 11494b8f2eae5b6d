/**
 * Trust on first use for the widget's verifier: the first time a reader's browser sees a Saksi
 * server's published keys (`/.well-known/saksi-keys.json`), it keeps them in the page's
 * localStorage under that server's origin; afterwards the kept keys are the ones answers are checked
 * with, and published keys that differ from them are a changed key — a warning, never verified.
 *
 * Storage may be missing or refuse access (private modes, sandboxed frames): then nothing is kept and
 * every page load is a first use.
 */
import { canonicalize, parseTrustedKeys, sha256Hex, type TrustedKeys } from '@saksi/proof';

/** The slice of the Web Storage API the pins need. */
export type PinStorage = Pick<Storage, 'getItem' | 'setItem'>;

export type PinState =
  /** Nothing was kept for this server: the published keys are kept now. */
  | 'first-use'
  /** The published keys are the kept ones (or could not be fetched: the kept ones are used). */
  | 'pinned'
  /** The published keys differ from the kept ones. */
  | 'changed'
  /** Nothing kept and nothing published could be read. */
  | 'unavailable';

export interface PinResult {
  state: PinState;
  /** The keys to check answers with: the kept ones (or, on first use, the published ones). */
  keys?: TrustedKeys;
  /** {@link keysFingerprint} of `keys`. */
  fingerprint?: string;
  /** For `changed`: the fingerprint of the keys the server publishes now. */
  published?: string;
}

/** The localStorage entry of a server's kept keys. */
export function pinStorageKey(server: string): string {
  return `saksi.widget.keys.${server}`;
}

/**
 * SHA-256 (hex) of what the keys trust — the issuers' public keys, the logs, the witnesses, the
 * required cosignatures and the registries, each list sorted; names are left out — over its RFC 8785
 * canonical form, so the same keys in another order or under other names have the same fingerprint.
 */
export function keysFingerprint(keys: TrustedKeys): string {
  const sorted = (values: string[]) => [...values].sort();
  return sha256Hex(
    canonicalize({
      issuers: sorted(keys.issuers.map((issuer) => issuer.public_key)),
      logs: sorted(keys.logs.map((log) => `${log.origin} ${log.vkey}`)),
      witnesses: sorted((keys.witnesses ?? []).map((witness) => witness.vkey)),
      required_cosignatures: keys.required_cosignatures ?? 0,
      registries: sorted(
        (keys.registries ?? []).map((registry) => `${registry.chain_id} ${registry.contract.toLowerCase()}`),
      ),
    }),
  );
}

/** A fingerprint as a reader compares it: its first 16 hex digits in groups of four. */
export function shortFingerprint(fingerprint: string): string {
  return (fingerprint.slice(0, 16).match(/.{1,4}/g) ?? []).join(' ');
}

/** The keys kept for `server`, or undefined when there are none or they do not read as keys. */
export function pinnedKeys(storage: PinStorage | undefined, server: string): TrustedKeys | undefined {
  let text: string | null = null;
  try {
    text = storage?.getItem(pinStorageKey(server)) ?? null;
  } catch {
    return undefined;
  }
  if (text === null) return undefined;
  try {
    return parseTrustedKeys(text);
  } catch {
    return undefined;
  }
}

/** Keeps `keys` for `server` (silently does nothing when storage refuses). */
export function pinKeys(storage: PinStorage | undefined, server: string, keys: TrustedKeys): void {
  try {
    storage?.setItem(pinStorageKey(server), JSON.stringify(keys));
  } catch {
    // Storage full or refused: this page load still uses the keys, the next one starts over.
  }
}

/**
 * Compares the keys `server` publishes now (`published`, undefined when they could not be fetched)
 * with the ones kept for it, keeping them on first use.
 */
export function checkPin(
  storage: PinStorage | undefined,
  server: string,
  published: TrustedKeys | undefined,
): PinResult {
  const kept = pinnedKeys(storage, server);
  if (kept === undefined) {
    if (published === undefined) return { state: 'unavailable' };
    pinKeys(storage, server, published);
    return { state: 'first-use', keys: published, fingerprint: keysFingerprint(published) };
  }
  const fingerprint = keysFingerprint(kept);
  if (published === undefined) return { state: 'pinned', keys: kept, fingerprint };
  const now = keysFingerprint(published);
  if (now === fingerprint) return { state: 'pinned', keys: kept, fingerprint };
  return { state: 'changed', keys: kept, fingerprint, published: now };
}
