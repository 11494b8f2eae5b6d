/**
 * The page's one client of the Saksi server (`@saksi/client`, same origin, the admin session cookie
 * sent), its failures as the page's {@link ApiError}, and the browser-side state kept for verification.
 */

import {
  type ApiErrorCode,
  type ClientErrorCode,
  isApiErrorCode,
  SaksiApiError,
  SaksiClient,
} from '@saksi/client';
import {
  type AnchorLookup,
  parseCheckpoint,
  parseTrustedKeys,
  type TrustedKeys,
  trustOptions,
  type VerifyBundleOptions,
} from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { createRpcAnchorLookup } from './rpc.js';

/** The page's server: its own origin, with the session cookie for the admin pages. */
export const saksi = new SaksiClient({ baseUrl: '', credentials: 'same-origin' });

/**
 * The code of a failed call: one the server sends (`ApiErrorCode` of @saksi/client, the wire union of
 * docs/architecture.md, "Errors"), the client's `STREAM_ENDED` (a stream that broke off), or the
 * page's own: `NETWORK` (no reply), `MALFORMED` (an unreadable reply), `HTTP_<status>` (an error reply
 * without a Saksi body), `UNKNOWN_CODE` (a server code this page does not know) and, for uploads,
 * `UPLOAD_FAILED`. The client's other codes become `NETWORK` or `MALFORMED` here ({@link webCode}).
 *
 * No `string`: a code the page compares with or has a sentence for is checked by `npm run typecheck`.
 */
export type WebErrorCode =
  | ApiErrorCode
  | Extract<ClientErrorCode, 'STREAM_ENDED'>
  | 'NETWORK'
  | 'MALFORMED'
  | 'UNKNOWN_CODE'
  | 'UPLOAD_FAILED'
  | `HTTP_${number}`;

/** A failed call: `code` is the server's error code or one of the page's own ({@link WebErrorCode}). */
export class ApiError extends Error {
  constructor(
    readonly code: WebErrorCode,
    message: string,
    readonly status = 0,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The page's code for a client error: no reply (or a timeout) is `NETWORK`, a reply the client could
 * not read is `MALFORMED` (or `HTTP_<status>` for an error reply without a Saksi body); a server code
 * is kept. A code outside `ApiErrorCode` can still arrive — the client keeps any code as sent, and a
 * page loaded before the server was upgraded talks to the newer server — so it is checked here, once,
 * and becomes `UNKNOWN_CODE`, worded by its status ({@link toApiError} keeps the code in the message).
 */
export function webCode(error: SaksiApiError): WebErrorCode {
  switch (error.code) {
    case 'NETWORK_ERROR':
    case 'TIMEOUT':
    case 'ABORTED':
      return 'NETWORK';
    case 'BAD_RESPONSE':
      return error.status >= 400 ? `HTTP_${error.status}` : 'MALFORMED';
    case 'STREAM_ENDED':
      return 'STREAM_ENDED';
    default:
      return isApiErrorCode(error.code) ? error.code : 'UNKNOWN_CODE';
  }
}

/** Any failure of a call as an `ApiError` (anything but a client error is a `NETWORK` one). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof SaksiApiError) {
    const code = webCode(error);
    // The server's own code is the one a reader can quote when asking for help.
    const message = code === 'UNKNOWN_CODE' ? `${error.code}: ${error.message}` : error.message;
    return new ApiError(code, message, error.status);
  }
  return new ApiError('NETWORK', error instanceof Error ? error.message : String(error));
}

/** `call`, with its failure as an `ApiError`. */
export async function apiCall<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw toApiError(error);
  }
}

/** A text per interface language (`id`, `en`), as the server gives a collection's title and description. */
export type LocalizedText = Partial<Record<'id' | 'en', string>>;

export interface CollectionSummary {
  name: string;
  language?: string;
  documents?: number;
  /** A human name per language; empty when the collection has none (show `name`). */
  title: LocalizedText;
  description: LocalizedText;
  examples: Partial<Record<'id' | 'en', string[]>>;
}

/** The string (or list of strings) entries `id` and `en` of `value`; anything else is dropped. */
function localized<T>(value: unknown, keep: (item: unknown) => item is T): Partial<Record<'id' | 'en', T>> {
  const result: Partial<Record<'id' | 'en', T>> = {};
  if (typeof value !== 'object' || value === null) return result;
  for (const language of ['id', 'en'] as const) {
    const item = (value as Record<string, unknown>)[language];
    if (keep(item)) result[language] = item;
  }
  return result;
}

const isText = (item: unknown): item is string => typeof item === 'string' && item.trim() !== '';
const isTextList = (item: unknown): item is string[] => Array.isArray(item) && item.every(isText);

/** The collections the chat may use, with their titles, descriptions and examples (older servers: none). */
export async function fetchCollections(): Promise<CollectionSummary[]> {
  const items: unknown = await apiCall(saksi.listCollections());
  if (!Array.isArray(items)) return [];
  return items.flatMap((value: unknown) => {
    const item = value as Record<string, unknown> | null;
    if (typeof item !== 'object' || item === null || typeof item['name'] !== 'string') return [];
    const summary: CollectionSummary = {
      name: item['name'],
      title: localized(item['title'], isText),
      description: localized(item['description'], isText),
      examples: localized(item['examples'], isTextList),
    };
    if (typeof item['language'] === 'string') summary.language = item['language'];
    if (typeof item['documents'] === 'number') summary.documents = item['documents'];
    return [summary];
  });
}

