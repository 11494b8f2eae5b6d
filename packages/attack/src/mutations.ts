/**
 * Attacks on answer bundles (docs/attacks.md): each is a pure function from a genuine bundle (plus a seeded
 * random source and the attacker's keys) to tampered bundles. The attacker is strong: after editing
 * a text it recomputes every commitment it can — claim and answer hashes and offsets, span and chunk
 * hashes, the document root from the Merkle path, the anchor batch root — so what catches it is the
 * part of the proof the attacker cannot recompute (the issuer signature, the log, the chain, the
 * verifier's own reading of the claim). A1–A4 come in two variants: the original signature kept, or
 * the certificate re-signed (and re-logged) with keys nobody trusts.
 */
import {
  type Bundle,
  type Certificate,
  type Claim,
  codePointLength,
  type Evidence,
  fromHex,
  hashLeaf,
  logLeafInput,
  normalizeText,
  parseCheckpoint,
  parseJson,
  parseNote,
  rootFromInclusionProof,
  sha256,
  sha256Hex,
  sliceCodePoints,
  toHex,
  utf8Encode,
} from '@saksi/proof';
import {
  createNoteSigner,
  issuerFromSecretKey,
  MemoryLog,
  type NoteSigner,
  signCertificate,
  signCheckpoint,
} from '@saksi/proof/issue';
import type { Random } from './metrics.js';

export type AttackClass = 'A1' | 'A2' | 'A3' | 'A4' | 'A5' | 'A6' | 'A7' | 'BYTE';

export const ATTACK_CLASSES: readonly AttackClass[] = ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'BYTE'];

export const ATTACK_NAMES: Record<AttackClass, string> = {
  A1: 'citation swap',
  A2: 'span substitution',
  A3: 'claim edit',
  A4: 'structural',
  A5: 'UI tamper',
  A6: 'replay',
  A7: 'equivocation',
  BYTE: 'byte-level mutations',
};

/** `keep-signature`: the original signature and log proof are left as they were; `resign-untrusted`: the attacker signs (and logs) with its own keys. */
export type SigningVariant = 'keep-signature' | 'resign-untrusted';

/** One tampered presentation of a bundle to a verifier. */
export interface Tampering {
  attack: AttackClass;
  kind: string;
  variant: SigningVariant | 'none';
  /** What the verifier receives (any JSON value; for a byte mutation that broke the JSON, `undefined`). */
  bundle: unknown;
  /** Byte mutations: the mutated text no longer parses as JSON (the client cannot even read it). */
  unparseable?: boolean;
  /** Claim ids whose text or evidence the attack changed: showing any of them as verified is showing false content. */
  altered: string[];
  /** A5: the text the interface displays instead of the certified answer. */
  displayed?: string;
  /** A6: the question the user actually asked. */
  presentedQuestion?: string;
  /** A7: the checkpoint the verifier (or witness) remembers, and the proof it is given from there. */
  lastCheckpoint?: string;
  consistencyProof?: readonly string[];
  description: string;
}

/** Keys of an attacker: nobody trusts them. */
export interface AttackerKeys {
  issuerSecretKey: Uint8Array;
  logSecretKey: Uint8Array;
}

/** Deterministic attacker keys from a seed (Ed25519 secret keys are any 32 bytes). */
export function attackerKeys(seed: number): AttackerKeys {
  return {
    issuerSecretKey: sha256(utf8Encode(`saksi-attack/issuer/${seed}`)),
    logSecretKey: sha256(utf8Encode(`saksi-attack/log/${seed}`)),
  };
}

/** The genuine log state an equivocating log operator forks from (A7). */
export interface EquivocationContext {
  /** The log's own signing key: the operator is the attacker. */
  logSigner: NoteSigner;
  /** The latest genuine checkpoint note (with its cosignature lines) that honest parties have seen. */
  latest: string;
  /** Genuine RFC 9162 consistency proof (hex) from `size` to the latest size, when known. */
  consistencyTo(size: number): readonly string[] | undefined;
}

