import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionCalibrationOf, MIN_COLLECTION_POINTS, thresholdFor } from '../answer/answer-check.js';
import { ANSWER_CHECK_MODEL } from '../answer/answer-check-model.js';
import { calibrateCollection, parseCalibrationQuestions } from './collection-calibration.js';

const TOWNS = ['Ambon', 'Bandung', 'Cirebon', 'Denpasar', 'Ende', 'Garut', 'Jambi', 'Kendari'];
const SERVICES = ['library', 'clinic', 'post office', 'market'];

/** One line per question, as an admin writes them: 32 answerable, 4 the documents cannot answer. */
function calibrationFile(): string {
  const lines: string[] = [];
  for (const [t, town] of TOWNS.entries())
    for (const [s, service] of SERVICES.entries())
      lines.push(
        JSON.stringify({
          question: `When does the ${service} in ${town} open?`,
          must_mention: [`${6 + ((t + s) % 5)} o'clock`],
        }),
      );
  for (const town of TOWNS.slice(0, 4))
    lines.push(JSON.stringify({ question: `Who is the mayor of ${town}?`, answerable: false }));
  return `${lines.join('\n')}\n`;
}

describe('the questions of a calibration file', () => {
  it('are one JSON object per line, blank lines skipped', () => {
    const questions = parseCalibrationQuestions(calibrationFile());
    expect(questions).toHaveLength(36);
    expect(questions[0]).toMatchObject({
      question: 'When does the library in Ambon open?',
      answerable: true,
    });
    expect(questions.at(-1)).toMatchObject({ answerable: false, must_mention: [] });
  });

  it('name the line that is wrong, and refuse too few to set a threshold', () => {
    const good = calibrationFile().split('\n');
    const parse = (lines: string[]) => () => parseCalibrationQuestions(lines.join('\n'));
    expect(parse([good[0]!, 'not json', ...good.slice(1)])).toThrow(/line 2: not a JSON object/);
    expect(parse([good[0]!, JSON.stringify({ question: 'What is it?' }), ...good.slice(1)])).toThrow(
      /line 2: an answerable question needs "must_mention"/,
    );
    expect(parse([JSON.stringify({ question: '', must_mention: ['x'] }), ...good])).toThrow(
      /line 1: "question"/,
    );
    expect(parse([JSON.stringify({ question: 'Q?', answerable: 'yes' }), ...good])).toThrow(/"answerable"/);
    expect(parse(good.slice(0, MIN_COLLECTION_POINTS - 1))).toThrow(/at least 30 questions \(got 29\)/);
    try {
      parseCalibrationQuestions('{');
    } catch (error) {
      expect((error as { code?: string }).code).toBe('INVALID_INPUT');
    }
  });
});

describe('calibrating a collection on its own questions', () => {
  let test: TestEngine;

  beforeAll(async () => {
    test = await openTestEngine();
    const text = TOWNS.map(
      (town, t) =>
        `## ${town}\n\n${SERVICES.map((service, s) => `The ${service} in ${town} opens at ${6 + ((t + s) % 5)} o'clock every weekday.`).join(' ')}\n`,
    ).join('\n');
    await test.engine.ingest(
      'towns',
      { bytes: new TextEncoder().encode(`# Town services\n\n${text}`), filename: 'towns.md' },
      { language: 'en' },
    );
  }, 60_000);

  afterAll(async () => {
    await test?.close();
  });

  it('stores every answer’s features and loss, and releases answers at the λ chosen on them', async () => {
    const question = { question: 'When does the clinic in Garut open?' };
    const before = (await test.engine.ask('towns', question)).bundle.certificate.answer.check;
    // Nobody calibrated the collection: the model's calibration and the strictest threshold.
    expect(before?.calibration_sha256).toBe(ANSWER_CHECK_MODEL.calibration_sha256);

    const progress: number[] = [];
    const summary = await calibrateCollection(
      test.engine,
      'towns',
      parseCalibrationQuestions(calibrationFile()),
      { onProgress: (done) => progress.push(done) },
    );
    expect(progress).toHaveLength(36);
    expect(summary.questions).toBe(36);
    expect(summary.answerable).toBe(32);
    expect(summary.alpha).toBe(0.05);
    // Split-conformal risk control on its own points: (released wrong + 1) / (n + 1) ≤ α.
    expect((summary.releasedWrong + 1) / 37).toBeLessThanOrEqual(0.05);

    const collection = await test.engine.collections.get('towns');
    const stored = collectionCalibrationOf(collection.profile);
    expect(stored?.points).toHaveLength(36);
    expect(stored?.sha256).toBe(summary.sha256);
    expect(stored?.points.filter((point) => point.loss === 1).length).toBeGreaterThanOrEqual(4);
    const lambda = thresholdFor(0.05, 'towns', stored);
    expect(lambda === Number.POSITIVE_INFINITY ? 1 : lambda).toBeCloseTo(summary.threshold, 6);

    // From now on the collection's own calibration sets the threshold, and certificates name it.
    const after = (await test.engine.ask('towns', question)).bundle.certificate.answer.check;
    expect(after?.calibration_sha256).toBe(summary.sha256);
    expect(after?.threshold).toBeCloseTo(Math.min(1, Math.round(summary.threshold * 1000) / 1000), 3);
  }, 120_000);
});
