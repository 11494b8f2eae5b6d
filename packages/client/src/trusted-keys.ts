/**
 * The server's published keys (`/.well-known/saksi-keys.json`, docs/api.md), as a free function over
 * the transport so the widget's verifier can fetch them without the whole {@link SaksiClient}.
 */
import { type SaksiClientOptions, Transport } from './transport.js';

/** Where a Saksi server publishes its keys, under its root (not under `/api/v1`). */
export const TRUSTED_KEYS_PATH = '/.well-known/saksi-keys.json';

/**
 * The keys as sent: read them with `parseTrustedKeys` of `@saksi/proof` before trusting anything they
 * sign. {@link SaksiClient.trustedKeys} is the same call.
 */
export function trustedKeys(client: SaksiClientOptions): Promise<unknown> {
  return fetchTrustedKeys(new Transport(client));
}

/** {@link trustedKeys} over an existing transport. */
export function fetchTrustedKeys(transport: Transport): Promise<unknown> {
  return transport.request('GET', TRUSTED_KEYS_PATH, { root: true });
}
