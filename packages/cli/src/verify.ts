/**
 * `saksi verify`: runs `verifyBundle` from `@saksi/proof` — the same code the server and the
 * browser run — against keys the user pinned, and prints every check and a verdict that says what is
 * verified: VERIFIED (authentic passages that answer the question), AUTHENTIC (an authentic refusal
 * or related passages, not a confirmed answer) or FAILED. Exit 0 when authentic (every integrity
 * check passed, whatever the answer's outcome), 1 when an integrity check failed, 2 when the input
 * could not be read. With `--session <id>` it checks one or more bundles and says which were answered
 * in that chat session (docs/verification.md, "Answers of one conversation").
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { createRegistryLookup, explorerTxUrl } from '@saksi/contracts';
import {
  type BundleVerification,
  fromBase64,
  isProofError,
  issuerKeyId,
  MAX_SESSION_ID_LENGTH,
  matchSessionReference,
  parseTrustedKeys,
  parseVerifierKey,
  plural,
  type SessionReferenceMatch,
  type TrustedKeys,
  trustOptions,
  type VerifyBundleOptions,
  verifyBundle,
} from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import {
  type Command,
  expectPositionals,
  flag,
  integerOption,
  type OptionValues,
  stringOption,
} from './command.js';
import { readJsonFile, readTextFile } from './files.js';
import { CliError, type Io, type Style, styleFor, UsageError } from './io.js';
import { pad, pick, safeText, truncate } from './text.js';
import { answerOutcome, resultLines, verdictLine } from './verify-results.js';

/** The name of a trusted-keys file: this machine's in its keys folder, a server's at /.well-known/. */
export const DEFAULT_TRUST_FILE = 'saksi-keys.json';

/** RFC 9162 §2.1.4 proofs have at most ~2·log2(n) nodes; anything longer is refused before use. */
const MAX_CONSISTENCY_NODES = 128;
const MAX_PROBLEMS_SHOWN = 10;

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'Check a bundle: signature, hashes, spans, document and log proofs',
  usage:
    'saksi verify <bundle.json> [--trust keys.json] [options]  |  saksi verify --session <session_id> <bundle.json>…',
  help: `Checks every proof in a bundle against the keys you pin, and decides claim by claim,
fail-closed, what may be shown as verified.

Options:
  --trust <keys.json>          The keys you trust (issuer, log, witnesses): for a server, its
                               /.well-known/saksi-keys.json saved to a file. Without --trust:
                               this machine's keys, $SAKSI_KEYS_DIR/${DEFAULT_TRUST_FILE}, else
                               $SAKSI_DATA_DIR/keys/${DEFAULT_TRUST_FILE}, else
                               .saksi/keys/${DEFAULT_TRUST_FILE} (what saksi serve and saksi ask
                               sign with). Nothing else is read: a ./${DEFAULT_TRUST_FILE} is
                               used only when you pass it. The keys used are printed first,
                               each with its fingerprint (SHA-256 of the public key, 16 hex digits)
  --checkpoint <last.txt>      The last checkpoint (signed note) you saw for this log;
                               detects rollback and forks
  --consistency <proof.json>   Consistency proof between that checkpoint and the bundle's
                               (JSON array of hex hashes)
  --question <text>            The question you asked; a certificate for another question
                               fails with QUERY_MISMATCH
  --rpc <url>                  Check each anchor on chain through this JSON-RPC endpoint:
                               DocumentRegistry.verifyRoot(batch root) and the anchoring
                               transaction (e.g. the local chain's URL from \`saksi anchor status\`,
                               or https://sepolia.base.org). Without it the on-chain check is skipped
  --cosignatures <n>           Distinct trusted witness cosignatures required on the log
                               checkpoint (overrides the keys file; alias --require-cosignatures)
  --session <session_id>       Check that the bundles (one or more) were answered in this chat
                               session: each certificate's session reference must be the
                               session's keyed reference for that certificate (or, for a
                               certificate issued before, its unkeyed one). Only the holder of
                               the session id can check it; the id reads the conversation, so it
                               is never printed. Prints one line per bundle
  --json                       Print the verifyBundle result as JSON (with --session:
                               {"bundles":[{file, session, result}]})

The last line says what is verified:
  VERIFIED    the quoted passages are authentic and answer the question (for certificate
              v1.2, its answer check's score ≥ threshold, with the calibrated risk)
  AUTHENTIC   the passages (or the refusal) are authentic, but not a confirmed answer:
              related passages, a refusal, or no claim that may be shown as verified
  FAILED      an integrity check failed; nothing in it may be shown as verified

Exit status: 0 authentic (VERIFIED or AUTHENTIC: every integrity check passed; whether it answers
the question is the verdict line, and "answer" in --json), 1 an integrity check failed (FAILED),
2 unreadable input or bad usage. With --session: 0 when every bundle is authentic and belongs to
the session, 1 when one is not authentic or does not belong to it.`,
  options: {
    trust: { type: 'string' },
    checkpoint: { type: 'string' },
    consistency: { type: 'string' },
    question: { type: 'string' },
    'require-cosignatures': { type: 'string' },
    cosignatures: { type: 'string' },
    rpc: { type: 'string' },
    session: { type: 'string' },
    json: { type: 'boolean' },
  },
  run: runVerify,
};