export interface MutationContext {
  random: Random;
  attacker: AttackerKeys;
  /** Collection language: which words the attacker inserts. */
  language: 'id' | 'en';
  /** Questions of other bundles (A6). */
  otherQuestions: readonly string[];
  equivocation?: EquivocationContext;
}

const SIGNING_VARIANTS: readonly SigningVariant[] = ['keep-signature', 'resign-untrusted'];

// ---------------------------------------------------------------------------------------------
// Consistent rewriting: the attacker recomputes every commitment it can.

function clone(bundle: Bundle): Bundle {
  return structuredClone(bundle);
}

/** Replaces claim `index`'s text, rewriting the answer around it and shifting later offsets. */
export function replaceClaimText(certificate: Certificate, index: number, text: string): void {
  const claim = certificate.claims[index];
  if (!claim) return;
  const answer = certificate.answer.text;
  const total = codePointLength(answer);
  const before = sliceCodePoints(answer, 0, claim.answer_start) ?? '';
  const after = sliceCodePoints(answer, claim.answer_end, total) ?? '';
  const delta = codePointLength(text) - codePointLength(claim.text);
  certificate.answer.text = before + text + after;
  certificate.answer.sha256 = sha256Hex(certificate.answer.text);
  claim.text = text;
  claim.sha256 = sha256Hex(text);
  claim.answer_end += delta;
  for (const later of certificate.claims.slice(index + 1)) {
    if (later.answer_start >= claim.answer_end - delta) {
      later.answer_start += delta;
      later.answer_end += delta;
    }
  }
}

/**
 * Replaces the span text of `claims[c].evidence[e]` inside its chunk and recomputes, bottom-up, the
 * span hash and end, the chunk hash (in every evidence and retrieval result), the document root from
 * the Merkle path and the anchor batch root from the batch proof. Returns the ids of the claims
 * citing the rewritten chunk.
 */
export function replaceSpanText(bundle: Bundle, c: number, e: number, text: string): string[] {
  const certificate = bundle.certificate;
  const evidence = certificate.claims[c]?.evidence[e];
  if (!evidence) return [];
  const chunk = bundle.chunks.find((candidate) => candidate.chunk_id === evidence.chunk_id);
  if (!chunk) return [];
  const { start, end } = evidence.span;
  const delta = codePointLength(text) - (end - start);
  const before = sliceCodePoints(chunk.text, 0, start) ?? '';
  const after = sliceCodePoints(chunk.text, end, codePointLength(chunk.text)) ?? '';
  chunk.text = before + text + after;
  const chunkSha256 = sha256Hex(chunk.text);
  const documentRoot = recomputeDocumentRoot(evidence, chunkSha256);
  const batchRoot = evidence.anchor ? recomputeBatchRoot(evidence.anchor, documentRoot) : undefined;
  const affected: string[] = [];
  for (const claim of certificate.claims) {
    for (const item of claim.evidence) {
      if (item.chunk_id !== evidence.chunk_id) continue;
      if (item !== evidence && item.span.start >= end) {
        item.span.start += delta;
        item.span.end += delta;
      }
      item.chunk_sha256 = chunkSha256;
      item.document_proof.document_root = documentRoot;
      if (item.anchor && batchRoot) item.anchor.batch_root = batchRoot;
      if (!affected.includes(claim.claim_id)) affected.push(claim.claim_id);
    }
  }
  evidence.span.text = text;
  evidence.span.end = start + codePointLength(text);
  evidence.span.sha256 = sha256Hex(text);
  for (const result of certificate.retrieval.results)
    if (result.chunk_id === evidence.chunk_id) result.chunk_sha256 = chunkSha256;
  return affected;
}

function recomputeDocumentRoot(evidence: Evidence, chunkSha256: string): string {
  const proof = evidence.document_proof;
  try {
    return toHex(
      rootFromInclusionProof(
        proof.leaf_index,
        proof.tree_size,
        hashLeaf(fromHex(chunkSha256, 32)),
        proof.path.map((node) => fromHex(node, 32)),
      ),
    );
  } catch {
    return proof.document_root;
  }
}

