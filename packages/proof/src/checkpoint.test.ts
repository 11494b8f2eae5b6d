import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectCode } from '../test/codes.js';
import { fromBase64, toBase64, utf8Encode } from './bytes.js';
import {
  type Checkpoint,
  formatCheckpoint,
  parseCheckpoint,
  signCheckpoint,
  verifyCheckpoint,
} from './checkpoint.js';
import { generateKeyPair, getPublicKey } from './ed25519.js';
import { sha256 } from './hash.js';
import { createNoteSigner, createNoteVerifier, formatVerifierKey, NOTE_MAX_BYTES, signNote } from './note.js';

// The example checkpoint text of C2SP tlog-checkpoint.md.
const ORIGIN = 'example.com/behind-the-sofa';
const ROOT_BASE64 = 'CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=';
const SPEC_TEXT = `${ORIGIN}\n20852163\n${ROOT_BASE64}\n`;

// Golden log key and signature, computed independently with Python `cryptography` (Ed25519) and
// hashlib: secret key = SHA-256("saksi test log"), key ID = SHA-256(origin ‖ 0x0A ‖ 0x01 ‖ pk)[:4].
const LOG_SECRET = sha256(utf8Encode('saksi test log'));
const LOG_VKEY = 'example.com/behind-the-sofa+b2e7a2b5+AW/jjPUu6ZashvnkTR8a/O0sLDSRb7lZJXFhzIY62pfc';
const LOG_LINE =
  '— example.com/behind-the-sofa sueitR8mNvQkf3w7I6cqgiGxF0tchI9cgH1Kmw6bvR+1M6XlfJ1vtCMeJvOOzZ5q8LTUZqGTk9UF+mfgiMqxIDRjegY=';

const logSigner = createNoteSigner(ORIGIN, LOG_SECRET);
const logVerifier = createNoteVerifier(LOG_VKEY);
const specCheckpoint: Checkpoint = {
  origin: ORIGIN,
  size: 20852163,
  rootHash: fromBase64(ROOT_BASE64),
  extensions: [],
};

