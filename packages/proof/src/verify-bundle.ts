/**
 * `verifyBundle` — the one verifier that the server, the CLI and the browser all call
 * (docs/verification.md).
 *
 * It runs every check of docs/certificate.md "Verification result" on a hostile bundle, reports each
 * with its code, and decides per claim, fail-closed, whether it may be shown as verified. It reports
 * three separate results: *authentic* (every integrity check passed), and per claim *supported* and
 * *relevant*, with the answer's outcome and relevance and (certificate v1.2) its answer check,
 * recomputed with the vocabulary's asked rules. It never throws on bad input: malformed bundles come
 * back as a failed `structure` check.
 */
import { constantTimeEqual, fromBase64, fromHex, hexDigestEqual, toHex } from './bytes.js';
import {
  type Anchor,
  type Bundle,
  type Certificate,
  type Claim,
  issuerKeyId,
  logLeafInput,
  normalizeQuestion,
  sliceCodePoints,
  validateBundle,
} from './certificate.js';
import { type Checkpoint, parseCheckpoint, verifyCheckpoint } from './checkpoint.js';
import { acceptedCitationLabels } from './citation-label.js';
import { compositionMarkers, renderComposition } from './composition.js';
import { createCosignatureVerifier, verifyCosignatures } from './cosignature.js';
import { verify } from './ed25519.js';
import { isProofError } from './errors.js';
import { sha256Hex } from './hash.js';
import { canonicalizeToBytes } from './jcs.js';
import { hashLeaf, verifyConsistencyProof, verifyInclusionProof } from './merkle.js';
import { createNoteVerifier, type NoteVerifier, parseNote } from './note.js';
import { plural } from './plural.js';
import {
  type AnswerDecision,
  type ClaimDecision,
  decideAnswer,
  decideRender,
  type Vocabulary,
} from './render-policy.js';

/**
 * Integrity failure codes (docs/certificate.md, "Verification result"). `OPTIONS_INVALID` is the
 * caller's mistake, not the bundle's (no vocabulary, no trusted keys): nothing can be checked, so
 * nothing is verified.
 */
export type IntegrityCode =
  | 'MALFORMED'
  | 'SIGNATURE_INVALID'
  | 'UNKNOWN_ISSUER'
  | 'HASH_MISMATCH'
  | 'SPAN_OFFSET_MISMATCH'
  | 'COMPOSITION_MISMATCH'
  | 'CITATION_MISMATCH'
  | 'DOCUMENT_PROOF_INVALID'
  | 'ANCHOR_NOT_FOUND'
  | 'ANCHOR_MISMATCH'
  | 'LOG_PROOF_INVALID'
  | 'CHECKPOINT_SIGNATURE_INVALID'
  | 'CHECKPOINT_INCONSISTENT'
  | 'COSIGNATURES_MISSING'
  | 'QUERY_MISMATCH'
  | 'CITATION_LABEL_MISMATCH'
  | 'MARKER_MISMATCH'
  | 'UNCITED_CHUNK'
  | 'DUPLICATE_ENTRY'
  | 'OPTIONS_INVALID';

/** The checks, in the order they are reported. */
export type CheckId =
  | 'structure'
  | 'issuer'
  | 'signature'
  | 'hashes'
  | 'claim_offsets'
  | 'spans'
  | 'compositions'
  | 'citations'
  | 'document_proofs'
  | 'anchor_proofs'
  | 'anchor_onchain'
  | 'query_replay'
  | 'checkpoint_signature'
  | 'log_inclusion'
  | 'cosignatures'
  | 'checkpoint_consistency';

export const CHECK_ORDER: readonly CheckId[] = [
  'structure',
  'issuer',
  'signature',
  'hashes',
  'claim_offsets',
  'spans',
  'compositions',
  'citations',
  'document_proofs',
  'anchor_proofs',
  'anchor_onchain',
  'query_replay',
  'checkpoint_signature',
  'log_inclusion',
  'cosignatures',
  'checkpoint_consistency',
];

export interface CheckProblem {
  code: IntegrityCode;
  /** JSON path of the offending field, e.g. `certificate.claims[0].evidence[1].span.sha256`. */
  field?: string;
  message: string;
}

export interface Check {
  id: CheckId;
  /** `skip` means the check could not run (missing option or nothing to check); it is not a pass. */
  status: 'pass' | 'fail' | 'skip';
  message: string;
  problems: CheckProblem[];
}

export interface TrustedIssuer {
  name?: string;
  /** Ed25519 public key, base64 or raw bytes. */
  public_key: string | Uint8Array;
}

export interface TrustedLog {
  origin: string;
  /** C2SP verifier key of the log (`origin+keyid+base64`). */
  vkey: string;
}

/** A DocumentRegistry a verifier accepts anchors from. */
export interface TrustedRegistry {
  chain_id: number;
  /** 0x-prefixed address (compared case-insensitively). */
  contract: string;
}

/** What a chain says about an anchored batch root. */
export interface AnchorRecord {
  exists: boolean;
  /** Unix seconds of the block that anchored the root. */
  timestamp?: number;
  id?: string;
  /**
   * Set when the root is on chain but the anchor's other fields disagree with the chain (wrong
   * transaction, block or contract for that root): the anchor is then `ANCHOR_MISMATCH`.
   */
  problem?: string;
}

