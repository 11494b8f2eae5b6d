/**
 * `saksi api …`: the developer API of a running server (docs/api.md) through the typed client
 * `@saksi/client`: the key's workspace, uploads with ingestion progress, document status, retrieval
 * queries and webhooks. The API key comes from --api-key or $SAKSI_API_KEY and is never printed.
 */

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type Document,
  type QueryResult,
  SaksiApiError,
  SaksiClient,
  type WebhookEvent,
} from '@saksi/client';
import { plural } from '@saksi/proof';
import { type Command, flag, integerOption, type OptionValues, stringOption } from './command.js';
import { CliError, type Io, styleFor, UsageError } from './io.js';
import { table } from './table.js';
import { safeText, truncate } from './text.js';

export const DEFAULT_SERVER = 'http://127.0.0.1:3000';
const WEBHOOK_EVENTS: readonly WebhookEvent[] = ['document.ready', 'document.failed'];
/** Characters of a result's text shown by `saksi api query`. */
const SNIPPET_LENGTH = 240;

export const apiCommand: Command = {
  name: 'api',
  summary: 'Use the developer API of a running server: upload, status, query, webhooks',
  usage:
    'saksi api workspace [--json]\n' +
    '       saksi api upload <file> --collection <name> [--wait] [--title T] [--language id|en] [--json]\n' +
    '       saksi api status <document-id> [--json]\n' +
    '       saksi api query <question…> --collection <name> [--top-k N] [--json]\n' +
    '       saksi api webhooks add <url> [--events document.ready,document.failed] | list [--json]\n' +
    '       (all take --server URL and --api-key KEY)',
  help: `Calls the HTTP API (/api/v1) of a Saksi server as the workspace of an API key.

  workspace            The key's workspace, scopes, quotas and usage (any scope)
  upload <file>        Uploads a document (ingest scope); ingestion runs as a job on the server.
                       --wait polls and prints its progress until it is READY or FAILED
  status <id>          A document's status, stage, progress, chunks and root (read scope)
  query <question…>    Retrieval only: ranked passages with score, citation and snippet (read scope)
  webhooks add <url>   Calls <url> when a document is ready or failed; prints its signing secret
                       once (admin scope)
  webhooks list        The workspace's webhooks (admin scope)

Options:
  --server <url>       The server (default $SAKSI_SERVER or ${DEFAULT_SERVER})
  --api-key <key>      The API key (default $SAKSI_API_KEY; prefer the variable: command lines
                       are visible to other users). Create one with saksi workspaces create or
                       saksi api-keys create.
  --collection <name>  upload, query: the collection (upload creates it when missing)
  --title <title>      upload: the document's title
  --language <id|en>   upload: the language of a new collection
  --wait               upload: wait until ingestion has finished
  --top-k <n>          query: passages to return (1–50, default 5)
  --events <list>      webhooks add: ${WEBHOOK_EVENTS.join(',')} (default both)
  --json               Print the server's JSON reply

Exit status: 0 done, 1 the server refused (or the document FAILED) or could not be reached,
2 bad usage or an unreadable file.`,
  options: {
    server: { type: 'string' },
    'api-key': { type: 'string' },
    collection: { type: 'string' },
    title: { type: 'string' },
    language: { type: 'string' },
    wait: { type: 'boolean' },
    'top-k': { type: 'string' },
    events: { type: 'string' },
    json: { type: 'boolean' },
  },
  run: runApi,
};

async function runApi(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const [subcommand, ...rest] = positionals;
  if (subcommand === undefined)
    throw new UsageError('missing subcommand: saksi api workspace | upload | status | query | webhooks');
  const server = stringOption(values, 'server') ?? io.env['SAKSI_SERVER'] ?? DEFAULT_SERVER;
  if (!/^https?:\/\/[^\s/]+/i.test(server))
    throw new UsageError(`--server must be an http(s) URL, e.g. ${DEFAULT_SERVER}`);
  const apiKey = stringOption(values, 'api-key') ?? io.env['SAKSI_API_KEY'];
  const client = new SaksiClient({ baseUrl: server, ...(apiKey ? { apiKey } : {}) });
  const context: ApiContext = { client, values, io, json: flag(values, 'json') };
  try {
    switch (subcommand) {
      case 'workspace':
        expectNone(rest);
        return await workspace(context);
      case 'upload':
        return await upload(context, one(rest, '<file>'));
      case 'status':
        return await status(context, one(rest, '<document-id>'));
      case 'query':
        return await query(context, rest);
      case 'webhooks':
        return await webhooks(context, rest);
      default:
        throw new UsageError(`unknown api subcommand ${JSON.stringify(subcommand)}`);
    }
  } catch (error) {
    if (error instanceof SaksiApiError) throw fromApiError(error, server);
    throw error;
  }
}

interface ApiContext {
  client: SaksiClient;
  values: OptionValues;
  io: Io;
  json: boolean;
}

function expectNone(rest: readonly string[]): void {
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
}

function one(rest: readonly string[], name: string): string {
  if (rest.length === 0) throw new UsageError(`missing ${name}`);
  expectNone(rest.slice(1));
  return rest[0]!;
}

