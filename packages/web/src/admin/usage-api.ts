/**
 * The usage figures of the admin API (docs/api.md, "Admin routes"): `GET /admin/usage` as JSON, and the
 * address of its CSV download (`GET /admin/usage.csv`, fetched by the browser with the session cookie).
 */
import type { UsageReport } from '@saksi/client';
import { saksi } from '../api.js';
import { adminError } from './admin-api.js';

export type { UsageDay, UsageFigures, UsageReport } from '@saksi/client';

export const USAGE_PERIODS = [7, 30, 90] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];

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

/** The client's query: this browser's time zone when the server can take it. */
function clientQuery(query: UsageQuery) {
  const zone = browserTimeZone();
  return { ...query, ...(zone !== undefined ? { tz: zone } : {}) };
}

export async function fetchUsage(query: UsageQuery): Promise<UsageReport> {
  try {
    return await saksi.admin.usage(clientQuery(query));
  } catch (error) {
    throw adminError(error);
  }
}

/** Where the CSV of `table` downloads from. */
export function usageCsvUrl(query: UsageQuery, table: 'days' | 'refused'): string {
  return saksi.admin.usageCsvUrl(clientQuery(query), table);
}