export type AnchorLookup = (anchor: Anchor) => Promise<AnchorRecord>;

export interface VerifyBundleOptions {
  trustedIssuers: readonly TrustedIssuer[];
  trustedLogs: readonly TrustedLog[];
  /** C2SP cosignature verifier keys of the witnesses this verifier trusts. */
  witnesses?: readonly string[];
  /** How many distinct trusted witnesses must have cosigned the checkpoint (default 0). */
  requiredCosignatures?: number;
  /** The last checkpoint (signed note) this verifier saw for the log; enables rollback and fork detection. */
  lastCheckpoint?: string;
  /** RFC 9162 consistency proof (hex) between the smaller and larger of the two checkpoints. */
  consistencyProof?: readonly string[];
  /** Fetches that proof on demand (e.g. from `/api/v1/log/consistency`). */
  fetchConsistencyProof?: (size1: number, size2: number) => Promise<readonly string[]>;
  /** The question the user actually asked; a different one is a replay (`QUERY_MISMATCH`). */
  presentedQuestion?: string;
  /** Looks an anchor's batch root up on chain (`verifyRoot`). Without it the on-chain check is skipped. */
  anchorLookup?: AnchorLookup;
  /**
   * The registries whose anchors count. When given, an anchor naming another chain or contract is
   * `ANCHOR_MISMATCH` (a look-alike contract could answer anything); when absent, any is looked up.
   */
  trustedRegistries?: readonly TrustedRegistry[];
  /**
   * The product words claims are read with: the composition templates, the render policy's
   * negations and quantifiers, and the asked rules the answer check of a v1.2 certificate is
   * recomputed with (docs/verification.md, "Vocabulary"). Saksi's is `SAKSI_VOCABULARY` of
   * `@saksi/proof/vocabulary`.
   */
  vocabulary: Vocabulary;
}

export interface BundleVerification {
  /** `verified` only when no check failed. */
  verdict: 'verified' | 'failed';
  /**
   * The *authentic* result: every integrity check passed (hashes, offsets, compositions, proofs,
   * signature, log, anchors). A skipped check was not asked for (no option given, or nothing to
   * check); it counts neither for nor against. Equivalent to `verdict === 'verified'`.
   */
  authentic: boolean;
  certificate_id: string | null;
  checks: Check[];
  /** Distinct integrity codes found, in check order. */
  codes: IntegrityCode[];
  /** Per claim: the render decision with its *supported* and *relevant* results. */
  claims: ClaimDecision[];
  /**
   * The answer's outcome and *relevant* result, its answer check (v1.2) and whether it may be shown
   * as an answer.
   */
  answer: AnswerDecision;
  summary: { verified: number; blocked: number; total: number };
  /** The verified checkpoint of this bundle, to remember as the new last-seen one when larger. */
  checkpoint: { origin: string; size: number; root_hash: string } | null;
}

class Checks {
  private readonly map = new Map<CheckId, Check>();

  constructor() {
    for (const id of CHECK_ORDER) this.map.set(id, { id, status: 'skip', message: 'not run', problems: [] });
  }

  pass(id: CheckId, message: string): void {
    const check = this.map.get(id)!;
    if (check.problems.length === 0) Object.assign(check, { status: 'pass', message });
  }

  skip(id: CheckId, message: string): void {
    const check = this.map.get(id)!;
    if (check.problems.length === 0) Object.assign(check, { status: 'skip', message });
  }

  fail(id: CheckId, code: IntegrityCode, message: string, field?: string): void {
    const check = this.map.get(id)!;
    if (check.problems.length < 100) {
      const problem: CheckProblem = { code, message };
      if (field !== undefined) problem.field = field;
      check.problems.push(problem);
    }
    check.status = 'fail';
    check.message = check.problems[0]!.message;
  }

  failed(id: CheckId): boolean {
    return this.map.get(id)!.status === 'fail';
  }

  list(): Check[] {
    return CHECK_ORDER.map((id) => this.map.get(id)!);
  }
}

/**
 * Verifies a bundle. Never throws for bad input; the result lists every check.
 *
 * @example
 * const result = await verifyBundle(bundle, { trustedIssuers: [{ public_key }], trustedLogs: [{ origin, vkey }] });
 * if (result.verdict === 'verified') show(result.claims.filter((claim) => claim.rendered));
 */