function recomputeBatchRoot(anchor: NonNullable<Evidence['anchor']>, documentRoot: string): string {
  const proof = anchor.batch_proof;
  try {
    return toHex(
      rootFromInclusionProof(
        proof.leaf_index,
        proof.tree_size,
        hashLeaf(fromHex(documentRoot, 32)),
        proof.path.map((node) => fromHex(node, 32)),
      ),
    );
  } catch {
    return anchor.batch_root;
  }
}

/**
 * Re-signs the certificate with the attacker's issuer key (same issuer name, so it looks alike) and
 * puts it in the attacker's own one-entry log with the genuine log's origin; no witness cosigns it.
 */
export function resignUntrusted(bundle: Bundle, attacker: AttackerKeys): Bundle {
  const certificate = bundle.certificate;
  certificate.issuer = issuerFromSecretKey(certificate.issuer.name, attacker.issuerSecretKey);
  bundle.signature = signCertificate(certificate, attacker.issuerSecretKey);
  const log = new MemoryLog(bundle.log.origin);
  log.append(logLeafInput(certificate, bundle.signature));
  bundle.log = {
    origin: bundle.log.origin,
    leaf_index: 0,
    inclusion_proof: [],
    checkpoint: log.signedCheckpoint(createNoteSigner(bundle.log.origin, attacker.logSecretKey)),
    cosignatures: [],
  };
  return bundle;
}

function withVariants(
  attack: AttackClass,
  kind: string,
  tampered: Bundle,
  altered: string[],
  description: string,
  context: MutationContext,
): Tampering[] {
  return SIGNING_VARIANTS.map((variant) => ({
    attack,
    kind,
    variant,
    bundle: variant === 'keep-signature' ? tampered : resignUntrusted(clone(tampered), context.attacker),
    altered,
    description,
  }));
}

// ---------------------------------------------------------------------------------------------
// Text edits

const WORD = /[\p{L}\p{N}][\p{L}\p{N}-]*/gu;

function wordMatches(text: string): { word: string; index: number }[] {
  return [...text.matchAll(WORD)].map((match) => ({ word: match[0], index: match.index ?? 0 }));
}

function insertAt(text: string, index: number, insertion: string): string {
  return text.slice(0, index) + insertion + text.slice(index);
}

/** Inserts a negation ("tidak" / "not") at the place it changes the meaning most. */
export function negate(text: string, language: 'id' | 'en'): string {
  const words = wordMatches(text);
  const anchors =
    language === 'id'
      ? ['wajib', 'dapat', 'harus', 'adalah', 'merupakan', 'dipidana', 'berhak', 'dilarang', 'diberikan']
      : ['is', 'are', 'must', 'can', 'should', 'will', 'does', 'do', 'may'];
  const found = words.find((entry) => anchors.includes(entry.word.toLowerCase()));
  if (language === 'id') {
    const at = found ?? words[1] ?? words[0];
    return at ? insertAt(text, at.index, 'tidak ') : `tidak ${text}`;
  }
  if (found) return insertAt(text, found.index + found.word.length, ' not');
  const at = words[1] ?? words[0];
  return at ? insertAt(text, at.index, 'not ') : `not ${text}`;
}

const QUANTIFIER_SWAPS: readonly [RegExp, string][] = [
  [/\bpaling banyak\b/i, 'paling sedikit'],
  [/\bpaling sedikit\b/i, 'paling banyak'],
  [/\bpaling lama\b/i, 'paling singkat'],
  [/\bsetiap\b/i, 'sebagian'],
  [/\bsemua\b/i, 'sebagian'],
  [/\bseluruh\b/i, 'sebagian'],
  [/\bat most\b/i, 'at least'],
  [/\bat least\b/i, 'at most'],
  [/\ball\b/i, 'some'],
  [/\bevery\b/i, 'some'],
  [/\balways\b/i, 'only sometimes'],
];

/** Widens or narrows a quantifier ("semua" ↔ "sebagian", "paling banyak" → "paling sedikit"); adds one when there is none. */
export function changeQuantifier(text: string, language: 'id' | 'en'): string {
  for (const [pattern, replacement] of QUANTIFIER_SWAPS) {
    if (pattern.test(text)) return text.replace(pattern, replacement);
  }
  const lower = text.length > 0 ? text[0]!.toLowerCase() + text.slice(1) : text;
  return language === 'id' ? `Semua ${lower}` : `All ${lower}`;
}

