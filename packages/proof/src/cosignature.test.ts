import { describe, expect, it } from 'vitest';
import { expectCode } from '../test/codes.js';
import { concatBytes, fromBase64, toBase64, toHex, utf8Decode, utf8Encode } from './bytes.js';
import { type Checkpoint, formatCheckpoint, signCheckpoint, verifyCheckpoint } from './checkpoint.js';
import {
  COSIGNATURE_PAYLOAD_LENGTH,
  cosignatureKeyId,
  cosignatureLine,
  cosignatureMessage,
  cosignCheckpoint,
  createCosignatureVerifier,
  createCosigner,
  formatCosignatureVerifierKey,
  parseCosignature,
  verifyCosignatures,
} from './cosignature.js';
import { generateKeyPair, getPublicKey } from './ed25519.js';
import { sha256 } from './hash.js';
import {
  createNoteSigner,
  createNoteVerifier,
  ed25519KeyId,
  formatVerifierKey,
  NOTE_MAX_SIGNATURES,
  type NoteVerifier,
  parseNote,
} from './note.js';

// The example checkpoint and cosignature line of C2SP tlog-cosignature.md (its keys are not published).
const ORIGIN = 'example.com/behind-the-sofa';
const SPEC_TEXT = `${ORIGIN}\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n`;
const SPEC_COSIGNATURE =
  'jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==';
const SPEC_TIME = 1679315147; // the `time` line of the spec's example signed message

// Golden witness key and cosignature, computed independently with Python `cryptography` and hashlib:
// secret key = SHA-256("saksi test witness w1"), key ID = SHA-256(name ‖ 0x0A ‖ 0x04 ‖ pk)[:4],
// payload = key ID ‖ u64be(1679315147) ‖ Ed25519("cosignature/v1\ntime 1679315147\n" ‖ SPEC_TEXT).
const WITNESS_NAME = 'witness.example/w1';
const WITNESS_SECRET = sha256(utf8Encode('saksi test witness w1'));
const WITNESS_VKEY = 'witness.example/w1+a9de77a3+BD086u6+19NWwwKfP5xwSHq5YtPBs0Rwb2bxuBREPrHE';
const WITNESS_LINE =
  '— witness.example/w1 qd53owAAAABkGFDLrM0uXhcbieE+bU21SPutgHFPjLoX8zSqtHWTUe2FPx7t+JJfiFieUrB7rsGrnf1cHSTy9Ogb10IDCvym5/v0CQ==';

// Deployed witness verifier keys, from transparency-dev/formats note/note_cosigv1_test.go.
const REMORA_VKEY = 'remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2'; // type 0x04
const TEST_ED25519_VKEY = 'TEST+7997405c+AQcC+FTVKf0jlTdHDY3rbevmnKxxPjigCXlVtGe6RIr6'; // type 0x01

const LOG_SECRET = sha256(utf8Encode('saksi test log'));
const logSigner = createNoteSigner(ORIGIN, LOG_SECRET);
const logVerifier = createNoteVerifier(formatVerifierKey(ORIGIN, getPublicKey(LOG_SECRET)));

function witness(name: string, time = SPEC_TIME) {
  const { secretKey, publicKey } = generateKeyPair();
  return {
    cosigner: createCosigner(name, secretKey, () => time),
    verifier: createCosignatureVerifier(formatCosignatureVerifierKey(name, publicKey)),
    secretKey,
  };
}

const checkpoint: Checkpoint = {
  origin: ORIGIN,
  size: 42,
  rootHash: sha256(utf8Encode('root')),
  extensions: [],
};

