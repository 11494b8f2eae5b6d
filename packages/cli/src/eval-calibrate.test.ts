import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gateFailures } from '@saksi/engine/eval';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';
import { GATE_TOLERANCE, gateMetricDirection } from './eval.js';

let directory: string;

async function run(argv: string[]) {
  return runCli(argv, { cwd: directory, env: { NO_COLOR: '1' } });
}

/**
 * A report of `set` as `saksi eval all` writes it: `count` questions whose `relevance` feature says
 * whether the answer holds its phrase (every third is wrong), and one refused question without
 * features.
 */
function report(set: string, collection: string, count: number, features = true) {
  const questions = Array.from({ length: count }, (_, index) => {
    const wrong = index % 3 === 0;
    return {
      id: `${set}-${index}`,
      answerable: true,
      outcome: 'answered',
      refused: false,
      check_score: wrong ? 0.3 : 0.8,
      ...(features
        ? { features: { relevance: wrong ? 0.1 + index / 1000 : 0.8 + index / 1000, quoted: 1 } }
        : {}),
      supported: 1,
      must_mention: [{ phrase: 'x', found: !wrong }],
      answer: '…',
    };
  });
  questions.push({
    id: `${set}-refused`,
    answerable: true,
    outcome: 'refused',
    refused: true,
    check_score: 0,
    supported: 0,
    must_mention: [{ phrase: 'x', found: false }],
    answer: '',
  });
  return { set, collection, retrieval: [], answers: { set, collection, questions } };
}