/** Changes one digit of a figure (seeded); when there is none, adds a figure. */
export function changeNumber(text: string, random: Random, language: 'id' | 'en'): string {
  // Digits of citation markers (`[1]`) are not figures: changing one re-points the marker, not a fact.
  const markers = [...text.matchAll(/\[\d{1,3}\]/g)].map((match) => [
    match.index ?? 0,
    (match.index ?? 0) + match[0].length,
  ]);
  const digits = [...text.matchAll(/\d/g)]
    .map((match) => match.index ?? 0)
    .filter((index) => !markers.some(([start, end]) => index >= start! && index < end!));
  if (digits.length === 0) {
    const end = /[.!?]\s*$/.exec(text)?.index ?? text.length;
    return insertAt(text, end, language === 'id' ? ' sebanyak 3 kali' : ' 3 times');
  }
  const at = digits[random.int(digits.length)]!;
  const old = Number(text[at]);
  const replacement = (old + 1 + random.int(8)) % 10;
  return text.slice(0, at) + String(replacement) + text.slice(at + 1);
}

/** Inserts words in the middle of a passage. */
export function insertWords(text: string, random: Random, language: 'id' | 'en'): string {
  const words = wordMatches(text);
  const phrase = language === 'id' ? 'kecuali bagi pejabat negara' : 'except for administrators';
  if (words.length < 2) return `${text} ${phrase}`;
  const at = words[1 + random.int(words.length - 1)]!;
  return insertAt(text, at.index, `${phrase} `);
}

const SYNONYMS: Record<string, string> = {
  wajib: 'boleh',
  dipidana: 'diberi penghargaan',
  denda: 'insentif',
  paling: 'kurang',
  dilarang: 'dianjurkan',
  pendapatan: 'belanja',
  belanja: 'pendapatan',
  defisit: 'surplus',
  must: 'may',
  should: 'need not',
  reducer: 'middleware',
  state: 'props',
  action: 'selector',
  store: 'component',
  immutable: 'mutable',
};

/** A paraphrase that changes the meaning: a word replaced by a near-synonym or an opposite, else two words swapped. */
export function paraphrase(text: string, random: Random): string {
  const words = wordMatches(text);
  const candidates = words.filter((entry) => SYNONYMS[entry.word.toLowerCase()] !== undefined);
  if (candidates.length > 0) {
    const pick = candidates[random.int(candidates.length)]!;
    const replacement = SYNONYMS[pick.word.toLowerCase()]!;
    return text.slice(0, pick.index) + replacement + text.slice(pick.index + pick.word.length);
  }
  if (words.length >= 2) {
    const i = random.int(words.length - 1);
    const a = words[i]!;
    const b = words[i + 1]!;
    return (
      text.slice(0, a.index) +
      b.word +
      text.slice(a.index + a.word.length, b.index) +
      a.word +
      text.slice(b.index + b.word.length)
    );
  }
  return `${text} (diubah)`;
}

// ---------------------------------------------------------------------------------------------
// A1–A4: attacks on the certificate's content

function claimsWithEvidence(certificate: Certificate): number[] {
  return certificate.claims.flatMap((claim, index) => (claim.evidence.length > 0 ? [index] : []));
}

/** Prefers claims the certificate renders as verified: those are what an attacker wants to twist. */
function pickClaim(certificate: Certificate, random: Random, needEvidence = true): number | undefined {
  const pool = needEvidence ? claimsWithEvidence(certificate) : certificate.claims.map((_, index) => index);
  const rendered = pool.filter((index) => certificate.claims[index]!.render.rendered);
  const from = rendered.length > 0 ? rendered : pool;
  return from.length === 0 ? undefined : from[random.int(from.length)];
}

