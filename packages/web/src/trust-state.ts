/**
 * The page's trust in keys, shared by every verification panel and the verify page's keys section:
 * the server's published keys fetched once per page load, compared with the keys pinned in this
 * browser for this origin (key-pinning.ts), and the reader's own pins from a file or an address.
 */
import { parseTrustedKeys, type TrustedKeys } from '@saksi/proof';
import { useEffect, useSyncExternalStore } from 'react';
import { ApiError, fetchKeys } from './api.js';
import {
  decideTrust,
  type PinSource,
  type PinStorage,
  removePin,
  type TrustDecision,
  writePin,
} from './key-pinning.js';

export interface TrustState {
  loading: boolean;
  decision: TrustDecision;
  /** The server did not answer (offline or down): verification runs on the pinned keys alone. */
  offline: boolean;
  /** Bumped on every change, so verifications re-run with the new keys. */
  version: number;
}

/** Why keys chosen by the reader could not be pinned. */
export type PinErrorCode = 'FETCH_FAILED' | 'NOT_KEYS' | 'TOO_LARGE' | 'BAD_URL' | 'STORAGE';

export class PinError extends Error {
  override readonly name = 'PinError';
  constructor(
    readonly code: PinErrorCode,
    message: string,
    readonly size?: number,
  ) {
    super(message);
  }
}

/** A keys file is a few kilobytes; anything much larger is not one. */
export const KEYS_MAX_BYTES = 256 * 1024;

function storage(): PinStorage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

const origin = () => globalThis.location?.origin ?? '';

let state: TrustState = { loading: true, decision: { status: 'none' }, offline: false, version: 0 };
let served: TrustedKeys | undefined;
let started: Promise<void> | undefined;
const listeners = new Set<() => void>();

function publish(next: Omit<TrustState, 'version'>): void {
  state = { ...next, version: state.version + 1 };
  for (const listener of listeners) listener();
}

/** Fetches the server's keys (once) and decides the trust, pinning on first use. */
export function loadTrust(): Promise<void> {
  started ??= (async () => {
    let offline = false;
    try {
      served = await fetchKeys();
    } catch (error) {
      served = undefined;
      offline = error instanceof ApiError && (error.code === 'NETWORK' || error.status >= 500);
    }
    publish({ loading: false, decision: decideTrust(storage(), origin(), served), offline });
  })();
  return started;
}

export function useTrust(): TrustState {
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
  useEffect(() => {
    void loadTrust();
  }, []);
  return current;
}

/** Pins `keys` for this origin (replacing any pin) and re-decides. */
export function pinKeys(keys: TrustedKeys, source: PinSource, url?: string): void {
  const written = writePin(storage(), origin(), keys, source, url !== undefined ? { url } : {});
  if (!written) throw new PinError('STORAGE', 'The browser refused to store the keys.');
  publish({ loading: false, decision: decideTrust(storage(), origin(), served), offline: state.offline });
}

/** Pins the keys the server serves now (after a change the reader accepts, or after unpinning). */
export function pinServedKeys(): TrustedKeys | undefined {
  if (!served) return undefined;
  pinKeys(served, 'server');
  return served;
}

/** Forgets the pin; this page then uses the served keys unpinned (the next visit pins them again). */
export function unpinKeys(): void {
  removePin(storage(), origin());
  publish({
    loading: false,
    decision: decideTrust(storage(), origin(), served, { pinOnFirstUse: false }),
    offline: state.offline,
  });
}

function keysFromText(text: string): TrustedKeys {
  try {
    return parseTrustedKeys(text);
  } catch {
    throw new PinError('NOT_KEYS', 'That is not a Saksi keys file.');
  }
}

/** Reads and pins a keys file the reader chose. */
export async function pinKeysFromFile(file: File): Promise<TrustedKeys> {
  if (file.size > KEYS_MAX_BYTES) throw new PinError('TOO_LARGE', 'The file is too large.', file.size);
  const keys = keysFromText(await file.text());
  pinKeys(keys, 'file');
  return keys;
}

/** The address as an absolute http(s) URL (a path is taken on this server); throws `BAD_URL`. */
export function keysUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input.trim(), origin() || undefined);
  } catch {
    throw new PinError('BAD_URL', 'Not an address.');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || input.trim() === '')
    throw new PinError('BAD_URL', 'Not an http(s) address.');
  return url;
}

/** Fetches and pins a keys file from an address the reader chose (no cookies sent). */
export async function pinKeysFromUrl(input: string): Promise<TrustedKeys> {
  const url = keysUrl(input);
  let text: string;
  try {
    const response = await fetch(url, { credentials: 'omit', cache: 'no-store', redirect: 'follow' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const length = Number(response.headers.get('content-length') ?? '0');
    if (length > KEYS_MAX_BYTES) throw new PinError('TOO_LARGE', 'The reply is too large.', length);
    text = await response.text();
  } catch (error) {
    if (error instanceof PinError) throw error;
    throw new PinError('FETCH_FAILED', `The keys could not be read from ${url.href}.`);
  }
  if (text.length > KEYS_MAX_BYTES) throw new PinError('TOO_LARGE', 'The reply is too large.', text.length);
  const keys = keysFromText(text);
  pinKeys(keys, 'url', url.href);
  return keys;
}
