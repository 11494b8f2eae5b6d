import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectCode } from '../test/codes.js';
import { fromBase64, toBase64, toHex, utf8Encode } from './bytes.js';
import { generateKeyPair, getPublicKey } from './ed25519.js';
import {
  createNoteSigner,
  createNoteVerifier,
  ed25519KeyId,
  formatSignerKey,
  formatVerifierKey,
  isValidNoteKeyName,
  NOTE_MAX_BYTES,
  NOTE_MAX_SIGNATURES,
  type NoteVerifier,
  noteKeyId,
  openNote,
  parseNote,
  parseSignerKey,
  parseVerifierKey,
  signNote,
} from './note.js';

// Golden vectors transcribed from golang.org/x/mod sumdb/note/note_test.go (TestNewSigner, TestSign,
// TestOpen), the reference implementation of signed notes.
const PETER_SKEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const PETER_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const ENOCH_VKEY = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';
const GO_TEXT =
  'If you think cryptography is the answer to your problem,\n' +
  "then you don't know what your problem is.\n";
const PETER_SIG =
  '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
const ENOCH_SIG =
  '— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n';

// The example note of C2SP signed-note.md (its key is not published, so only parsing is checked).
const SPEC_NOTE =
  'Ognuno sta solo sul cuor della terra\ntrafitto da un raggio di sole:\n\ned è subito sera.\n\n' +
  '— quasimodo.example/salvatore NnugSzTjtVAewIS+Z/iJhUPeFDkO/5QQ2i5ddnGITLlC+EhfLW9oJKONrMouFSQU0xMcXxj99ihAQwaqP3ZekRwNtIc=\n';

describe('keys', () => {
  it('parses the Go signer key and re-encodes the same signer and verifier keys', () => {
    const { name, secretKey, publicKey } = parseSignerKey(PETER_SKEY);
    expect(name).toBe('PeterNeumann');
    expect(publicKey).toEqual(getPublicKey(secretKey));
    expect(toHex(ed25519KeyId(name, publicKey))).toBe('c74f20a3');
    expect(formatVerifierKey(name, publicKey)).toBe(PETER_VKEY);
    expect(formatSignerKey(name, secretKey)).toBe(PETER_SKEY);
    expect(parseVerifierKey(PETER_VKEY)).toEqual({
      name,
      keyId: ed25519KeyId(name, publicKey),
      signatureType: 1,
      publicKey,
    });
  });

  it('computes key IDs as SHA-256(name ‖ 0x0A ‖ type ‖ key)[:4], separated by type', () => {
    const { publicKey } = parseSignerKey(PETER_SKEY);
    expect(noteKeyId('PeterNeumann', 0x01, publicKey)).toEqual(ed25519KeyId('PeterNeumann', publicKey));
    expect(noteKeyId('PeterNeumann', 0x04, publicKey)).not.toEqual(ed25519KeyId('PeterNeumann', publicKey));
    expect(ed25519KeyId('PeterNeumann2', publicKey)).not.toEqual(ed25519KeyId('PeterNeumann', publicKey));
  });

  it('rejects every truncation and one-byte change of a verifier key (Go TestNewVerifier)', () => {
    expect(createNoteVerifier(PETER_VKEY).name).toBe('PeterNeumann');
    const bytes = [...PETER_VKEY];
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i + 1; j <= bytes.length; j++) {
        if (i !== 0 || j !== bytes.length)
          expectCode(() => createNoteVerifier(PETER_VKEY.slice(i, j)), 'NOTE_KEY_MALFORMED');
      }
    }
    for (let i = 0; i < bytes.length; i++) {
      const mangled = [...bytes];
      mangled[i] = String.fromCharCode(mangled[i]!.charCodeAt(0) + 1);
      expectCode(() => createNoteVerifier(mangled.join('')), 'NOTE_KEY_MALFORMED');
    }
    // Wrong key length and unknown algorithm, each with a key hash adjusted to match (from Go).
    expectCode(
      () => createNoteVerifier('PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY=='),
      'NOTE_KEY_MALFORMED',
    );
    expectCode(
      () => createNoteVerifier('PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'),
      'NOTE_KEY_MALFORMED',
    );
  });

  it('rejects every one-byte change of a signer key and never echoes the secret (Go TestNewSigner)', () => {
    for (let i = 0; i < PETER_SKEY.length; i++) {
      const mangled =
        PETER_SKEY.slice(0, i) + String.fromCharCode(PETER_SKEY.charCodeAt(i) + 1) + PETER_SKEY.slice(i + 1);
      expectCode(() => parseSignerKey(mangled), 'NOTE_KEY_MALFORMED');
    }
    for (const cut of [12, 25, 34, PETER_SKEY.length - 1]) {
      expectCode(() => parseSignerKey(PETER_SKEY.slice(0, cut)), 'NOTE_KEY_MALFORMED');
      expectCode(() => parseSignerKey(PETER_SKEY.slice(cut)), 'NOTE_KEY_MALFORMED');
    }
    try {
      parseSignerKey(PETER_SKEY.replace('c74f20a3', 'c74f20a4'));
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('AYEKFALV');
    }
  });

  it('refuses a cosignature (type 0x04) key as a note verifier, and garbage key strings', () => {
    const { publicKey } = generateKeyPair();
    expectCode(() => createNoteVerifier(formatVerifierKey('w', publicKey, 0x04)), 'NOTE_KEY_MALFORMED');
    for (const bad of ['', '+', '++', 'a+b+c', `a+${'0'.repeat(8)}+`, 'x'.repeat(10_000), 42, null]) {
      expectCode(() => createNoteVerifier(bad as string), 'NOTE_KEY_MALFORMED');
      expectCode(() => parseSignerKey(bad as string), 'NOTE_KEY_MALFORMED');
    }
  });

  it('validates key names: non-empty, no Unicode spaces, no "+"', () => {
    for (const good of ['example.com/log', 'PeterNeumann', 'оракул', 'a—b'])
      expect(isValidNoteKeyName(good)).toBe(true);
    for (const bad of [
      '',
      'a b',
      'a+b',
      'a\tb',
      'a\u00a0b',
      'a\u3000b',
      'a\u2028b',
      'a\u0001b',
      '\ud800',
      7,
    ]) {
      expect(isValidNoteKeyName(bad)).toBe(false);
    }
    const { secretKey, publicKey } = generateKeyPair();
    expectCode(() => createNoteSigner('bad name', secretKey), 'NOTE_KEY_MALFORMED');
    expectCode(() => formatVerifierKey('a+b', publicKey), 'NOTE_KEY_MALFORMED');
    expectCode(() => formatVerifierKey('ok', publicKey.slice(1)), 'NOTE_KEY_MALFORMED');
    expectCode(() => createNoteSigner('ok', secretKey.slice(1)), 'KEY_INVALID');
  });
});

