import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseNote, trustOptions, verifyBundle } from '@saksi/proof';
import {
  cosignatureLine,
  createCosigner,
  formatCosignatureVerifierKey,
  generateKeyPair,
} from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EngineErrorCode, isEngineError } from '../errors.js';
import { addCosignature, bestCheckpointFor } from './witness.js';

const compose = new Uint8Array(
  readFileSync(
    path.resolve(import.meta.dirname, '../../../../../shared/data/corpora/docs-redux/docs/api/compose.md'),
  ),
);

/** An external witness with a fixed clock, so two of its cosignatures differ only when the clock does. */
function witness(name: string, clock = () => 1_800_000_000) {
  const pair = generateKeyPair();
  return {
    vkey: formatCosignatureVerifierKey(name, pair.publicKey),
    cosigner: (time = clock) => createCosigner(name, pair.secretKey, time),
  };
}

const external = witness('witness.test/external');
const stranger = witness('witness.test/stranger');

let test: TestEngine;
const certificates: string[] = [];

beforeAll(async () => {
  test = await openTestEngine();
  await test.engine.ingest('docs', { bytes: compose, filename: 'compose.md' }, { language: 'en' });
  for (const question of ['What does compose do?', 'What does compose return?', 'Who wrote compose?']) {
    const result = await test.engine.ask('docs', { question });
    certificates.push(result.bundle.certificate.certificate_id);
  }
});

afterAll(async () => {
  await test?.close();
});

const options = () => ({
  origin: test.engine.log.origin,
  witnesses: [...(test.engine.trustedKeys().witnesses ?? []).map((entry) => entry.vkey), external.vkey],
});

async function noteText(size: number): Promise<string> {
  const row = await test.engine.db.query<{ note: string }>(
    'SELECT note FROM log_checkpoints WHERE size = $1',
    [size],
  );
  return parseNote(row.rows[0]!.note).text;
}

async function codeOf(promise: Promise<unknown>): Promise<EngineErrorCode | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (!isEngineError(error)) throw error;
    return error.code;
  }
}

describe('addCosignature', () => {
  it('stores a trusted witness cosignature once per key, replacing an older line of that key', async () => {
    const text = await noteText(2);
    const first = cosignatureLine(
      text,
      external.cosigner(() => 1_800_000_000),
    );
    const stored = await addCosignature(test.engine.db, options(), { size: 2, cosignature: first });
    expect(stored.size).toBe(2);
    expect(stored.cosignatures).toHaveLength(2); // the local witness and this one
    expect(stored.cosignatures.at(-1)).toBe(first);

    const again = await addCosignature(test.engine.db, options(), { size: 2, cosignature: first });
    expect(again.cosignatures).toEqual(stored.cosignatures);

    const later = cosignatureLine(
      text,
      external.cosigner(() => 1_800_000_060),
    );
    const replaced = await addCosignature(test.engine.db, options(), { size: 2, cosignature: later });
    expect(replaced.cosignatures).toHaveLength(2);
    expect(replaced.cosignatures).toContain(later);
    expect(replaced.cosignatures).not.toContain(first);
  });

  it('rejects unknown sizes, malformed lines, untrusted witnesses and signatures over another checkpoint', async () => {
    const db = test.engine.db;
    const text = await noteText(1);
    const good = cosignatureLine(text, external.cosigner());
    expect(await codeOf(addCosignature(db, options(), { size: 99, cosignature: good }))).toBe('NOT_FOUND');
    expect(await codeOf(addCosignature(db, options(), { size: 0, cosignature: good }))).toBe('INVALID_INPUT');
    expect(await codeOf(addCosignature(db, options(), { size: 1, cosignature: `${good}\n${good}` }))).toBe(
      'INVALID_INPUT',
    );
    expect(await codeOf(addCosignature(db, options(), { size: 1, cosignature: 'not a signature' }))).toBe(
      'COSIGNATURE_INVALID',
    );
    const untrusted = cosignatureLine(text, stranger.cosigner());
    expect(await codeOf(addCosignature(db, options(), { size: 1, cosignature: untrusted }))).toBe(
      'WITNESS_UNKNOWN',
    );
    const otherCheckpoint = cosignatureLine(await noteText(3), external.cosigner());
    expect(await codeOf(addCosignature(db, options(), { size: 1, cosignature: otherCheckpoint }))).toBe(
      'COSIGNATURE_INVALID',
    );
    const flipped = good.slice(0, -4) + (good.endsWith('AAA=') ? 'BBB=' : 'AAA=');
    expect(await codeOf(addCosignature(db, options(), { size: 1, cosignature: flipped }))).toBe(
      'COSIGNATURE_INVALID',
    );
    const rows = await db.query<{ n: number }>(
      'SELECT jsonb_array_length(cosignatures) AS n FROM log_checkpoints WHERE size = 1',
    );
    expect(rows.rows[0]!.n).toBe(1); // nothing was stored
    expect(
      isEngineError(await addCosignature(db, options(), { size: 1, cosignature: good }).catch((e) => e)),
    ).toBe(false);
  });
});