export async function verifyBundle(
  input: unknown,
  options: VerifyBundleOptions,
): Promise<BundleVerification> {
  const checks = new Checks();
  const misconfigured = optionsProblem(options);
  if (misconfigured !== undefined) {
    checks.fail('structure', 'OPTIONS_INVALID', misconfigured.message, misconfigured.field);
    return finish(checks, null, [], NO_ANSWER, null);
  }
  let bundle: Bundle;
  try {
    bundle = validateBundle(input);
  } catch (error) {
    const field = isProofError(error) ? error.details : undefined;
    checks.fail(
      'structure',
      'MALFORMED',
      isProofError(error) ? error.message : 'The bundle is not valid.',
      field,
    );
    return finish(checks, null, [], NO_ANSWER, null);
  }
  checks.pass('structure', 'The bundle and its certificate are well formed.');
  const certificate = bundle.certificate;

  checkIssuerAndSignature(bundle, options, checks);
  checkHashes(bundle, checks);
  checkClaimOffsets(certificate, checks);
  checkSpans(bundle, checks);
  checkCompositions(certificate, options.vocabulary, checks);
  checkCitations(certificate, checks);
  checkCosignatureLines(bundle, checks);
  checkDocumentProofs(certificate, checks);
  const anchoredClaims = await checkAnchors(certificate, options, checks);
  checkQueryReplay(certificate, options, checks);
  const checkpoint = checkLog(bundle, options, checks);
  await checkConsistency(checkpoint, options, checks);

  const integrityOk = !checks.list().some((check) => check.status === 'fail');
  const claims = decideRender(certificate, { integrityOk, anchoredClaims, vocabulary: options.vocabulary });
  const answer = decideAnswer(certificate, claims, integrityOk, options.vocabulary);
  return finish(checks, certificate.certificate_id, claims, answer, checkpoint);
}

/** The answer reading of a bundle that could not be read at all. */
const NO_ANSWER: AnswerDecision = { outcome: 'unknown', relevant: { status: 'unknown' }, answered: false };

const VOCABULARY_HINT = 'pass Saksi\'s SAKSI_VOCABULARY of "@saksi/proof/vocabulary", or your own';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * What is wrong with the verifier's own options, or undefined: a call without a vocabulary (or with
 * one that is not a template registry and word lists), without trusted issuers and logs, or with an
 * option of the wrong type. Such a call verifies nothing (`OPTIONS_INVALID`) instead of throwing a
 * `TypeError` midway.
 */
function optionsProblem(options: unknown): { message: string; field: string } | undefined {
  if (!isRecord(options))
    return {
      message: `The verifier was called without options: give the trusted keys and a vocabulary (${VOCABULARY_HINT}).`,
      field: 'options',
    };
  const vocabulary = options['vocabulary'];
  if (vocabulary === undefined)
    return {
      message: `The verifier was called without a vocabulary (options.vocabulary): ${VOCABULARY_HINT}.`,
      field: 'options.vocabulary',
    };
  if (!isRecord(vocabulary))
    return {
      message: `options.vocabulary is not a vocabulary: ${VOCABULARY_HINT}.`,
      field: 'options.vocabulary',
    };
  if (!isRecord(vocabulary['templates']))
    return {
      message: 'options.vocabulary.templates is not a template registry.',
      field: 'options.vocabulary.templates',
    };
  for (const list of ['negations', 'quantifiers'] as const)
    if (!isStringList(vocabulary[list]))
      return {
        message: `options.vocabulary.${list} is not a list of words.`,
        field: `options.vocabulary.${list}`,
      };
  if (vocabulary['asked'] !== undefined && !Array.isArray(vocabulary['asked']))
    return {
      message: 'options.vocabulary.asked is not a list of asked rules.',
      field: 'options.vocabulary.asked',
    };
  for (const list of ['trustedIssuers', 'trustedLogs'] as const)
    if (!Array.isArray(options[list]))
      return { message: `options.${list} is not a list of trusted keys.`, field: `options.${list}` };
  for (const list of ['witnesses', 'consistencyProof', 'trustedRegistries'] as const)
    if (options[list] !== undefined && !Array.isArray(options[list]))
      return { message: `options.${list} is not a list.`, field: `options.${list}` };
  for (const text of ['lastCheckpoint', 'presentedQuestion'] as const)
    if (options[text] !== undefined && typeof options[text] !== 'string')
      return { message: `options.${text} is not a string.`, field: `options.${text}` };
  for (const call of ['anchorLookup', 'fetchConsistencyProof'] as const)
    if (options[call] !== undefined && typeof options[call] !== 'function')
      return { message: `options.${call} is not a function.`, field: `options.${call}` };
  const required = options['requiredCosignatures'];
  if (
    required !== undefined &&
    (typeof required !== 'number' || !Number.isSafeInteger(required) || required < 0)
  )
    return {
      message: 'options.requiredCosignatures is not a whole number of witnesses.',
      field: 'options.requiredCosignatures',
    };
  return undefined;
}

function finish(
  checks: Checks,
  certificateId: string | null,
  claims: ClaimDecision[],
  answer: AnswerDecision,
  checkpoint: Checkpoint | null,
): BundleVerification {
  const list = checks.list();
  const codes: IntegrityCode[] = [];
  for (const check of list)
    for (const problem of check.problems) if (!codes.includes(problem.code)) codes.push(problem.code);
  const verified = claims.filter((claim) => claim.rendered).length;
  return {
    verdict: codes.length === 0 ? 'verified' : 'failed',
    authentic: codes.length === 0,
    certificate_id: certificateId,
    checks: list,
    codes,
    claims,
    answer: structuredClone(answer),
    summary: { verified, blocked: claims.length - verified, total: claims.length },
    checkpoint: checkpoint && {
      origin: checkpoint.origin,
      size: checkpoint.size,
      root_hash: toHex(checkpoint.rootHash),
    },
  };
}