async function runVerify(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const session = stringOption(values, 'session');
  if (session !== undefined) return runSessionVerify(session, values, positionals, io);
  const [bundleFile] = expectPositionals(positionals, ['<bundle.json>']) as [string];
  const requiredCosignatures = cosignatureOption(values);
  const bundle = await readJsonFile(io.cwd, bundleFile, 'bundle');
  const { options, trust } = await verifyOptions(values, io);
  if (requiredCosignatures !== undefined) options.requiredCosignatures = requiredCosignatures;

  const result = await verifyBundle(bundle, options);
  if (flag(values, 'json')) {
    // stdout stays exactly verifyBundle's result; which keys it was checked against goes to stderr.
    io.stderr.write(`${trustLines(trust, styleFor(io.stderr, io.env)).join('\n')}\n`);
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const style = styleFor(io.stdout, io.env);
    io.stdout.write(`${trustLines(trust, style).join('\n')}\n\n`);
    io.stdout.write(renderVerification(bundle, result, { style, columns: io.stdout.columns ?? 100 }));
  }
  return result.verdict === 'verified' ? 0 : 1;
}

/** The most bundles one `saksi verify --session` checks. */
const MAX_SESSION_BUNDLES = 1_000;

/** One bundle of `saksi verify --session`: its verification and what its session reference says. */
export interface SessionBundleCheck {
  file: string;
  /** `belongs` only for an authentic certificate whose reference is the session's. */
  session: SessionReferenceMatch | { status: 'not_checked' };
  result: BundleVerification;
}

/**
 * `saksi verify --session <id> <bundle…>`: verifies each bundle and checks, for each authentic one,
 * that its certificate's session reference is the session's (`matchSessionReference` of
 * `@saksi/proof`). A reference is the issuer's signed word only in an authentic certificate, so one
 * that fails verification is not checked. The session id is never printed.
 */
async function runSessionVerify(
  session: string,
  values: OptionValues,
  positionals: readonly string[],
  io: Io,
): Promise<number> {
  if (session.trim().length === 0 || session.length > MAX_SESSION_ID_LENGTH)
    throw new UsageError(`--session must be a chat session id (1 to ${MAX_SESSION_ID_LENGTH} characters)`);
  if (positionals.length === 0) throw new UsageError('missing <bundle.json>…');
  if (positionals.length > MAX_SESSION_BUNDLES)
    throw new UsageError(`give at most ${MAX_SESSION_BUNDLES} bundles at a time`);
  const requiredCosignatures = cosignatureOption(values);
  const bundles = [];
  for (const file of positionals) bundles.push({ file, bundle: await readJsonFile(io.cwd, file, 'bundle') });
  const { options, trust } = await verifyOptions(values, io);
  if (requiredCosignatures !== undefined) options.requiredCosignatures = requiredCosignatures;

  const checks: SessionBundleCheck[] = [];
  for (const { file, bundle } of bundles) {
    const result = await verifyBundle(bundle, options);
    const certificate = (bundle as { certificate?: unknown } | null)?.certificate;
    checks.push({
      file,
      session: result.authentic
        ? matchSessionReference(certificate, session.trim())
        : { status: 'not_checked' },
      result,
    });
  }
  if (flag(values, 'json')) {
    io.stderr.write(`${trustLines(trust, styleFor(io.stderr, io.env)).join('\n')}\n`);
    io.stdout.write(`${JSON.stringify({ bundles: checks }, null, 2)}\n`);
  } else {
    const style = styleFor(io.stdout, io.env);
    io.stdout.write(`${trustLines(trust, style).join('\n')}\n\n`);
    io.stdout.write(renderSessionChecks(checks, style));
  }
  return checks.every((check) => check.session.status === 'belongs') ? 0 : 1;
}

