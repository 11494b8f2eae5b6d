/**
 * The usage figures of the admin API (docs/api.md, "Admin routes"): `GET /admin/usage` as JSON, and the
 * address of its CSV download (`GET /admin/usage.csv`, fetched by the browser with the session cookie).
 */
import { AdminApiError, adminError } from './admin-api.js';

export const USAGE_PERIODS = [7, 30, 90] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];

export interface UsageFigures {
  questions: number;
  answered: number;
  refused: number;
  refusal_rate: number | null;
  with_feedback: number;
  feedback_rate: number | null;
  up: number;
  down: number;
  latency: { measured: number; p50_ms: number | null; p95_ms: number | null; mean_ms: number | null };
}

export interface UsageDay extends UsageFigures {
  date: string;
}

export interface UsageReport {
  workspace_id: string;
  collection: string | null;
  period: { from: string; to: string; days: number; time_zone: string };
  totals: UsageFigures;
  days: UsageDay[];
  top_refused: { question: string; count: number; last_asked_at: string }[];
  collections: string[];
}

export interface UsageQuery {
  days: UsagePeriod;
  workspace: string;
  /** Empty: every collection. */
  collection: string;
}

/** This browser's IANA time zone when the server can take it (days start there), else none (UTC). */
export function browserTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return typeof zone === 'string' && /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone) ? zone : undefined;
}

function parameters(query: UsageQuery, extra: Record<string, string> = {}): string {
  const search = new URLSearchParams({ days: String(query.days), workspace: query.workspace });
  if (query.collection !== '') search.set('collection', query.collection);
  const zone = browserTimeZone();
  if (zone !== undefined) search.set('tz', zone);
  for (const [name, value] of Object.entries(extra)) search.set(name, value);
  return search.toString();
}

export async function fetchUsage(query: UsageQuery): Promise<UsageReport> {
  let response: Response;
  try {
    response = await fetch(`/api/v1/admin/usage?${parameters(query)}`, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
  } catch {
    throw new AdminApiError('NETWORK', 'The server cannot be reached.');
  }
  if (!response.ok) throw await adminError(response);
  try {
    return (await response.json()) as UsageReport;
  } catch {
    throw new AdminApiError('MALFORMED', 'The server reply is not JSON.', response.status);
  }
}

/** Where the CSV of `table` downloads from. */
export function usageCsvUrl(query: UsageQuery, table: 'days' | 'refused'): string {
  return `/api/v1/admin/usage.csv?${parameters(query, { table })}`;
}
