/**
 * Completion webhooks (docs/api.md, "Webhooks"): a workspace registers URLs; when a
 * document becomes ready or fails, one delivery per subscribed webhook is written in the same
 * transaction as the work, so an event exists exactly when the work committed (a transactional outbox).
 * A sender claims due deliveries with `FOR UPDATE SKIP LOCKED` under a short lease, POSTs them signed
 * with the webhook's secret, and retries failures with exponential backoff until `maxAttempts`.
 *
 * Webhooks cannot reach inside: a URL whose host is, or resolves to, a loopback, private, link-local or
 * other non-public address is refused when it is registered, and every delivery resolves and checks the
 * host again and connects only to the addresses it checked (so a name that changes its answer in
 * between — DNS rebinding — cannot redirect it; see net/address-guard.ts). Redirects are not followed.
 * A failed attempt records the receiver's status code and one uniform text, never the reply or why a
 * connection failed, so deliveries cannot be used to read or port-scan other services.
 * `allowPrivate` (SAKSI_WEBHOOK_ALLOW_PRIVATE) lifts the address checks for self-hosted setups.
 *
 * Signature (Stripe-style): `Saksi-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`,
 * the key being the whole `whsec_…` secret string (UTF-8). `Saksi-Delivery` is the event id, stable
 * across retries, so receivers can drop duplicates (delivery is at least once).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Database, Queryable } from './db/database.js';
import { EngineError } from './errors.js';
import { newId } from './ids.js';
import {
  ADDRESS_RANGE_DESCRIPTIONS,
  checkHost,
  type HostResolver,
  pinnedLookup,
  type ResolvedAddress,
} from './net/address-guard.js';

export const WEBHOOK_EVENTS = ['document.ready', 'document.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Active webhooks one workspace may have. */
export const MAX_WEBHOOKS_PER_WORKSPACE = 10;
export const MAX_WEBHOOK_URL_LENGTH = 2_048;
/** Default tolerance of {@link verifyWebhookSignature} for the signed timestamp, in seconds. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** First retry after 10 s, then ×3 each attempt, never more than an hour, ±20% jitter. */
const BACKOFF_BASE_MS = 10_000;
const BACKOFF_FACTOR = 3;
const BACKOFF_MAX_MS = 60 * 60 * 1000;
const BACKOFF_JITTER = 0.2;
/** Extra lease beyond the request timeout, so a claimed delivery is not claimed again while it is sent. */
const LEASE_MARGIN_MS = 30_000;
/**
 * The `last_error` of every failed attempt, whatever went wrong: a reply's body or a connection error
 * would tell a refused port from an open one, or show what an internal service answered.
 */
export const WEBHOOK_DELIVERY_FAILED = 'Delivery failed.';
const MAX_SIGNATURE_HEADER_LENGTH = 4_096;
const SECRET_PREFIX = 'whsec_';
const USER_AGENT = 'Saksi-Webhooks/1';
const NOT_FOUND_MESSAGE = (id: string) => `No webhook ${JSON.stringify(id.slice(0, 100))}.`;

export interface WebhookRecord {
  id: string;
  workspace_id: string;
  url: string;
  events: WebhookEvent[];
  created_at: string;
}

export type WebhookDeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface WebhookDelivery {
  id: string;
  event_id: string;
  event: WebhookEvent;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string;
  delivered_at: string | null;
  created_at: string;
}

/** The JSON body of every delivery. */
export interface WebhookPayload {
  id: string;
  type: WebhookEvent;
  created_at: string;
  workspace_id: string;
  data: Record<string, unknown>;
}