/** The report of `saksi verify --session`: a line per bundle, then how many belong to the session. */
export function renderSessionChecks(checks: readonly SessionBundleCheck[], style: Style): string {
  const fileWidth = Math.min(60, Math.max(...checks.map((check) => safeText(check.file).length)));
  const lines = [
    `${style.bold(pad('Session', 13))}the one given with --session (the id reads the conversation; not printed)`,
  ];
  for (const check of checks) {
    const { session, result } = check;
    const belongs = session.status === 'belongs';
    const mark = belongs ? style.green('✓') : style.red('✗');
    const id = result.certificate_id ?? '(no certificate id)';
    lines.push(
      `  ${mark} ${pad(safeText(check.file), fileWidth)}  ${pad(safeText(id), 36)}  ${sessionText(check, style)}`,
    );
  }
  const belonging = checks.filter((check) => check.session.status === 'belongs');
  const failed = checks.filter((check) => check.session.status === 'not_checked').length;
  const others = checks.length - belonging.length - failed;
  const names = belonging.map((check) => safeText(check.file)).slice(0, 20);
  lines.push(
    '',
    `Session: ${belonging.length} of ${plural(checks.length, 'bundle')} ${belonging.length === 1 ? 'belongs' : 'belong'} to the session` +
      (names.length > 0 ? ` (${names.join(', ')}${belonging.length > names.length ? ', …' : ''})` : '') +
      (others > 0 ? `; ${others} ${others === 1 ? 'does' : 'do'} not` : '') +
      (failed > 0 ? `; ${failed} failed verification (not checked)` : '') +
      '.',
  );
  return `${lines.join('\n')}\n`;
}

/** What one bundle's line says: whether it belongs, and the verdict of its bundle. */
function sessionText(check: SessionBundleCheck, style: Style): string {
  const { session, result } = check;
  if (session.status === 'not_checked')
    return `${style.red('not checked')}: ${style.red(style.bold('FAILED'))} (${result.codes.join(', ')})`;
  const verdict =
    answerOutcome(result).outcome === 'answers' ? style.green('VERIFIED') : style.yellow('AUTHENTIC');
  switch (session.status) {
    case 'belongs':
      return session.form === 'keyed'
        ? `${style.green('belongs to the session')}  ${verdict}`
        : `${style.green('belongs to the session')} (an earlier certificate: its unkeyed reference is the same for all the session's answers)  ${verdict}`;
    case 'other':
      return `${style.red('not of this session')}${session.form === 'unknown' ? ' (a reference of no known form)' : ''}  ${verdict}`;
    default:
      return `${style.red('records no session')}  ${verdict}`;
  }
}

/** `--cosignatures <k>` (the name the witness docs use) or its older spelling `--require-cosignatures`. */
function cosignatureOption(values: OptionValues): number | undefined {
  const short = integerOption(values, 'cosignatures', 0, 100);
  const long = integerOption(values, 'require-cosignatures', 0, 100);
  if (short !== undefined && long !== undefined && short !== long) {
    throw new UsageError('--cosignatures and --require-cosignatures disagree; give one');
  }
  return short ?? long;
}

