import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type Bundle,
  type BundleVerification,
  type CheckDecision,
  parseJson,
  parseTrustedKeys,
  sha256Hex,
  trustOptions,
  verifyBundle,
} from '@saksi/proof';
import {
  createCosigner,
  createNoteSigner,
  issueBundle,
  MemoryLog,
  signCertificate,
} from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { answerDecision } from '@saksi/test-support/answer-decision';
import {
  GOLDEN_DOCUMENTS,
  GOLDEN_ORIGIN,
  GOLDEN_QUESTION,
  GOLDEN_WITNESSES,
  testSecretKey,
} from '@saksi/test-support/golden';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';
import { renderVerification } from './verify.js';

const fixtures = path.resolve(import.meta.dirname, '../../proof/__fixtures__');
const goldenBundle = path.join(fixtures, 'golden-bundle.json');
const goldenV11 = path.join(fixtures, 'golden-v1.1-bundle.json');
const goldenKeys = path.join(fixtures, 'golden-keys.json');
const laterCheckpoint = path.join(fixtures, 'golden-later-checkpoint.txt');
const consistency = path.join(fixtures, 'golden-consistency.json');
const haveGolden = existsSync(goldenBundle) && existsSync(goldenKeys);

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-verify-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function run(argv: string[], options: { env?: Record<string, string>; tty?: boolean } = {}) {
  return runCli(argv, { cwd: directory, env: options.env ?? {}, tty: options.tty ?? false, columns: 120 });
}

function goldenOptions() {
  return trustOptions(parseTrustedKeys(readFileSync(goldenKeys, 'utf8')));
}

/** A copy of the golden bundle with `edit` applied, written into the temp folder. */
async function tampered(name: string, edit: (bundle: Record<string, unknown>) => void): Promise<string> {
  const bundle = parseJson(readFileSync(goldenBundle, 'utf8')) as Record<string, unknown>;
  edit(bundle);
  const file = path.join(directory, name);
  await writeFile(file, JSON.stringify(bundle));
  return file;
}