function checkIssuerAndSignature(bundle: Bundle, options: VerifyBundleOptions, checks: Checks): void {
  const issuer = bundle.certificate.issuer;
  const publicKey = fromBase64(issuer.public_key, 32);
  const trusted = options.trustedIssuers.some((candidate) => {
    try {
      const key =
        typeof candidate.public_key === 'string'
          ? fromBase64(candidate.public_key, 32)
          : candidate.public_key;
      return constantTimeEqual(key, publicKey);
    } catch {
      return false;
    }
  });
  if (!trusted) {
    checks.fail(
      'issuer',
      'UNKNOWN_ISSUER',
      `Issuer key ${issuer.key_id} is not among the trusted keys.`,
      'certificate.issuer',
    );
  } else if (issuerKeyId(publicKey) !== issuer.key_id) {
    checks.fail(
      'issuer',
      'HASH_MISMATCH',
      'The issuer key_id does not match its public key.',
      'certificate.issuer.key_id',
    );
  } else {
    checks.pass('issuer', `Issued by trusted key ${issuer.key_id} (${issuer.name}).`);
  }
  const signature = fromBase64(bundle.signature, 64);
  if (verify(signature, canonicalizeToBytes(bundle.certificate), publicKey)) {
    checks.pass('signature', 'The Ed25519 signature over the canonical certificate is valid.');
  } else {
    checks.fail('signature', 'SIGNATURE_INVALID', 'The certificate signature does not verify.', 'signature');
  }
}

function checkHashes(bundle: Bundle, checks: Checks): void {
  const { certificate } = bundle;
  const expect = (digest: string, text: string, field: string) => {
    if (!hexDigestEqual(digest, sha256Hex(text))) {
      checks.fail('hashes', 'HASH_MISMATCH', `${field} does not match the text it commits to.`, field);
    }
  };
  expect(certificate.query.sha256, certificate.query.text, 'certificate.query.sha256');
  expect(certificate.answer.sha256, certificate.answer.text, 'certificate.answer.sha256');
  let count = 2;
  certificate.claims.forEach((claim, c) => {
    expect(claim.sha256, claim.text, `certificate.claims[${c}].sha256`);
    count++;
    claim.evidence.forEach((evidence, e) => {
      expect(evidence.span.sha256, evidence.span.text, `certificate.claims[${c}].evidence[${e}].span.sha256`);
      count++;
    });
  });
  const cited = new Map<string, string>();
  for (const claim of certificate.claims)
    for (const evidence of claim.evidence) cited.set(evidence.chunk_id, evidence.chunk_sha256);
  // The bundle carries the text of cited chunks and nothing else (docs/certificate.md, "Bundle"): a
  // chunk no evidence cites, or a second copy of one, is text nothing commits to.
  const carried = new Set<string>();
  bundle.chunks.forEach((chunk, index) => {
    const field = `chunks[${index}]`;
    if (carried.has(chunk.chunk_id)) {
      checks.fail('hashes', 'DUPLICATE_ENTRY', `Chunk ${chunk.chunk_id} is in the bundle twice.`, field);
      return;
    }
    carried.add(chunk.chunk_id);
    const committed = cited.get(chunk.chunk_id);
    if (committed === undefined) {
      checks.fail(
        'hashes',
        'UNCITED_CHUNK',
        `Chunk ${chunk.chunk_id} is cited by no evidence: nothing commits to its text.`,
        field,
      );
      return;
    }
    expect(committed, chunk.text, `${field}.text`);
    count++;
  });
  checks.pass(
    'hashes',
    `${plural(count, 'SHA-256 commitment')} ${count === 1 ? 'matches its' : 'match their'} text.`,
  );
}

function checkClaimOffsets(certificate: Certificate, checks: Checks): void {
  let previousEnd = 0;
  const ids = new Set<string>();
  certificate.claims.forEach((claim, index) => {
    const field = `certificate.claims[${index}]`;
    if (ids.has(claim.claim_id))
      checks.fail('claim_offsets', 'MALFORMED', `Claim id ${claim.claim_id} repeats.`, field);
    ids.add(claim.claim_id);
    if (claim.answer_start < previousEnd) {
      checks.fail(
        'claim_offsets',
        'SPAN_OFFSET_MISMATCH',
        `Claim ${claim.claim_id} overlaps or precedes the previous claim.`,
        field,
      );
    }
    previousEnd = claim.answer_end;
    if (sliceCodePoints(certificate.answer.text, claim.answer_start, claim.answer_end) !== claim.text) {
      checks.fail(
        'claim_offsets',
        'SPAN_OFFSET_MISMATCH',
        `Claim ${claim.claim_id} is not at its offsets in the answer.`,
        field,
      );
    }
  });
  const claims = certificate.claims.length;
  checks.pass(
    'claim_offsets',
    `${plural(claims, 'claim')} ${claims === 1 ? 'sits at its offsets' : 'sit at their offsets'} in the answer.`,
  );
}

