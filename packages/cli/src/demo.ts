/**
 * `saksi demo` — a tour of the proof format that needs no server and no database. It is a
 * scripted walk through the proof format on real text, not question answering: it takes Pasal 287 of
 * UU 22/2009 from the bundled corpus, issues a signed certificate for a fixed question with the
 * reference issuer, appends it to a persistent demo log, verifies it with the pinned keys (including
 * consistency with the checkpoint the previous run saw), then shows that a changed figure is caught.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Bundle,
  fromBase64,
  logLeafInput,
  parseNote,
  parseTrustedKeys,
  plural,
  sha256Hex,
  toBase64,
  toHex,
  trustOptions,
  utf8Decode,
  verifyBundle,
} from '@saksi/proof';
import {
  cosignatureLine,
  createCosigner,
  createNoteSigner,
  issueBundle,
  MemoryLog,
  parseSignerKey,
  type SourceChunk,
  type SourceDocument,
  signCertificate,
} from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { type Command, flag, type OptionValues, stringOption } from './command.js';
import { CliError, type Io, styleFor } from './io.js';
import { KEY_FILES, keysCommand } from './keys.js';
import { renderVerification } from './verify.js';

const CORPUS_FILE = 'corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md';
export const DEMO_QUESTION = 'Berapa denda bagi pengemudi yang melanggar Alat Pemberi Isyarat Lalu Lintas?';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Issue a signed, logged answer over UU 22/2009 Pasal 287 and verify it',
  usage: 'saksi demo [--data-dir DIR] [--json]',
  help: `A scripted tour of Saksi's proof format on real statute text (question answering arrives with
the engine). It:
  1. creates keys in <data-dir>/keys on first run (issuer, log, witness; secrets mode 0600),
  2. splits Pasal 287 of UU 22/2009 (bundled corpus) into one chunk per ayat,
  3. issues a certificate citing ayat (2), signs it, appends it to the demo log in <data-dir>/demo,
     and has the witness cosign the new checkpoint,
  4. verifies the bundle with the pinned keys — and, from the second run on, that the log only grew
     since the checkpoint the previous run saw,
  5. changes one figure in a copy and shows the verifier block it.

Options:
  --data-dir <dir>   Where keys and the demo log live (default $SAKSI_DATA_DIR or ./.saksi)
  --json             Print {bundle_file, result} as JSON

Exit status: 0 when the bundle verifies and the tampered copy is rejected, 1 otherwise.`,
  options: { 'data-dir': { type: 'string' }, json: { type: 'boolean' } },
  run: runDemo,
};

/** The repository root (where `corpora/` is), from this file's location in src/ or dist/. */
function repositoryRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
}

/** Pasal 287 as a document: one chunk per ayat, page-break catchwords ("(3) Setiap...") dropped. */
export function pasal287(corpus: string): SourceDocument {
  const lines = corpus.replace(/\r\n?/g, '\n').split('\n');
  const start = lines.findIndex((line) => line.trim() === 'Pasal 287');
  const end = lines.findIndex((line, index) => index > start && line.trim() === 'Pasal 288');
  if (start < 0 || end < 0) throw new CliError(`Pasal 287 not found in ${CORPUS_FILE}`);
  const chunks: SourceChunk[] = [];
  for (const raw of lines.slice(start + 1, end)) {
    const line = raw.replace(/\s*__\s*/g, ' ').trim();
    const ayat = /^\((\d+)\)\s/.exec(line)?.[1];
    if (!ayat || line.endsWith('...')) continue;
    chunks.push({
      chunk_id: `uu22-2009-p287-a${ayat}`,
      text: line,
      citation: { pasal: '287', ayat, section_path: ['BAB XX Ketentuan Pidana', 'Pasal 287'] },
    });
  }
  return {
    document_id: `uu-22-2009-${sha256Hex(corpus).slice(0, 12)}`,
    title: 'UU No. 22 Tahun 2009 tentang Lalu Lintas dan Angkutan Jalan',
    chunks,
  };
}

