/**
 * The usage figures of the admin portal (docs/api.md, "Admin routes", `GET /admin/usage`), from real
 * answers: questions per day, refusals, feedback and latency, the refused questions asked most often,
 * the period's days in a time zone, one collection or all of a workspace, and the CSV exports.
 */
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngineError } from './errors.js';
import { submitFeedback } from './feedback.js';
import { csvField, refusedQuestionsCsv, usageDaysCsv, usageReport } from './usage.js';

const LAW = `# UU Contoh

Pasal 106

(8) Setiap orang yang mengemudikan Sepeda Motor dan Penumpang Sepeda Motor wajib menggunakan helm yang memenuhi standar nasional Indonesia.

Pasal 291

(1) Setiap orang yang mengemudikan Sepeda Motor tidak menggunakan helm standar nasional Indonesia dipidana dengan pidana kurungan paling lama 1 (satu) bulan atau denda paling banyak Rp250.000,00 (dua ratus lima puluh ribu rupiah).
`;

const NOTES = `# Catatan

Kantor buka setiap hari kerja pukul 08.00 sampai 16.00.
`;

/** Questions the law answers, and questions it cannot: two of them the same question written twice. */
const ANSWERABLE = [
  'Naik motor wajib pakai helm?',
  'Berapa denda tidak memakai helm standar?',
  'Apakah penumpang sepeda motor wajib memakai helm?',
];
const UNANSWERABLE = [
  'Berapa harga tiket pesawat ke Bali?',
  '  berapa harga tiket pesawat ke   BALI ',
  'Siapa juara piala dunia sepak bola?',
];

let test: TestEngine;
/** Each question's certificate id and outcome, as the engine issued them. */
const asked: { question: string; id: string; outcome: string }[] = [];

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
  await test.engine.ingest('hukum', { bytes: utf8Encode(LAW), filename: 'uu-contoh.md' });
  await test.engine.ingest('kantor', { bytes: utf8Encode(NOTES), filename: 'catatan.md' });
  // A collection the answer check was not calibrated on is released at the strictest λ; these figures
  // count answers, so the collection accepts the highest risk (docs/engine.md, "The answer check").
  for (const name of ['hukum', 'kantor']) await test.engine.collections.configure(name, { answer_risk: 0.5 });
  for (const question of [...ANSWERABLE, ...UNANSWERABLE]) {
    const result = await test.engine.ask('hukum', { question });
    const certificate = result.bundle.certificate;
    asked.push({
      question,
      id: certificate.certificate_id,
      outcome: certificate.answer.outcome ?? 'unknown',
    });
  }
  const other = await test.engine.ask('kantor', { question: 'Jam berapa kantor buka?' });
  asked.push({ question: 'kantor', id: other.bundle.certificate.certificate_id, outcome: 'other' });
}, 180_000);

afterAll(async () => {
  await test?.close();
});

const hukum = () => asked.filter((entry) => entry.outcome !== 'other');

/** percentile_cont: linear interpolation between the closest ranks. */
function percentile(values: number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = fraction * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return Math.round(sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low));
}

/** `YYYY-MM-DD` of `instant` in `timeZone`. */
function dateIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

