/**
 * How the client sends one request: the URL under `/api/v1` (or the server's root, or an absolute
 * one), the key or the admin session's CSRF token, and every failure as a {@link SaksiApiError}.
 * {@link SaksiClient} and the free {@link chatStream} share it, so a bundle that imports only the
 * stream (the widget) does not carry the whole client.
 */
import { errorFromResponse, SaksiApiError } from './errors.js';

/** The API's base path on a Saksi server. */
export const API_BASE_PATH = '/api/v1';

/** The header the admin session's state-changing requests carry (docs/api.md, "Admin routes"). */
export const CSRF_HEADER = 'X-CSRF-Token';

export interface SaksiClientOptions {
  /**
   * The server's origin, e.g. `https://saksi.example.org` (a trailing `/api/v1` is accepted too). In a
   * browser, `''` means the page's own origin.
   */
  baseUrl: string;
  /** `saksi_…`, sent as `Authorization: Bearer`; without it only public routes (or an admin session) answer. */
  apiKey?: string;
  /** A `fetch` to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: typeof fetch;
  /** Headers sent with every API request, e.g. `X-Saksi-Workspace`. */
  headers?: Record<string, string>;
  /** Abort a request that takes longer (code `TIMEOUT`); default: no limit. Streams are not limited. */
  timeoutMs?: number;
  /**
   * `fetch`'s `credentials`: `'same-origin'` (the browser's default) sends the admin session cookie to
   * the page's own server, `'omit'` sends no cookie (an embedded widget on another site).
   */
  credentials?: 'omit' | 'same-origin' | 'include';
  /** The admin session's `csrf_token` (from `admin.login` or `admin.session`), sent on every request but GET and HEAD. */
  csrfToken?: string;
}

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue> | undefined;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Send the API key and the configured headers (not to upload URLs, which carry their own token). */
  authenticated?: boolean;
  /** The reply has no body (204). */
  empty?: boolean;
  /** `path` is under the server's root, not under `/api/v1` (the well-known keys). */
  root?: boolean;
  /** Ends the request (code `ABORTED`); for streams, which take no timeout. */
  signal?: AbortSignal | undefined;
}

export interface Sent {
  response: Response;
  url: URL;
  signal: AbortSignal | undefined;
}

export class Transport {
  /** The server's origin as given (without `/api/v1`); `''` for the page's own. */
  readonly baseUrl: string;
  readonly options: Readonly<SaksiClientOptions>;
  readonly #fetch: typeof fetch;

  constructor(options: SaksiClientOptions) {
    const base = options.baseUrl.replace(/\/+$/, '');
    this.baseUrl = base.endsWith(API_BASE_PATH) ? base.slice(0, -API_BASE_PATH.length) : base;
    this.options = { ...options, headers: { ...options.headers } };
    // Called as a plain function: a browser's `fetch` refuses any `this` but the window (or none).
    const given = options.fetch;
    this.#fetch = given
      ? (input, init) => given(input, init)
      : (input, init) => globalThis.fetch(input, init);
  }

  /** The absolute URL of `path` (under `/api/v1` unless `root`), with `query`'s defined values. */
  url(path: string, options: Pick<RequestOptions, 'query' | 'root'> = {}): URL {
    const absolute = /^https?:\/\//i.test(path);
    const relative = `${this.baseUrl}${options.root ? '' : API_BASE_PATH}${path}`;
    const page = (globalThis as { location?: { href?: string } }).location?.href;
    let url: URL;
    try {
      url = absolute ? new URL(path) : new URL(relative, page);
    } catch (error) {
      throw new SaksiApiError(
        'INVALID_BASE_URL',
        0,
        `${relative} is not an absolute URL: give baseUrl as an origin (https://…); '' is the page's origin only in a browser.`,
        { cause: error },
      );
    }
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  /** `path` is under `/api/v1`, or an absolute URL; the reply is JSON (or nothing, `empty`). */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const { response, url, signal } = await this.send(method, path, options);
    const text = await this.read(method, url, signal, () => response.text());
    if (!response.ok) throw errorFromResponse(response, text);
    if (options.empty) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new SaksiApiError(
        'BAD_RESPONSE',
        response.status,
        `${method} ${url.pathname} answered ${response.status} with a body that is not JSON.`,
        { cause: error },
      );
    }
  }

  /** Sends the request; the reply's status is not checked (see {@link Transport.checked}). */
  async send(method: string, path: string, options: RequestOptions): Promise<Sent> {
    const url = this.url(path, options);
    const authenticated = options.authenticated ?? true;
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(authenticated ? this.options.headers : {}),
      ...options.headers,
    };
    const { apiKey, csrfToken, credentials, timeoutMs } = this.options;
    if (authenticated && apiKey !== undefined) headers['authorization'] = `Bearer ${apiKey}`;
    if (authenticated && csrfToken !== undefined && method !== 'GET' && method !== 'HEAD')
      headers[CSRF_HEADER.toLowerCase()] = csrfToken;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const signal = options.signal ?? (timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs));
    const response = await this.read(method, url, signal, () =>
      this.#fetch(url, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(signal !== undefined ? { signal } : {}),
        ...(credentials !== undefined ? { credentials } : {}),
      }),
    );
    return { response, url, signal };
  }

  /** {@link Transport.send}, with a non-2xx reply thrown as the server's error. */
  async checked(method: string, path: string, options: RequestOptions): Promise<Sent> {
    const sent = await this.send(method, path, options);
    if (!sent.response.ok) {
      const text = await this.read(method, sent.url, sent.signal, () => sent.response.text());
      throw errorFromResponse(sent.response, text);
    }
    return sent;
  }

  /**
   * Runs a step of a request (sending, reading the body); a failure becomes `ABORTED` (the caller's
   * signal), `TIMEOUT` (the client's limit) or `NETWORK_ERROR`.
   */
  async read<T>(
    method: string,
    url: URL,
    signal: AbortSignal | undefined,
    step: () => Promise<T>,
  ): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (error instanceof SaksiApiError) throw error;
      if (signal?.aborted) {
        const timedOut = (signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError';
        throw timedOut
          ? new SaksiApiError(
              'TIMEOUT',
              0,
              `${method} ${url.pathname} took longer than ${this.options.timeoutMs} ms.`,
              {
                cause: error,
              },
            )
          : new SaksiApiError('ABORTED', 0, `${method} ${url.pathname} was cancelled.`, { cause: error });
      }
      throw new SaksiApiError(
        'NETWORK_ERROR',
        0,
        `${method} ${url.origin}${url.pathname} failed before a reply arrived; is the server running and reachable?`,
        { cause: error },
      );
    }
  }
}

/** An id as one path segment: nothing in it can change the path. */
export function segment(id: string): string {
  return encodeURIComponent(id);
}
