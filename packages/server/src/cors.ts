/**
 * Cross-origin access for the embeddable widget (docs/configuration.md, "Embedding the widget"): pages on the
 * origins listed in `SAKSI_ALLOWED_ORIGINS` may call the public read/ask routes — chat, query, certificates,
 * verify, feedback on answers and the trusted keys — and nothing else (never the admin or upload routes). An allowed origin is
 * echoed exactly (with `Vary: Origin`); any other origin gets no CORS header, so its browser refuses
 * the response. `*` allows every origin (unsafe: any site can spend this server's resources and
 * show its answers). `/widget.js` and the verifier it loads (`/widget-verify.js`) may be loaded by
 * any page.
 */
import type { MiddlewareHandler } from 'hono';

/** The routes other origins may call (paths as the server sees them). */
export function isCorsPath(pathname: string): boolean {
  return (
    pathname === '/api/v1/chat' ||
    pathname === '/api/v1/query' ||
    pathname === '/api/v1/verify' ||
    pathname === '/api/v1/feedback' ||
    pathname.startsWith('/api/v1/certificates/') ||
    pathname === '/.well-known/saksi-keys.json'
  );
}

/** Whether `origin` (the request's `Origin` header) may call the CORS routes. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  return allowed.includes('*') || allowed.includes(origin);
}

const ALLOW_METHODS = 'GET, POST, OPTIONS';
const ALLOW_HEADERS = 'content-type, accept, authorization, x-api-key';
/** How long a browser may cache a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';
/** `/widget.js`: an hour in caches (the file name is not hashed, so not immutable). */
const WIDGET_CACHE = 'public, max-age=3600';
/** The widget's script and the verifier it loads when an answer arrives: any page may load them. */
const WIDGET_SCRIPTS = new Set(['/widget.js', '/widget-verify.js']);

/** The CORS middleware; `allowed` comes from `SaksiConfig.allowedOrigins`. */
export function cors(allowed: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const pathname = c.req.path;
    if (WIDGET_SCRIPTS.has(pathname)) {
      await next();
      if (c.res.status === 200) {
        c.header('Cross-Origin-Resource-Policy', 'cross-origin');
        c.header('Cache-Control', WIDGET_CACHE);
      }
      return;
    }
    if (!isCorsPath(pathname)) return next();
    const origin = c.req.header('origin');
    const ok = origin !== undefined && originAllowed(origin, allowed);
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined) {
      const headers = new Headers({ Vary: 'Origin' });
      if (ok) {
        headers.set('Access-Control-Allow-Origin', origin);
        headers.set('Access-Control-Allow-Methods', ALLOW_METHODS);
        headers.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
        headers.set('Access-Control-Max-Age', PREFLIGHT_MAX_AGE);
      }
      return new Response(null, { status: 204, headers });
    }
    await next();
    c.res.headers.append('Vary', 'Origin');
    if (ok) c.res.headers.set('Access-Control-Allow-Origin', origin);
  };
}