describe('signNote', () => {
  it('reproduces the Go signed note byte for byte (Go TestSign)', () => {
    const { name, secretKey } = parseSignerKey(PETER_SKEY);
    expect(signNote(GO_TEXT, [createNoteSigner(name, secretKey)])).toBe(`${GO_TEXT}\n${PETER_SIG}`);
  });

  it('writes one line per signer, in order', () => {
    const a = createNoteSigner('a.example', generateKeyPair().secretKey);
    const b = createNoteSigner('b.example', generateKeyPair().secretKey);
    const note = signNote('text\n', [a, b]);
    expect(parseNote(note).signatures.map((s) => s.name)).toEqual(['a.example', 'b.example']);
  });

  it('throws NOTE_MALFORMED for texts that cannot be signed and for 0 or > 100 signers', () => {
    const signer = createNoteSigner('k', generateKeyPair().secretKey);
    for (const text of ['abc', '', 'a\r\n', 'tab\there\n', 'nul\u0000\n', 'lone \ud800\n', 42]) {
      expectCode(() => signNote(text as string, [signer]), 'NOTE_MALFORMED');
    }
    expectCode(() => signNote('x\n', []), 'NOTE_MALFORMED');
    expectCode(() => signNote('x\n', new Array(NOTE_MAX_SIGNATURES + 1).fill(signer)), 'NOTE_MALFORMED');
    expectCode(() => signNote('x'.repeat(NOTE_MAX_BYTES) + '\n', [signer]), 'NOTE_MALFORMED');
  });

  it('throws NOTE_KEY_MALFORMED for a signer with a bad name or key ID', () => {
    const signer = createNoteSigner('k', generateKeyPair().secretKey);
    expectCode(() => signNote('x\n', [{ ...signer, name: 'bad name' }]), 'NOTE_KEY_MALFORMED');
    expectCode(() => signNote('x\n', [{ ...signer, keyId: new Uint8Array(3) }]), 'NOTE_KEY_MALFORMED');
  });

  it('round-trips any valid text (property)', () => {
    const { secretKey } = generateKeyPair();
    const signer = createNoteSigner('prop.example/key', secretKey);
    const verifier = createNoteVerifier(formatVerifierKey('prop.example/key', getPublicKey(secretKey)));
    const line = fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => s.replace(/[\u0000-\u001f]/g, ''));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), (lines) => {
        const text = lines.join('\n') + '\n';
        const opened = openNote(signNote(text, [signer]), [verifier]);
        expect(opened.text).toBe(text);
        expect(opened.verified.map((k) => k.name)).toEqual(['prop.example/key']);
        expect(opened.invalid).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});

describe('parseNote', () => {
  it('parses the C2SP example, splitting at the last blank line', () => {
    const { text, signatures } = parseNote(SPEC_NOTE);
    expect(text).toBe(
      'Ognuno sta solo sul cuor della terra\ntrafitto da un raggio di sole:\n\ned è subito sera.\n',
    );
    expect(signatures).toHaveLength(1);
    const [signature] = signatures;
    expect(signature?.name).toBe('quasimodo.example/salvatore');
    expect(toHex(signature!.keyId)).toBe('367ba04b');
    expect(signature?.signature.length).toBe(64);
    expect(signature?.line).toBe(SPEC_NOTE.trimEnd().split('\n').at(-1));
  });

  it('throws NOTE_MALFORMED for the Go malformed notes (Go TestOpen)', () => {
    const bad = [
      GO_TEXT,
      GO_TEXT + '\n',
      GO_TEXT + '\n' + PETER_SIG.slice(0, -1),
      '\u0001' + GO_TEXT + '\n' + PETER_SIG,
      '\ud800' + GO_TEXT + '\n' + PETER_SIG, // not UTF-8 (a lone surrogate)
      GO_TEXT +
        '\n' +
        '— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=',
      GO_TEXT + '\n' + PETER_SIG + 'Unexpected line.\n',
    ];
    for (const note of bad) expectCode(() => parseNote(note), 'NOTE_MALFORMED');
  });

  it('throws NOTE_MALFORMED for bad signature lines', () => {
    const lines = [
      '— PeterNeumann\n', // no signature
      '— PeterNeumann \n', // empty signature
      '- PeterNeumann x08go/ZJk=\n', // hyphen, not em dash
      '—PeterNeumann x08go/ZJk=\n', // no space after the dash
      '— a+b x08go/ZJk=\n', // "+" in name
      '— PeterNeumann x08go/Z\n', // base64 without padding
      '— PeterNeumann x08go/Z!\n', // not base64
      '— PeterNeumann x08go/ZJkuB=\n', // non-zero padding bits
      '— PeterNeumann x08go/ZJ kuBS\n', // space inside the signature
      '— PeterNeumann x08gow==\n', // 4 bytes: key ID without signature
      '— PeterNeumann x08go/ZJkuBS9\r\n', // CR
    ];
    for (const line of lines) expectCode(() => parseNote(`${GO_TEXT}\n${line}`), 'NOTE_MALFORMED');
    for (const value of [undefined, 42, ['a'], ''])
      expectCode(() => parseNote(value as string), 'NOTE_MALFORMED');
  });

  it('accepts 100 signature lines and rejects 101', () => {
    expect(parseNote(GO_TEXT + '\n' + PETER_SIG.repeat(100)).signatures).toHaveLength(100);
    expectCode(() => parseNote(GO_TEXT + '\n' + PETER_SIG.repeat(101)), 'NOTE_MALFORMED');
    expectCode(() => openNote(GO_TEXT + '\n' + PETER_SIG.repeat(101), []), 'NOTE_MALFORMED');
  });

  it('rejects notes over the size limit quickly', () => {
    const huge = 'a'.repeat(NOTE_MAX_BYTES) + '\n\n' + PETER_SIG;
    const multibyte = 'é'.repeat(NOTE_MAX_BYTES / 2) + '\n\n' + PETER_SIG; // fewer chars than bytes
    const start = performance.now();
    expectCode(() => parseNote(huge), 'NOTE_MALFORMED');
    expectCode(() => parseNote(multibyte), 'NOTE_MALFORMED');
    expectCode(() => parseNote('\n'.repeat(5 * NOTE_MAX_BYTES)), 'NOTE_MALFORMED');
    expect(performance.now() - start).toBeLessThan(2000);
  });
});

describe('openNote', () => {
  const peter = createNoteVerifier(PETER_VKEY);
  const enoch = createNoteVerifier(ENOCH_VKEY);
  const both = `${GO_TEXT}\n${PETER_SIG}${ENOCH_SIG}`;
  const names = (keys: { name: string; keyId: Uint8Array }[]) =>
    keys.map((k) => `${k.name}+${toHex(k.keyId)}`);

  it('verifies the Go note with one or both keys (Go TestOpen)', () => {
    const one = openNote(both, [peter]);
    expect(one.text).toBe(GO_TEXT);
    expect(names(one.verified)).toEqual(['PeterNeumann+c74f20a3']);
    expect(names(one.unknown)).toEqual(['EnochRoot+af0cfe78']);
    expect(one.invalid).toEqual([]);
    const two = openNote(both, [peter, enoch]);
    expect(names(two.verified)).toEqual(['PeterNeumann+c74f20a3', 'EnochRoot+af0cfe78']);
    expect(two.unknown).toEqual([]);
    const none = openNote(both, []);
    expect(none.verified).toEqual([]);
    expect(names(none.unknown)).toEqual(['PeterNeumann+c74f20a3', 'EnochRoot+af0cfe78']);
  });

  it('reports a known key whose signature fails as invalid, never ignoring it', () => {
    const corrupted = `${GO_TEXT}\n${PETER_SIG.slice(0, 60)}ABCD${PETER_SIG.slice(60)}`;
    const opened = openNote(corrupted, [peter]);
    expect(opened.verified).toEqual([]);
    expect(names(opened.invalid)).toEqual(['PeterNeumann+c74f20a3']);
  });

  it('counts duplicate lines once, and keeps a failing duplicate visible', () => {
    const enochBad = `${ENOCH_SIG.slice(0, 60)}ABCD${ENOCH_SIG.slice(60)}`;
    const note = `${GO_TEXT}\n${PETER_SIG}${PETER_SIG}${ENOCH_SIG}${ENOCH_SIG}${enochBad}`;
    const opened = openNote(note, [peter]);
    expect(names(opened.verified)).toEqual(['PeterNeumann+c74f20a3']);
    expect(names(opened.unknown)).toEqual(['EnochRoot+af0cfe78']);
    const withEnoch = openNote(note, [peter, enoch]);
    expect(names(withEnoch.verified)).toEqual(['PeterNeumann+c74f20a3', 'EnochRoot+af0cfe78']);
    expect(names(withEnoch.invalid)).toEqual(['EnochRoot+af0cfe78']);
  });

  it('does not verify tampered text, and treats a changed name or key ID as an unknown key', () => {
    const tampered = openNote(`${GO_TEXT.replace('cryptography', 'cryptograph')}\n${PETER_SIG}`, [peter]);
    expect(names(tampered.invalid)).toEqual(['PeterNeumann+c74f20a3']);
    expect(tampered.verified).toEqual([]);

    const renamed = openNote(`${GO_TEXT}\n${PETER_SIG.replace('PeterNeumann', 'CarmenSandiego')}`, [peter]);
    expect(renamed.verified).toEqual([]);
    expect(renamed.invalid).toEqual([]);
    expect(names(renamed.unknown)).toEqual(['CarmenSandiego+c74f20a3']);

    const payload = fromBase64(PETER_SIG.trimEnd().split(' ')[2]!);
    payload[3]! ^= 1;
    const rekeyed = openNote(`${GO_TEXT}\n— PeterNeumann ${toBase64(payload)}\n`, [peter]);
    expect(rekeyed.verified).toEqual([]);
    expect(names(rekeyed.unknown)).toEqual(['PeterNeumann+c74f20a2']);
  });

  it('treats a throwing or non-boolean verifier as invalid and skips unusable verifiers', () => {
    const throwing: NoteVerifier = {
      name: peter.name,
      keyId: peter.keyId,
      verify: () => {
        throw new Error('boom');
      },
    };
    expect(names(openNote(both, [throwing]).invalid)).toEqual(['PeterNeumann+c74f20a3']);
    const truthy = { ...peter, verify: () => 1 as unknown as boolean };
    expect(names(openNote(both, [truthy]).invalid)).toEqual(['PeterNeumann+c74f20a3']);
    const unusable = [null, {}, { ...peter, keyId: new Uint8Array(3) }] as unknown as NoteVerifier[];
    expect(openNote(both, unusable).verified).toEqual([]);
    expect(openNote(both, 'nope' as unknown as NoteVerifier[]).unknown).toHaveLength(2);
  });

  it('verifies with a freshly generated key pair across the formatted vkey', () => {
    const { secretKey, publicKey } = generateKeyPair();
    const note = signNote('hello\n', [createNoteSigner('example.com/k', secretKey)]);
    const verifier = createNoteVerifier(formatVerifierKey('example.com/k', publicKey));
    expect(openNote(note, [verifier]).verified).toHaveLength(1);
    expect(verifier.verify(utf8Encode('hello\n'), new Uint8Array(10))).toBe(false);
  });
});