/** A1: the evidence (or the displayed citation) of a claim swapped with another result's. */
export function citationSwap(bundle: Bundle, context: MutationContext): Tampering[] {
  const out: Tampering[] = [];
  const certificate = bundle.certificate;
  const withEvidence = claimsWithEvidence(certificate);
  const i = pickClaim(certificate, context.random);
  if (i === undefined) return out;
  const claim = certificate.claims[i]!;
  const evidence = claim.evidence[0]!;
  const partner = withEvidence.find(
    (j) => j !== i && certificate.claims[j]!.evidence[0]!.chunk_id !== evidence.chunk_id,
  );
  if (partner !== undefined) {
    const tampered = clone(bundle);
    const a = tampered.certificate.claims[i]!;
    const b = tampered.certificate.claims[partner]!;
    [a.evidence, b.evidence] = [b.evidence, a.evidence];
    out.push(
      ...withVariants(
        'A1',
        'evidence_swap',
        tampered,
        [a.claim_id, b.claim_id],
        `claims ${a.claim_id} and ${b.claim_id} exchange their evidence`,
        context,
      ),
    );
  } else {
    const cited = new Set(claim.evidence.map((item) => item.chunk_id));
    const others = certificate.retrieval.results.filter((result) => !cited.has(result.chunk_id));
    const other = others.length > 0 ? others[context.random.int(others.length)] : undefined;
    if (other) {
      const tampered = clone(bundle);
      const item = tampered.certificate.claims[i]!.evidence[0]!;
      const oldId = item.chunk_id;
      item.chunk_id = other.chunk_id;
      item.document_id = other.document_id;
      item.chunk_sha256 = other.chunk_sha256;
      // The attacker cannot know that chunk's text: it serves the cited text under the new id.
      for (const chunk of tampered.chunks) if (chunk.chunk_id === oldId) chunk.chunk_id = other.chunk_id;
      out.push(
        ...withVariants(
          'A1',
          'evidence_swap',
          tampered,
          [claim.claim_id],
          `claim ${claim.claim_id} cites another retrieved result (${other.chunk_id})`,
          context,
        ),
      );
    }
  }
  // The citation the reader sees (title, Pasal) swapped with another claim's, or moved one Pasal on.
  const tampered = clone(bundle);
  const target = tampered.certificate.claims[i]!.evidence[0]!;
  const labelPartner = withEvidence
    .map((j) => tampered.certificate.claims[j]!.evidence[0]!)
    .find((item) => JSON.stringify(item.citation) !== JSON.stringify(target.citation));
  if (labelPartner) {
    [target.citation, labelPartner.citation] = [labelPartner.citation, target.citation];
  } else {
    const pasal = Number(target.citation.pasal);
    if (Number.isFinite(pasal) && target.citation.pasal !== undefined)
      target.citation.pasal = String(pasal + 1);
    else target.citation.document_title = `${target.citation.document_title} (Perubahan)`;
    delete target.citation.label;
  }
  out.push(
    ...withVariants(
      'A1',
      'citation_label_swap',
      tampered,
      [claim.claim_id],
      `the citation shown for claim ${claim.claim_id} names another source`,
      context,
    ),
  );
  return out;
}

/** A2: the evidence span rewritten (words inserted, paraphrased, a number changed) to fit a claim. */
export function spanSubstitution(bundle: Bundle, context: MutationContext): Tampering[] {
  const out: Tampering[] = [];
  const i = pickClaim(bundle.certificate, context.random);
  if (i === undefined) return out;
  const span = bundle.certificate.claims[i]!.evidence[0]!.span.text;
  const edits: [string, string][] = [
    ['span_insert', insertWords(span, context.random, context.language)],
    ['span_paraphrase', paraphrase(span, context.random)],
    ['span_number', changeNumber(span, context.random, context.language)],
  ];
  for (const [kind, text] of edits) {
    if (text === span) continue;
    const tampered = clone(bundle);
    const affected = replaceSpanText(tampered, i, 0, normalizeText(text));
    out.push(...withVariants('A2', kind, tampered, affected, `span "${excerpt(span, text)}"`, context));
  }
  return out;
}

