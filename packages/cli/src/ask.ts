/**
 * `saksi ask "<question>" --collection <name>`: a cited answer with its proof; `--json` prints the
 * bundle, `--vc` the certificate as a W3C Verifiable Credential (docs/certificate.md).
 */
import { trustOptions, verifyBundle } from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { type Command, flag, integerOption, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine } from './engine-io.js';
import { type Io, styleFor, UsageError } from './io.js';
import { safeText } from './text.js';
import { answerOutcome, verdictLine } from './verify-results.js';

export const askCommand: Command = {
  name: 'ask',
  summary:
    'Ask a collection; prints the cited answer (or, with --json, the proof bundle; --vc, a W3C credential)',
  usage: 'saksi ask "<question>" --collection <name> [--top-k N] [--json | --vc]',
  help: `Answers from the documents of a collection (offline, extractive), signs the answer and records it
in the transparency log. --json prints the bundle, which 'saksi verify' checks. --vc prints the
certificate as a W3C Verifiable Credential (VC Data Model 2.0, eddsa-jcs-2022 proof by the issuer
key), which credentialToCertificate of @saksi/proof checks and turns back into the certificate.

Options:
  --collection <name>   Collection to ask
  --top-k <n>           Passages to retrieve (default 5)
  --json                Print the bundle as JSON
  --vc                  Print the certificate as a W3C Verifiable Credential (JSON)

Without --json or --vc it checks the answer's bundle with this machine's keys and ends with the
verdict line of 'saksi verify': VERIFIED when the quoted passages are authentic and answer the
question, AUTHENTIC for an authentic refusal or related passages (not a confirmed answer), FAILED
when an integrity check failed.

Exit status: 0 answered, related or refused (even "not found in the documents"), 2 bad usage or
unknown collection.`,
  options: {
    collection: { type: 'string' },
    'top-k': { type: 'string' },
    json: { type: 'boolean' },
    vc: { type: 'boolean' },
  },
  run: runAsk,
};

async function runAsk(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const collection = stringOption(values, 'collection');
  if (!collection) throw new UsageError('--collection is required');
  const question = positionals.join(' ').trim();
  if (!question) throw new UsageError('write the question, in quotes');
  const topK = integerOption(values, 'top-k', 1, 50);
  if (flag(values, 'json') && flag(values, 'vc')) throw new UsageError('give --json or --vc, not both');
  const engine = await openEngine(configFrom(io));
  try {
    const result = await engine.ask(collection, { question, ...(topK !== undefined ? { top_k: topK } : {}) });
    if (flag(values, 'vc')) {
      const credential = await engine.credential(result.bundle.certificate.certificate_id);
      io.stdout.write(`${JSON.stringify(credential, null, 2)}\n`);
      return 0;
    }
    if (flag(values, 'json')) {
      io.stdout.write(`${JSON.stringify(result.bundle, null, 2)}\n`);
      return 0;
    }
    const style = styleFor(io.stdout, io.env);
    const verification = await verifyBundle(result.bundle, {
      ...trustOptions(engine.trustedKeys()),
      vocabulary: SAKSI_VOCABULARY,
    });
    io.stdout.write(`${style.bold(safeText(result.answer, true))}\n\n`);
    const cited = new Map<string, number>();
    for (const claim of result.bundle.certificate.claims) {
      for (const evidence of claim.evidence)
        if (!cited.has(evidence.chunk_id)) cited.set(evidence.chunk_id, cited.size + 1);
    }
    for (const [chunkId, number] of cited) {
      const evidence = result.bundle.certificate.claims
        .flatMap((claim) => claim.evidence)
        .find((e) => e.chunk_id === chunkId)!;
      const where = [
        evidence.citation.pasal
          ? `Pasal ${evidence.citation.pasal}${evidence.citation.ayat ? ` ayat (${evidence.citation.ayat})` : ''}`
          : '',
        evidence.citation.page ? `p. ${evidence.citation.page}` : '',
        evidence.citation.section_path?.join(' › ') ?? '',
      ]
        .filter(Boolean)
        .join(', ');
      io.stdout.write(
        `[${number}] ${safeText(evidence.citation.document_title)}${where ? ` — ${safeText(where)}` : ''}\n`,
      );
    }
    const { verified, total } = verification.summary;
    // Authentic, and what it is: an answer, related passages, or not answered. A refusal or related
    // passages are authentic but never shown as a verified answer (the same verdict as saksi verify).
    const answer = verification.answer;
    const claims = `${verified}/${total} ${total === 1 ? 'claim' : 'claims'} shown as verified`;
    const reading = answerOutcome(verification);
    const outcome =
      reading.outcome === 'answers'
        ? `answered, ${claims}`
        : reading.outcome === 'related'
          ? `related passages, not a confirmed answer (${reading.why})`
          : reading.outcome === 'refused'
            ? `not answered (refused${answer.refusal ? `: ${answer.refusal}` : ''})`
            : `not answered (${claims})`;
    io.stdout.write(
      `\nCertificate ${result.bundle.certificate.certificate_id}, log entry ${result.bundle.log.leaf_index}: ` +
        `${verification.verdict === 'verified' ? style.green('authentic') : style.red('FAILED')}; ${outcome}.\n`,
    );
    io.stdout.write(`${verdictLine(verification, style)}\n`);
    return 0;
  } finally {
    await engine.close();
  }
}
