/**
 * Usage figures in the admin API (docs/api.md, "Admin routes"): `GET /admin/usage` answers with the
 * figures of a workspace (or one of its collections) over the last `days` days as JSON, and
 * `GET /admin/usage.csv` with the same as a CSV download, one row per day or one per refused question.
 * Both need the admin session.
 */
import { DEFAULT_WORKSPACE, type Engine, refusedQuestionsCsv, usageDaysCsv } from '@saksi/engine';
import type { Mount } from '../api-spec/mount.js';

/** The period when none is asked for. */
const DEFAULT_DAYS = 30;

export function registerAdminUsageRoutes(mount: Mount, engine: Engine): void {
  const report = async (query: {
    days?: number | undefined;
    collection?: string | undefined;
    workspace?: string | undefined;
    tz?: string | undefined;
    top?: number | undefined;
  }) => {
    const workspaceId = query.workspace ?? DEFAULT_WORKSPACE;
    await engine.workspaces.get(workspaceId);
    return engine.usageReports.report({
      workspaceId,
      days: query.days ?? DEFAULT_DAYS,
      ...(query.collection !== undefined ? { collection: query.collection } : {}),
      ...(query.tz !== undefined ? { timeZone: query.tz } : {}),
      ...(query.top !== undefined ? { topRefused: query.top } : {}),
    });
  };

  mount('adminUsage', async (c, { query }) => {
    const figures = await report(query);
    // The workspace's collections, for a picker.
    const collections = (await engine.collections.list({ workspaceId: figures.workspace_id })).map(
      (item) => item.name,
    );
    c.header('Cache-Control', 'no-store');
    return c.json({ ...figures, collections });
  });

  mount('adminUsageCsv', async (c, { query }) => {
    const figures = await report(query);
    const table = query.table ?? 'days';
    const scope = figures.collection ?? 'all';
    const name = [
      'saksi-usage',
      figures.workspace_id,
      scope,
      ...(table === 'refused' ? ['refused'] : []),
      figures.period.from,
      figures.period.to,
    ]
      .join('_')
      .replace(/[^A-Za-z0-9._-]/g, '-');
    const body = table === 'refused' ? refusedQuestionsCsv(figures) : usageDaysCsv(figures);
    // A byte order mark, so spreadsheets read the questions as UTF-8.
    return c.body(`\uFEFF${body}`, 200, {
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      'Content-Disposition': `attachment; filename="${name}.csv"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });
}