/** A3: a claim edited — a negation inserted, a quantifier changed, a number changed. */
export function claimEdit(bundle: Bundle, context: MutationContext): Tampering[] {
  const out: Tampering[] = [];
  const i = pickClaim(bundle.certificate, context.random, false);
  if (i === undefined) return out;
  const claim = bundle.certificate.claims[i]!;
  const edits: [string, string][] = [
    ['claim_negation', negate(claim.text, context.language)],
    ['claim_quantifier', changeQuantifier(claim.text, context.language)],
    ['claim_number', changeNumber(claim.text, context.random, context.language)],
  ];
  for (const [kind, text] of edits) {
    if (text === claim.text) continue;
    const tampered = clone(bundle);
    replaceClaimText(tampered.certificate, i, normalizeText(text));
    out.push(
      ...withVariants(
        'A3',
        kind,
        tampered,
        [claim.claim_id],
        `claim "${excerpt(claim.text, text)}"`,
        context,
      ),
    );
  }
  return out;
}

/** Removes claim `index` and its text from the answer. */
function dropClaim(certificate: Certificate, index: number): void {
  replaceClaimText(certificate, index, '');
  certificate.claims.splice(index, 1);
}

/** A4: claims dropped, reordered (the answer rebuilt to match), or all dropped. */
export function structural(bundle: Bundle, context: MutationContext): Tampering[] {
  const out: Tampering[] = [];
  const claims = bundle.certificate.claims;
  if (claims.length === 0) return out;
  {
    const tampered = clone(bundle);
    const index = context.random.int(claims.length);
    dropClaim(tampered.certificate, index);
    out.push(...withVariants('A4', 'drop_claim', tampered, [], `claim ${index} dropped`, context));
  }
  if (claims.length >= 2) {
    const tampered = clone(bundle);
    const i = context.random.int(claims.length - 1);
    swapClaims(tampered.certificate, i, i + 1);
    out.push(
      ...withVariants('A4', 'reorder_claims', tampered, [], `claims ${i} and ${i + 1} reordered`, context),
    );
  }
  {
    const tampered = clone(bundle);
    tampered.certificate.claims = [];
    out.push(...withVariants('A4', 'drop_all_claims', tampered, [], 'every claim dropped', context));
  }
  return out;
}

/** Swaps adjacent claims `i` and `i + 1`, in the answer text and in the claim list. */
function swapClaims(certificate: Certificate, i: number, j: number): void {
  const a = certificate.claims[i]!;
  const b = certificate.claims[j]!;
  const answer = certificate.answer.text;
  const total = codePointLength(answer);
  const before = sliceCodePoints(answer, 0, a.answer_start) ?? '';
  const between = sliceCodePoints(answer, a.answer_end, b.answer_start) ?? '';
  const after = sliceCodePoints(answer, b.answer_end, total) ?? '';
  certificate.answer.text = before + b.text + between + a.text + after;
  certificate.answer.sha256 = sha256Hex(certificate.answer.text);
  const start = a.answer_start;
  const moved: Claim = { ...b, answer_start: start, answer_end: start + codePointLength(b.text) };
  const gap = codePointLength(between);
  const second: Claim = {
    ...a,
    answer_start: moved.answer_end + gap,
    answer_end: moved.answer_end + gap + codePointLength(a.text),
  };
  certificate.claims[i] = moved;
  certificate.claims[j] = second;
}

// ---------------------------------------------------------------------------------------------
// A5–A7: attacks around the bundle

/** A5: the interface displays a text other than the certified answer (a claim negated, a figure changed). */
export function uiTamper(bundle: Bundle, context: MutationContext): Tampering[] {
  const i = pickClaim(bundle.certificate, context.random, false);
  if (i === undefined) return [];
  const out: Tampering[] = [];
  const claim = bundle.certificate.claims[i]!;
  const edits: [string, string][] = [
    ['display_negation', negate(claim.text, context.language)],
    ['display_number', changeNumber(claim.text, context.random, context.language)],
  ];
  for (const [kind, text] of edits) {
    const shown = structuredClone(bundle.certificate);
    replaceClaimText(shown, i, normalizeText(text));
    out.push({
      attack: 'A5',
      kind,
      variant: 'none',
      bundle,
      altered: [claim.claim_id],
      displayed: shown.answer.text,
      description: `the page shows claim ${claim.claim_id} as "${truncate(text)}"`,
    });
  }
  return out;
}

