/**
 * Whether the chain's JSON-RPC endpoint answers, for `GET /api/v1/health` (docs/api.md, "Meta"): one
 * `eth_blockNumber` call (Ethereum JSON-RPC API) with a short timeout. A result is kept for
 * `cacheMs` and shared by every caller meanwhile; once it is older, the next caller still gets it at
 * once while one new call refreshes it in the background. So a flood of health polls sends at most
 * one request per `cacheMs` to the RPC, and only the very first poll waits (at most `timeoutMs`).
 *
 * A result never holds the URL (a configured RPC URL may carry an API key in its path or its
 * user-info) nor anything the endpoint replied: only whether it answered, the block number, the
 * time taken and a short code.
 */

/** Why the endpoint did not answer as a JSON-RPC node. */
export type RpcProbeError =
  /** No answer within `timeoutMs`. */
  | 'TIMEOUT'
  /** The connection failed (refused, reset, name not resolved, bad URL). */
  | 'UNREACHABLE'
  /** An HTTP status other than 2xx. */
  | 'HTTP_ERROR'
  /** A 2xx whose body is not a JSON-RPC result with a block number (or a JSON-RPC error). */
  | 'BAD_RESPONSE';

export interface RpcProbeResult {
  reachable: boolean;
  /** The latest block the endpoint reported, when it answered. */
  block_number: number | null;
  /** How long the call took, when it answered. */
  latency_ms: number | null;
  /** When the call was made (ISO 8601). */
  checked_at: string;
  error: RpcProbeError | null;
}

export interface RpcProbeOptions {
  /** Abort the call after this long; default 1500 ms. */
  timeoutMs?: number;
  /** Reuse a result this long before calling again; default 5000 ms. */
  cacheMs?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

export interface RpcProbe {
  /** The endpoint's state, from the cache when fresh enough (see the module comment). Never throws. */
  check(rpcUrl: string): Promise<RpcProbeResult>;
}

const DEFAULT_TIMEOUT_MS = 1_500;
const DEFAULT_CACHE_MS = 5_000;
/** A JSON-RPC reply of a node is small; a larger body is not one. */
const MAX_REPLY_CHARACTERS = 4_096;

export function createRpcProbe(options: RpcProbeOptions = {}): RpcProbe {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  let cached: { rpcUrl: string; at: number; result: RpcProbeResult } | undefined;
  let running: { rpcUrl: string; promise: Promise<RpcProbeResult> } | undefined;

  const refresh = (rpcUrl: string): Promise<RpcProbeResult> => {
    if (running?.rpcUrl === rpcUrl) return running.promise;
    const at = now();
    const promise = blockNumber(rpcUrl, { timeoutMs, fetch: fetchImpl, now }).then((result) => {
      cached = { rpcUrl, at, result };
      if (running?.promise === promise) running = undefined;
      return result;
    });
    running = { rpcUrl, promise };
    return promise;
  };

  return {
    async check(rpcUrl) {
      if (cached?.rpcUrl !== rpcUrl) return refresh(rpcUrl);
      if (now() - cached.at >= cacheMs) void refresh(rpcUrl);
      return cached.result;
    },
  };
}

/** One `eth_blockNumber` call; every failure becomes a result with its code. */
async function blockNumber(
  rpcUrl: string,
  options: { timeoutMs: number; fetch: typeof fetch; now: () => number },
): Promise<RpcProbeResult> {
  const started = options.now();
  const checkedAt = new Date(started).toISOString();
  const failed = (error: RpcProbeError): RpcProbeResult => ({
    reachable: false,
    block_number: null,
    latency_ms: null,
    checked_at: checkedAt,
    error,
  });
  let url: URL;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  try {
    url = new URL(rpcUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return failed('UNREACHABLE');
    // fetch refuses URLs with user-info; send it as Basic credentials (RFC 7617) instead.
    if (url.username !== '' || url.password !== '') {
      const userInfo = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      headers['authorization'] = `Basic ${Buffer.from(userInfo, 'utf8').toString('base64')}`;
      url.username = '';
      url.password = '';
    }
  } catch {
    return failed('UNREACHABLE');
  }
  const signal = AbortSignal.timeout(options.timeoutMs);
  let text: string;
  let status: number;
  try {
    const response = await options.fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      signal,
      redirect: 'error',
    });
    status = response.status;
    text = await response.text();
  } catch {
    return failed(signal.aborted ? 'TIMEOUT' : 'UNREACHABLE');
  }
  const latency = Math.round((options.now() - started) * 10) / 10;
  if (status < 200 || status > 299) return failed('HTTP_ERROR');
  if (text.length > MAX_REPLY_CHARACTERS) return failed('BAD_RESPONSE');
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    return failed('BAD_RESPONSE');
  }
  const result = (reply as { result?: unknown } | null)?.result;
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(result)) return failed('BAD_RESPONSE');
  const block = Number.parseInt(result.slice(2), 16);
  if (!Number.isSafeInteger(block)) return failed('BAD_RESPONSE');
  return { reachable: true, block_number: block, latency_ms: latency, checked_at: checkedAt, error: null };
}