function printJson(io: Io, value: unknown): number {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  return 0;
}

async function workspace({ client, io, json }: ApiContext): Promise<number> {
  const info = await client.workspace();
  if (json) return printJson(io, info);
  const lines = [
    `Workspace ${info.workspace.id} "${safeText(info.workspace.name)}"`,
    `  key:       ${info.principal.key_id ?? '(session)'}, scopes ${info.principal.scopes.join(',')}`,
    `  documents: ${info.usage.documents}, ${formatBytes(info.usage.storage_bytes)} of ${formatBytes(info.quotas.max_storage_bytes)}`,
    `  limits:    ${formatBytes(info.quotas.max_document_bytes)} and ${plural(info.quotas.max_pages, 'page')} per document`,
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

async function upload(context: ApiContext, file: string): Promise<number> {
  const { client, values, io } = context;
  const collection = stringOption(values, 'collection');
  if (!collection) throw new UsageError('--collection is required');
  const language = stringOption(values, 'language');
  if (language !== undefined && language !== 'id' && language !== 'en')
    throw new UsageError('--language must be id or en');
  const title = stringOption(values, 'title');
  const bytes = await readUpload(io.cwd, file);
  const accepted = await client.uploadDocument({
    file: bytes,
    filename: path.basename(file),
    collection,
    ...(language !== undefined ? { language } : {}),
    ...(title !== undefined ? { title } : {}),
  });
  const say = (text: string) => {
    if (!context.json) io.stdout.write(`${text}\n`);
  };
  const { document } = accepted;
  say(
    accepted.deduplicated
      ? `${safeText(document.filename)} is already in ${safeText(document.collection)}: document ${document.id} ${document.status} (the same bytes; not parsed again).`
      : `Uploaded ${safeText(document.filename)} to ${safeText(document.collection)}: document ${document.id} ${document.status}, job ${accepted.job.id}.`,
  );
  if (!flag(values, 'wait')) {
    if (context.json) return printJson(io, accepted);
    if (!accepted.deduplicated)
      say(`Follow it with saksi api status ${document.id} (or upload with --wait).`);
    return 0;
  }
  let last = '';
  const finished = await client.waitForDocument(document.id, {
    intervalMs: 500,
    onProgress: (current) => {
      const line = `  ${current.status} ${current.stage ?? ''} ${Math.round(current.progress * 100)}%`;
      if (line !== last) say(line);
      last = line;
    },
  });
  if (context.json) printJson(io, { ...accepted, document: finished });
  else say(describeFinished(finished));
  return finished.status === 'FAILED' ? 1 : 0;
}

function describeFinished(document: Document): string {
  if (document.status === 'FAILED') {
    const error = document.error
      ? `${document.error.code}: ${safeText(document.error.message)}`
      : 'no reason given';
    return `FAILED: ${error}`;
  }
  return `${document.status}: ${plural(document.chunk_count, 'chunk')}${document.pages ? `, ${plural(document.pages, 'page')}` : ''}, root ${document.root ?? '-'}`;
}

async function readUpload(cwd: string, file: string): Promise<Uint8Array> {
  const absolute = path.resolve(cwd, file);
  try {
    const info = await stat(absolute);
    if (info.isDirectory()) throw new CliError(`cannot read ${safeText(file)}: it is a folder, not a file`);
    return new Uint8Array(await readFile(absolute));
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    throw new CliError(
      `cannot read ${safeText(file)}: ${code === 'ENOENT' ? 'no such file' : typeof code === 'string' ? code : 'unreadable'}`,
      { hint: 'Check the path; relative paths are resolved from the current folder.' },
    );
  }
}

async function status({ client, io, json }: ApiContext, id: string): Promise<number> {
  const document = await client.getDocument(id);
  if (json) return printJson(io, document);
  const style = styleFor(io.stdout, io.env);
  const color =
    document.status === 'READY' ? style.green : document.status === 'FAILED' ? style.red : style.yellow;
  const rows: [string, string][] = [
    ['document', document.id],
    ['title', safeText(document.title)],
    ['file', `${safeText(document.filename)} (${document.mime}, ${formatBytes(document.size)})`],
    ['collection', safeText(document.collection)],
    [
      'status',
      `${color(document.status)}${document.stage ? ` (${document.stage}, ${Math.round(document.progress * 100)}%)` : ''}`,
    ],
    ['chunks', String(document.chunk_count)],
    ['root', document.root ?? '-'],
    ['anchor', document.anchor_state],
    ['job', document.job_id ?? '-'],
  ];
  if (document.error) rows.push(['error', `${document.error.code}: ${safeText(document.error.message)}`]);
  io.stdout.write(`${rows.map(([label, value]) => `${label.padEnd(11)}${value}`).join('\n')}\n`);
  return 0;
}

async function query({ client, values, io, json }: ApiContext, words: readonly string[]): Promise<number> {
  const collection = stringOption(values, 'collection');
  if (!collection) throw new UsageError('--collection is required');
  const question = words.join(' ').trim();
  if (!question) throw new UsageError('write the question, in quotes');
  const topK = integerOption(values, 'top-k', 1, 50);
  const response = await client.query({
    collection,
    question,
    ...(topK !== undefined ? { top_k: topK } : {}),
  });
  if (json) return printJson(io, response);
  const style = styleFor(io.stdout, io.env);
  const count = response.results.length;
  io.stdout.write(
    `${count} result${count === 1 ? '' : 's'} from ${safeText(collection)} (${response.hybrid ? 'hybrid' : 'lexical'} search, ${Math.round(response.timings.total_ms)} ms)\n`,
  );
  for (const result of response.results) {
    io.stdout.write(
      `\n${style.bold(`[${result.rank}]`)} score ${result.score.toFixed(4)}  ${safeText(citationOf(result))}\n` +
        `    ${style.dim(`${safeText(result.document.filename)} (${result.document_id})`)}\n` +
        `    ${safeText(truncate(result.text.replace(/\s+/g, ' ').trim(), SNIPPET_LENGTH))}\n`,
    );
  }
  return 0;
}

/** `Title — p. 3 — Chapter › Section` (or the server's label, e.g. `Pasal 287 ayat (2) UU 22/2009`). */
function citationOf(result: QueryResult): string {
  const citation = result.citation;
  // The outermost heading of a document is often its title: not worth repeating.
  const sections = (citation.section_path ?? []).filter(
    (part, index) => index > 0 || part !== citation.document_title,
  );
  const section = sections.length > 0 ? sections.join(' › ') : citation.section_header;
  return [
    citation.label ?? citation.document_title,
    citation.page ? `p. ${citation.page}` : '',
    section && section !== citation.label ? section : '',
  ]
    .filter(Boolean)
    .join(' — ');
}

async function webhooks(context: ApiContext, rest: readonly string[]): Promise<number> {
  const { client, values, io, json } = context;
  const [action, ...args] = rest;
  if (action === 'add') {
    const url = one(args, '<url>');
    const events = parseEvents(stringOption(values, 'events'));
    const created = await client.createWebhook({ url, ...(events ? { events } : {}) });
    if (json) return printJson(io, created);
    const style = styleFor(io.stdout, io.env);
    io.stdout.write(
      [
        `Webhook ${created.webhook.id} → ${safeText(created.webhook.url)} (${created.webhook.events.join(', ')}).`,
        'Signing secret (checks the Saksi-Signature header of each delivery):',
        '',
        `  ${created.secret}`,
        '',
        style.yellow('Store it now, it is not shown again.'),
        '',
      ].join('\n'),
    );
    return 0;
  }
  if (action === 'list') {
    expectNone(args);
    const items = await client.listWebhooks();
    if (json) return printJson(io, { items });
    if (items.length === 0) {
      io.stdout.write('No webhooks. Add one with saksi api webhooks add <url>.\n');
      return 0;
    }
    const rows = items.map((webhook) => [
      webhook.id,
      webhook.url,
      webhook.events.join(','),
      webhook.created_at,
    ]);
    io.stdout.write(
      `${table(['ID', 'URL', 'EVENTS', 'CREATED'], rows, styleFor(io.stdout, io.env)).join('\n')}\n`,
    );
    return 0;
  }
  throw new UsageError(
    action === undefined
      ? 'missing webhooks action: add <url> | list'
      : `unknown webhooks action ${JSON.stringify(action)}`,
  );
}

function parseEvents(text: string | undefined): WebhookEvent[] | undefined {
  if (text === undefined) return undefined;
  const events = text
    .split(',')
    .map((event) => event.trim())
    .filter(Boolean);
  const unknown = events.filter((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
  if (events.length === 0 || unknown.length > 0)
    throw new UsageError(`--events takes ${WEBHOOK_EVENTS.join(', ')}`);
  return events as WebhookEvent[];
}

/** The server's refusal as a CliError (exit 1), with what to do for the common ones. */
function fromApiError(error: SaksiApiError, server: string): CliError {
  const message = safeText(error.message);
  const hint = (() => {
    switch (error.status) {
      case 0:
        return error.code === 'TIMEOUT'
          ? undefined
          : `Is saksi serve running at ${safeText(server)}? Point --server or $SAKSI_SERVER at it.`;
      case 401:
        return 'Pass an API key with $SAKSI_API_KEY (or --api-key); create one with saksi workspaces create or saksi api-keys create.';
      case 403:
        return 'This key lacks the scope: create one with it, e.g. saksi api-keys create --name <n> --scopes read,ingest.';
      case 404:
        return 'Ids of other workspaces are not found either: check the key and the id.';
      case 429:
        return error.retryAfterSeconds === undefined
          ? 'Rate limited: wait a little and try again.'
          : `Rate limited: try again in ${error.retryAfterSeconds} s.`;
      default:
        return undefined;
    }
  })();
  const prefix = error.status === 0 ? '' : `${error.status} ${error.code}: `;
  return new CliError(`${prefix}${message}`, { exitCode: 1, ...(hint ? { hint } : {}), cause: error });
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}