async function runDemo(values: OptionValues, _positionals: readonly string[], io: Io): Promise<number> {
  const dataDir = path.resolve(
    io.cwd,
    stringOption(values, 'data-dir') ?? io.env['SAKSI_DATA_DIR'] ?? '.saksi',
  );
  const keysDir = path.join(dataDir, 'keys');
  const demoDir = path.join(dataDir, 'demo');
  const say = (text: string) => {
    if (!flag(values, 'json')) io.stdout.write(`${text}\n`);
  };
  const style = styleFor(io.stdout, io.env);

  if (!existsSync(path.join(keysDir, KEY_FILES.trust))) {
    const quiet = { ...io, stdout: { write: () => true } };
    await keysCommand.run({ out: keysDir }, ['generate'], quiet);
    say(`Created keys in ${keysDir} (secrets are mode 0600; ${KEY_FILES.trust} is the public part).`);
  }
  const trusted = parseTrustedKeys(await readFile(path.join(keysDir, KEY_FILES.trust), 'utf8'));
  const issuerSecret = fromBase64((await readFile(path.join(keysDir, KEY_FILES.issuer), 'utf8')).trim(), 32);
  const logKey = parseSignerKey((await readFile(path.join(keysDir, KEY_FILES.log), 'utf8')).trim());
  const witnessKey = parseSignerKey((await readFile(path.join(keysDir, KEY_FILES.witness), 'utf8')).trim());
  const issuerName = trusted.issuers[0]?.name ?? 'saksi';

  const corpus = await readFile(path.join(repositoryRoot(), CORPUS_FILE), 'utf8');
  const document = pasal287(corpus);
  const ayat2 = document.chunks.find((chunk) => chunk.citation?.ayat === '2');
  const penalty = ayat2 && /dipidana dengan pidana kurungan.*?rupiah\)/.exec(ayat2.text)?.[0];
  const offence =
    ayat2 &&
    /melanggar aturan perintah atau larangan yang dinyatakan dengan Alat Pemberi Isyarat Lalu Lintas/.exec(
      ayat2.text,
    )?.[0];
  if (!ayat2 || !penalty || !offence) throw new CliError('Pasal 287 ayat (2) is not in the expected shape');

  // The demo log: leaf inputs persisted one per line (base64), rebuilt on every run.
  await mkdir(demoDir, { recursive: true, mode: 0o700 });
  const leavesFile = path.join(demoDir, 'log-leaves.txt');
  const log = new MemoryLog(logKey.name);
  if (existsSync(leavesFile)) {
    for (const line of (await readFile(leavesFile, 'utf8')).split('\n'))
      if (line) log.append(fromBase64(line));
  }
  const previousSize = log.size;
  const lastCheckpointFile = path.join(demoDir, 'last-checkpoint.txt');
  const lastCheckpoint = existsSync(lastCheckpointFile)
    ? await readFile(lastCheckpointFile, 'utf8')
    : undefined;

  const claims = [
    `Pengemudi yang ${offence} [1]`,
    `${penalty.charAt(0).toUpperCase()}${penalty.slice(1)} [1].`,
  ];
  const bundle = issueBundle({
    documents: [document],
    question: DEMO_QUESTION,
    answer: `${claims[0]}, menurut Pasal 287 ayat (2) UU 22/2009. ${claims[1]}`,
    claims: [
      { text: claims[0]!, evidence: [{ chunk_id: ayat2.chunk_id, span_text: offence }] },
      { text: claims[1]!, evidence: [{ chunk_id: ayat2.chunk_id, span_text: penalty }] },
    ],
    retrieved: document.chunks.map((chunk) => chunk.chunk_id),
    collection: 'uu-22-2009-llaj',
    issuerName,
    issuerSecretKey: issuerSecret,
    log,
    logSigner: createNoteSigner(logKey.name, logKey.secretKey),
    cosigners: [createCosigner(witnessKey.name, witnessKey.secretKey)],
  });
  await appendFile(leavesFile, `${toBase64(logLeafInput(bundle.certificate, bundle.signature))}\n`);
  const bundleFile = path.join(demoDir, 'bundle.json');
  await writeFile(bundleFile, `${JSON.stringify(bundle, null, 2)}\n`);

  const options = {
    ...trustOptions(trusted),
    presentedQuestion: DEMO_QUESTION,
    ...(lastCheckpoint === undefined
      ? {}
      : {
          lastCheckpoint,
          fetchConsistencyProof: async (size1: number, size2: number) =>
            log.consistencyProof(size1, size2).map(toHex),
        }),
  };
  const result = await verifyBundle(bundle, { ...options, vocabulary: SAKSI_VOCABULARY });
  await writeFile(lastCheckpointFile, bundle.log.checkpoint);

  // A copy with one figure changed: the issuer's signature no longer matches, and even a re-signed
  // copy is blocked because the figure is not in the evidence.
  const tampered = structuredClone(bundle) as Bundle;
  const claim = tampered.certificate.claims[1]!;
  claim.text = claim.text.replace('Rp500.000,00', 'Rp50.000,00');
  const tamperedResult = await verifyBundle(tampered, {
    ...trustOptions(trusted),
    vocabulary: SAKSI_VOCABULARY,
  });
  const forged = structuredClone(tampered);
  forged.certificate.answer.text = forged.certificate.answer.text.replace('Rp500.000,00', 'Rp50.000,00');
  forged.certificate.answer.sha256 = sha256Hex(forged.certificate.answer.text);
  forged.certificate.claims[1]!.sha256 = sha256Hex(forged.certificate.claims[1]!.text);
  forged.certificate.claims[1]!.answer_end -= 1;
  forged.signature = signCertificate(forged.certificate, issuerSecret);
  const forgeryLog = new MemoryLog(logKey.name); // a throwaway log, so only the claim check can catch it
  forgeryLog.append(logLeafInput(forged.certificate, forged.signature));
  const forgeryCheckpoint = forgeryLog.signedCheckpoint(createNoteSigner(logKey.name, logKey.secretKey));
  forged.log = {
    origin: logKey.name,
    leaf_index: 0,
    inclusion_proof: [],
    checkpoint: forgeryCheckpoint,
    cosignatures: [
      cosignatureLine(
        parseNote(forgeryCheckpoint).text,
        createCosigner(witnessKey.name, witnessKey.secretKey),
      ),
    ],
  };
  const forgedResult = await verifyBundle(forged, { ...trustOptions(trusted), vocabulary: SAKSI_VOCABULARY });
  const forgedClaims = forgedResult.claims;

  const ok =
    result.verdict === 'verified' &&
    result.summary.verified === 2 &&
    tamperedResult.verdict === 'failed' &&
    forgedResult.verdict === 'verified' &&
    forgedClaims[0]?.rendered === true &&
    forgedClaims[1]?.reason === 'NUMBER_MISMATCH';

  if (flag(values, 'json')) {
    io.stdout.write(
      `${JSON.stringify({ bundle_file: bundleFile, result, tampered: tamperedResult.codes }, null, 2)}\n`,
    );
    return ok ? 0 : 1;
  }
  say(style.bold(`Question: ${DEMO_QUESTION}`));
  say(`Answer:   ${utf8Decode(new TextEncoder().encode(bundle.certificate.answer.text))}`);
  say(
    `Source:   ${document.title}, Pasal 287 ayat (2) (${document.chunks.length} ayat hashed into document root ${bundle.certificate.claims[0]!.evidence[0]!.document_proof.document_root.slice(0, 16)}…)`,
  );
  say(
    `Log:      index ${bundle.log.leaf_index} of ${plural(bundle.log.leaf_index + 1, 'entry', 'entries')}${previousSize > 0 ? ` (the log grew from ${previousSize})` : ''}, cosigned by ${witnessKey.name}`,
  );
  say('');
  io.stdout.write(renderVerification(bundle, result, { style, columns: io.stdout.columns ?? 100 }));
  say('');
  say(
    `Tampered copy (Rp500.000,00 → Rp50.000,00): ${tamperedResult.verdict} — ${tamperedResult.codes.join(', ')}`,
  );
  say(
    `Re-signed forgery of the same change: claim 2 blocked with ${forgedClaims[1]?.reason} (the figure is not in its evidence).`,
  );
  say('');
  const shown = (file: string) => {
    const relative = path.relative(io.cwd, file);
    return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
  };
  say('Verify it yourself:');
  say(
    `  npx saksi verify ${shown(bundleFile)} --trust ${shown(path.join(keysDir, KEY_FILES.trust))} --question "${DEMO_QUESTION}"`,
  );
  say(`  npx saksi inspect ${shown(bundleFile)}`);
  say(ok ? style.green('Demo OK.') : style.red('Demo FAILED: see the checks above.'));
  return ok ? 0 : 1;
}
