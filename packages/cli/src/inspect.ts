/**
 * `saksi inspect`: a readable dump of a bundle (or a bare certificate) WITHOUT verifying it. Only the
 * structure is checked, so that every field printed exists and has its type; nothing here says the
 * content is authentic — `saksi verify` does that.
 */
import {
  type Bundle,
  type Certificate,
  type Claim,
  type ClaimRelevance,
  type Evidence,
  isProofError,
  parseCheckpoint,
  parseNote,
  plural,
  toHex,
  validateBundle,
  validateCertificate,
} from '@saksi/proof';
import { type Command, expectPositionals, flag, type OptionValues } from './command.js';
import { readJsonFile } from './files.js';
import { CliError, type Io, type Style, styleFor } from './io.js';
import { pad, safeText, truncate, wrap } from './text.js';
import { riskText } from './verify-results.js';

export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'Show what a bundle says, without verifying it',
  usage: 'saksi inspect <bundle.json> [--json]',
  help: `Prints the certificate in a bundle: question, retrieval, answer, each claim with its
evidence, and where it sits in the log. Nothing is verified: use 'saksi verify' for that.
A bare certificate (without signature and log proof) is accepted too.

Options:
  --json   Print the certificate as JSON

Exit status: 0 printed, 2 unreadable or malformed input.`,
  options: { json: { type: 'boolean' } },
  run: runInspect,
};

async function runInspect(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const [file] = expectPositionals(positionals, ['<bundle.json>']) as [string];
  const value = await readJsonFile(io.cwd, file, 'bundle');
  const isBareCertificate =
    typeof value === 'object' &&
    value !== null &&
    Object.hasOwn(value, 'schema') &&
    !Object.hasOwn(value, 'certificate');
  let bundle: Bundle | undefined;
  let certificate: Certificate;
  try {
    if (isBareCertificate) certificate = validateCertificate(value);
    else {
      bundle = validateBundle(value);
      certificate = bundle.certificate;
    }
  } catch (error) {
    if (!isProofError(error)) throw error;
    throw new CliError(`${safeText(file)} is not a well-formed Saksi bundle: ${safeText(error.message)}`, {
      hint: `'saksi verify' lists every check, including this structural one.`,
    });
  }
  if (flag(values, 'json')) {
    io.stdout.write(`${JSON.stringify(certificate, null, 2)}\n`);
  } else {
    io.stdout.write(
      renderInspection(certificate, bundle, styleFor(io.stdout, io.env), io.stdout.columns ?? 100),
    );
  }
  return 0;
}