async function verifyOptions(
  values: OptionValues,
  io: Io,
): Promise<{ options: VerifyBundleOptions; trust: TrustSource }> {
  const trust = await loadTrust(values, io);
  const options: VerifyBundleOptions = { ...trust.options, vocabulary: SAKSI_VOCABULARY };
  const checkpointFile = stringOption(values, 'checkpoint');
  if (checkpointFile !== undefined) {
    options.lastCheckpoint = await readTextFile(io.cwd, checkpointFile, 'checkpoint');
  }
  const consistencyFile = stringOption(values, 'consistency');
  if (consistencyFile !== undefined) {
    options.consistencyProof = parseConsistencyProof(
      await readJsonFile(io.cwd, consistencyFile, 'consistency proof'),
      consistencyFile,
    );
  }
  const question = stringOption(values, 'question');
  if (question !== undefined) options.presentedQuestion = question;
  const rpc = stringOption(values, 'rpc');
  if (rpc !== undefined) {
    if (!/^https?:\/\//.test(rpc))
      throw new UsageError('--rpc must be an http(s) URL of a JSON-RPC endpoint');
    options.anchorLookup = createRegistryLookup({ rpcUrl: rpc });
  }
  return { options, trust: trust.source };
}

/** Where the trusted keys of a run came from, and what they hold (printed by `saksi verify`). */
export interface TrustSource {
  /** The keys file as shown to the user (as given, or the default path). */
  file: string;
  /** `option`: given with --trust; `machine`: this machine's own keys, the default without --trust. */
  from: 'option' | 'machine';
  keys: TrustedKeys;
}

/** The keys `saksi verify` trusts without --trust: this machine's, where `saksi serve` and `saksi ask` keep them. */
export function machineTrustFile(env: Io['env']): string {
  return path.join(
    env['SAKSI_KEYS_DIR'] ?? path.join(env['SAKSI_DATA_DIR'] ?? '.saksi', 'keys'),
    DEFAULT_TRUST_FILE,
  );
}

/**
 * The trusted keys: the file given with --trust, else this machine's keys (`machineTrustFile`). Nothing
 * else is ever picked up: a `saksi-keys.json` lying in the current folder is named in a note and left
 * unused, so it cannot change a verdict unseen (README, "The `saksi` command").
 */
export async function loadTrust(
  values: OptionValues,
  io: Io,
): Promise<{ options: ReturnType<typeof trustOptions>; source: TrustSource }> {
  const given = stringOption(values, 'trust');
  let file: string;
  let from: TrustSource['from'];
  if (given !== undefined) {
    file = given;
    from = 'option';
  } else {
    file = machineTrustFile(io.env);
    from = 'machine';
    const stray = existsSync(path.resolve(io.cwd, DEFAULT_TRUST_FILE));
    if (!existsSync(path.resolve(io.cwd, file))) {
      throw new CliError('no trusted keys: nothing says which issuer and log to trust', {
        hint:
          `Pin the keys you trust with --trust keys.json (for a server, save its /.well-known/saksi-keys.json). ` +
          `Without --trust, this machine's keys in ${safeText(file)} are used; there are none here.` +
          (stray
            ? ` ./${DEFAULT_TRUST_FILE} is not read unless you pass --trust ${DEFAULT_TRUST_FILE}.`
            : ''),
      });
    }
    if (stray && path.resolve(io.cwd, file) !== path.resolve(io.cwd, DEFAULT_TRUST_FILE)) {
      io.stderr.write(
        `note: ./${DEFAULT_TRUST_FILE} is not used; without --trust this machine's keys are. Pass --trust ${DEFAULT_TRUST_FILE} to verify against it.\n`,
      );
    }
  }
  const document = await readJsonFile(io.cwd, file, 'trusted keys file');
  try {
    const keys = parseTrustedKeys(document);
    return { options: trustOptions(keys), source: { file, from, keys } };
  } catch (error) {
    if (!isProofError(error)) throw error;
    throw new CliError(`trusted keys file ${safeText(file)} is invalid: ${error.message}`, {
      hint: 'Expected {"issuers":[{name,public_key}],"logs":[{origin,vkey}],"witnesses":[…]} as saksi keys generate writes it.',
    });
  }
}

/**
 * A key's fingerprint: the first 16 hex digits of SHA-256 over its 32-byte Ed25519 public key — for
 * an issuer, the `key_id` its certificates carry. `undefined` when the key cannot be read.
 */
export function keyFingerprint(key: { public_key: string } | { vkey: string }): string | undefined {
  try {
    const publicKey =
      'public_key' in key ? fromBase64(key.public_key, 32) : parseVerifierKey(key.vkey).publicKey;
    return issuerKeyId(publicKey);
  } catch {
    return undefined;
  }
}

/** The "Trusted keys" lines: which file, why that one, and each key's name and fingerprint. */
export function trustLines(source: TrustSource, style: Style): string[] {
  const how =
    source.from === 'option' ? 'given with --trust' : "this machine's keys, the default without --trust";
  const lines = [`${style.bold(pad('Trusted keys', 13))}${safeText(source.file)} (${how})`];
  const row = (kind: string, name: string, key: { public_key: string } | { vkey: string }) =>
    lines.push(
      `  ${pad(kind, 9)}${pad(safeText(name), 28)} ${keyFingerprint(key) ?? style.red('unreadable key')}`,
    );
  for (const issuer of source.keys.issuers) row('issuer', issuer.name, issuer);
  for (const log of source.keys.logs) row('log', log.origin, log);
  for (const witness of source.keys.witnesses ?? []) row('witness', witness.name, witness);
  const required = source.keys.required_cosignatures ?? 0;
  if (required > 0) lines.push(`  ${plural(required, 'witness cosignature')} required`);
  for (const registry of source.keys.registries ?? [])
    lines.push(`  ${pad('registry', 9)}chain ${registry.chain_id} ${safeText(registry.contract)}`);
  return lines;
}

/** A consistency proof file: a JSON array of hex hashes, or `{ "proof": [...] }` as the log API returns. */
function parseConsistencyProof(value: unknown, file: string): string[] {
  const proof =
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, 'proof')
      ? (value as { proof: unknown }).proof
      : value;
  if (
    !Array.isArray(proof) ||
    proof.length > MAX_CONSISTENCY_NODES ||
    !proof.every((node): node is string => typeof node === 'string')
  ) {
    throw new CliError(`consistency proof ${safeText(file)} must be a JSON array of hex hashes`, {
      hint: 'Fetch it from the log: /api/v1/log/consistency?first=<old size>&second=<new size>.',
    });
  }
  return proof;
}