function checkSpans(bundle: Bundle, checks: Checks): void {
  const texts = new Map<string, string>();
  for (const chunk of bundle.chunks) texts.set(chunk.chunk_id, chunk.text);
  let count = 0;
  bundle.certificate.claims.forEach((claim, c) => {
    claim.evidence.forEach((evidence, e) => {
      const field = `certificate.claims[${c}].evidence[${e}].span`;
      const chunkText = texts.get(evidence.chunk_id);
      count++;
      if (chunkText === undefined) {
        checks.fail(
          'spans',
          'SPAN_OFFSET_MISMATCH',
          `The text of chunk ${evidence.chunk_id} is missing from the bundle.`,
          field,
        );
      } else if (sliceCodePoints(chunkText, evidence.span.start, evidence.span.end) !== evidence.span.text) {
        checks.fail(
          'spans',
          'SPAN_OFFSET_MISMATCH',
          `The evidence span is not at its offsets in chunk ${evidence.chunk_id}.`,
          field,
        );
      }
    });
  });
  checks.pass(
    'spans',
    `${plural(count, 'evidence span')} ${count === 1 ? 'sits at its offsets in its chunk' : 'sit at their offsets in their chunks'}.`,
  );
}

/**
 * Recomputes every composed claim (v1.1) from its evidence and the template registry: the template
 * and language are known, every fixed word is the template's, indices are in range, every evidence
 * item is used, and the rendered text is the claim's text. Then its citation markers: each cites
 * the evidence of one chunk, the claim's chunks in order, and a number names one chunk in the whole
 * answer (docs/certificate.md, "Citation markers").
 */
function checkCompositions(certificate: Certificate, vocabulary: Vocabulary, checks: Checks): void {
  let composed = 0;
  const sources = new Map<number, { chunk_id: string; claim: string }>();
  certificate.claims.forEach((claim, c) => {
    const composition = claim.composition;
    if (composition === undefined) return;
    composed++;
    const field = `certificate.claims[${c}].composition`;
    checkMarkers(claim, field, sources, checks);
    const rendered = renderComposition(composition, claim.evidence, vocabulary.templates);
    if (!rendered.ok) {
      checks.fail(
        'compositions',
        'COMPOSITION_MISMATCH',
        `Claim ${claim.claim_id} does not recompute: ${rendered.message}.`,
        rendered.part === undefined ? field : `${field}.parts[${rendered.part}]`,
      );
    } else if (rendered.text !== claim.text) {
      checks.fail(
        'compositions',
        'COMPOSITION_MISMATCH',
        `Claim ${claim.claim_id} is not the text its composition renders from its evidence.`,
        field,
      );
    }
  });
  checks.pass(
    'compositions',
    composed === 0
      ? 'No composed claim to recompute.'
      : `${plural(composed, 'composed claim')} recompute${composed === 1 ? 's' : ''} from ${composed === 1 ? 'its' : 'their'} evidence and the template registry.`,
  );
}

/**
 * The citation markers of a composed claim (docs/certificate.md, "Citation markers"). A marker
 * "[n]" numbers a source of the answer, so it cites the evidence the parts before it read (since
 * the previous marker): at least one item, all of one chunk. The claim's markers name its evidence
 * chunks in the order the evidence lists them (so a reader that takes the k-th marker to the k-th
 * chunk, as the web app does, agrees), and across the answer's composed claims a number names one
 * chunk. `sources` holds the numbers seen so far.
 */
function checkMarkers(
  claim: Claim,
  field: string,
  sources: Map<number, { chunk_id: string; claim: string }>,
  checks: Checks,
): void {
  const markers = compositionMarkers(claim.composition!);
  const named: string[] = [];
  let consistent = true;
  for (const { part, marker, evidence } of markers) {
    const where = `${field}.parts[${part}]`;
    const chunks = [...new Set(evidence.map((index) => claim.evidence[index]?.chunk_id))];
    if (chunks.includes(undefined)) return; // An index out of range: COMPOSITION_MISMATCH says so.
    if (chunks.length !== 1) {
      checks.fail(
        'compositions',
        'MARKER_MISMATCH',
        chunks.length === 0
          ? `Marker [${marker}] of claim ${claim.claim_id} cites no evidence: no part before it reads any.`
          : `Marker [${marker}] of claim ${claim.claim_id} cites the evidence of ${chunks.length} chunks at once.`,
        where,
      );
      consistent = false;
      continue;
    }
    const chunk = chunks[0]!;
    if (!named.includes(chunk)) named.push(chunk);
    const seen = sources.get(marker);
    if (seen === undefined) sources.set(marker, { chunk_id: chunk, claim: claim.claim_id });
    else if (seen.chunk_id !== chunk) {
      checks.fail(
        'compositions',
        'MARKER_MISMATCH',
        `Marker [${marker}] of claim ${claim.claim_id} cites chunk ${chunk}, but [${marker}] of claim ${seen.claim} cites chunk ${seen.chunk_id}.`,
        where,
      );
    }
  }
  if (!consistent || markers.length === 0) return;
  const listed = [...new Set(claim.evidence.map((evidence) => evidence.chunk_id))];
  if (listed.length !== named.length || listed.some((chunk, index) => chunk !== named[index])) {
    checks.fail(
      'compositions',
      'MARKER_MISMATCH',
      `The markers of claim ${claim.claim_id} do not cite its evidence chunks, in the order its evidence lists them.`,
      field,
    );
  }
}