/** The human dump of `saksi inspect`. */
export function renderInspection(
  certificate: Certificate,
  bundle: Bundle | undefined,
  style: Style,
  columns: number,
): string {
  const width = Math.max(40, Math.min(160, columns));
  const lines: string[] = [];
  const field = (label: string, value: string) =>
    lines.push(`${style.bold(pad(label, 15))}${safeText(value)}`);
  const heading = (title: string) => lines.push('', style.bold(title));

  lines.push(style.yellow('Not verified — run saksi verify to check these statements.'), '');
  field('Certificate', certificate.certificate_id);
  field('Schema', certificate.schema);
  field('Issued at', certificate.issued_at);
  field(
    'Issuer',
    `${certificate.issuer.name} (key ${certificate.issuer.key_id}, ${certificate.issuer.public_key})`,
  );
  const query = certificate.query;
  field('Question', query.text);
  field(
    '',
    `mode ${query.mode}, sha256 ${query.sha256}, nonce ${query.nonce}` +
      (query.session_id === undefined ? '' : `, session ${query.session_id}`) +
      (query.selection_sha256 === undefined ? '' : `, selection sha256 ${query.selection_sha256}`),
  );

  const retrieval = certificate.retrieval;
  heading('Retrieval');
  const weights = Object.entries(retrieval.parameters.weights)
    .map(([name, weight]) => `${name}=${weight}`)
    .join(' ');
  field('  Collection', retrieval.collection);
  field(
    '  Parameters',
    `top_k ${retrieval.parameters.top_k}, rrf_k ${retrieval.parameters.rrf_k}, weights ${weights || '-'}`,
  );
  for (const variant of retrieval.parameters.rewrite_variants) {
    field('  Variant', `[${variant.kind}, weight ${variant.weight}] ${variant.text}`);
  }
  const rows = retrieval.results.map((result) => [
    String(result.rank),
    result.score.toFixed(6),
    safeText(result.chunk_id),
    safeText(result.document_id),
    `${result.chunk_sha256.slice(0, 16)}…`,
  ]);
  lines.push(...table(['RANK', 'SCORE', 'CHUNK', 'DOCUMENT', 'CHUNK SHA256'], rows, style, width));

  const generator = certificate.answer.generator;
  heading(`Answer (${generator.kind}: ${safeText(generator.model)} ${safeText(generator.version)})`);
  lines.push(wrap(safeText(certificate.answer.text, true), width - 2, '  '));

  heading('Results (as the certificate states them)');
  lines.push(...statedResults(certificate, style));

  heading(`Claims (${certificate.claims.length})`);
  for (const claim of certificate.claims) {
    lines.push(`  ${style.bold(`[${safeText(claim.claim_id)}]`)} ${safeText(claim.text)}`);
    const verification = claim.verification;
    lines.push(
      `      ${verification.label}, confidence ${verification.confidence} (verifier ${safeText(verification.verifier.id)} ` +
        `${safeText(verification.verifier.version)}); certificate says ${claim.render.rendered ? 'shown' : 'hidden'}: ${claim.render.reason}`,
    );
    if (claim.composition) {
      const composition = claim.composition;
      lines.push(
        `      composed with template ${safeText(composition.template)} (${composition.language}), ` +
          `${plural(composition.parts.length, 'part')}: ${truncate(safeText(composition.parts.map(describePart).join(' ')), width - 40)}`,
      );
    }
    if (claim.relevance) lines.push(`      relevance ${describeRelevance(claim.relevance)}`);
    if (claim.evidence.length === 0) lines.push(`      ${style.dim('no evidence')}`);
    claim.evidence.forEach((evidence, index) => {
      lines.push(...describeEvidence(evidence, index, width));
    });
  }

  const policy = certificate.policy;
  heading('Policy');
  field(
    '  Render if',
    `confidence ≥ ${policy.confidence_threshold}${policy.require_anchor ? ', anchored on chain' : ''}, fail closed`,
  );

  if (bundle) {
    heading('Log');
    field('  Origin', bundle.log.origin);
    field(
      '  Entry',
      `leaf ${bundle.log.leaf_index}, inclusion proof of ${plural(bundle.log.inclusion_proof.length, 'hash', 'hashes')}`,
    );
    field('  Checkpoint', describeCheckpoint(bundle.log.checkpoint));
    field('  Cosigned by', bundle.log.cosignatures.map(cosignerName).join(', ') || 'no witness');
    field('  Chunks', `${bundle.chunks.length} cited chunk texts carried in the bundle`);
  } else {
    heading('Log');
    lines.push(`  ${style.dim('bare certificate: no signature or log proof')}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A part of a composition as the certificate writes it: `"Menurut "`, `span 0`, `[1]`,
 * `difference 0→1`, `spelled 1`.
 */
function describePart(part: NonNullable<Claim['composition']>['parts'][number]): string {
  if ('fixed' in part) return JSON.stringify(part.fixed);
  if ('span' in part) return `span ${part.span}`;
  if ('cite' in part) return `cite ${part.cite}`;
  if ('marker' in part) return `[${part.marker}]`;
  if ('spelled' in part) return `spelled ${part.spelled}`;
  return `difference ${part.difference[0]}→${part.difference[1]}`;
}

function describeRelevance(relevance: ClaimRelevance): string {
  const comparison = relevance.score >= relevance.threshold ? '≥' : '<';
  return `${relevance.score.toFixed(2)} ${comparison} ${relevance.threshold.toFixed(2)} (${safeText(relevance.method.id)} ${safeText(relevance.method.version)})`;
}

/**
 * The three results as the certificate states them: nothing here is checked (authenticity needs
 * `saksi verify`), so supported is what the issuer's verifiers say, and relevance is the issuer's score.
 */
function statedResults(certificate: Certificate, style: Style): string[] {
  const label = (name: string) => style.bold(pad(`  ${name}:`, 14));
  const lines = [`${label('Authentic')}${style.yellow('not checked')} — run saksi verify`];
  const answer = certificate.answer;
  if (answer.outcome === 'refused') {
    lines.push(`  Answer: refused${answer.refusal ? ` (${answer.refusal.reason})` : ''}`);
    return lines;
  }
  const claims = certificate.claims;
  const verifiers = new Map<string, number>();
  for (const claim of claims) {
    const id = claim.composition
      ? `composed (${claim.composition.template})`
      : claim.verification.verifier.id;
    verifiers.set(id, (verifiers.get(id) ?? 0) + 1);
  }
  lines.push(
    `${label('Supported')}${plural(claims.length, 'claim')}` +
      (claims.length === 0
        ? ''
        : `, by ${[...verifiers].map(([id, n]) => `${safeText(id)} × ${n}`).join(', ')}`),
  );
  const check = answer.check;
  if (check !== undefined) {
    // v1.2: the answer check is the one minimum; the older relevance score is not shown beside it.
    const comparison = check.score >= check.threshold ? '≥' : '<';
    lines.push(
      `${label('Answers')}answer check ${check.score.toFixed(2)} ${comparison} ${check.threshold.toFixed(2)}, risk ≤ ${riskText(check.alpha)} (${safeText(check.method.id)} ${safeText(check.method.version)}); asked ${safeText(check.asked)}` +
        (check.constraints.length > 0
          ? `, constraints ${check.constraints.map((item) => safeText(item)).join(', ')}`
          : ''),
    );
  } else
    lines.push(
      `${label('Relevant')}${answer.relevance ? describeRelevance(answer.relevance) : style.dim(certificate.schema === 'saksi.certificate/v1' ? 'not recorded (certificate v1)' : 'not recorded')}`,
    );
  if (answer.outcome === 'answered') lines.push('  Answer: answered');
  else if (answer.outcome === 'related') lines.push('  Answer: related passages, not a confirmed answer');
  return lines;
}

function describeEvidence(evidence: Evidence, index: number, width: number): string[] {
  const citation = evidence.citation;
  const where = [
    citation.page === undefined ? undefined : `page ${citation.page}`,
    citation.section_path?.length ? citation.section_path.join(' › ') : undefined,
    citation.pasal === undefined ? undefined : `Pasal ${citation.pasal}`,
    citation.ayat === undefined ? undefined : `ayat (${citation.ayat})`,
  ].filter((part): part is string => part !== undefined);
  const proof = evidence.document_proof;
  const lines = [
    `      evidence ${index + 1}: ${safeText(citation.document_title)}${where.length ? `, ${safeText(where.join(', '))}` : ''}`,
    wrap(`“${safeText(evidence.span.text)}”`, width - 10, '          '),
    `          chunk ${safeText(evidence.chunk_id)} [${evidence.span.start}, ${evidence.span.end}) of document ${safeText(evidence.document_id)}`,
    `          document root ${proof.document_root} (leaf ${proof.leaf_index} of ${proof.tree_size})`,
  ];
  if (citation.url !== undefined) lines.push(`          ${truncate(safeText(citation.url), width - 10)}`);
  const anchor = evidence.anchor;
  if (anchor) {
    lines.push(
      `          anchor: chain ${anchor.chain_id}, block ${anchor.block_number}, contract ${safeText(anchor.contract)}`,
      `                  tx ${safeText(anchor.tx_hash)}`,
      `                  batch root ${anchor.batch_root} (leaf ${anchor.batch_proof.leaf_index} of ${anchor.batch_proof.tree_size})`,
    );
  } else {
    lines.push('          anchor: none');
  }
  return lines;
}

function describeCheckpoint(note: string): string {
  try {
    const checkpoint = parseCheckpoint(parseNote(note).text);
    return `size ${checkpoint.size}, root ${toHex(checkpoint.rootHash)}`;
  } catch {
    return 'unreadable (not a C2SP checkpoint note)';
  }
}

function cosignerName(line: string): string {
  return safeText(line.replace(/^— /, '').split(' ')[0] ?? '?');
}

function table(headers: string[], rows: string[][], style: Style, width: number): string[] {
  const sizes = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const render = (cells: string[]) =>
    truncate(`  ${cells.map((cell, column) => pad(cell, sizes[column] ?? 0)).join('  ')}`.trimEnd(), width);
  return [style.dim(render(headers)), ...rows.map(render)];
}