describe('usage figures', () => {
  it('count the questions, refusals, feedback and latency of real answers', async () => {
    // The law answers its own questions and refuses the others: otherwise this test proves nothing.
    expect(
      hukum()
        .filter((entry) => entry.outcome === 'answered')
        .map((entry) => entry.question),
    ).toEqual(ANSWERABLE);
    expect(
      hukum()
        .filter((entry) => entry.outcome === 'refused')
        .map((entry) => entry.question),
    ).toEqual(UNANSWERABLE);
    const [first, second] = hukum();
    const refusedOne = hukum().find((entry) => entry.outcome === 'refused')!;
    await submitFeedback(test.engine.db, { certificateId: first!.id, submitter: 'address:a', rating: 'up' });
    await submitFeedback(test.engine.db, { certificateId: first!.id, submitter: 'address:b', rating: 'up' });
    await submitFeedback(test.engine.db, {
      certificateId: second!.id,
      submitter: 'address:a',
      rating: 'down',
    });
    await submitFeedback(test.engine.db, {
      certificateId: refusedOne.id,
      submitter: 'address:a',
      rating: 'down',
    });
    // An answer issued before latency was recorded has none.
    await test.engine.db.query('UPDATE certificates SET latency_ms = NULL WHERE id = $1', [second!.id]);
    await test.engine.db.query('UPDATE certificates SET latency_ms = $2 WHERE id = $1', [first!.id, 1234]);

    const report = await usageReport(test.engine.db, {
      workspaceId: 'wsp_default',
      collection: 'hukum',
      days: 7,
    });
    const latencies = (
      await test.engine.db.query<{ latency_ms: number }>(
        'SELECT latency_ms FROM certificates WHERE id = ANY($1) AND latency_ms IS NOT NULL',
        [hukum().map((entry) => entry.id)],
      )
    ).rows.map((row) => row.latency_ms);
    expect(latencies).toContain(1234);

    expect(report.period.days).toBe(7);
    expect(report.days).toHaveLength(7);
    expect(report.days.at(-1)!.date).toBe(dateIn(new Date(), 'UTC'));
    const refused = UNANSWERABLE.length;
    const questions = ANSWERABLE.length + UNANSWERABLE.length;
    expect(report.totals).toEqual({
      questions,
      answered: ANSWERABLE.length,
      refused,
      refusal_rate: refused / questions,
      with_feedback: 3,
      feedback_rate: 3 / questions,
      up: 2,
      down: 2,
      latency: {
        measured: latencies.length,
        p50_ms: percentile(latencies, 0.5),
        p95_ms: percentile(latencies, 0.95),
        mean_ms: Math.round(latencies.reduce((sum, value) => sum + value, 0) / latencies.length),
      },
    });
    // Every question was asked today; the earlier days are zeros.
    expect(report.days.at(-1)).toMatchObject({ questions, refused, up: 2, down: 2 });
    for (const day of report.days.slice(0, -1))
      expect(day).toMatchObject({ questions: 0, refusal_rate: null, latency: { measured: 0, p50_ms: null } });
  });

  it('list the refused questions asked most often, one row per question however it was written', async () => {
    const report = await usageReport(test.engine.db, {
      workspaceId: 'wsp_default',
      collection: 'hukum',
      days: 7,
    });
    expect(report.top_refused.map(({ question, count }) => ({ question, count }))).toEqual([
      // The newest wording stands for the question (as the issuer normalized it: its ends trimmed).
      { question: 'berapa harga tiket pesawat ke   BALI', count: 2 },
      { question: 'Siapa juara piala dunia sepak bola?', count: 1 },
    ]);
    const limited = await usageReport(test.engine.db, {
      workspaceId: 'wsp_default',
      collection: 'hukum',
      days: 7,
      topRefused: 1,
    });
    expect(limited.top_refused).toHaveLength(1);
  });

  it('cover one collection or every collection of the workspace, and nothing of another workspace', async () => {
    const all = await usageReport(test.engine.db, { workspaceId: 'wsp_default', days: 7 });
    expect(all.collection).toBeNull();
    expect(all.totals.questions).toBe(asked.length);
    const kantor = await usageReport(test.engine.db, {
      workspaceId: 'wsp_default',
      collection: 'kantor',
      days: 7,
    });
    expect(kantor.totals.questions).toBe(1);
    const elsewhere = await usageReport(test.engine.db, { workspaceId: 'wsp_nobody', days: 7 });
    expect(elsewhere.totals.questions).toBe(0);
    let code = '';
    try {
      await usageReport(test.engine.db, { workspaceId: 'wsp_default', collection: 'nope', days: 7 });
    } catch (error) {
      code = isEngineError(error) ? error.code : String(error);
    }
    expect(code).toBe('NOT_FOUND');
  });

  it('put a question on the day it was asked in the time zone asked for, and leave out older ones', async () => {
    const [moved, old] = hukum().slice(-2);
    // 00:30 today in Jakarta is 17:30 of the day before in UTC. In the first half hour of Jakarta's
    // day (17:00–17:30 UTC) that is still to come, and would be the newest question: then halfway
    // between Jakarta's midnight and now, which is earlier today in Jakarta and the day before in UTC.
    await test.engine.db.query(
      `UPDATE certificates SET issued_at = midnight + LEAST(interval '30 minutes', (now() - midnight) / 2)
         FROM (SELECT ((now() AT TIME ZONE 'Asia/Jakarta')::date::timestamp AT TIME ZONE 'Asia/Jakarta') AS midnight) AS day
        WHERE id = $1`,
      [moved!.id],
    );
    await test.engine.db.query(
      `UPDATE certificates SET issued_at = now() - interval '10 days' WHERE id = $1`,
      [old!.id],
    );
    const instant = (
      await test.engine.db.query<{ issued_at: Date | string }>(
        'SELECT issued_at FROM certificates WHERE id = $1',
        [moved!.id],
      )
    ).rows[0]!.issued_at;
    const jakarta = await usageReport(test.engine.db, {
      workspaceId: 'wsp_default',
      collection: 'hukum',
      days: 7,
      timeZone: 'Asia/Jakarta',
    });
    const utc = await usageReport(test.engine.db, {
      workspaceId: 'wsp_default',
      collection: 'hukum',
      days: 7,
    });
    const onDay = (report: typeof utc, date: string) =>
      report.days.find((day) => day.date === date)?.questions;
    const jakartaDay = dateIn(new Date(instant), 'Asia/Jakarta');
    const utcDay = dateIn(new Date(instant), 'UTC');
    expect(jakartaDay).not.toBe(utcDay);
    expect(jakarta.days.at(-1)!.date).toBe(dateIn(new Date(), 'Asia/Jakarta'));
    expect(onDay(jakarta, jakartaDay)).toBeGreaterThanOrEqual(1);
    expect(onDay(utc, utcDay)).toBeGreaterThanOrEqual(1);
    const total = ANSWERABLE.length + UNANSWERABLE.length;
    expect(jakarta.totals.questions).toBe(total - 1);
    expect(utc.totals.questions).toBe(total - 1);
    const longer = await usageReport(test.engine.db, {
      workspaceId: 'wsp_default',
      collection: 'hukum',
      days: 30,
    });
    expect(longer.totals.questions).toBe(total);
    expect(longer.days).toHaveLength(30);
  });

  it('refuse a period or time zone out of bounds as INVALID_INPUT', async () => {
    for (const options of [{ days: 0 }, { days: 400 }, { days: 7, timeZone: 'Mars/Olympus' }]) {
      let code = '';
      try {
        await usageReport(test.engine.db, { workspaceId: 'wsp_default', ...options });
      } catch (error) {
        code = isEngineError(error) ? error.code : String(error);
      }
      expect(code).toBe('INVALID_INPUT');
    }
  });

  it('export as CSV: a row per day and the total; refused questions quoted and inert in spreadsheets', async () => {
    const report = await usageReport(test.engine.db, {
      workspaceId: 'wsp_default',
      collection: 'hukum',
      days: 7,
    });
    const lines = usageDaysCsv(report).split('\r\n');
    expect(lines[0]).toBe(
      'date,questions,answered,refused,refusal_rate,with_feedback,feedback_rate,thumbs_up,thumbs_down,latency_measured,latency_p50_ms,latency_p95_ms,latency_mean_ms',
    );
    expect(lines).toHaveLength(1 + 7 + 1 + 1);
    expect(lines.at(-2)!.startsWith(`total,${report.totals.questions},`)).toBe(true);
    // The lowercase wording was moved to earlier today above: the first wording is now the newest.
    expect(refusedQuestionsCsv(report).split('\r\n')[1]).toMatch(
      /^Berapa harga tiket pesawat ke Bali\?,2,\d{4}-/,
    );
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField(-3)).toBe('-3');
  });

  it('count a question answered from the answer cache as a question, with its own latency, not as feedback', async () => {
    const before = await usageReport(test.engine.db, {
      workspaceId: 'wsp_default',
      collection: 'hukum',
      days: 7,
    });
    const again = await test.engine.ask('hukum', { question: ANSWERABLE[0]! });
    expect(again.cached).toBe(true);
    const after = await usageReport(test.engine.db, {
      workspaceId: 'wsp_default',
      collection: 'hukum',
      days: 7,
    });
    expect(after.totals.questions).toBe(before.totals.questions + 1);
    expect(after.totals.answered).toBe(before.totals.answered + 1);
    expect(after.totals.refused).toBe(before.totals.refused);
    expect(after.totals.with_feedback).toBe(before.totals.with_feedback);
    expect(after.totals.latency.measured).toBe(before.totals.latency.measured + 1);
  });
});