/**
 * Every evidence chunk is one of the retrieved results (same document and hash), and every citation
 * label is one `acceptedCitationLabels` derives from the citation's signed fields (docs/certificate.md,
 * "Citation labels"): a label, shown as the source and put into composed claims by `cite` parts,
 * says no more than its Pasal, ayat, sections and document title.
 */
function checkCitations(certificate: Certificate, checks: Checks): void {
  const results = new Map<string, { document_id: string; chunk_sha256: string }>();
  for (const result of certificate.retrieval.results) results.set(result.chunk_id, result);
  let labels = 0;
  certificate.claims.forEach((claim, c) => {
    claim.evidence.forEach((evidence, e) => {
      const label = evidence.citation.label;
      if (label !== undefined) {
        labels++;
        const accepted = acceptedCitationLabels(evidence.citation);
        const derived = accepted[0];
        if (!accepted.includes(label)) {
          checks.fail(
            'citations',
            'CITATION_LABEL_MISMATCH',
            derived === undefined
              ? `The citation label ${JSON.stringify(label.slice(0, 100))} names no Pasal the citation has.`
              : `The citation label ${JSON.stringify(label.slice(0, 100))} is not the one its citation reads as (${JSON.stringify(derived)}).`,
            `certificate.claims[${c}].evidence[${e}].citation.label`,
          );
        }
      }
      const result = results.get(evidence.chunk_id);
      if (
        result === undefined ||
        result.document_id !== evidence.document_id ||
        !hexDigestEqual(result.chunk_sha256, evidence.chunk_sha256)
      ) {
        checks.fail(
          'citations',
          'CITATION_MISMATCH',
          `Evidence chunk ${evidence.chunk_id} does not match a retrieved result (document or hash differs).`,
          `certificate.claims[${c}].evidence[${e}]`,
        );
      }
    });
  });
  checks.pass(
    'citations',
    `Every cited chunk is one of the retrieved results, with the same document and hash${
      labels === 0
        ? ''
        : `; ${plural(labels, 'citation label')} ${labels === 1 ? 'reads' : 'read'} as ${labels === 1 ? 'its citation' : 'their citations'}`
    }.`,
  );
}

function checkDocumentProofs(certificate: Certificate, checks: Checks): void {
  let count = 0;
  certificate.claims.forEach((claim, c) => {
    claim.evidence.forEach((evidence, e) => {
      const proof = evidence.document_proof;
      count++;
      const ok = verifyInclusionProof(
        proof.leaf_index,
        proof.tree_size,
        hashLeaf(fromHex(evidence.chunk_sha256, 32)),
        proof.path.map((node) => fromHex(node, 32)),
        fromHex(proof.document_root, 32),
      );
      if (!ok) {
        checks.fail(
          'document_proofs',
          'DOCUMENT_PROOF_INVALID',
          `Chunk ${evidence.chunk_id} does not prove into document root ${proof.document_root.slice(0, 12)}….`,
          `certificate.claims[${c}].evidence[${e}].document_proof`,
        );
      }
    });
  });
  if (count === 0) checks.skip('document_proofs', 'No evidence to prove.');
  else
    checks.pass(
      'document_proofs',
      `${plural(count, 'chunk')} ${count === 1 ? 'proves into its document root' : 'prove into their document roots'} (RFC 6962).`,
    );
}

