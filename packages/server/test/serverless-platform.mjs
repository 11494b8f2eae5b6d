/**
 * Runs a Fetch-API function module the way a serverless platform's Node runtime does (Vercel's, as
 * docs/deploy.md describes it), for the tests: a plain `node` process (no TypeScript, no source
 * conditions, so the built packages are what runs) loads the module and, for each HTTP request,
 * calls its default export's `fetch(request, { waitUntil })` with
 * - the URL the client asked for,
 * - `X-Forwarded-For` / `X-Real-IP` replaced by the connection's address (a client cannot forge them),
 * - the body as a stream,
 * and streams the response back. Promises given to `waitUntil` keep running after the response; the
 * process waits for them on SIGTERM. A function that throws gets the platform's 500.
 *
 * With PLATFORM_FREEZE=1 the process stops itself (SIGSTOP) once a response is sent and the promises
 * given to `waitUntil` have settled, as a platform freezes an idle instance; SIGCONT thaws it.
 *
 * Usage: node serverless-platform.mjs <module> ; prints {"url": "http://127.0.0.1:<port>"} when ready.
 */
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';

const [entry] = process.argv.slice(2);
if (!entry) {
  process.stderr.write('usage: node serverless-platform.mjs <function module>\n');
  process.exit(2);
}
const handler = (await import(pathToFileURL(entry).href)).default;
if (typeof handler?.fetch !== 'function') {
  process.stderr.write(`${entry} does not export default { fetch }\n`);
  process.exit(2);
}
const pending = new Set();

const server = createServer(async (req, res) => {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    const address = req.socket.remoteAddress ?? '';
    const client = address.startsWith('::ffff:') ? address.slice(7) : address;
    headers.set('x-forwarded-for', client);
    headers.set('x-real-ip', client);
    headers.set('x-forwarded-proto', 'https');
    const method = req.method ?? 'GET';
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method,
      headers,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: Readable.toWeb(req), duplex: 'half' }),
    });
    const response = await handler.fetch(request, {
      waitUntil(promise) {
        const tracked = Promise.resolve(promise).catch(() => undefined);
        pending.add(tracked);
        tracked.finally(() => pending.delete(tracked));
      },
    });
    const out = {};
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') out[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) out['set-cookie'] = cookies;
    res.writeHead(response.status, out);
    if (response.body) for await (const piece of response.body) res.write(piece);
    res.end();
    if (process.env['PLATFORM_FREEZE'] === '1') {
      await Promise.allSettled([...pending]);
      process.kill(process.pid, 'SIGSTOP');
    }
  } catch (error) {
    process.stderr.write(`function failed: ${error?.stack ?? error}\n`);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('A server error has occurred\n\nFUNCTION_INVOCATION_FAILED\n');
  }
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});

process.once('SIGTERM', async () => {
  server.close();
  await Promise.allSettled([...pending]);
  await handler.close?.();
  process.exit(0);
});
