/**
 * Feedback on answers (docs/api.md, "Feedback"): stored with the certificate of a real answer, one per
 * submitter (a later one replaces it), refused for an unknown certificate or a comment out of bounds,
 * and deleted with its certificate.
 */
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngineError } from './errors.js';
import { MAX_FEEDBACK_COMMENT, submitFeedback } from './feedback.js';

const LAW = `# UU Contoh

Pasal 106

(8) Setiap orang yang mengemudikan Sepeda Motor dan Penumpang Sepeda Motor wajib menggunakan helm yang memenuhi standar nasional Indonesia.
`;

let test: TestEngine;
let certificateId: string;

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
  await test.engine.ingest('hukum', { bytes: utf8Encode(LAW), filename: 'uu-contoh.md' });
  const answer = await test.engine.ask('hukum', { question: 'Naik motor wajib pakai helm?' });
  certificateId = answer.bundle.certificate.certificate_id;
}, 120_000);

afterAll(async () => {
  await test?.close();
});

async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return '';
  } catch (error) {
    return isEngineError(error) ? error.code : String(error);
  }
}

async function rows() {
  const result = await test.engine.db.query<{ submitter: string; rating: string; comment: string | null }>(
    'SELECT submitter, rating, comment FROM answer_feedback WHERE certificate_id = $1 ORDER BY submitter',
    [certificateId],
  );
  return result.rows;
}

describe('feedback', () => {
  it('is stored with the certificate, one per submitter; a later one replaces it', async () => {
    const first = await submitFeedback(test.engine.db, {
      certificateId,
      submitter: 'address:a',
      rating: 'down',
      comment: '  Kurang jelas.  ',
    });
    expect(first).toMatchObject({ certificate_id: certificateId, rating: 'down', comment: 'Kurang jelas.' });
    expect(first.replaced).toBe(false);
    await submitFeedback(test.engine.db, { certificateId, submitter: 'key:k1', rating: 'up' });
    const again = await submitFeedback(test.engine.db, {
      certificateId,
      submitter: 'address:a',
      rating: 'up',
      comment: '',
    });
    expect(again.replaced).toBe(true);
    expect(again.created_at).toBe(first.created_at);
    expect(Date.parse(again.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
    expect(await rows()).toEqual([
      { submitter: 'address:a', rating: 'up', comment: null },
      { submitter: 'key:k1', rating: 'up', comment: null },
    ]);
  });

  it('refuses an unknown certificate, a bad rating and a comment over the limit, storing nothing', async () => {
    const before = await rows();
    expect(
      await errorCode(
        submitFeedback(test.engine.db, {
          certificateId: '01a2002d-0000-7000-8000-000000000000',
          submitter: 'address:a',
          rating: 'up',
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await errorCode(
        submitFeedback(test.engine.db, {
          certificateId,
          submitter: 'address:b',
          rating: 'sideways' as 'up',
        }),
      ),
    ).toBe('INVALID_INPUT');
    expect(
      await errorCode(
        submitFeedback(test.engine.db, {
          certificateId,
          submitter: 'address:b',
          rating: 'down',
          comment: 'x'.repeat(MAX_FEEDBACK_COMMENT + 1),
        }),
      ),
    ).toBe('INVALID_INPUT');
    expect(await rows()).toEqual(before);
    const longest = await submitFeedback(test.engine.db, {
      certificateId,
      submitter: 'address:b',
      rating: 'down',
      comment: 'x'.repeat(MAX_FEEDBACK_COMMENT),
    });
    expect(longest.comment).toHaveLength(MAX_FEEDBACK_COMMENT);
  });

  it('is deleted with its certificate', async () => {
    const other = await test.engine.ask('hukum', {
      question: 'Apakah penumpang sepeda motor wajib memakai helm?',
    });
    const id = other.bundle.certificate.certificate_id;
    await submitFeedback(test.engine.db, { certificateId: id, submitter: 'address:c', rating: 'up' });
    await test.engine.db.query('DELETE FROM certificates WHERE id = $1', [id]);
    const left = await test.engine.db.query('SELECT 1 FROM answer_feedback WHERE certificate_id = $1', [id]);
    expect(left.rows).toEqual([]);
  });
});