async function checkAnchors(
  certificate: Certificate,
  options: VerifyBundleOptions,
  checks: Checks,
): Promise<boolean[]> {
  const anchoredClaims: boolean[] = [];
  const lookups = new Map<string, Promise<AnchorRecord>>();
  let anchors = 0;
  for (const [c, claim] of certificate.claims.entries()) {
    let allAnchored = claim.evidence.length > 0;
    for (const [e, evidence] of claim.evidence.entries()) {
      const anchor = evidence.anchor;
      const field = `certificate.claims[${c}].evidence[${e}].anchor`;
      if (!anchor) {
        allAnchored = false;
        continue;
      }
      anchors++;
      if (
        options.trustedRegistries !== undefined &&
        !options.trustedRegistries.some(
          (registry) =>
            registry.chain_id === anchor.chain_id &&
            registry.contract.toLowerCase() === anchor.contract.toLowerCase(),
        )
      ) {
        checks.fail(
          'anchor_proofs',
          'ANCHOR_MISMATCH',
          `The anchor names contract ${anchor.contract.slice(0, 12)}… on chain ${anchor.chain_id}, which is not a trusted registry.`,
          field,
        );
        allAnchored = false;
        continue;
      }
      const inBatch = verifyInclusionProof(
        anchor.batch_proof.leaf_index,
        anchor.batch_proof.tree_size,
        hashLeaf(fromHex(evidence.document_proof.document_root, 32)),
        anchor.batch_proof.path.map((node) => fromHex(node, 32)),
        fromHex(anchor.batch_root, 32),
      );
      if (!inBatch) {
        checks.fail(
          'anchor_proofs',
          'ANCHOR_MISMATCH',
          'The document root does not prove into the anchored batch root.',
          field,
        );
        allAnchored = false;
        continue;
      }
      if (!options.anchorLookup) {
        allAnchored = false;
        continue;
      }
      const key = `${anchor.chain_id}/${anchor.contract.toLowerCase()}/${anchor.batch_root}`;
      let lookup = lookups.get(key);
      if (!lookup) {
        lookup = options.anchorLookup(anchor).catch(() => ({ exists: false }));
        lookups.set(key, lookup);
      }
      const record = await lookup;
      if (!record.exists) {
        checks.fail(
          'anchor_onchain',
          'ANCHOR_NOT_FOUND',
          `Batch root ${anchor.batch_root.slice(0, 12)}… is not on chain ${anchor.chain_id}.`,
          field,
        );
        allAnchored = false;
      } else if (record.problem !== undefined) {
        checks.fail('anchor_onchain', 'ANCHOR_MISMATCH', record.problem, field);
        allAnchored = false;
      } else if (
        record.timestamp !== undefined &&
        record.timestamp > Date.parse(certificate.issued_at) / 1000 + 300
      ) {
        checks.fail(
          'anchor_onchain',
          'ANCHOR_MISMATCH',
          'The root was anchored after the certificate was issued.',
          field,
        );
        allAnchored = false;
      }
    }
    anchoredClaims.push(allAnchored);
  }
  if (anchors === 0) {
    checks.skip('anchor_proofs', 'No evidence carries an anchor yet.');
    checks.skip('anchor_onchain', 'No evidence carries an anchor yet.');
  } else {
    checks.pass(
      'anchor_proofs',
      `${plural(anchors, 'document root')} ${anchors === 1 ? 'proves into its anchored batch root' : 'prove into their anchored batch roots'}.`,
    );
    if (options.anchorLookup)
      checks.pass('anchor_onchain', `${plural(lookups.size, 'batch root')} found on chain.`);
    else checks.skip('anchor_onchain', 'No chain lookup configured; the on-chain record was not checked.');
  }
  return anchoredClaims;
}

function checkQueryReplay(certificate: Certificate, options: VerifyBundleOptions, checks: Checks): void {
  if (options.presentedQuestion === undefined) {
    checks.skip('query_replay', 'No presented question to compare.');
    return;
  }
  // Both sides normalized alike (docs/certificate.md, "The question"); `hashes` binds query.text to
  // the signed digest, and certificates signed before the rule compare the same way.
  const presented = sha256Hex(normalizeQuestion(options.presentedQuestion));
  if (hexDigestEqual(presented, sha256Hex(normalizeQuestion(certificate.query.text)))) {
    checks.pass('query_replay', 'The question in the certificate is the one presented.');
  } else {
    checks.fail(
      'query_replay',
      'QUERY_MISMATCH',
      'The certificate answers a different question.',
      'certificate.query',
    );
  }
}

function logVerifierFor(origin: string, options: VerifyBundleOptions): NoteVerifier | undefined {
  for (const log of options.trustedLogs) {
    if (log.origin !== origin) continue;
    try {
      return createNoteVerifier(log.vkey);
    } catch {}
  }
  return undefined;
}

/**
 * The cosignature lines themselves, whether or not any witness is trusted: each is one C2SP signature
 * line (`— name base64(key id ‖ signature)`) and no witness key signs twice (docs/certificate.md,
 * "Cosignatures"). A repeated or unreadable line is text no signature check covers.
 */
function checkCosignatureLines(bundle: Bundle, checks: Checks): void {
  const signers = new Set<string>();
  bundle.log.cosignatures.forEach((line, index) => {
    const field = `log.cosignatures[${index}]`;
    let signer: string;
    try {
      const signatures = parseNote(`cosignature line\n\n${line}\n`).signatures;
      if (signatures.length !== 1) throw new Error('not one line');
      signer = `${signatures[0]!.name} ${toHex(signatures[0]!.keyId)}`;
    } catch {
      checks.fail('cosignatures', 'MALFORMED', 'The cosignature line is not a signature line.', field);
      return;
    }
    if (signers.has(signer)) {
      checks.fail(
        'cosignatures',
        'DUPLICATE_ENTRY',
        `Witness key ${signer} cosigns the checkpoint more than once.`,
        field,
      );
    }
    signers.add(signer);
  });
}