describe('cosignature keys', () => {
  it('matches the independently computed key ID, vkey and cosignature line', () => {
    const publicKey = getPublicKey(WITNESS_SECRET);
    expect(toHex(cosignatureKeyId(WITNESS_NAME, publicKey))).toBe('a9de77a3');
    expect(formatCosignatureVerifierKey(WITNESS_NAME, publicKey)).toBe(WITNESS_VKEY);
    const cosigner = createCosigner(WITNESS_NAME, WITNESS_SECRET, () => SPEC_TIME);
    expect(cosignatureLine(SPEC_TEXT, cosigner)).toBe(WITNESS_LINE);
  });

  it('accepts a deployed witness vkey (type 0x04), whose key ID it recomputes', () => {
    const verifier = createCosignatureVerifier(REMORA_VKEY);
    expect(verifier.name).toBe('remora.n621.de');
    expect(toHex(verifier.keyId)).toBe('da77ade7');
    expect(toHex(cosignatureKeyId('remora.n621.de', verifier.publicKey))).toBe('da77ade7');
  });

  it('keeps note keys (0x01) and cosignature keys (0x04) apart', () => {
    expect(toHex(createNoteVerifier(TEST_ED25519_VKEY).keyId)).toBe('7997405c');
    expectCode(() => createCosignatureVerifier(TEST_ED25519_VKEY), 'NOTE_KEY_MALFORMED');
    expectCode(() => createNoteVerifier(REMORA_VKEY), 'NOTE_KEY_MALFORMED');
    const publicKey = getPublicKey(WITNESS_SECRET);
    expect(cosignatureKeyId(WITNESS_NAME, publicKey)).not.toEqual(ed25519KeyId(WITNESS_NAME, publicKey));
  });

  it('rejects malformed vkeys and keys', () => {
    for (const bad of ['', 'a+b+c', REMORA_VKEY.replace('da77ade7', 'da77ade8'), `${REMORA_VKEY}AA==`]) {
      expectCode(() => createCosignatureVerifier(bad), 'NOTE_KEY_MALFORMED');
    }
    expectCode(() => cosignatureKeyId(WITNESS_NAME, new Uint8Array(31)), 'NOTE_KEY_MALFORMED');
    expectCode(() => formatCosignatureVerifierKey('bad name', new Uint8Array(32)), 'NOTE_KEY_MALFORMED');
    expectCode(() => createCosigner('bad+name', WITNESS_SECRET), 'NOTE_KEY_MALFORMED');
    expectCode(() => createCosigner(WITNESS_NAME, new Uint8Array(16)), 'KEY_INVALID');
  });
});