describe('formatCheckpoint / parseCheckpoint', () => {
  it('parses and re-formats the C2SP example', () => {
    const checkpoint = parseCheckpoint(SPEC_TEXT);
    expect(checkpoint).toEqual(specCheckpoint);
    expect(formatCheckpoint(checkpoint)).toBe(SPEC_TEXT);
  });

  it('keeps extension lines in order', () => {
    const checkpoint = { ...specCheckpoint, extensions: ['ext one', 'ext—two'] };
    const text = formatCheckpoint(checkpoint);
    expect(text).toBe(`${SPEC_TEXT}ext one\next—two\n`);
    expect(parseCheckpoint(text)).toEqual(checkpoint);
  });

  it('accepts the empty tree and the largest safe size', () => {
    for (const size of [0, 1, Number.MAX_SAFE_INTEGER]) {
      const text = formatCheckpoint({ ...specCheckpoint, size });
      expect(parseCheckpoint(text).size).toBe(size);
    }
  });

  it('rejects malformed checkpoint texts with CHECKPOINT_MALFORMED', () => {
    const root = ROOT_BASE64;
    const bad = [
      `${ORIGIN}\n20852163\n${root}`, // no final newline
      `${ORIGIN}\n20852163\n`, // two lines
      `\n20852163\n${root}\n`, // empty origin
      `${ORIGIN}\n020852163\n${root}\n`, // leading zero
      `${ORIGIN}\n00\n${root}\n`,
      `${ORIGIN}\n-1\n${root}\n`,
      `${ORIGIN}\n+1\n${root}\n`,
      `${ORIGIN}\n 1\n${root}\n`,
      `${ORIGIN}\n1.0\n${root}\n`,
      `${ORIGIN}\n1e3\n${root}\n`,
      `${ORIGIN}\n0x10\n${root}\n`,
      `${ORIGIN}\n9007199254740992\n${root}\n`, // 2^53
      `${ORIGIN}\n99999999999999999999\n${root}\n`,
      `${ORIGIN}\n\n${root}\n`,
      `${ORIGIN}\n1\n${toBase64(new Uint8Array(31))}\n`,
      `${ORIGIN}\n1\n${toBase64(new Uint8Array(33))}\n`,
      `${ORIGIN}\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2J=\n`, // non-canonical padding bits
      `${ORIGIN}\n1\nCsUYapGGPo4dkMgIAUqom_Xajj7h2fB2MPA3j2jxq2I=\n`, // base64url
      `${ORIGIN}\n1\n${root}\n\n`, // empty extension line
      `${ORIGIN}\r\n1\n${root}\n`, // CR
      `${ORIGIN}\n1\n${root}\ntab\there\n`,
      `\ud800\n1\n${root}\n`,
      '',
      'x'.repeat(NOTE_MAX_BYTES + 1),
    ];
    for (const text of bad) expectCode(() => parseCheckpoint(text), 'CHECKPOINT_MALFORMED');
    expectCode(() => parseCheckpoint(42 as unknown as string), 'CHECKPOINT_MALFORMED');
  });

  it('refuses to format an unrepresentable checkpoint', () => {
    const bad: unknown[] = [
      { ...specCheckpoint, origin: '' },
      { ...specCheckpoint, origin: 'a\nb' },
      { ...specCheckpoint, origin: 'a\u0000b' },
      { ...specCheckpoint, size: -1 },
      { ...specCheckpoint, size: 1.5 },
      { ...specCheckpoint, size: 2 ** 53 },
      { ...specCheckpoint, size: Number.NaN },
      { ...specCheckpoint, rootHash: new Uint8Array(31) },
      { ...specCheckpoint, rootHash: 'root' },
      { ...specCheckpoint, extensions: [''] },
      { ...specCheckpoint, extensions: ['a\nb'] },
      { ...specCheckpoint, extensions: 'ext' },
      null,
    ];
    for (const checkpoint of bad)
      expectCode(() => formatCheckpoint(checkpoint as Checkpoint), 'CHECKPOINT_MALFORMED');
  });

  it('round-trips any representable checkpoint (property)', () => {
    const line = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !/[\u0000-\u001f]/.test(s));
    fc.assert(
      fc.property(
        line,
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.array(line, { maxLength: 3 }),
        (origin, size, rootHash, extensions) => {
          const checkpoint = { origin, size, rootHash, extensions };
          expect(parseCheckpoint(formatCheckpoint(checkpoint))).toEqual(checkpoint);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('signCheckpoint / verifyCheckpoint', () => {
  it('matches the independently computed golden signature', () => {
    expect(formatVerifierKey(ORIGIN, getPublicKey(LOG_SECRET))).toBe(LOG_VKEY);
    expect(signCheckpoint(specCheckpoint, logSigner)).toBe(`${SPEC_TEXT}\n${LOG_LINE}\n`);
  });

  it('verifies a signed checkpoint and returns its text', () => {
    const result = verifyCheckpoint(`${SPEC_TEXT}\n${LOG_LINE}\n`, logVerifier);
    expect(result).toEqual({ ok: true, checkpoint: specCheckpoint, text: SPEC_TEXT });
  });

  it('ignores signatures of other keys (witnesses, rotated keys)', () => {
    const other = createNoteSigner('witness.example/w1', generateKeyPair().secretKey);
    const note = signNote(SPEC_TEXT, [other, logSigner]);
    expect(verifyCheckpoint(note, logVerifier).ok).toBe(true);
  });

  it('fails with SIGNATURE_INVALID for a tampered size, root or extension', () => {
    const note = `${SPEC_TEXT}\n${LOG_LINE}\n`;
    const tampered = [
      note.replace('20852163', '20852164'),
      note.replace('CsUY', 'DsUY'),
      note.replace(`${ROOT_BASE64}\n`, `${ROOT_BASE64}\nextension\n`),
    ];
    for (const t of tampered)
      expect(verifyCheckpoint(t, logVerifier)).toEqual({ ok: false, reason: 'SIGNATURE_INVALID' });
  });

  it('fails with SIGNATURE_INVALID when one of two lines of the log key fails', () => {
    const signature = LOG_LINE.split(' ')[2]!;
    const broken = signature.slice(0, 20) + (signature[20] === 'A' ? 'B' : 'A') + signature.slice(21);
    const note = `${SPEC_TEXT}\n${LOG_LINE}\n— ${ORIGIN} ${broken}\n`;
    expect(verifyCheckpoint(note, logVerifier)).toEqual({ ok: false, reason: 'SIGNATURE_INVALID' });
  });

  it('fails with UNKNOWN_KEY when only another key signed', () => {
    const impostor = createNoteSigner(ORIGIN, generateKeyPair().secretKey); // same name, other key ID
    expect(verifyCheckpoint(signCheckpoint(specCheckpoint, impostor), logVerifier)).toEqual({
      ok: false,
      reason: 'UNKNOWN_KEY',
    });
  });

  it('fails with ORIGIN_MISMATCH when the log key is not named after the origin', () => {
    const { secretKey, publicKey } = generateKeyPair();
    const signer = createNoteSigner('other.example/log', secretKey);
    const note = signNote(SPEC_TEXT, [signer]);
    const verifier = createNoteVerifier(formatVerifierKey('other.example/log', publicKey));
    expect(verifyCheckpoint(note, verifier)).toEqual({ ok: false, reason: 'ORIGIN_MISMATCH' });
    expectCode(() => signCheckpoint(specCheckpoint, signer), 'CHECKPOINT_MALFORMED');
  });

  it('fails with MALFORMED for malformed notes and checkpoint texts', () => {
    const bad = [
      SPEC_TEXT,
      `${SPEC_TEXT}\n${LOG_LINE}`,
      `${ORIGIN}\n1\n\n${LOG_LINE}\n`,
      `${ORIGIN}\n020852163\n${ROOT_BASE64}\n\n${LOG_LINE}\n`,
      `${SPEC_TEXT}\n${LOG_LINE}\n`.repeat(2),
      `${SPEC_TEXT}\n${`${LOG_LINE}\n`.repeat(101)}`,
      'x'.repeat(2 * NOTE_MAX_BYTES),
    ];
    for (const note of bad)
      expect(verifyCheckpoint(note, logVerifier)).toEqual({ ok: false, reason: 'MALFORMED' });
    expect(verifyCheckpoint(42 as unknown as string, logVerifier)).toEqual({
      ok: false,
      reason: 'MALFORMED',
    });
  });

  it('never throws, whatever the note or verifier (property)', () => {
    const note = `${SPEC_TEXT}\n${LOG_LINE}\n`;
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.nat(note.length), (junk, at) => {
        for (const input of [junk, note.slice(0, at) + junk + note.slice(at)]) {
          const result = verifyCheckpoint(input, logVerifier);
          expect(typeof result.ok).toBe('boolean');
        }
      }),
      { numRuns: 200 },
    );
    for (const verifier of [null, undefined, {}, { name: ORIGIN }, 'vkey']) {
      expect(verifyCheckpoint(note, verifier as never).ok).toBe(false);
    }
  });
});