/** Options for {@link renderVerification}. */
export interface RenderOptions {
  style: Style;
  /** Terminal width; claim text is cut to fit. */
  columns: number;
}

/**
 * The human report of `saksi verify`: header, checks, claims, summary, the three results
 * (authentic, supported, answers the question) and the verdict.
 */
export function renderVerification(
  bundle: unknown,
  result: BundleVerification,
  options: RenderOptions,
): string {
  const { style } = options;
  const lines: string[] = [];
  const field = (label: string, value: string | undefined) =>
    lines.push(
      `${style.bold(pad(label, 13))}${value === undefined ? style.dim('(missing)') : safeText(value)}`,
    );

  const certificate = ['certificate'];
  field('Certificate', result.certificate_id ?? pick(bundle, [...certificate, 'certificate_id']));
  const issuerName = pick(bundle, [...certificate, 'issuer', 'name']);
  const keyId = pick(bundle, [...certificate, 'issuer', 'key_id']);
  field('Issuer', issuerName === undefined ? undefined : `${issuerName}${keyId ? ` (key ${keyId})` : ''}`);
  field('Issued at', pick(bundle, [...certificate, 'issued_at']));
  field('Question', pick(bundle, [...certificate, 'query', 'text']));
  lines.push('');

  lines.push(style.bold('Checks'));
  const idWidth = Math.max(...result.checks.map((check) => check.id.length));
  for (const check of result.checks) {
    const name = pad(check.id, idWidth);
    if (check.status === 'pass') {
      lines.push(`  ${style.green('✓')} ${name}  ${safeText(check.message)}`);
    } else if (check.status === 'skip') {
      lines.push(`  ${style.dim('–')} ${name}  ${style.dim(`skipped: ${safeText(check.message)}`)}`);
    } else {
      const [first, ...rest] = check.problems.slice(0, MAX_PROBLEMS_SHOWN);
      const describe = (problem: NonNullable<typeof first>) =>
        `${style.red(problem.code)}${problem.field ? ` at ${safeText(problem.field)}` : ''}: ${safeText(problem.message)}`;
      lines.push(`  ${style.red('✗')} ${name}  ${first ? describe(first) : safeText(check.message)}`);
      for (const problem of rest) lines.push(`    ${' '.repeat(idWidth)}  ${describe(problem)}`);
      const hidden = check.problems.length - MAX_PROBLEMS_SHOWN;
      if (hidden > 0) lines.push(`    ${' '.repeat(idWidth)}  ${style.dim(`… and ${hidden} more`)}`);
    }
  }
  lines.push('');

  const anchors = anchorsOf(bundle);
  if (anchors.length > 0) {
    lines.push(style.bold('Anchors'));
    for (const anchor of anchors) {
      const link = explorerTxUrl(anchor.chain_id, anchor.tx_hash);
      lines.push(
        `  chain ${anchor.chain_id}  block ${anchor.block_number}  tx ${safeText(anchor.tx_hash)}${link ? `\n    ${link}` : ''}`,
      );
    }
    lines.push('');
  }

  if (result.claims.length > 0) {
    lines.push(style.bold('Claims'));
    lines.push(...claimTable(result, options));
    lines.push('');
  }

  const { verified, blocked, total } = result.summary;
  lines.push(`Claims: ${verified} verified / ${blocked} blocked / ${total} total`);
  const schema = pick(bundle, [...certificate, 'schema']);
  lines.push(...resultLines(result, schema, style));
  lines.push(verdictLine(result, style));
  return `${lines.join('\n')}\n`;
}