describe('cosignature format', () => {
  it('builds the signed message of the spec example', () => {
    expect(utf8Decode(cosignatureMessage(SPEC_TIME, SPEC_TEXT))).toBe(
      'cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n',
    );
    expect(cosignatureMessage(0, utf8Encode('x\n'))).toEqual(utf8Encode('cosignature/v1\ntime 0\nx\n'));
    for (const t of [-1, 1.5, Number.NaN, 2 ** 53, '1']) {
      expectCode(() => cosignatureMessage(t as number, SPEC_TEXT), 'COSIGNATURE_TIMESTAMP_INVALID');
    }
  });

  it('reads the timestamps of published cosignatures', () => {
    const spec = fromBase64(SPEC_COSIGNATURE);
    expect(toHex(spec.slice(0, 4))).toBe('8d66cf3f');
    expect(parseCosignature(spec.slice(4)).timestamp).toBe(SPEC_TIME);
    // transparency-dev/formats TestCosignatureTimestamp.
    const formats = fromBase64(
      'ZGhGuQAAAABm/qTPeyKXD+R2rzyQsxPiP8mXum7qq/iF0u4vanlqJyocWODBt97w9uL+8qT7S5gxEHWWOworDcFiEBYJXORmnFBOBA==',
    );
    expect(parseCosignature(formats.slice(4)).timestamp).toBe(1727964367);
    expect(parseCosignature(formats.slice(4)).signature.length).toBe(64);
  });

  it('rejects payloads of the wrong length and timestamps beyond 2^53 − 1', () => {
    for (const length of [0, 64, 71, 73]) {
      expectCode(() => parseCosignature(new Uint8Array(length)), 'NOTE_MALFORMED');
    }
    const payload = new Uint8Array(COSIGNATURE_PAYLOAD_LENGTH);
    payload.set([0, 0x20, 0, 0, 0, 0, 0, 0]); // 2^53
    expectCode(() => parseCosignature(payload), 'COSIGNATURE_TIMESTAMP_INVALID');
    payload.set([0, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]); // 2^53 − 1
    expect(parseCosignature(payload).timestamp).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('createCosigner / createCosignatureVerifier', () => {
  it('signs timestamp ‖ signature with the clock, and the verifier accepts it', () => {
    const w = witness('w.example/1', 1_700_000_000);
    const message = utf8Encode(formatCheckpoint(checkpoint));
    const payload = w.cosigner.sign(message);
    expect(payload.length).toBe(COSIGNATURE_PAYLOAD_LENGTH);
    expect(parseCosignature(payload).timestamp).toBe(1_700_000_000);
    expect(w.verifier.verify(message, payload)).toBe(true);
  });

  it('binds the timestamp, the text (extensions included) and the key', () => {
    const w = witness('w.example/1');
    const text = formatCheckpoint({ ...checkpoint, extensions: ['ext'] });
    const payload = w.cosigner.sign(utf8Encode(text));
    const laterTime = payload.slice();
    laterTime[7]! ^= 1;
    expect(w.verifier.verify(utf8Encode(text), laterTime)).toBe(false);
    expect(w.verifier.verify(utf8Encode(text.replace('ext', 'exu')), payload)).toBe(false);
    expect(witness('w.example/1').verifier.verify(utf8Encode(text), payload)).toBe(false);
    // A plain Ed25519 note verifier of the same key must not accept a cosignature.
    const sameKey = createNoteVerifier(formatVerifierKey('w.example/1', getPublicKey(w.secretKey)));
    expect(sameKey.verify(utf8Encode(text), payload)).toBe(false);
    expect(sameKey.verify(cosignatureMessage(SPEC_TIME, text), payload.slice(8))).toBe(true);
  });

  it('verify returns false, never throws, for garbage', () => {
    const w = witness('w.example/1');
    const message = utf8Encode(formatCheckpoint(checkpoint));
    for (const payload of [new Uint8Array(0), new Uint8Array(72), new Uint8Array(73), 'x', null]) {
      expect(w.verifier.verify(message, payload as Uint8Array)).toBe(false);
    }
    expect(w.verifier.verify('text' as unknown as Uint8Array, w.cosigner.sign(message))).toBe(false);
  });

  it('refuses to cosign anything but a checkpoint, and a bad clock', () => {
    const w = witness('w.example/1');
    for (const text of ['hello\n', 'a\nb\n', `${ORIGIN}\n01\nroot\n`]) {
      expectCode(() => w.cosigner.sign(utf8Encode(text)), 'CHECKPOINT_MALFORMED');
    }
    expectCode(() => w.cosigner.sign(Uint8Array.of(0xff, 0x0a)), 'CHECKPOINT_MALFORMED');
    const message = utf8Encode(formatCheckpoint(checkpoint));
    for (const time of [-1, 1.5, Number.NaN, 2 ** 53]) {
      const { secretKey } = generateKeyPair();
      expectCode(
        () => createCosigner('w', secretKey, () => time).sign(message),
        'COSIGNATURE_TIMESTAMP_INVALID',
      );
    }
  });

  it('uses the current time by default', () => {
    const { secretKey } = generateKeyPair();
    const before = Math.floor(Date.now() / 1000);
    const payload = createCosigner('w', secretKey).sign(utf8Encode(formatCheckpoint(checkpoint)));
    const { timestamp } = parseCosignature(payload);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });
});

describe('cosignCheckpoint / verifyCosignatures', () => {
  const signed = signCheckpoint(checkpoint, logSigner);
  const [w1, w2, w3] = [witness('w1.example'), witness('w2.example'), witness('w3.example')];
  const verifiers: NoteVerifier[] = [w1!.verifier, w2!.verifier, w3!.verifier];
  const cosigned = [w1!, w2!, w3!].reduce((note, w) => cosignCheckpoint(note, w.cosigner), signed);

  it('appends one line per witness and keeps the log signature valid', () => {
    expect(parseNote(cosigned).signatures.map((s) => s.name)).toEqual([
      ORIGIN,
      'w1.example',
      'w2.example',
      'w3.example',
    ]);
    expect(cosigned.startsWith(signed)).toBe(true);
    expect(verifyCheckpoint(cosigned, logVerifier).ok).toBe(true);
  });

  it('counts valid witnesses against the threshold', () => {
    const result = verifyCosignatures(cosigned, verifiers, 3);
    expect(result).toEqual({
      ok: true,
      valid: ['w1.example', 'w2.example', 'w3.example'],
      invalid: [],
      missing: [],
      timestamps: [
        { name: 'w1.example', timestamp: SPEC_TIME },
        { name: 'w2.example', timestamp: SPEC_TIME },
        { name: 'w3.example', timestamp: SPEC_TIME },
      ],
    });
    expect(verifyCosignatures(cosigned, verifiers, 4).ok).toBe(false);
  });

  it('2-of-3 with one invalid cosignature passes; 3-of-3 fails; the invalid one never counts', () => {
    const lines = cosigned.split('\n');
    const index = lines.findIndex((l) => l.startsWith('— w3.example '));
    const payload = fromBase64(lines[index]!.split(' ')[2]!);
    payload[20]! ^= 1;
    lines[index] = `— w3.example ${toBase64(payload)}`;
    const tampered = lines.join('\n');
    const two = verifyCosignatures(tampered, verifiers, 2);
    expect(two.ok).toBe(true);
    expect(two.valid).toEqual(['w1.example', 'w2.example']);
    expect(two.invalid).toEqual(['w3.example']);
    expect(verifyCosignatures(tampered, verifiers, 3).ok).toBe(false);
  });

  it('counts a witness once however often its line appears', () => {
    const line = cosignatureLine(formatCheckpoint(checkpoint), w1!.cosigner);
    const note = `${signed}${line}\n${line}\n${line}\n`;
    const result = verifyCosignatures(note, verifiers, 2);
    expect(result.ok).toBe(false);
    expect(result.valid).toEqual(['w1.example']);
    expect(result.missing).toEqual(['w2.example', 'w3.example']);
    // The same witness listed twice among the verifiers is still one witness.
    expect(verifyCosignatures(note, [w1!.verifier, w1!.verifier], 2).valid).toEqual(['w1.example']);
  });

  it('marks a witness invalid when one of its lines fails, even if another verifies', () => {
    const good = cosignatureLine(formatCheckpoint(checkpoint), w1!.cosigner);
    const payload = fromBase64(good.split(' ')[2]!);
    payload[30]! ^= 1;
    const note = `${signed}${good}\n— w1.example ${toBase64(payload)}\n`;
    const result = verifyCosignatures(note, verifiers, 1);
    expect(result).toMatchObject({ ok: false, valid: [], invalid: ['w1.example'] });
  });

  it('ignores unknown witnesses and lines with a matching name but another key ID', () => {
    const stranger = witness('stranger.example');
    const impostor = witness('w2.example'); // same name as w2, another key
    let note = cosignCheckpoint(signed, stranger.cosigner);
    note = cosignCheckpoint(note, impostor.cosigner);
    note = cosignCheckpoint(note, w1!.cosigner);
    const result = verifyCosignatures(note, verifiers, 1);
    expect(result).toMatchObject({
      ok: true,
      valid: ['w1.example'],
      invalid: [],
      missing: ['w2.example', 'w3.example'],
    });
  });

  it('invalidates every cosignature when the checkpoint text changes', () => {
    const forged = cosigned.replace('\n42\n', '\n43\n');
    const result = verifyCosignatures(forged, verifiers, 1);
    expect(result.ok).toBe(false);
    expect(result.invalid).toEqual(['w1.example', 'w2.example', 'w3.example']);
  });

  it('rejects bad thresholds and malformed notes without throwing', () => {
    for (const threshold of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1']) {
      expect(verifyCosignatures(cosigned, verifiers, threshold as number).ok).toBe(false);
    }
    const malformed = [
      formatCheckpoint(checkpoint), // no signatures
      cosigned.slice(0, -1), // no final newline
      cosigned.replace('\n42\n', '\n042\n'), // not a checkpoint
      `${cosigned}${'— x AAAAAAA=\n'.repeat(NOTE_MAX_SIGNATURES)}`, // too many lines
      42,
    ];
    for (const note of malformed) {
      expect(verifyCosignatures(note as string, verifiers, 1)).toEqual({
        ok: false,
        valid: [],
        invalid: [],
        missing: ['w1.example', 'w2.example', 'w3.example'],
        timestamps: [],
      });
    }
    expect(verifyCosignatures(cosigned, null as unknown as NoteVerifier[], 1).ok).toBe(false);
  });

  it('replaces an earlier cosignature by the same key when cosigning again', () => {
    const later = createCosigner('w1.example', w1!.secretKey, () => SPEC_TIME + 60);
    const again = cosignCheckpoint(cosigned, later);
    const lines = parseNote(again).signatures.filter((s) => s.name === 'w1.example');
    expect(lines).toHaveLength(1);
    expect(verifyCosignatures(again, verifiers, 3).timestamps[0]).toEqual({
      name: 'w1.example',
      timestamp: SPEC_TIME + 60,
    });
  });

  it('refuses to cosign malformed notes, non-checkpoints and full notes', () => {
    expectCode(() => cosignCheckpoint(formatCheckpoint(checkpoint), w1!.cosigner), 'NOTE_MALFORMED');
    const notCheckpoint = createNoteSigner('k', generateKeyPair().secretKey);
    expectCode(
      () => cosignCheckpoint(`hello\n\n${cosignatureLineOf(notCheckpoint)}\n`, w1!.cosigner),
      'CHECKPOINT_MALFORMED',
    );
    const full = `${signed}${'— x AAAAAAA=\n'.repeat(NOTE_MAX_SIGNATURES - 1)}`;
    expect(parseNote(full).signatures).toHaveLength(NOTE_MAX_SIGNATURES);
    expectCode(() => cosignCheckpoint(full, w1!.cosigner), 'NOTE_MALFORMED');
    expectCode(() => cosignatureLine('hello\n', w1!.cosigner), 'CHECKPOINT_MALFORMED');
  });
});

function cosignatureLineOf(signer: {
  name: string;
  keyId: Uint8Array;
  sign(m: Uint8Array): Uint8Array;
}): string {
  return `— ${signer.name} ${toBase64(concatBytes(signer.keyId, signer.sign(utf8Encode('hello\n'))))}`;
}