describe('bestCheckpointFor and bundles', () => {
  it('keeps the first checkpoint of an entry unless a later one has more cosignatures, then takes the latest of those', async () => {
    const db = test.engine.db;
    // Sizes 1 and 2 carry the external cosignature (tests above); size 3 does not.
    expect((await bestCheckpointFor(db, 0))?.size).toBe(1);
    expect((await bestCheckpointFor(db, 1))?.size).toBe(2);
    expect((await bestCheckpointFor(db, 2))?.size).toBe(3);
    expect(await bestCheckpointFor(db, 3)).toBeNull();
    for (const question of ['What arguments does compose take?', 'Is compose a store enhancer?']) {
      const result = await test.engine.ask('docs', { question });
      certificates.push(result.bundle.certificate.certificate_id);
    }
    expect((await bestCheckpointFor(db, 2))?.size).toBe(3); // sizes 4 and 5: no external cosignature yet
    await addCosignature(db, options(), {
      size: 4,
      cosignature: cosignatureLine(await noteText(4), external.cosigner()),
    });
    expect((await bestCheckpointFor(db, 2))?.size).toBe(4);
    await addCosignature(db, options(), {
      size: 5,
      cosignature: cosignatureLine(await noteText(5), external.cosigner()),
    });
    expect((await bestCheckpointFor(db, 2))?.size).toBe(5);
    expect((await bestCheckpointFor(db, 0))?.size).toBe(1);
  });

  it('serves bundles that carry the external cosignature and verify with two required witnesses', async () => {
    const trust = trustOptions(test.engine.trustedKeys());
    const both = { ...trust, witnesses: [...trust.witnesses!, external.vkey], requiredCosignatures: 2 };
    const withStranger = {
      ...trust,
      witnesses: [...trust.witnesses!, stranger.vkey],
      requiredCosignatures: 2,
    };
    for (const [certificate, size] of [
      [certificates[0]!, 1],
      [certificates[2]!, 5],
    ] as const) {
      const bundle = await test.engine.bundle(certificate);
      expect(parseNote(bundle.log.checkpoint).text).toBe(await noteText(size));
      expect(bundle.log.cosignatures).toHaveLength(2);
      const verified = await verifyBundle(bundle, { ...both, vocabulary: SAKSI_VOCABULARY });
      expect(verified.codes).toEqual([]);
      expect(verified.checks.find((check) => check.id === 'cosignatures')?.status).toBe('pass');
      expect((await verifyBundle(bundle, { ...withStranger, vocabulary: SAKSI_VOCABULARY })).codes).toEqual([
        'COSIGNATURES_MISSING',
      ]);
    }
    // The entry of size 3 was asked before the later checkpoints; without them it would have only the local witness.
    const plain = await test.engine.db.query<{ n: number }>(
      'SELECT jsonb_array_length(cosignatures) AS n FROM log_checkpoints WHERE size = 3',
    );
    expect(plain.rows[0]!.n).toBe(1);
  });
});
