/** The page at `/` until the web app is built: what Saksi is and how to talk to this server. */

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A small self-contained HTML page; `origin` is this server's origin, used in the curl examples. */
export function homePage(origin: string): string {
  const base = escapeHtml(origin);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Saksi</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
  pre { background: #f4f4f5; padding: 0.75rem; overflow-x: auto; border-radius: 6px; font-size: 0.85rem; }
  code { font-family: ui-monospace, monospace; }
</style>
</head>
<body>
<h1>Saksi</h1>
<p><em>Saksi</em> is Indonesian for “witness”. It answers questions from official documents, and every
answer carries its own proof: the exact passages it cites, hashes and Merkle proofs that bind them to
their documents, an Ed25519 signature, and an entry in an append-only transparency log. Anyone can
re-check an answer; nothing that fails a check is shown as verified.</p>
<h2>This server</h2>
<ul>
  <li><a href="/api/v1/openapi.json">API description (OpenAPI 3.1)</a></li>
  <li><a href="/.well-known/saksi-keys.json">Public keys</a> to pin when verifying</li>
  <li><a href="/api/v1/health">Health</a> · <a href="/api/v1/collections">Collections</a> ·
      <a href="/api/v1/log/checkpoint">Latest log checkpoint</a></li>
</ul>
<h2>Try it</h2>
<pre><code>curl -s ${base}/api/v1/chat \\
  -H 'content-type: application/json' \\
  -d '{"collection":"lalu-lintas","question":"Apakah menerobos lampu merah melanggar aturan?"}'</code></pre>
<p>The reply holds the answer and its <code>bundle</code>. Check the bundle (here, or offline with
<code>saksi verify</code> against the keys above):</p>
<pre><code>curl -s ${base}/api/v1/verify -H 'content-type: application/json' -d @bundle.json</code></pre>
<p>The web app will replace this page.</p>
</body>
</html>
`;
}