function checkLog(bundle: Bundle, options: VerifyBundleOptions, checks: Checks): Checkpoint | null {
  const verifier = logVerifierFor(bundle.log.origin, options);
  if (!verifier) {
    checks.fail(
      'checkpoint_signature',
      'CHECKPOINT_SIGNATURE_INVALID',
      `Log ${bundle.log.origin} is not a trusted log.`,
      'log.origin',
    );
    return null;
  }
  const opened = verifyCheckpoint(bundle.log.checkpoint, verifier);
  if (!opened.ok) {
    checks.fail(
      'checkpoint_signature',
      'CHECKPOINT_SIGNATURE_INVALID',
      `The checkpoint is not validly signed by the log (${opened.reason}).`,
      'log.checkpoint',
    );
    return null;
  }
  const checkpoint = opened.checkpoint;
  if (checkpoint.origin !== bundle.log.origin) {
    checks.fail(
      'checkpoint_signature',
      'CHECKPOINT_SIGNATURE_INVALID',
      'The checkpoint origin differs from the bundle log origin.',
      'log.origin',
    );
    return null;
  }
  checks.pass(
    'checkpoint_signature',
    `Checkpoint of ${checkpoint.origin} at size ${checkpoint.size} is signed by the log.`,
  );

  const leafHash = hashLeaf(logLeafInput(bundle.certificate, bundle.signature));
  let proof: Uint8Array[];
  try {
    proof = bundle.log.inclusion_proof.map((node) => fromHex(node, 32));
  } catch {
    proof = [];
  }
  if (verifyInclusionProof(bundle.log.leaf_index, checkpoint.size, leafHash, proof, checkpoint.rootHash)) {
    checks.pass(
      'log_inclusion',
      `The certificate is at index ${bundle.log.leaf_index} of the log's ${plural(checkpoint.size, 'entry', 'entries')}.`,
    );
  } else {
    checks.fail(
      'log_inclusion',
      'LOG_PROOF_INVALID',
      'The certificate does not prove into the checkpoint.',
      'log.inclusion_proof',
    );
  }

  const required = options.requiredCosignatures ?? 0;
  const witnesses: NoteVerifier[] = [];
  for (const vkey of options.witnesses ?? []) {
    try {
      witnesses.push(createCosignatureVerifier(vkey));
    } catch {}
  }
  if (witnesses.length === 0 && required === 0) {
    checks.skip('cosignatures', 'No witnesses configured.');
  } else {
    const note = bundle.log.checkpoint + bundle.log.cosignatures.map((line) => `${line}\n`).join('');
    const result = verifyCosignatures(note, witnesses, Math.max(required, 1));
    if (result.valid.length >= required) {
      checks.pass(
        'cosignatures',
        result.valid.length === 0
          ? 'No trusted witness cosignature is required, and none is present.'
          : `Cosigned by ${plural(result.valid.length, 'trusted witness', 'trusted witnesses')}: ${result.valid.join(', ')}.`,
      );
    } else {
      checks.fail(
        'cosignatures',
        'COSIGNATURES_MISSING',
        `${result.valid.length} of ${plural(required, 'required witness cosignature')} ${result.valid.length === 1 ? 'is' : 'are'} valid.`,
        'log.cosignatures',
      );
    }
  }
  return checkpoint;
}

async function checkConsistency(
  checkpoint: Checkpoint | null,
  options: VerifyBundleOptions,
  checks: Checks,
): Promise<void> {
  if (options.lastCheckpoint === undefined) {
    checks.skip('checkpoint_consistency', 'No previously seen checkpoint to compare.');
    return;
  }
  if (checkpoint === null) {
    checks.skip('checkpoint_consistency', 'The bundle checkpoint could not be verified.');
    return;
  }
  const verifier = logVerifierFor(checkpoint.origin, options);
  const last = verifier ? verifyCheckpoint(options.lastCheckpoint, verifier) : undefined;
  let previous: Checkpoint | undefined;
  if (last?.ok) previous = last.checkpoint;
  else {
    try {
      previous = parseCheckpoint(options.lastCheckpoint);
    } catch {}
  }
  if (!previous || previous.origin !== checkpoint.origin) {
    checks.fail(
      'checkpoint_consistency',
      'CHECKPOINT_INCONSISTENT',
      'The last seen checkpoint is unreadable or from another log.',
      'lastCheckpoint',
    );
    return;
  }
  if (previous.size === checkpoint.size) {
    if (constantTimeEqual(previous.rootHash, checkpoint.rootHash)) {
      checks.pass(
        'checkpoint_consistency',
        `Same tree as the last seen checkpoint (size ${checkpoint.size}).`,
      );
    } else {
      checks.fail(
        'checkpoint_consistency',
        'CHECKPOINT_INCONSISTENT',
        `Fork: two different roots for size ${checkpoint.size}.`,
        'log.checkpoint',
      );
    }
    return;
  }
  const [older, newer] = previous.size < checkpoint.size ? [previous, checkpoint] : [checkpoint, previous];
  let proofHex = options.consistencyProof;
  if (proofHex === undefined && options.fetchConsistencyProof) {
    try {
      proofHex = await options.fetchConsistencyProof(older.size, newer.size);
    } catch {}
  }
  let proof: Uint8Array[] | undefined;
  try {
    proof = proofHex?.map((node) => fromHex(node, 32));
  } catch {}
  if (proof && verifyConsistencyProof(older.size, newer.size, proof, older.rootHash, newer.rootHash)) {
    checks.pass(
      'checkpoint_consistency',
      `Consistent with the last seen checkpoint (sizes ${older.size} → ${newer.size}).`,
    );
    return;
  }
  const rollback = checkpoint.size < previous.size;
  checks.fail(
    'checkpoint_consistency',
    'CHECKPOINT_INCONSISTENT',
    proof
      ? `The log is not consistent between sizes ${older.size} and ${newer.size}.`
      : rollback
        ? `Rollback: this checkpoint (size ${checkpoint.size}) is older than one already seen (size ${previous.size}) and no consistency proof was given.`
        : `No consistency proof from size ${older.size} to ${newer.size} was available.`,
    'log.checkpoint',
  );
}
