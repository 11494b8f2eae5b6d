/**
 * Chat sessions are bounded (docs/api.md, "Sessions"): one with no question for its time-to-live has
 * ended (continuing or reading it is NOT_FOUND) and the job worker deletes it with its messages but not
 * its certificates; a session keeps only its newest turns; a prompt's conversation is cut to size;
 * the certificates of one session share nothing that links them, but its id tells they belong to it.
 */
import { type Bundle, matchSessionReference, utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskResult } from './answer/ask.js';
import { isEngineError } from './errors.js';
import {
  boundedConversation,
  conversationOf,
  deleteEndedSessions,
  getChatSession,
  MAX_CONVERSATION_CHARS,
  MAX_TURN_CHARS,
} from './sessions.js';

const LAW = `# UU Contoh

Pasal 106

(8) Setiap orang yang mengemudikan Sepeda Motor dan Penumpang Sepeda Motor wajib menggunakan helm yang memenuhi standar nasional Indonesia.

Pasal 291

(1) Setiap orang yang mengemudikan Sepeda Motor tidak menggunakan helm standar nasional Indonesia dipidana dengan pidana kurungan paling lama 1 (satu) bulan atau denda paling banyak Rp250.000,00 (dua ratus lima puluh ribu rupiah).
`;

const DAY = 24 * 3600;

let test: TestEngine;

beforeAll(async () => {
  test = await openTestEngine({
    env: { SAKSI_SESSION_TTL: String(2 * DAY), SAKSI_SESSION_MAX_TURNS: '2', SAKSI_ANCHOR: 'none' },
  });
  await test.engine.ingest('hukum', { bytes: utf8Encode(LAW), filename: 'uu-contoh.md' });
}, 120_000);

afterAll(async () => {
  await test?.close();
});

async function codeAndMessage(promise: Promise<unknown>): Promise<[string, string]> {
  try {
    await promise;
    return ['', ''];
  } catch (error) {
    return isEngineError(error) ? [error.code, error.message] : [String(error), ''];
  }
}

/** Moves a session's last question `days` into the past. */
async function age(sessionId: string, days: number): Promise<void> {
  await test.engine.db.query(
    `UPDATE chat_sessions SET updated_at = now() - make_interval(days => $2) WHERE id = $1`,
    [sessionId, days],
  );
}

async function count(sql: string, params: unknown[]): Promise<number> {
  return (await test.engine.db.query<{ n: number }>(sql, params)).rows[0]!.n;
}