function flipLast(text: string): string {
  // Change a base64 character that carries signature bits (not the padding).
  const index = text.replace(/=+$/, '').length - 2;
  const replacement = text[index] === 'A' ? 'B' : 'A';
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe.skipIf(!haveGolden)('saksi verify on the golden bundle', () => {
  it('exits 0 and prints exactly what verifyBundle returns with --json', async () => {
    const result = await run(['verify', goldenBundle, '--trust', goldenKeys, '--json']);
    // Which keys were used goes to stderr, so stdout stays verifyBundle's result alone.
    expect(result.stderr).toContain(goldenKeys);
    expect(result.stderr).toContain('01223bb33d4795cc');
    expect(result.code).toBe(0);
    const expected = await verifyBundle(parseJson(readFileSync(goldenBundle, 'utf8')), {
      ...goldenOptions(),
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(expected.verdict).toBe('verified');
    expect(result.stdout).toBe(`${JSON.stringify(expected, null, 2)}\n`);
  });

  it('prints a header, the checks, a claim table, the summary and the verdict', async () => {
    const result = await run(['verify', goldenBundle, '--trust', goldenKeys]);
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain('Certificate  0196f000-0000-7000-8000-0000000000aa');
    expect(out).toContain('Issuer       saksi-golden (key 01223bb33d4795cc)');
    expect(out).toContain('Question     Kalau nerobos lampu merah');
    expect(out).toMatch(/✓ signature\s+The Ed25519 signature/);
    expect(out).toMatch(/– query_replay\s+skipped: /);
    expect(out).toMatch(/\n {2}c1\s+✓\s+OK\s+entailed\s+0\.90\s+-\s+Menerobos/);
    expect(out).toMatch(/Claims: \d+ verified \/ \d+ blocked \/ 2 total/);
    // The three results, each on its own line; a v1 certificate records no relevance.
    expect(out).toMatch(/\nAuthentic: {2}yes — 13 of 16 integrity checks passed, 3 skipped/);
    expect(out).toContain('\nSupported:  2 of 2 claims (2 entailed by lexical)\n');
    expect(out).toContain('\nRelevant:   not recorded (certificate v1)\n');
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^Verdict: VERIFIED/);
    expect(out).not.toContain('\u001b[');
  });

  it('colors only on a terminal and never with NO_COLOR', async () => {
    const colored = await run(['verify', goldenBundle, '--trust', goldenKeys], { tty: true });
    expect(colored.stdout).toContain('\u001b[32m✓');
    const plain = await run(['verify', goldenBundle, '--trust', goldenKeys], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    expect(plain.stdout).not.toContain('\u001b[');
  });

  it('prints the keys it trusts first: the file, where it came from, each key with its fingerprint', async () => {
    const result = await run(['verify', goldenBundle, '--trust', goldenKeys]);
    expect(result.code).toBe(0);
    const head = result.stdout.split('\n\n')[0]!;
    expect(head).toContain(goldenKeys);
    expect(head).toContain('--trust');
    // The issuer's fingerprint is the key_id its certificates carry.
    expect(head).toMatch(/issuer\s+saksi-golden\s+01223bb33d4795cc/);
    expect(head).toMatch(/log\s+saksi\.example\/log\s+[0-9a-f]{16}/);
    expect(head).toMatch(/witness\s+witness\.example\/w1\s+[0-9a-f]{16}/);
    expect(head).toMatch(/witness\s+witness\.example\/w2\s+[0-9a-f]{16}/);
    expect(head).toContain('2 witness cosignatures required');
  });

  describe('without --trust', () => {
    let otherKeys: string;
    let machine: string;
    let stray: string;

    beforeAll(async () => {
      // A second, valid keys file that did not sign the golden bundle.
      const generated = await run(['keys', 'generate', '--out', 'other-keys']);
      expect(generated.code).toBe(0);
      otherKeys = path.join(directory, 'other-keys', 'saksi-keys.json');
      machine = path.join(directory, 'machine-keys');
      stray = path.join(directory, 'saksi-keys.json');
    });

    afterEach(async () => {
      await rm(stray, { force: true });
      await rm(machine, { recursive: true, force: true });
    });

    async function machineKeys(file: string) {
      await rm(machine, { recursive: true, force: true });
      await mkdir(machine, { recursive: true });
      await copyFile(file, path.join(machine, 'saksi-keys.json'));
    }

    it("trusts this machine's keys and says so", async () => {
      await machineKeys(goldenKeys);
      const result = await run(['verify', goldenBundle], { env: { SAKSI_KEYS_DIR: machine } });
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n')[0]).toContain(path.join(machine, 'saksi-keys.json'));
      expect(result.stdout.split('\n')[0]).toContain("this machine's keys");
      expect(result.stderr).toBe('');
    });

    it('looks in $SAKSI_DATA_DIR/keys, then ./.saksi/keys', async () => {
      await mkdir(path.join(directory, 'data', 'keys'), { recursive: true });
      await copyFile(goldenKeys, path.join(directory, 'data', 'keys', 'saksi-keys.json'));
      const fromData = await run(['verify', goldenBundle], { env: { SAKSI_DATA_DIR: 'data' } });
      expect(fromData.code).toBe(0);
      expect(fromData.stdout.split('\n')[0]).toContain(path.join('data', 'keys', 'saksi-keys.json'));
      const none = await run(['verify', goldenBundle]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain(path.join('.saksi', 'keys', 'saksi-keys.json'));
    });

    it('a leftover ./saksi-keys.json that would verify does not turn a failure into VERIFIED', async () => {
      await machineKeys(otherKeys);
      await copyFile(goldenKeys, stray);
      const result = await run(['verify', goldenBundle], { env: { SAKSI_KEYS_DIR: machine } });
      expect(result.code).toBe(1);
      expect(result.stdout.split('\n')[0]).toContain(path.join(machine, 'saksi-keys.json'));
      // Named, never read.
      expect(result.stderr).toContain('./saksi-keys.json is not used');
      const pinned = await run(['verify', goldenBundle, '--trust', 'saksi-keys.json'], {
        env: { SAKSI_KEYS_DIR: machine },
      });
      expect(pinned.code).toBe(0);
    });

    it('a leftover ./saksi-keys.json that would fail does not turn VERIFIED into a failure', async () => {
      await machineKeys(goldenKeys);
      await copyFile(otherKeys, stray);
      const result = await run(['verify', goldenBundle], { env: { SAKSI_KEYS_DIR: machine } });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('./saksi-keys.json is not used');
    });

    it('with no keys on this machine, exits 2 and names the ./saksi-keys.json it did not read', async () => {
      await copyFile(goldenKeys, stray);
      const result = await run(['verify', goldenBundle], { env: { SAKSI_KEYS_DIR: machine } });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('--trust saksi-keys.json');
    });
  });

  it('exits 1 with SIGNATURE_INVALID when the signature is tampered with', async () => {
    const file = await tampered('bad-signature.json', (bundle) => {
      bundle['signature'] = flipLast(bundle['signature'] as string);
    });
    const human = await run(['verify', file, '--trust', goldenKeys]);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/✗ signature\s+SIGNATURE_INVALID at signature/);
    expect(human.stdout).toContain('Verdict: FAILED — SIGNATURE_INVALID');
    expect(human.stdout).toMatch(/Claims: 0 verified \/ 2 blocked \/ 2 total/);
    const json = await run(['verify', file, '--trust', goldenKeys, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).codes).toContain('SIGNATURE_INVALID');
  });

  it('exits 1 with QUERY_MISMATCH for another question, 0 for the same one', async () => {
    const other = await run(['verify', goldenBundle, '--trust', goldenKeys, '--question', 'other']);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain('QUERY_MISMATCH');
    const same = await run([
      'verify',
      goldenBundle,
      '--trust',
      goldenKeys,
      '--question',
      'Kalau nerobos lampu merah kena denda berapa?',
    ]);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/✓ query_replay/);
    // White space around the question does not make it another question (docs/certificate.md).
    const padded = await run([
      'verify',
      goldenBundle,
      '--trust',
      goldenKeys,
      '--question',
      ' Kalau nerobos lampu merah kena denda berapa?  \n',
    ]);
    expect(padded.code).toBe(0);
    expect(padded.stdout).toMatch(/✓ query_replay/);
  });

  it('exits 1 with COSIGNATURES_MISSING when more witnesses are required than cosigned', async () => {
    const result = await run([
      'verify',
      goldenBundle,
      '--trust',
      goldenKeys,
      '--require-cosignatures',
      '3',
      '--json',
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).codes).toEqual(['COSIGNATURES_MISSING']);
  });

  it('--rpc: a non-HTTP URL is a usage error; an unreachable chain fails the anchor check, not the run', async () => {
    const usage = await run(['verify', goldenBundle, '--trust', goldenKeys, '--rpc', 'ftp://example.org']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--rpc');
    const unreachable = await run([
      'verify',
      goldenBundle,
      '--trust',
      goldenKeys,
      '--rpc',
      'http://127.0.0.1:9',
      '--json',
    ]);
    expect(unreachable.code).toBe(1);
    expect(JSON.parse(unreachable.stdout).codes).toEqual(['ANCHOR_NOT_FOUND']);
    // The human report lists the anchoring transactions the bundle names.
    const human = await run(['verify', goldenBundle, '--trust', goldenKeys]);
    expect(human.stdout).toMatch(/^Anchors\n {2}chain \d+ {2}block \d+ {2}tx 0x[0-9a-f]{64}/m);
  });

  it('exits 1 with MALFORMED for a bundle that is JSON but not a bundle, still printing a header', async () => {
    const file = path.join(directory, 'not-a-bundle.json');
    await writeFile(file, '{"certificate": {"certificate_id": "x\\u001b[31m"}}');
    const result = await run(['verify', file, '--trust', goldenKeys]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('MALFORMED');
    expect(result.stdout).toContain('Issuer       (missing)');
    expect(result.stdout).not.toContain('\u001b');
  });

  it.skipIf(!existsSync(laterCheckpoint) || !existsSync(consistency))(
    'checks consistency with a later checkpoint given with --checkpoint and --consistency',
    async () => {
      const withProof = await run([
        'verify',
        goldenBundle,
        '--trust',
        goldenKeys,
        '--checkpoint',
        laterCheckpoint,
        '--consistency',
        consistency,
        '--json',
      ]);
      expect(withProof.code).toBe(0);
      const result = JSON.parse(withProof.stdout);
      expect(
        result.checks.find((check: { id: string }) => check.id === 'checkpoint_consistency').status,
      ).toBe('pass');

      const withoutProof = await run([
        'verify',
        goldenBundle,
        '--trust',
        goldenKeys,
        '--checkpoint',
        laterCheckpoint,
      ]);
      expect(withoutProof.code).toBe(1);
      expect(withoutProof.stdout).toContain('CHECKPOINT_INCONSISTENT');

      const badProofFile = path.join(directory, 'bad-proof.json');
      await writeFile(badProofFile, '{"nodes": []}');
      const badProof = await run([
        'verify',
        goldenBundle,
        '--trust',
        goldenKeys,
        '--checkpoint',
        laterCheckpoint,
        '--consistency',
        badProofFile,
      ]);
      expect(badProof.code).toBe(2);
      expect(badProof.stderr).toContain('must be a JSON array of hex hashes');
    },
  );
});

describe.skipIf(!haveGolden)('saksi inspect on the golden bundle', () => {
  it('prints the certificate, evidence and log without verifying', async () => {
    const result = await run(['inspect', goldenBundle]);
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain('Not verified');
    expect(out).toMatch(/Certificate\s+0196f000-0000-7000-8000-0000000000aa/);
    expect(out).toMatch(/Collection\s+uu-22-2009-llaj/);
    expect(out).toMatch(/RANK\s+SCORE\s+CHUNK/);
    expect(out).toContain('[c1] Menerobos lampu merah');
    expect(out).toContain('UU No. 22 Tahun 2009 tentang Lalu Lintas dan Angkutan Jalan');
    expect(out).toContain('Pasal 287, ayat (2)');
    expect(out).toContain('document root e84909b567f4b6dd');
    expect(out).toContain('anchor: chain 31337');
    expect(out).toMatch(/Origin\s+saksi.example\/log/);
    expect(out).toMatch(/Checkpoint\s+size 3, root [0-9a-f]{64}/);
    expect(out).toMatch(/Cosigned by\s+witness.example\/w1, witness.example\/w2/);
  });

  it('prints the certificate with --json', async () => {
    const result = await run(['inspect', goldenBundle, '--json']);
    expect(result.code).toBe(0);
    const bundle = parseJson(readFileSync(goldenBundle, 'utf8')) as { certificate: unknown };
    expect(JSON.parse(result.stdout)).toEqual(bundle.certificate);
  });

  it('inspects a tampered bundle (it does not verify) but refuses a malformed one with exit 2', async () => {
    const file = await tampered('inspect-bad-signature.json', (bundle) => {
      bundle['signature'] = flipLast(bundle['signature'] as string);
    });
    expect((await run(['inspect', file])).code).toBe(0);
    const malformed = await tampered('inspect-malformed.json', (bundle) => {
      delete (bundle['certificate'] as Record<string, unknown>)['issuer'];
    });
    const result = await run(['inspect', malformed]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not a well-formed Saksi bundle');
  });

  it('accepts a bare certificate', async () => {
    const bundle = parseJson(readFileSync(goldenBundle, 'utf8')) as { certificate: unknown };
    const file = path.join(directory, 'certificate.json');
    await writeFile(file, JSON.stringify(bundle.certificate));
    const result = await run(['inspect', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('bare certificate');
  });
});

/** A bundle signed with the golden keys, in a log of its own (as a compromised or buggy issuer could). */
function signedWithGoldenKeys(
  edit: (input: Parameters<typeof issueBundle>[0]) => Parameters<typeof issueBundle>[0],
): Bundle {
  const logSigner = createNoteSigner(GOLDEN_ORIGIN, testSecretKey('log'));
  return issueBundle(
    edit({
      documents: GOLDEN_DOCUMENTS,
      question: GOLDEN_QUESTION,
      answer: '',
      claims: [],
      issuerName: 'saksi-golden',
      issuerSecretKey: testSecretKey('issuer'),
      log: new MemoryLog(GOLDEN_ORIGIN),
      logSigner,
      cosigners: GOLDEN_WITNESSES.map((name) =>
        createCosigner(name, testSecretKey(name), () => 1_795_000_000),
      ),
      issued_at: '2026-11-21T10:00:00Z',
    }),
  );
}

describe.skipIf(!haveGolden || !existsSync(goldenV11))(
  'saksi verify and inspect on v1.1 certificates',
  () => {
    it('prints Authentic, Supported and Relevant as separate lines', async () => {
      const result = await run(['verify', goldenV11, '--trust', goldenKeys, '--question', GOLDEN_QUESTION]);
      expect(result.code).toBe(0);
      const out = result.stdout;
      expect(out).toContain('\nAuthentic:  yes — 14 of 16 integrity checks passed, 2 skipped');
      expect(out).toContain('\nSupported:  2 of 2 claims (1 verbatim quote, 1 composed from 2 spans)\n');
      expect(out).toContain('\nRelevant:   yes — 0.74 ≥ 0.30 (lexical-v3)\n');
      expect(out).toMatch(/✓ compositions\s+1 composed claim recomputes/);
      expect(out).toMatch(/\n {2}c1\s+✓\s+OK\s+verbatim\s+-\s+0\.74\s+Setiap orang/);
      expect(out).toMatch(/\n {2}c2\s+✓\s+OK\s+composed\s+-\s+0\.81\s+Menurut Pasal 287/);
      expect(out).not.toContain('Answer:');
      expect(out.trimEnd().split('\n').at(-1)).toBe(
        "Verdict: VERIFIED — the quoted passages are authentic and match the question's words (relevance 0.74 ≥ 0.30; no answer check before certificate v1.2).",
      );
    });

    it('prints a refusal as "Answer: refused (REASON)"', async () => {
      const bundle = signedWithGoldenKeys((input) => ({
        ...input,
        answer: 'Dokumen tidak memuat jawaban untuk pertanyaan ini.',
        retrieved: ['uu22-p287-a3'],
        outcome: 'refused',
        refusal: { reason: 'NOT_COVERED' },
      }));
      const file = path.join(directory, 'refused.json');
      await writeFile(file, JSON.stringify(bundle));
      const result = await run(['verify', file, '--trust', goldenKeys]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/\nAuthentic: {2}yes — /);
      expect(result.stdout).toContain('\nAnswer: refused (NOT_COVERED) — no claim to support\n');
      expect(result.stdout).not.toContain('Supported:');
      // Authentic, and never VERIFIED: the exit status is the integrity's.
      expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
        'Verdict: AUTHENTIC — the refusal is authentic; the question was not answered (refused: NOT_COVERED).',
      );
      const inspected = await run(['inspect', file]);
      expect(inspected.code).toBe(0);
      expect(inspected.stdout).toContain('  Answer: refused (NOT_COVERED)');
    });

    it('an answer below its relevance threshold is related passages, never VERIFIED', async () => {
      const golden = parseJson(readFileSync(goldenV11, 'utf8')) as Bundle;
      const bundle = signedWithGoldenKeys((input) => ({
        ...input,
        answer: golden.certificate.claims[0]!.text,
        claims: [
          {
            text: golden.certificate.claims[0]!.text,
            evidence: [
              { chunk_id: 'uu22-p287-a2', span_text: golden.certificate.claims[0]!.evidence[0]!.span.text },
            ],
            verification: golden.certificate.claims[0]!.verification,
            relevance: { score: 0.12, threshold: 0.3, method: { id: 'lexical-v3', version: '3' } },
          },
        ],
        answerRelevance: { score: 0.12, threshold: 0.3, method: { id: 'lexical-v3', version: '3' } },
        outcome: 'answered',
      }));
      const file = path.join(directory, 'not-relevant.json');
      await writeFile(file, JSON.stringify(bundle));
      const result = await run(['verify', file, '--trust', goldenKeys]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/\n {2}c1\s+✗\s+NOT_RELEVANT\s+verbatim/);
      expect(result.stdout).toContain(
        '\nRelevant:   no — 0.12 < 0.30 (lexical-v3): not an answer to the question; 1 claim below its threshold\n',
      );
      expect(result.stdout).toContain(
        '\nAnswer: related passages, not a confirmed answer — its evidence is below the relevance threshold\n',
      );
      expect(result.stdout).not.toContain('VERIFIED');
      expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
        'Verdict: AUTHENTIC — the quoted passages are authentic; not a confirmed answer to the question (related passages): its evidence is below the relevance threshold.',
      );
      const json = JSON.parse((await run(['verify', file, '--trust', goldenKeys, '--json'])).stdout);
      expect(json.answer).toMatchObject({ outcome: 'answered', answered: false });
    });

    it('a composed claim that does not recompute: not authentic, COMPOSITION_MISMATCH', async () => {
      const bundle = parseJson(readFileSync(goldenV11, 'utf8')) as Bundle;
      const claim = bundle.certificate.claims[1]!;
      const text = claim.text.replace('Sanksi, ', 'Sanksi ringan, ');
      bundle.certificate.answer.text = bundle.certificate.answer.text.replace(claim.text, text);
      bundle.certificate.answer.sha256 = sha256Hex(bundle.certificate.answer.text);
      claim.answer_end += text.length - claim.text.length;
      claim.text = text;
      claim.sha256 = sha256Hex(text);
      bundle.signature = signCertificate(bundle.certificate, testSecretKey('issuer'));
      const file = path.join(directory, 'composition-mismatch.json');
      await writeFile(file, JSON.stringify(bundle));
      const result = await run(['verify', file, '--trust', goldenKeys]);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /✗ compositions\s+COMPOSITION_MISMATCH at certificate\.claims\[1\]\.composition/,
      );
      expect(result.stdout).toMatch(
        /\nAuthentic: {2}no — 2 of 16 integrity checks failed \(COMPOSITION_MISMATCH, LOG_PROOF_INVALID\)/,
      );
      expect(result.stdout).toContain('\nSupported:  not judged: the certificate is not authentic\n');
    });
  },
);

describe.skipIf(!haveGolden)('saksi verify --session', () => {
  const SESSION = 'ses_01a2002dd4797794bc6da490a1b1d78f';
  const OTHER_SESSION = 'ses_01a2002e5c1b7d2a9f3e4b6c8d0a1f2e';
  // Three personal questions about one traffic ticket, asked in one chat session.
  const TICKET = [
    'Berapa denda menerobos lampu merah?',
    'Apakah SIM saya bisa dicabut karena menerobos lampu merah?',
    'Berapa lama kurungan untuk menerobos lampu merah?',
  ];
  const refusedIn = (session: string, question: string) =>
    signedWithGoldenKeys((input) => ({
      ...input,
      question,
      answer: 'Dokumen tidak memuat jawaban untuk pertanyaan ini.',
      retrieved: ['uu22-p287-a3'],
      outcome: 'refused',
      refusal: { reason: 'NOT_COVERED' },
      session,
    }));
  const inSession: string[] = [];
  let bundles: Bundle[] = [];
  let otherSession: string;
  let tamperedFile: string;

  beforeAll(async () => {
    bundles = TICKET.map((question) => refusedIn(SESSION, question));
    for (const [index, bundle] of bundles.entries()) {
      const file = `ticket-${index + 1}.json`;
      await writeFile(path.join(directory, file), JSON.stringify(bundle));
      inSession.push(file);
    }
    otherSession = 'other-session.json';
    await writeFile(path.join(directory, otherSession), JSON.stringify(refusedIn(OTHER_SESSION, TICKET[0]!)));
    tamperedFile = 'ticket-tampered.json';
    await writeFile(
      path.join(directory, tamperedFile),
      JSON.stringify({ ...bundles[0]!, signature: flipLast(bundles[0]!.signature) }),
    );
  });

  it('proves that three answers belong to the session, which nothing in their bundles shows to anyone else', async () => {
    // Without the session id, the three certificates share no reference (nor the id).
    const references = bundles.map((bundle) => bundle.certificate.query.session_id);
    expect(new Set(references).size).toBe(3);
    for (const bundle of bundles) expect(JSON.stringify(bundle)).not.toContain(SESSION.slice(4));
    const result = await run(['verify', '--session', SESSION, ...inSession, '--trust', goldenKeys]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    for (const [index, bundle] of bundles.entries())
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^ {2}✓ ticket-${index + 1}\\.json\\s+${bundle.certificate.certificate_id}\\s+belongs to the session\\s+AUTHENTIC$`,
          ),
        ),
      );
    expect(result.stdout).toContain(
      '\nSession: 3 of 3 bundles belong to the session (ticket-1.json, ticket-2.json, ticket-3.json).\n',
    );
    // The id reads the conversation: it is never printed.
    expect(result.stdout + result.stderr).not.toContain(SESSION);
  });

  it('rejects a bundle of another session, one that records none and one that does not verify', async () => {
    const result = await run([
      'verify',
      '--session',
      SESSION,
      ...inSession,
      otherSession,
      goldenBundle,
      tamperedFile,
      '--trust',
      goldenKeys,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/\n {2}✗ other-session\.json\s+\S+\s+not of this session\s+AUTHENTIC\n/);
    expect(result.stdout).toMatch(/\n {2}✗ \S+golden-bundle\.json\s+\S+\s+records no session\s+VERIFIED\n/);
    expect(result.stdout).toMatch(
      /\n {2}✗ ticket-tampered\.json\s+\S+\s+not checked: FAILED \(SIGNATURE_INVALID, LOG_PROOF_INVALID\)\n/,
    );
    expect(result.stdout).toContain(
      '\nSession: 3 of 6 bundles belong to the session (ticket-1.json, ticket-2.json, ticket-3.json); 2 do not; 1 failed verification (not checked).\n',
    );
    // The other session's holder sees it the other way round.
    const other = await run([
      'verify',
      '--session',
      OTHER_SESSION,
      otherSession,
      ...inSession,
      '--trust',
      goldenKeys,
    ]);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain(
      '\nSession: 1 of 4 bundles belongs to the session (other-session.json); 3 do not.\n',
    );
  });

  it('--json gives each bundle its session check and its verifyBundle result', async () => {
    const result = await run([
      'verify',
      '--session',
      SESSION,
      inSession[0]!,
      otherSession,
      '--trust',
      goldenKeys,
      '--json',
    ]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      bundles: { file: string; session: unknown; result: BundleVerification }[];
    };
    expect(report.bundles.map(({ file, session }) => [file, session])).toEqual([
      [inSession[0], { status: 'belongs', form: 'keyed' }],
      [otherSession, { status: 'other', form: 'keyed' }],
    ]);
    expect(report.bundles.map(({ result }) => result.verdict)).toEqual(['verified', 'verified']);
    expect(result.stdout).not.toContain(SESSION);
  });

  it('needs a session id and at least one bundle; one bundle without --session as before', async () => {
    expect((await run(['verify', '--session', SESSION, '--trust', goldenKeys])).code).toBe(2);
    expect((await run(['verify', '--session', ' ', inSession[0]!, '--trust', goldenKeys])).code).toBe(2);
    expect((await run(['verify', ...inSession, '--trust', goldenKeys])).code).toBe(2);
    const help = await run(['verify', '--help']);
    expect(help.stdout).toContain('--session <session_id>');
  });
});

/** The golden v1.1 verification with its answer as a v1.2 verifier decides it (outcome and answer check). */
async function withAnswerCheck(
  outcome: 'answered' | 'related',
  check: Partial<CheckDecision>,
): Promise<{ bundle: Bundle; result: BundleVerification }> {
  const bundle = parseJson(readFileSync(goldenV11, 'utf8')) as Bundle;
  const result = await verifyBundle(bundle, {
    ...goldenOptions(),
    presentedQuestion: GOLDEN_QUESTION,
    vocabulary: SAKSI_VOCABULARY,
  });
  const answer = answerDecision(outcome, check);
  return { bundle, result: { ...result, answer } };
}

describe.skipIf(!existsSync(goldenV11))('saksi verify on a v1.2 answer check', () => {
  const plain = {
    enabled: false,
    green: (t: string) => t,
    red: (t: string) => t,
    yellow: (t: string) => t,
    dim: (t: string) => t,
    bold: (t: string) => t,
  };
  const render = async (outcome: 'answered' | 'related', check: Partial<CheckDecision>) => {
    const { bundle, result } = await withAnswerCheck(outcome, check);
    return renderVerification(bundle, result, { style: plain, columns: 120 });
  };

  it('an answer the check confirms: VERIFIED, with the score, threshold and risk, one minimum', async () => {
    const out = await render('answered', {});
    expect(out).toContain('\nAnswers:    yes — answer check 0.91 ≥ 0.62, risk ≤ 5 % (answer-check 1)\n');
    expect(out).not.toContain('Relevant:');
    expect(out).not.toContain('below its threshold');
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      'Verdict: VERIFIED — the quoted passages are authentic and answer the question (answer check 0.91 ≥ 0.62, risk ≤ 5 %).',
    );
  });

  it('an "answered" the verifier does not confirm: AUTHENTIC related passages, with why', async () => {
    const out = await render('answered', {
      status: 'not_confirmed',
      constraints: ['year:2013'],
      unmet: ['year:2013'],
      mismatches: ['CONSTRAINT_UNMET'],
    });
    expect(out).not.toContain('VERIFIED');
    expect(out).toContain(
      '\nAnswers:    not confirmed — answer check 0.91 ≥ 0.62, risk ≤ 5 % (answer-check 1)\n',
    );
    expect(out).toContain(
      '\nAnswer: related passages, not a confirmed answer — the passages do not mention 2013\n',
    );
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      'Verdict: AUTHENTIC — the quoted passages are authentic; not a confirmed answer to the question (related passages): the passages do not mention 2013.',
    );
  });

  it('related passages say why: no value stated, below the threshold, the issuer said so', async () => {
    const last = async (outcome: 'answered' | 'related', check: Partial<CheckDecision>) =>
      (await render(outcome, check)).trimEnd().split('\n').at(-1);
    expect(await last('related', { status: 'not_confirmed', mismatches: ['VALUE_MISSING'] })).toMatch(
      /\(related passages\): no amount is stated in the passages\.$/,
    );
    expect(
      await last('related', { status: 'not_confirmed', score: 0.41, mismatches: ['BELOW_THRESHOLD'] }),
    ).toMatch(/: the answer check scored 0\.41, below the 0\.62 needed\.$/);
    expect(await last('related', {})).toMatch(
      /^Verdict: AUTHENTIC — .*: the issuer released the passages as related, not as an answer\.$/,
    );
  });

  it('documents the exit status: 0 when authentic, whatever the outcome', async () => {
    const help = await run(['verify', '--help']);
    expect(help.stdout).toContain('0 authentic (VERIFIED or AUTHENTIC');
  });
});