const WEBHOOK_COLUMNS = `id, workspace_id, url, events, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;
// last_error is read as the uniform text: rows written before it existed may hold an excerpt of a reply.
const DELIVERY_COLUMNS = `id, event_id, event, status, attempts, last_status,
  CASE WHEN last_error IS NULL THEN NULL ELSE '${WEBHOOK_DELIVERY_FAILED}' END AS last_error,
  to_char(next_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS next_attempt_at, to_char(delivered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS delivered_at, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

export function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

function validateUrl(url: unknown): URL {
  if (typeof url !== 'string' || url.length === 0)
    throw new EngineError('INVALID_INPUT', 'The webhook needs a url (http: or https:).');
  if (url.length > MAX_WEBHOOK_URL_LENGTH)
    throw new EngineError(
      'INVALID_INPUT',
      `The webhook url is longer than ${MAX_WEBHOOK_URL_LENGTH} characters; use a shorter one.`,
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EngineError('INVALID_INPUT', 'The webhook url is not a valid absolute URL.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new EngineError('INVALID_INPUT', 'The webhook url must start with http:// or https://.');
  if (parsed.username !== '' || parsed.password !== '')
    throw new EngineError(
      'INVALID_INPUT',
      'The webhook url must not contain a username or password; verify the Saksi-Signature header instead.',
    );
  if (parsed.href.length > MAX_WEBHOOK_URL_LENGTH)
    throw new EngineError(
      'INVALID_INPUT',
      `The webhook url is longer than ${MAX_WEBHOOK_URL_LENGTH} characters; use a shorter one.`,
    );
  return parsed;
}

/** How webhooks reach their receivers: which addresses they may use, and how names are resolved. */
export interface WebhookNetworkOptions {
  /**
   * Allow loopback, private, link-local and other non-public addresses (SAKSI_WEBHOOK_ALLOW_PRIVATE,
   * for self-hosted setups whose receivers are on the local network). Default false.
   */
  allowPrivate?: boolean;
  /** Resolves a host name to every address (default: the system resolver); tests inject one. */
  resolve?: HostResolver;
}

const FORBIDDEN_HINT =
  'Webhooks are delivered only to public addresses; give the public URL of your receiver ' +
  '(the operator of a self-hosted server can allow private addresses with SAKSI_WEBHOOK_ALLOW_PRIVATE=1).';

/**
 * Refuses a URL whose host is `localhost`, a non-public IP literal, or a name with any non-public
 * address. A name that does not resolve yet is accepted: every delivery resolves and checks it again.
 */
async function checkRegisteredHost(url: URL, options: WebhookNetworkOptions): Promise<void> {
  if (options.allowPrivate) return;
  const check = await checkHost(url.hostname, options.resolve ? { resolve: options.resolve } : {});
  if (check.ok || check.reason === 'unresolved') return;
  const host = JSON.stringify(url.hostname.slice(0, 100));
  const why =
    check.reason === 'localhost'
      ? `The webhook host ${host} is this server itself.`
      : check.reason === 'literal'
        ? `The webhook address ${host} is ${ADDRESS_RANGE_DESCRIPTIONS[check.range]}.`
        : // Not which range: that would tell what a name resolves to inside the server's network.
          `The webhook host ${host} resolves to an address that is not public (loopback, private, link-local or reserved).`;
  throw new EngineError('WEBHOOK_URL_FORBIDDEN', `${why} ${FORBIDDEN_HINT}`);
}

function validateEvents(events: readonly unknown[] | undefined): WebhookEvent[] {
  if (events === undefined) return [...WEBHOOK_EVENTS];
  if (!Array.isArray(events) || events.length === 0)
    throw new EngineError(
      'INVALID_INPUT',
      `List at least one webhook event: ${WEBHOOK_EVENTS.map((event) => `"${event}"`).join(', ')}.`,
    );
  for (const event of events) {
    if (!isWebhookEvent(event))
      throw new EngineError(
        'INVALID_INPUT',
        `Unknown webhook event ${JSON.stringify(String(event).slice(0, 100))}; use ${WEBHOOK_EVENTS.map((name) => `"${name}"`).join(' or ')}.`,
      );
  }
  // Deduplicated, in the canonical order.
  return WEBHOOK_EVENTS.filter((event) => events.includes(event));
}

/**
 * Registers a webhook for a workspace. The secret (`whsec_` + 32 random bytes, base64url) is returned
 * here only; store it to verify `Saksi-Signature`. CONFLICT beyond {@link MAX_WEBHOOKS_PER_WORKSPACE};
 * WEBHOOK_URL_FORBIDDEN for a host that is or resolves to a non-public address (unless `allowPrivate`).
 */
export async function createWebhook(
  db: Queryable,
  options: { workspaceId: string; url: string; events?: readonly string[] } & WebhookNetworkOptions,
): Promise<{ webhook: WebhookRecord; secret: string }> {
  const parsed = validateUrl(options.url);
  const events = validateEvents(options.events);
  await checkRegisteredHost(parsed, options);
  const url = parsed.href;
  const secret = `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  // One statement: the count and the insert see the same snapshot (two concurrent creates at the limit
  // may still both pass under READ COMMITTED; the bound is a guard against abuse, not an invariant).
  const result = await db.query<WebhookRecord>(
    `INSERT INTO webhooks (id, workspace_id, url, secret, events)
     SELECT $1, w.id, $3, $4, $5::jsonb FROM workspaces w
     WHERE w.id = $2
       AND (SELECT count(*) FROM webhooks h WHERE h.workspace_id = w.id AND h.disabled_at IS NULL) < $6
     RETURNING ${WEBHOOK_COLUMNS}`,
    [newId('whk'), options.workspaceId, url, secret, JSON.stringify(events), MAX_WEBHOOKS_PER_WORKSPACE],
  );
  const webhook = result.rows[0];
  if (!webhook) {
    const workspace = await db.query('SELECT 1 FROM workspaces WHERE id = $1', [options.workspaceId]);
    if (workspace.rows.length === 0)
      throw new EngineError(
        'NOT_FOUND',
        `No workspace ${JSON.stringify(options.workspaceId.slice(0, 100))}.`,
      );
    throw new EngineError(
      'CONFLICT',
      `This workspace already has ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one before adding another.`,
    );
  }
  return { webhook, secret };
}

/** The workspace's active webhooks, oldest first (never their secrets). */
export async function listWebhooks(db: Queryable, workspaceId: string): Promise<WebhookRecord[]> {
  const result = await db.query<WebhookRecord>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE workspace_id = $1 AND disabled_at IS NULL
     ORDER BY created_at, id`,
    [workspaceId],
  );
  return result.rows;
}

/** Deletes a webhook and (by cascade) its deliveries. NOT_FOUND for an unknown id or another workspace's. */
export async function deleteWebhook(db: Queryable, workspaceId: string, id: string): Promise<void> {
  const result = await db.query('DELETE FROM webhooks WHERE id = $1 AND workspace_id = $2 RETURNING id', [
    id,
    workspaceId,
  ]);
  if (result.rows.length === 0) throw new EngineError('NOT_FOUND', NOT_FOUND_MESSAGE(id));
}

/** A webhook's deliveries, newest first (default 50, at most 200). NOT_FOUND for another workspace's webhook. */
export async function listDeliveries(
  db: Queryable,
  workspaceId: string,
  webhookId: string,
  options: { limit?: number } = {},
): Promise<WebhookDelivery[]> {
  const limit = options.limit ?? 50;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 200)
    throw new EngineError('INVALID_INPUT', 'limit must be a whole number from 1 to 200.');
  const webhook = await db.query('SELECT 1 FROM webhooks WHERE id = $1 AND workspace_id = $2', [
    webhookId,
    workspaceId,
  ]);
  if (webhook.rows.length === 0) throw new EngineError('NOT_FOUND', NOT_FOUND_MESSAGE(webhookId));
  const result = await db.query<WebhookDelivery>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 AND workspace_id = $2
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [webhookId, workspaceId, limit],
  );
  return result.rows;
}

/**
 * Writes one PENDING delivery of `event` for each active webhook of the workspace subscribed to it,
 * all with one event id. Call it inside the transaction that commits the work, so the event exists
 * if and only if the work committed. Returns the number of deliveries written.
 */
export async function enqueueWebhookEvent(
  tx: Queryable,
  options: { workspaceId: string; event: WebhookEvent; data: Record<string, unknown> },
): Promise<number> {
  if (!isWebhookEvent(options.event))
    throw new EngineError('INVALID_INPUT', `Unknown webhook event ${JSON.stringify(String(options.event))}.`);
  const webhooks = await tx.query<{ id: string }>(
    `SELECT id FROM webhooks WHERE workspace_id = $1 AND disabled_at IS NULL AND events @> $2::jsonb
     ORDER BY created_at, id`,
    [options.workspaceId, JSON.stringify([options.event])],
  );
  if (webhooks.rows.length === 0) return 0;
  const eventId = newId('evt');
  const payload: WebhookPayload = {
    id: eventId,
    type: options.event,
    created_at: new Date().toISOString(),
    workspace_id: options.workspaceId,
    data: options.data,
  };
  const result = await tx.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, workspace_id, event_id, event, payload, status)
     SELECT d.id, d.webhook_id, $3, $4, $5, $6::jsonb, 'PENDING'
     FROM unnest($1::text[], $2::text[]) AS d (id, webhook_id)`,
    [
      webhooks.rows.map(() => newId('dlv')),
      webhooks.rows.map((row) => row.id),
      options.workspaceId,
      eventId,
      options.event,
      JSON.stringify(payload),
    ],
  );
  return result.rowCount;
}

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** The `Saksi-Signature` header value: `t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`. */
export function signWebhookPayload(secret: string, timestamp: number, body: string): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new EngineError('INVALID_INPUT', 'The signature timestamp must be whole unix seconds.');
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

/**
 * True when `header` carries a `v1=` signature of `body` by `secret` (any of several, so a receiver can
 * rotate secrets) and its `t=` is within `toleranceSeconds` (default 300) of `now` (unix seconds,
 * default the clock). False — never a throw — for a missing, malformed, stale or wrong signature.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  body: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_SIGNATURE_HEADER_LENGTH)
    return false;
  if (typeof secret !== 'string' || secret.length === 0 || typeof body !== 'string') return false;
  let timestamp: number | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) return false;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,15}$/.test(value)) return false;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (/^[0-9a-f]{64}$/i.test(value)) candidates.push(Buffer.from(value, 'hex'));
    }
    // Other schemes (v0, future versions) are ignored.
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (!(Math.abs(now - timestamp) <= tolerance)) return false;
  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
  let matched = false;
  // Compare against every candidate (no early exit), each in constant time.
  for (const candidate of candidates) matched = timingSafeEqual(candidate, expected) || matched;
  return matched;
}

/** Delay before the next attempt after `attempts` failed ones: min(1 h, 10 s × 3^(attempts−1)) ± 20%. */
export function webhookBackoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * BACKOFF_FACTOR ** Math.max(0, attempts - 1));
  return Math.round(base * (1 + BACKOFF_JITTER * (2 * random() - 1)));
}

export interface DeliverWebhooksOptions extends WebhookNetworkOptions {
  /** Longest wait for an attempt: resolving the host, connecting and the receiver's response headers. */
  timeoutMs: number;
  /** Attempts before a delivery is marked FAILED (the spec's default is 8). */
  maxAttempts: number;
  /** Deliveries claimed per call (default 20). */
  limit?: number;
  /**
   * The clock for due times, leases and backoff (tests move it forward instead of waiting). By
   * default the database's clock, so every sender process agrees on what is due.
   */
  now?: () => Date;
}

export interface DeliverWebhooksResult {
  delivered: number;
  retrying: number;
  failed: number;
}

interface ClaimedDelivery {
  id: string;
  event_id: string;
  event: string;
  payload: WebhookPayload;
  attempts: number;
  url: string;
  secret: string;
}

type AttemptOutcome = { ok: true; status: number } | { ok: false; status: number | null };

/**
 * POSTs `body` to `url`, connecting only to `addresses`; resolves to the response status, or null when
 * no response came within `timeoutMs` (or the connection failed). The response body is never read, and
 * redirects are not followed.
 */
function post(
  url: URL,
  addresses: readonly ResolvedAddress[],
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number | null> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      {
        protocol: url.protocol,
        // The name (for the Host header and TLS certificate checks); the socket goes to `addresses`.
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        ...(url.port ? { port: Number(url.port) } : {}),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        lookup: pinnedLookup(addresses),
      },
      (response) => {
        clearTimeout(timer);
        resolve(response.statusCode ?? null);
        response.destroy();
      },
    );
    timer = setTimeout(() => request.destroy(), timeoutMs);
    request.on('error', () => {
      clearTimeout(timer);
      request.destroy();
      resolve(null);
    });
    request.end(body);
  });
}

async function attempt(delivery: ClaimedDelivery, options: DeliverWebhooksOptions): Promise<AttemptOutcome> {
  const deadline = Date.now() + options.timeoutMs;
  let url: URL;
  try {
    url = new URL(delivery.url);
  } catch {
    return { ok: false, status: null };
  }
  // Checked again at every attempt: the name may resolve elsewhere since it was registered.
  const check = await checkHost(url.hostname, {
    allowPrivate: options.allowPrivate ?? false,
    timeoutMs: options.timeoutMs,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  if (!check.ok) return { ok: false, status: null };
  // The stored payload, serialized once: the bytes signed are the bytes sent.
  const body = JSON.stringify(delivery.payload);
  // The signature's timestamp is the real clock: the receiver checks it against its own.
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'Saksi-Event': delivery.event,
    'Saksi-Delivery': delivery.event_id,
    'Saksi-Signature': signWebhookPayload(delivery.secret, timestamp, body),
  };
  const status = await post(url, check.addresses, headers, body, Math.max(1, deadline - Date.now()));
  if (status !== null && status >= 200 && status < 300) return { ok: true, status };
  return { ok: false, status };
}

/**
 * Sends the deliveries that are due: claims up to `limit` PENDING ones whose `next_attempt_at` has
 * passed and whose lease is free (`FOR UPDATE SKIP LOCKED`, then a lease in `locked_until`, so two
 * senders never send the same attempt), POSTs them concurrently outside any transaction, and records
 * each outcome: 2xx → DELIVERED; otherwise retried after {@link webhookBackoffMs}, or FAILED after
 * `maxAttempts`. A redirect counts as a failure, and so does a host that now resolves to a non-public
 * address (unless `allowPrivate`). Deliveries of disabled webhooks are not sent.
 */
export async function deliverDueWebhooks(
  db: Database,
  options: DeliverWebhooksOptions,
): Promise<DeliverWebhooksResult> {
  const { timeoutMs, maxAttempts } = options;
  const limit = options.limit ?? 20;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1)
    throw new EngineError('INVALID_INPUT', 'timeoutMs must be a positive whole number of milliseconds.');
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1)
    throw new EngineError('INVALID_INPUT', 'maxAttempts must be a positive whole number.');
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new EngineError('INVALID_INPUT', 'limit must be a positive whole number.');
  // null: the database's now() (of each statement's transaction).
  const now = (): string | null => options.now?.().toISOString() ?? null;

  const claimed = await db.transaction(async (tx) => {
    const result = await tx.query<ClaimedDelivery>(
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.status = 'PENDING' AND d.next_attempt_at <= COALESCE($1::timestamptz, now())
           AND (d.locked_until IS NULL OR d.locked_until <= COALESCE($1::timestamptz, now()))
           AND w.disabled_at IS NULL
         ORDER BY d.next_attempt_at, d.id
         LIMIT $2
         FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE webhook_deliveries d
       SET locked_until = COALESCE($1::timestamptz, now()) + $3 * interval '1 millisecond'
       FROM due, webhooks w
       WHERE d.id = due.id AND w.id = d.webhook_id
       RETURNING d.id, d.event_id, d.event, d.payload, d.attempts, w.url, w.secret`,
      [now(), limit, timeoutMs + LEASE_MARGIN_MS],
    );
    return result.rows;
  });

  const outcomes = await Promise.all(
    claimed.map(async (delivery) => ({ delivery, outcome: await attempt(delivery, options) })),
  );

  const result: DeliverWebhooksResult = { delivered: 0, retrying: 0, failed: 0 };
  for (const { delivery, outcome } of outcomes) {
    const attempts = delivery.attempts + 1;
    const finished = now();
    // Guarded by the attempt count we claimed: an outcome is recorded once, even if the lease ran out
    // and another sender took the delivery over.
    const guard = 'WHERE id = $1 AND status = $2 AND attempts = $3';
    if (outcome.ok) {
      const updated = await db.query(
        `UPDATE webhook_deliveries SET status = 'DELIVERED', attempts = $4, last_status = $5,
           last_error = NULL, delivered_at = COALESCE($6::timestamptz, now()), locked_until = NULL ${guard}`,
        [delivery.id, 'PENDING', delivery.attempts, attempts, outcome.status, finished],
      );
      if (updated.rowCount > 0) result.delivered += 1;
    } else if (attempts >= maxAttempts) {
      const updated = await db.query(
        `UPDATE webhook_deliveries SET status = 'FAILED', attempts = $4, last_status = $5,
           last_error = $6, locked_until = NULL ${guard}`,
        [delivery.id, 'PENDING', delivery.attempts, attempts, outcome.status, WEBHOOK_DELIVERY_FAILED],
      );
      if (updated.rowCount > 0) result.failed += 1;
    } else {
      const updated = await db.query(
        `UPDATE webhook_deliveries SET attempts = $4, last_status = $5, last_error = $6,
           next_attempt_at = COALESCE($7::timestamptz, now()) + $8 * interval '1 millisecond',
           locked_until = NULL ${guard}`,
        [
          delivery.id,
          'PENDING',
          delivery.attempts,
          attempts,
          outcome.status,
          WEBHOOK_DELIVERY_FAILED,
          finished,
          webhookBackoffMs(attempts),
        ],
      );
      if (updated.rowCount > 0) result.retrying += 1;
    }
  }
  return result;
}