describe('chat sessions', () => {
  it('end after their time-to-live without a question: continuing or reading one is NOT_FOUND, saying why', async () => {
    const first = await test.engine.ask('hukum', { question: 'Naik motor wajib pakai helm?' });
    await age(first.session_id, 1);
    // A day old: still open, and a new question renews it.
    const again = await test.engine.ask('hukum', {
      question: 'Dendanya berapa?',
      session_id: first.session_id,
    });
    expect(again.session_id).toBe(first.session_id);
    await age(first.session_id, 3);
    const [code, message] = await codeAndMessage(
      test.engine.ask('hukum', { question: 'Kalau tidak pakai helm?', session_id: first.session_id }),
    );
    expect(code).toBe('NOT_FOUND');
    expect(message).toMatch(/has ended: no question was asked in it for 2 days/);
    const [readCode] = await codeAndMessage(
      getChatSession(test.engine.db, first.session_id, test.engine.config.sessions),
    );
    expect(readCode).toBe('NOT_FOUND');
    // A time-to-live of 0: sessions never end.
    expect((await getChatSession(test.engine.db, first.session_id, { ttlSeconds: 0 })).messages).toHaveLength(
      4,
    );
  });

  it('keep only their newest turns (SAKSI_SESSION_MAX_TURNS)', async () => {
    const questions = ['Naik motor wajib pakai helm?', 'Dendanya berapa?', 'Kurungannya berapa lama?'];
    let sessionId: string | undefined;
    for (const question of questions) {
      sessionId = (
        await test.engine.ask('hukum', { question, ...(sessionId ? { session_id: sessionId } : {}) })
      ).session_id;
    }
    const session = await getChatSession(test.engine.db, sessionId!, test.engine.config.sessions);
    expect(
      session.messages.map((message) => [message.role, message.role === 'user' ? message.content : '']),
    ).toEqual([
      ['user', 'Dendanya berapa?'],
      ['assistant', ''],
      ['user', 'Kurungannya berapa lama?'],
      ['assistant', ''],
    ]);
    expect(session.messages.every((message) => message.role === 'user' || message.certificate_id)).toBe(true);
    // The conversation a model would see, oldest first.
    expect((await conversationOf(test.engine.db, sessionId!, 5)).map((turn) => turn.question)).toEqual([
      'Dendanya berapa?',
      'Kurungannya berapa lama?',
    ]);
  });

  it('are deleted with their messages once ended, by the job worker; their certificates stay', async () => {
    const ended = await test.engine.ask('hukum', { question: 'Helm wajib SNI?' });
    const open = await test.engine.ask('hukum', { question: 'Helm untuk penumpang?' });
    await age(ended.session_id, 5);
    const certificate = ended.bundle.certificate.certificate_id;
    const worker = test.engine.workers.start({ pollMs: 20 });
    try {
      const deadline = Date.now() + 10_000;
      while (
        (await count('SELECT count(*)::integer AS n FROM chat_sessions WHERE id = $1', [ended.session_id])) >
        0
      ) {
        if (Date.now() > deadline) throw new Error('the worker did not delete the ended session');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await test.engine.workers.stop();
    }
    expect(worker).toBeDefined();
    expect(
      await count('SELECT count(*)::integer AS n FROM chat_messages WHERE session_id = $1', [
        ended.session_id,
      ]),
    ).toBe(0);
    expect(await count('SELECT count(*)::integer AS n FROM certificates WHERE id = $1', [certificate])).toBe(
      1,
    );
    expect(
      await count('SELECT count(*)::integer AS n FROM chat_sessions WHERE id = $1', [open.session_id]),
    ).toBe(1);
    // Nothing is left to delete; a time-to-live of 0 deletes nothing.
    expect(await deleteEndedSessions(test.engine.db, 2 * DAY)).toBe(0);
    await age(open.session_id, 400);
    expect(await deleteEndedSessions(test.engine.db, 0)).toBe(0);
  });
});

/** Every value in a bundle's certificate and chunks, as JSON, so that strings and numbers compare. */
function publicValues(bundle: Bundle): Set<string> {
  const values = new Set<string>();
  const walk = (value: unknown, key: string) => {
    // Time is not the session's: answers asked in the same second share it whoever asked them.
    if (key === 'issued_at') return;
    if (value !== null && typeof value === 'object')
      for (const [name, item] of Object.entries(value)) walk(item, name);
    else values.add(JSON.stringify(value));
  };
  walk({ certificate: bundle.certificate, chunks: bundle.chunks }, '');
  return values;
}

/** The values every one of `bundles` holds. */
function sharedValues(bundles: readonly Bundle[]): string[] {
  const [first, ...rest] = bundles.map(publicValues);
  return [...first!].filter((value) => rest.every((values) => values.has(value)));
}

describe('the session a certificate records', () => {
  // Three personal questions about one traffic ticket, each standing on its own (not a follow-up).
  const TICKET = [
    'Berapa denda tidak memakai helm saat naik motor?',
    'Berapa lama kurungan karena tidak memakai helm standar?',
    'Apakah penumpang sepeda motor juga wajib memakai helm?',
  ];

  it('does not link the answers of one session: their public bundles share nothing answers of different sessions do not', async () => {
    const inSession: AskResult[] = [];
    for (const question of TICKET) {
      const previous = inSession.at(-1)?.session_id;
      inSession.push(
        await test.engine.ask('hukum', { question, ...(previous ? { session_id: previous } : {}) }),
      );
    }
    const sessionId = inSession[0]!.session_id;
    expect(inSession.map((answer) => answer.session_id)).toEqual([sessionId, sessionId, sessionId]);
    // The same questions, each in a session of its own, answered afresh.
    await test.engine.db.query('DELETE FROM answer_cache');
    const apart: AskResult[] = [];
    for (const question of TICKET) apart.push(await test.engine.ask('hukum', { question }));
    expect(new Set(apart.map((answer) => answer.session_id)).size).toBe(3);

    const bundles = inSession.map((answer) => answer.bundle);
    const references = bundles.map((bundle) => bundle.certificate.query.session_id);
    expect(references.every((reference) => typeof reference === 'string')).toBe(true);
    expect(new Set(references).size).toBe(3);
    // Nothing the three share is the session's: the questions' collection, documents, settings and
    // issuer are shared as much by three answers asked in three sessions.
    const apartShared = new Set(sharedValues(apart.map((answer) => answer.bundle)));
    expect(sharedValues(bundles).filter((value) => !apartShared.has(value))).toEqual([]);
    // The session id, which reads the conversation, is nowhere in a bundle.
    for (const bundle of bundles) expect(JSON.stringify(bundle)).not.toContain(sessionId.slice(4));
    // Its holder can still tell all three belong to it; no other session's id can.
    for (const bundle of bundles) {
      expect(matchSessionReference(bundle.certificate, sessionId)).toEqual({
        status: 'belongs',
        form: 'keyed',
      });
      expect(matchSessionReference(bundle.certificate, apart[0]!.session_id).status).toBe('other');
    }
    for (const answer of apart)
      expect(matchSessionReference(answer.bundle.certificate, sessionId).status).toBe('other');
    // A short follow-up is searched with the question before it, but its certificate does not quote
    // that question: it would tie the two answers together.
    const followUp = await test.engine.ask('hukum', {
      question: 'Kalau penumpangnya?',
      session_id: sessionId,
    });
    expect(followUp.session_id).toBe(sessionId);
    const followUpBundle = JSON.stringify(followUp.bundle);
    for (const question of TICKET) expect(followUpBundle).not.toContain(question.slice(0, -1));
    expect(matchSessionReference(followUp.bundle.certificate, sessionId).status).toBe('belongs');
  });
});

describe('boundedConversation', () => {
  it('keeps the newest turns, cuts each text and drops the oldest until the whole fits', () => {
    const long = 'x'.repeat(MAX_TURN_CHARS * 3);
    const turns = Array.from({ length: 12 }, (_, index) => ({ question: `q${index} ${long}`, answer: long }));
    const bounded = boundedConversation(turns, 10);
    expect(
      bounded.every((turn) => turn.question.length <= MAX_TURN_CHARS && turn.answer.length <= MAX_TURN_CHARS),
    ).toBe(true);
    expect(
      bounded.reduce((sum, turn) => sum + turn.question.length + turn.answer.length, 0),
    ).toBeLessThanOrEqual(MAX_CONVERSATION_CHARS);
    expect(bounded.at(-1)!.question.startsWith('q11 ')).toBe(true);
    expect(bounded.length).toBeGreaterThan(0);
    expect(boundedConversation(turns, 0)).toEqual([]);
    expect(boundedConversation([{ question: '  ', answer: 'an answer to nothing' }], 3)).toEqual([]);
  });
});