let keysPromise: Promise<TrustedKeys> | undefined;

/** The server's published keys, fetched once per page load. */
export function fetchKeys(): Promise<TrustedKeys> {
  keysPromise ??= apiCall(saksi.trustedKeys()).then((value) => parseTrustedKeys(value));
  keysPromise.catch(() => {
    keysPromise = undefined;
  });
  return keysPromise;
}

let lookupPromise: Promise<AnchorLookup | undefined> | undefined;

/** A `verifyRoot` lookup when the server shows its (local) chain's RPC URL; undefined otherwise. */
export function anchorLookup(): Promise<AnchorLookup | undefined> {
  lookupPromise ??= saksi.anchors().then(
    (status) => {
      const chain = status.chain as { chain_id?: unknown; rpc_url?: unknown } | null | undefined;
      const rpcUrl = chain?.rpc_url;
      const chainId = chain?.chain_id;
      if (typeof rpcUrl !== 'string' || !/^https?:\/\//.test(rpcUrl) || typeof chainId !== 'number') {
        return undefined;
      }
      return createRpcAnchorLookup({ rpcUrl, chainId });
    },
    () => undefined,
  );
  return lookupPromise;
}

export async function fetchConsistencyProof(first: number, second: number): Promise<readonly string[]> {
  const body: { proof?: unknown } = await apiCall(saksi.consistencyProof(first, second));
  if (!Array.isArray(body.proof) || !body.proof.every((node) => typeof node === 'string')) {
    throw new ApiError('MALFORMED', 'The consistency proof is malformed.');
  }
  return body.proof as string[];
}

export function fetchCertificate(id: string): Promise<unknown> {
  return apiCall(saksi.getCertificate(id));
}

export interface SessionMessage {
  role: 'user' | 'assistant';
  content: string;
  certificate_id: string | null;
  created_at?: string;
}

export interface ChatSession {
  session_id: string;
  collection: string;
  messages: SessionMessage[];
}

function isSessionMessage(value: unknown): value is SessionMessage {
  const record = value as Partial<SessionMessage> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    (record.role === 'user' || record.role === 'assistant') &&
    typeof record.content === 'string' &&
    (record.certificate_id === null ||
      record.certificate_id === undefined ||
      typeof record.certificate_id === 'string')
  );
}

/** A chat session's past messages, in order; null when the server no longer knows the session (404). */
export async function fetchSession(id: string): Promise<ChatSession | null> {
  let body: Partial<ChatSession>;
  try {
    body = (await apiCall(saksi.getSession(id))) as Partial<ChatSession>;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
  if (typeof body.session_id !== 'string' || !Array.isArray(body.messages))
    throw new ApiError('MALFORMED', 'The session reply is malformed.');
  return {
    session_id: body.session_id,
    collection: typeof body.collection === 'string' ? body.collection : '',
    messages: body.messages.filter(isSessionMessage).map((message) => ({
      ...message,
      certificate_id: message.certificate_id ?? null,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// localStorage (never throws: private modes may refuse storage)

export function readStorage(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {}
}

export const checkpointKey = (origin: string) => `saksi.checkpoint.${origin}`;

/** The last checkpoint note remembered for `origin`, if any. */
export function lastCheckpoint(origin: string): string | undefined {
  return readStorage(checkpointKey(origin)) ?? undefined;
}

/** The tree size of a checkpoint, given as a signed note (its text ends at the first blank line). */
export function checkpointSize(note: string): number {
  const blank = note.indexOf('\n\n');
  return parseCheckpoint(blank === -1 ? note : note.slice(0, blank + 1)).size;
}

/** Remembers `note` for `origin` when there is none yet or it is larger than the remembered one. */
export function rememberCheckpoint(origin: string, note: string): boolean {
  let size: number;
  try {
    size = checkpointSize(note);
  } catch {
    return false;
  }
  const stored = lastCheckpoint(origin);
  if (stored !== undefined) {
    try {
      if (checkpointSize(stored) >= size) return false;
    } catch {}
  }
  writeStorage(checkpointKey(origin), note);
  return true;
}

/** Everything `verifyBundle` needs in the browser, from the server's keys and the remembered checkpoint. */
export async function verifyOptions(
  keys: TrustedKeys,
  origin: string | undefined,
): Promise<VerifyBundleOptions> {
  const options: VerifyBundleOptions = {
    ...trustOptions(keys),
    fetchConsistencyProof,
    vocabulary: SAKSI_VOCABULARY,
  };
  const lookup = await anchorLookup();
  if (lookup) options.anchorLookup = lookup;
  const last = origin !== undefined ? lastCheckpoint(origin) : undefined;
  if (last !== undefined) options.lastCheckpoint = last;
  return options;
}