/** A6: a genuine bundle presented as the answer to another question. */
export function replay(bundle: Bundle, context: MutationContext): Tampering[] {
  const asked = bundle.certificate.query.text;
  const others = context.otherQuestions.filter((question) => question !== asked);
  const out: Tampering[] = [];
  if (others.length > 0) {
    const question = others[context.random.int(others.length)]!;
    out.push({
      attack: 'A6',
      kind: 'other_question',
      variant: 'none',
      bundle,
      altered: bundle.certificate.claims.map((claim) => claim.claim_id),
      presentedQuestion: question,
      description: `answer to "${truncate(asked)}" presented for "${truncate(question)}"`,
    });
  }
  const near =
    context.language === 'id'
      ? `${asked.replace(/[?.!]\s*$/, '')} untuk tahun depan?`
      : `${asked.replace(/[?.!]\s*$/, '')} in the next version?`;
  out.push({
    attack: 'A6',
    kind: 'near_question',
    variant: 'none',
    bundle,
    altered: bundle.certificate.claims.map((claim) => claim.claim_id),
    presentedQuestion: near,
    description: `answer presented for a narrower question "${truncate(near)}"`,
  });
  return out;
}

/** A checkpoint of `size` with another root, validly signed by the log key (a fork). */
function forkedCheckpoint(note: string, signer: NoteSigner, root: Uint8Array): string {
  const checkpoint = parseCheckpoint(parseNote(note).text);
  return signCheckpoint({ ...checkpoint, rootHash: root }, signer);
}

/**
 * A7: the log operator equivocates. (a) The bundle comes with a forked checkpoint of the same size —
 * a different root, signed by the log key, the inclusion proof rewritten to fit — shown to a verifier
 * that remembers the latest genuine checkpoint; (b) the same fork shown to a witness that remembers
 * the genuine checkpoint it cosigned; (c) a genuine bundle checked by a verifier that was earlier
 * shown a forked checkpoint of the latest size.
 */
