import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Bundle, fromBase64, parseJson } from '@saksi/proof';
import { credentialToCertificate, verifyDataIntegrity } from '@saksi/proof/vc';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const uuFile = path.resolve(repoRoot, '../shared/data/corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md');
const QUESTION = 'Apakah menerobos lampu merah melanggar aturan?';
const STACK_FRAME = /\n\s+at .+:\d+/;

let directory: string;

/** Runs `saksi` in-process with `data/` as its data directory. */
async function run(argv: string[], env: Record<string, string> = { SAKSI_DATA_DIR: 'data' }) {
  return runCli(argv, { cwd: directory, env: { NO_COLOR: '1', ...env } });
}

/** The opening of UU 22/2009 and its BAB XX (Ketentuan Pidana, Pasal 273–317). */
async function babXX(): Promise<string> {
  const lines = (await readFile(uuFile, 'utf8')).split('\n');
  const start = lines.findIndex((line) => line.startsWith('BAB XX KETENTUAN PIDANA'));
  const end = lines.findIndex((line) => line.startsWith('BAB XXI '));
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  const opening = lines.slice(
    0,
    lines.findIndex((line) => line.startsWith('BAB I ')),
  );
  return [...opening, ...lines.slice(start, end)].join('\n');
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-ask-'));
  await cp(templateDirectory(), path.join(directory, 'data/pglite'), { recursive: true });
  await writeFile(path.join(directory, 'uu-22-2009-bab-xx.md'), await babXX());
  // With the traffic vocabulary the demo collection has (corpora/uu-22-2009-llaj/glossary.json): the
  // question's "lampu merah" is the statute's "Alat Pemberi Isyarat Lalu Lintas".
  const glossary = path.join(repoRoot, 'corpora/uu-22-2009-llaj/glossary.json');
  const ingested = await run([
    'ingest',
    'uu-22-2009-bab-xx.md',
    '--collection',
    'lalu-lintas',
    '--glossary',
    glossary,
  ]);
  expect(ingested.stderr).toBe('');
  expect(ingested.code).toBe(0);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('saksi ask', () => {
  it('--json prints a bundle citing Pasal 287 that saksi verify accepts; one flipped byte fails it', async () => {
    const asked = await run(['ask', QUESTION, '--collection', 'lalu-lintas', '--json']);
    expect(asked.stderr).toBe('');
    expect(asked.code).toBe(0);
    const bundle = JSON.parse(asked.stdout) as Bundle;
    expect(bundle.certificate.query.text).toBe(QUESTION);
    expect(bundle.certificate.retrieval.collection).toBe('lalu-lintas');
    expect(bundle.certificate.claims.length).toBeGreaterThan(0);
    const pasals = bundle.certificate.claims.flatMap((claim) =>
      claim.evidence.map((evidence) => evidence.citation.pasal),
    );
    expect(pasals.some((pasal) => pasal === '106' || pasal === '287')).toBe(true);
    expect(bundle.log.leaf_index).toBe(0);

    await writeFile(path.join(directory, 'bundle.json'), asked.stdout);
    // With SAKSI_DATA_DIR, verify finds this machine's keys and says so.
    const verified = await run(['verify', 'bundle.json', '--question', QUESTION]);
    expect(verified.stdout.split('\n')[0]).toContain("this machine's keys");
    expect(verified.stdout.split('\n')[0]).toContain(path.join('keys', 'saksi-keys.json'));
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('Verdict: VERIFIED');
    // …and with the keys pinned explicitly.
    const pinned = await run(['verify', 'bundle.json', '--trust', 'data/keys/saksi-keys.json'], {});
    expect(pinned.code).toBe(0);

    // Flip one byte of the answer text: the answer hash no longer matches.
    const answer = bundle.certificate.answer.text;
    const at = asked.stdout.indexOf(JSON.stringify(answer));
    expect(at).toBeGreaterThan(0);
    const target = at + 1 + [...answer].findIndex((character) => /[a-z]/.test(character));
    const flipped = `${asked.stdout.slice(0, target)}${String.fromCharCode(asked.stdout.charCodeAt(target) ^ 0x01)}${asked.stdout.slice(target + 1)}`;
    expect(flipped).not.toBe(asked.stdout);
    await writeFile(path.join(directory, 'tampered.json'), flipped);
    const tampered = await run(['verify', 'tampered.json', '--trust', 'data/keys/saksi-keys.json']);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain('HASH_MISMATCH');
    expect(tampered.stdout).not.toContain('Verdict: VERIFIED');
  });

  it('prints the answer with numbered citations and a verified certificate', async () => {
    const result = await run(['ask', QUESTION, '--collection', 'lalu-lintas']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\[\d+\]/);
    expect(result.stdout).toMatch(/^\[1\] .+ — Pasal \d+/m);
    expect(result.stdout).toMatch(
      /Certificate [0-9a-f-]{36}, log entry \d+: authentic; answered, \d+\/\d+ claims? shown as verified/,
    );
    expect(result.stdout).toMatch(/\nVerdict: VERIFIED — the quoted passages are authentic and /);
    expect(result.stdout).not.toContain('FAILED');
  });

  it('says a refusal is not answered, never verified', async () => {
    const result = await run([
      'ask',
      'berapa harga tiket bioskop di Jakarta?',
      '--collection',
      'lalu-lintas',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Tidak ditemukan di dokumen\./);
    expect(result.stdout).toMatch(/log entry \d+: authentic; not answered \(refused: NOT_COVERED\)\./);
    expect(result.stdout).toContain(
      '\nVerdict: AUTHENTIC — the refusal is authentic; the question was not answered (refused: NOT_COVERED).\n',
    );
    expect(result.stdout).not.toContain('VERIFIED');
  });

  it('an unknown collection exits 2 with a message and no stack trace', async () => {
    const result = await run(['ask', QUESTION, '--collection', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: No collection named "nope"/);
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stdout).toBe('');
  });

  it.each([
    [['ask', QUESTION], '--collection is required'],
    [['ask', '--collection', 'lalu-lintas'], 'write the question'],
    [['ask', '  ', '--collection', 'lalu-lintas'], 'write the question'],
    [['ask', QUESTION, '--collection', 'lalu-lintas', '--top-k', '0'], '--top-k'],
    [['ask', QUESTION, '--collection', 'lalu-lintas', '--top-k', 'many'], '--top-k'],
  ])('usage error %j exits 2', async (argv, expected) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(expected);
    expect(result.stderr).toContain('usage: saksi ask');
    expect(result.stdout).toBe('');
  });

  it('--vc prints a W3C credential that turns back into a certificate and verifies with this machine’s issuer key', async () => {
    const asked = await run(['ask', QUESTION, '--collection', 'lalu-lintas', '--vc']);
    expect(asked.stderr).toBe('');
    expect(asked.code).toBe(0);
    const credential = parseJson(asked.stdout) as Record<string, unknown>;
    expect(credential['type']).toEqual(['VerifiableCredential', 'SaksiAnswerCertificate']);
    const imported = credentialToCertificate(credential);
    expect(imported.verified).toBe(true);
    const certificate = imported.certificate as unknown as Bundle['certificate'];
    expect(certificate.query.text).toBe(QUESTION);
    const keys = JSON.parse(await readFile(path.join(directory, 'data/keys/saksi-keys.json'), 'utf8'));
    const pinned = fromBase64(keys.issuers[0].public_key);
    expect(imported.issuerPublicKey).toEqual(pinned);
    expect(verifyDataIntegrity(credential, { publicKey: pinned }).verified).toBe(true);
  });

  it('--json and --vc together are a usage error', async () => {
    const both = await run(['ask', QUESTION, '--collection', 'lalu-lintas', '--json', '--vc']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--json or --vc');
    expect(both.stderr).not.toMatch(STACK_FRAME);
  });
});