function claimTable(result: BundleVerification, options: RenderOptions): string[] {
  const { style } = options;
  const rows = result.claims.map((claim) => ({
    id: safeText(claim.claim_id),
    mark: claim.rendered ? '✓' : '✗',
    rendered: claim.rendered,
    reason: claim.reason,
    support: claim.supported.kind,
    score: claim.supported.score === undefined ? '-' : claim.supported.score.toFixed(2),
    relevance: claim.relevant.score === undefined ? '-' : claim.relevant.score.toFixed(2),
    text: safeText(claim.text),
  }));
  const widths = {
    id: Math.min(16, Math.max(2, ...rows.map((row) => row.id.length))),
    reason: Math.max(6, ...rows.map((row) => row.reason.length)),
    support: Math.max(7, ...rows.map((row) => row.support.length)),
  };
  const fixed = 2 + widths.id + 2 + 1 + 2 + widths.reason + 2 + widths.support + 2 + 5 + 2 + 8 + 2;
  const textWidth = Math.max(20, Math.min(200, options.columns) - fixed);
  const line = (
    id: string,
    mark: string,
    reason: string,
    support: string,
    score: string,
    relevance: string,
    text: string,
  ) =>
    `  ${pad(truncate(id, widths.id), widths.id)}  ${mark}  ${pad(reason, widths.reason)}  ${pad(support, widths.support)}  ${pad(score, 5)}  ${pad(relevance, 8)}  ${text}`;
  const out = [style.dim(line('ID', ' ', 'REASON', 'SUPPORT', 'SCORE', 'RELEVANT', 'CLAIM'))];
  for (const row of rows) {
    const mark = row.rendered ? style.green(row.mark) : style.red(row.mark);
    out.push(
      line(row.id, mark, row.reason, row.support, row.score, row.relevance, truncate(row.text, textWidth)),
    );
  }
  return out;
}

/** The distinct anchoring transactions the bundle's evidence names (for links; checked by verifyBundle). */
function anchorsOf(bundle: unknown): { chain_id: number; tx_hash: string; block_number: number }[] {
  const claims = (bundle as { certificate?: { claims?: unknown } } | null)?.certificate?.claims;
  if (!Array.isArray(claims)) return [];
  const seen = new Map<string, { chain_id: number; tx_hash: string; block_number: number }>();
  for (const claim of claims) {
    const evidence = (claim as { evidence?: unknown })?.evidence;
    if (!Array.isArray(evidence)) continue;
    for (const item of evidence) {
      const anchor = (item as { anchor?: Record<string, unknown> })?.anchor;
      if (
        anchor &&
        typeof anchor['chain_id'] === 'number' &&
        typeof anchor['tx_hash'] === 'string' &&
        typeof anchor['block_number'] === 'number'
      ) {
        seen.set(`${anchor['chain_id']}/${anchor['tx_hash']}`, {
          chain_id: anchor['chain_id'],
          tx_hash: anchor['tx_hash'],
          block_number: anchor['block_number'],
        });
      }
    }
  }
  return [...seen.values()].slice(0, 20);
}