export function equivocation(bundle: Bundle, context: MutationContext): Tampering[] {
  const fork = context.equivocation;
  if (!fork) return [];
  const out: Tampering[] = [];
  const genuine = parseCheckpoint(parseNote(bundle.log.checkpoint).text);
  const forked = clone(bundle);
  const path = forked.log.inclusion_proof;
  let forkRoot: Uint8Array;
  if (path.length > 0) {
    path[path.length - 1] = toHex(context.random.bytes(32));
    forkRoot = rootFromInclusionProof(
      forked.log.leaf_index,
      genuine.size,
      hashLeaf(logLeafInput(forked.certificate, forked.signature)),
      path.map((node) => fromHex(node, 32)),
    );
  } else {
    forkRoot = context.random.bytes(32);
  }
  forked.log.checkpoint = forkedCheckpoint(bundle.log.checkpoint, fork.logSigner, forkRoot);
  const latest = parseCheckpoint(parseNote(fork.latest).text);
  const proof = genuine.size === latest.size ? [] : fork.consistencyTo(genuine.size);
  out.push({
    attack: 'A7',
    kind: 'fork_to_verifier',
    variant: 'none',
    bundle: forked,
    altered: [],
    lastCheckpoint: fork.latest,
    ...(proof ? { consistencyProof: proof } : {}),
    description: `forked checkpoint of size ${genuine.size} shown to a verifier remembering size ${latest.size}`,
  });
  out.push({
    attack: 'A7',
    kind: 'fork_to_witness',
    variant: 'none',
    bundle: forked,
    altered: [],
    lastCheckpoint: bundle.log.checkpoint,
    description: `forked checkpoint of size ${genuine.size} shown to the witness that cosigned the genuine one`,
  });
  const forkedLatest = forkedCheckpoint(fork.latest, fork.logSigner, context.random.bytes(32));
  const backProof = genuine.size === latest.size ? [] : fork.consistencyTo(genuine.size);
  out.push({
    attack: 'A7',
    kind: 'fork_seen_before',
    variant: 'none',
    bundle,
    altered: [],
    lastCheckpoint: forkedLatest,
    ...(backProof ? { consistencyProof: backProof } : {}),
    description: `genuine bundle checked by a verifier that was shown a forked checkpoint of size ${latest.size}`,
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Byte-level mutations

/** The character class a flipped character stays in, so most mutations still parse as JSON. */
function replacementFor(char: string, random: Random): string | undefined {
  const pools = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  for (const pool of pools) {
    if (pool.includes(char)) {
      let next = char;
      while (next === char) next = pool[random.int(pool.length)]!;
      return next;
    }
  }
  return undefined;
}

/**
 * `count` random character flips (one each) in the canonical JSON of the bundle, digits and letters
 * replaced within their class. Mutations that parse back to the same bundle are not counted.
 */
export function byteMutations(bundle: Bundle, context: MutationContext, count: number): Tampering[] {
  const text = JSON.stringify(bundle);
  const out: Tampering[] = [];
  let attempts = 0;
  while (out.length < count && attempts < count * 20) {
    attempts++;
    const at = context.random.int(text.length);
    const replacement = replacementFor(text[at]!, context.random);
    if (replacement === undefined) continue;
    const mutated = text.slice(0, at) + replacement + text.slice(at + 1);
    let parsed: unknown;
    let unparseable = false;
    try {
      parsed = parseJson(mutated);
    } catch {
      unparseable = true;
    }
    if (!unparseable && JSON.stringify(parsed) === text) continue;
    out.push({
      attack: 'BYTE',
      kind: unparseable ? 'flip_unparseable' : 'flip',
      variant: 'none',
      bundle: parsed,
      ...(unparseable ? { unparseable: true } : {}),
      altered: alteredClaimsOf(bundle, parsed),
      description: `character ${at} "${text[at]}" → "${replacement}" near …${truncate(text.slice(Math.max(0, at - 30), at + 10), 60)}…`,
    });
  }
  return out;
}

/** Claims whose text or evidence differs between the genuine and the mutated bundle (by claim position). */
function alteredClaimsOf(genuine: Bundle, mutated: unknown): string[] {
  const claims = (mutated as { certificate?: { claims?: unknown } } | undefined)?.certificate?.claims;
  if (!Array.isArray(claims)) return genuine.certificate.claims.map((claim) => claim.claim_id);
  const chunkText = (bundle: unknown, id: unknown) =>
    ((bundle as { chunks?: { chunk_id?: unknown; text?: unknown }[] }).chunks ?? []).find(
      (chunk) => chunk?.chunk_id === id,
    )?.text;
  const altered: string[] = [];
  genuine.certificate.claims.forEach((claim, index) => {
    const other = claims[index] as Partial<Claim> | undefined;
    const same =
      other !== undefined &&
      JSON.stringify(other) === JSON.stringify(claim) &&
      claim.evidence.every((item) => chunkText(mutated, item.chunk_id) === chunkText(genuine, item.chunk_id));
    if (!same) altered.push(typeof other?.claim_id === 'string' ? other.claim_id : claim.claim_id);
  });
  return altered;
}

/** "…before… → …after…" around the first difference of two texts. */
export function excerpt(before: string, after: string, width = 40): string {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  const from = Math.max(0, start - width / 2);
  const cut = (text: string) => text.slice(from, Math.min(text.length, text.length - end + width / 2));
  return `…${cut(before)}…" → "…${cut(after)}…`;
}

function truncate(text: string, length = 60): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** Every attack of A1–A7 (and `byteCount` byte mutations) on one bundle, in a fixed order. */
export function allTamperings(bundle: Bundle, context: MutationContext, byteCount: number): Tampering[] {
  return [
    ...citationSwap(bundle, context),
    ...spanSubstitution(bundle, context),
    ...claimEdit(bundle, context),
    ...structural(bundle, context),
    ...uiTamper(bundle, context),
    ...replay(bundle, context),
    ...equivocation(bundle, context),
    ...byteMutations(bundle, context, byteCount),
  ];
}