async function writeReports(folder: string, reports: ReturnType<typeof report>[]) {
  await mkdir(folder, { recursive: true });
  for (const item of reports)
    await writeFile(path.join(folder, `${item.set}.json`), `${JSON.stringify(item, null, 2)}\n`);
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-calibrate-'));
  await writeReports(path.join(directory, 'reports'), [
    report('lalin-dev', 'lalu-lintas', 30),
    report('lalin-dev2', 'lalu-lintas', 30),
    report('apbn-dev', 'apbn', 45),
    report('redux-dev', 'docs', 45),
  ]);
  await writeReports(path.join(directory, 'old-reports'), [report('lalin-dev', 'lalu-lintas', 10, false)]);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('saksi eval calibrate', () => {
  it('writes the report, its Markdown and curve, and the model with the SHA-256 of report.json', async () => {
    const result = await run([
      'eval',
      'calibrate',
      '--reports',
      'reports',
      '--alpha',
      '0.05',
      '--out',
      'calibration',
      '--model',
      'model/answer-check-model.ts',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'Calibrated the answer check on 154 questions of lalin-dev, lalin-dev2, apbn-dev, redux-dev',
    );
    // The refused questions have no features but count in n: never released.
    expect(result.stdout).toContain('Skipped no question.');
    expect(result.stdout).toMatch(/Leave-one-collection-out: \d of 3 folds within α/);
    const json = await readFile(path.join(directory, 'calibration/report.json'), 'utf8');
    const written = JSON.parse(json);
    expect(written).toMatchObject({ method: 'answer-check', version: '1', alpha: 0.05 });
    expect(written.features).toEqual(['quoted', 'relevance']);
    expect(written.groups).toEqual(['lalu-lintas', 'apbn', 'docs']);
    expect(written.folds).toHaveLength(3);
    expect(written.skipped).toEqual({ 'without features': 0, 'with incomplete features': 0 });
    const markdown = await readFile(path.join(directory, 'calibration/report.md'), 'utf8');
    expect(markdown).toMatch(/^\| lalu-lintas \| 62 \| 62 \|/m);
    expect(markdown).toMatch(/^\| relevance \| -?\d+\.\d{6} \|$/m);
    const svg = await readFile(path.join(directory, 'calibration/risk-coverage.svg'), 'utf8');
    expect(svg.match(/<polyline /g)).toHaveLength(3);
    const model = await readFile(path.join(directory, 'model/answer-check-model.ts'), 'utf8');
    const sha256 = createHash('sha256').update(json).digest('hex');
    expect(model).toContain(`calibration_sha256: '${sha256}'`);
    expect(model).toContain("features: ['quoted', 'relevance'],");
    expect(model).toContain(`threshold: ${written.final.threshold},`);
    expect(model).toContain('alpha: 0.05,');
  });

  it('fails with exit code 2 and a clear message on bad input', async () => {
    const missing = await run(['eval', 'calibrate', '--reports', 'nowhere', '--model', 'm.ts']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: No reports directory .*nowhere\./);
    const old = await run([
      'eval',
      'calibrate',
      '--reports',
      'old-reports',
      '--out',
      'c2',
      '--model',
      'm.ts',
    ]);
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(
      /No usable rows: none of the questions of lalin-dev has features \(11 questions without\)/,
    );
    const empty = await run(['eval', 'calibrate', '--reports', 'model', '--model', 'm.ts']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/No usable rows: .* holds no report of lalin-dev/);
    for (const alpha of ['0', '1', '1.5', '-0.1', 'lots', '']) {
      const bad = await run([
        'eval',
        'calibrate',
        '--reports',
        'reports',
        `--alpha=${alpha}`,
        '--model',
        'm.ts',
      ]);
      expect(bad.code, alpha).toBe(2);
      expect(bad.stderr, alpha).toMatch(/--alpha must be a number between 0 and 1/);
    }
    expect(`${missing.stderr}${old.stderr}`).not.toMatch(/\n\s+at .+:\d+/);
  });

  it('calibrates a collection only from a readable, valid question file, before opening anything', async () => {
    const noSet = await run(['eval', 'calibrate', '--collection', 'towns']);
    expect(noSet.code).toBe(2);
    expect(noSet.stderr).toMatch(/--collection needs --set <questions\.jsonl>/);
    const unreadable = await run(['eval', 'calibrate', '--collection', 'towns', '--set', 'nowhere.jsonl']);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/cannot read nowhere\.jsonl/);
    await writeFile(path.join(directory, 'few.jsonl'), '{"question": "Who?", "answerable": false}\n');
    const few = await run(['eval', 'calibrate', '--collection', 'towns', '--set', 'few.jsonl']);
    expect(few.code).toBe(2);
    expect(few.stderr).toMatch(/few\.jsonl: A calibration needs at least 30 questions \(got 1\)/);
    expect(`${noSet.stderr}${unreadable.stderr}${few.stderr}`).not.toMatch(/\n\s+at .+:\d+/);
  });

  it('documents calibrate in the help text', async () => {
    const help = await run(['eval', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(
      /calibrate \[--reports eval\/reports\] \[--alpha 0\.05\] \[--out eval\/calibration\]/,
    );
    expect(help.stdout).toContain('risk-coverage.svg');
    expect(help.stdout).toMatch(/calibrate --collection C --set F \[--alpha A\]/);
  });
});

describe('saksi eval --kind', () => {
  it('asks for --kind when the set name does not say it, and rejects an unknown kind', async () => {
    await writeFile(path.join(directory, 'my-questions.jsonl'), '{"question":"what is a store"}\n');
    const unplaced = await run(['eval', 'answers', '--set', 'my-questions.jsonl', '--collection', 'docs']);
    expect(unplaced.code).toBe(2);
    expect(unplaced.stderr).toMatch(
      /cannot tell the kind of the set "my-questions" .*pass --kind legal\|budget\|docs\|selection/,
    );
    const bogus = await run([
      'eval',
      'retrieval',
      '--set',
      'my-questions.jsonl',
      '--collection',
      'docs',
      '--kind',
      'poems',
    ]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/--kind must be one of legal, budget, docs, selection/);
  });
});

describe('the gate on false assurance', () => {
  it('reads false assurance as lower-is-better and every other figure as higher-is-better', () => {
    expect(gateMetricDirection('lalin-dev false_assurance')).toBe('lower');
    expect(gateMetricDirection('lalin-dev citation_precision')).toBe('higher');
    expect(gateMetricDirection('lalin-dev answered')).toBe('higher');
    expect(gateMetricDirection('lalin-dev')).toBe('higher');
  });

  it('fails a rise of false assurance beyond the tolerance, and skips it when the baseline lacks it', () => {
    const baseline = { 'lalin-dev': 0.9, 'lalin-dev false_assurance': 0.1, 'lalin-dev answered': 0.9 };
    const failures = (current: Record<string, number>, floors: Record<string, number> = baseline) =>
      gateFailures(floors, current, GATE_TOLERANCE, gateMetricDirection).map((failure) => failure.set);
    expect(
      failures({ 'lalin-dev': 0.9, 'lalin-dev false_assurance': 0.15, 'lalin-dev answered': 0.9 }),
    ).toEqual(['lalin-dev false_assurance']);
    expect(
      failures({ 'lalin-dev': 0.9, 'lalin-dev false_assurance': 0.05, 'lalin-dev answered': 0.9 }),
    ).toEqual([]);
    expect(
      failures({ 'lalin-dev': 0.9, 'lalin-dev false_assurance': 0.1, 'lalin-dev answered': 0.85 }),
    ).toEqual(['lalin-dev answered']);
    // An older baseline without false assurance: the new figure is not a failure.
    expect(failures({ 'lalin-dev': 0.9, 'lalin-dev false_assurance': 0.6 }, { 'lalin-dev': 0.9 })).toEqual(
      [],
    );
  });
});
