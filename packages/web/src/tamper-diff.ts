/**
 * The tamper view's diff: what a bundle that failed verification says, against what its signed and
 * hashed evidence supports (docs/certificate.md, "Bundle" and "Verification result").
 *
 * What survives a change, and so what a verifier can honestly show as the original:
 * - A quoted passage (`chunks[].text`) is committed by `chunk_sha256`, which is also the leaf of its
 *   document's Merkle tree and so of the anchored document root: a passage that still matches it is
 *   the published text, whatever else was changed. A passage that does not match is shown as
 *   changed; its original is recovered only when putting a span that still matches its own hash back
 *   at its offsets makes the passage match again.
 * - A quote (`span.text`) is then the slice of the intact passage at its offsets.
 * - A sentence (`claim.text`) is recomputed: a composed claim from its composition and the original
 *   quotes, a verbatim claim by putting the original quote in place of the changed one. Failing that,
 *   a candidate (the answer at the claim's offsets) that matches the claim's own hash is the original.
 * - The question and anything else only its hash or the signature covers: the change is detected,
 *   the original is not in the bundle.
 * When the server's public log still holds the certificate under the same id and it verifies, the
 * panel compares against that copy instead (`comparePublished`), which shows every changed field.
 */
import {
  type Bundle,
  type Evidence,
  hexDigestEqual,
  renderComposition,
  sha256Hex,
  sliceCodePoints,
  validateBundle,
} from '@saksi/proof';
import { COMPOSITION_TEMPLATES } from '@saksi/proof/vocabulary';

/** Where the original text shown beside a changed one comes from. */
export type ChangeBasis = 'passage' | 'composition' | 'hash' | 'published' | 'none';

export interface Change {
  where: 'question' | 'claim' | 'answer' | 'passage' | 'signature' | 'field';
  /** 1-based number of the claim, for `claim` and `answer`. */
  claim?: number;
  /** The passage's citation label (`passage`), or the field's JSON path (`field`). */
  label?: string;
  /** What the bundle says. */
  shown: string;
  /** What the signed and hashed evidence supports; undefined when the bundle does not hold it. */
  original?: string;
  basis: ChangeBasis;
}

const matches = (text: string, digest: string) => hexDigestEqual(digest, sha256Hex(text));

/** `text` with the code points [start, end) replaced by `insert`; undefined when out of range. */
function spliceCodePoints(text: string, start: number, end: number, insert: string): string | undefined {
  const points = Array.from(text);
  if (
    !Number.isSafeInteger(start) ||
    !Number.isSafeInteger(end) ||
    start < 0 ||
    end < start ||
    end > points.length
  )
    return undefined;
  return points.slice(0, start).join('') + insert + points.slice(end).join('');
}

function passageLabel(evidence: Evidence): string {
  return evidence.citation.label ?? evidence.citation.document_title;
}

/**
 * The changes a failed bundle shows by itself; [] for a bundle that cannot be read. `problems` are
 * the verification's problems: a passage whose document or anchor proof failed is not taken as the
 * published text even when it matches its (then unproven) hash.
 */
export function findChanges(input: unknown, problems: readonly { field?: string }[] = []): Change[] {
  let bundle: Bundle;
  try {
    bundle = validateBundle(input);
  } catch {
    return [];
  }
  const certificate = bundle.certificate;
  const changes: Change[] = [];
  if (!matches(certificate.query.text, certificate.query.sha256))
    changes.push({ where: 'question', shown: certificate.query.text, basis: 'none' });

  // Passages: the presented text when it matches its committed hash, else a recovered original.
  const presented = new Map(bundle.chunks.map((chunk) => [chunk.chunk_id, chunk.text]));
  const passages = new Map<string, string | undefined>();
  const unproven = new Set<string>();
  for (const [c, claim] of certificate.claims.entries()) {
    for (const [e, evidence] of claim.evidence.entries()) {
      const field = `certificate.claims[${c}].evidence[${e}]`;
      if (
        problems.some(
          (problem) => problem.field === `${field}.document_proof` || problem.field === `${field}.anchor`,
        )
      )
        unproven.add(evidence.chunk_id);
    }
  }
  const evidenceItems = certificate.claims.flatMap((claim) => claim.evidence);
  for (const evidence of evidenceItems) {
    const text = presented.get(evidence.chunk_id);
    if (text === undefined || passages.has(evidence.chunk_id)) continue;
    if (unproven.has(evidence.chunk_id)) {
      // Its hash no longer proves into the published document: neither it nor its hash can be relied on.
      passages.set(evidence.chunk_id, undefined);
      changes.push({ where: 'passage', label: passageLabel(evidence), shown: text, basis: 'none' });
      continue;
    }
    if (matches(text, evidence.chunk_sha256)) {
      passages.set(evidence.chunk_id, text);
      continue;
    }
    let recovered: string | undefined;
    for (const other of evidenceItems) {
      if (other.chunk_id !== evidence.chunk_id || !matches(other.span.text, other.span.sha256)) continue;
      // The quote's end moved by however much the change lengthened or shortened the passage.
      for (const shift of SHIFTS) {
        const candidate = spliceCodePoints(text, other.span.start, other.span.end + shift, other.span.text);
        if (candidate !== undefined && matches(candidate, evidence.chunk_sha256)) {
          recovered = candidate;
          break;
        }
      }
      if (recovered !== undefined) break;
    }
    passages.set(evidence.chunk_id, recovered);
    const change: Change = {
      where: 'passage',
      label: passageLabel(evidence),
      shown: text,
      basis: recovered === undefined ? 'none' : 'hash',
    };
    if (recovered !== undefined) change.original = recovered;
    changes.push(change);
  }

  /** The original quote: from the intact (or recovered) passage, else the span if it matches its hash. */
  const originalSpan = (evidence: Evidence): { text: string; basis: ChangeBasis } | undefined => {
    const passage = passages.get(evidence.chunk_id);
    if (passage !== undefined) {
      const { start, end, sha256 } = evidence.span;
      // The offsets may have been moved with the quote: the slice that matches the quote's own hash
      // is the signed quote; failing that, the passage at the offsets the bundle gives.
      for (const shift of SHIFTS) {
        for (const [from, to] of [
          [start, end + shift],
          [start + shift, end + shift],
          [start + shift, end],
        ] as const) {
          const slice = sliceCodePoints(passage, from, to);
          if (slice !== undefined && matches(slice, sha256)) return { text: slice, basis: 'passage' };
        }
      }
      const atOffsets = sliceCodePoints(passage, start, end);
      if (atOffsets !== undefined) return { text: atOffsets, basis: 'passage' };
    }
    if (matches(evidence.span.text, evidence.span.sha256)) return { text: evidence.span.text, basis: 'hash' };
    return undefined;
  };

  certificate.claims.forEach((claim, index) => {
    const spans = claim.evidence.map(originalSpan);
    const spansChanged = claim.evidence.some(
      (evidence, e) => spans[e] !== undefined && spans[e].text !== evidence.span.text,
    );
    let original: string | undefined;
    let basis: ChangeBasis = 'none';
    if (claim.composition !== undefined) {
      const rendered = renderComposition(
        claim.composition,
        claim.evidence.map((evidence, e) => ({
          span: { text: spans[e]?.text ?? evidence.span.text },
          citation: evidence.citation,
        })),
        COMPOSITION_TEMPLATES,
      );
      if (rendered.ok && rendered.text !== claim.text && spans.every((span) => span?.basis === 'passage')) {
        original = rendered.text;
        basis = 'composition';
      }
    }
    if (original === undefined && spansChanged) {
      let text = claim.text;
      claim.evidence.forEach((evidence, e) => {
        const span = spans[e];
        if (span !== undefined && span.text !== evidence.span.text && evidence.span.text !== '')
          text = text.split(evidence.span.text).join(span.text);
      });
      if (text !== claim.text) {
        original = text;
        basis = 'passage';
      }
    }
    const inAnswer = sliceCodePoints(certificate.answer.text, claim.answer_start, claim.answer_end);
    const claimMatches = matches(claim.text, claim.sha256);
    if (original === undefined && !claimMatches) {
      if (inAnswer !== undefined && inAnswer !== claim.text && matches(inAnswer, claim.sha256)) {
        original = inAnswer;
        basis = 'hash';
      }
    }
    const number = index + 1;
    if (original !== undefined || !claimMatches) {
      const change: Change = { where: 'claim', claim: number, shown: claim.text, basis };
      if (original !== undefined) change.original = original;
      changes.push(change);
    }
    // The answer as a reader sees it: a sentence the answer no longer contains, found near its offsets.
    const truth = original ?? (claimMatches ? claim.text : undefined);
    const answer = certificate.answer.text;
    if (
      truth !== undefined &&
      !matches(answer, certificate.answer.sha256) &&
      !answer.includes(claim.text) &&
      !answer.includes(truth)
    ) {
      changes.push({
        where: 'answer',
        claim: number,
        shown: around(answer, truth, claim.answer_start),
        original: truth,
        basis: basis === 'none' ? 'hash' : basis,
      });
    }
  });
  return changes;
}

/** Shifts tried, nearest first, when a change moved the offsets after it. */
const SHIFTS = [0, ...Array.from({ length: 64 }, (_, i) => [-(i + 1), i + 1]).flat()];

/**
 * The stretch of `text` that stands where `sentence` should be: from where its first words occur
 * (nearest its offset) to where its last words do; the sentence's length from its offset otherwise.
 */
function around(text: string, sentence: string, offset: number): string {
  const anchor = Math.min(24, Math.floor(sentence.length / 3));
  const approximate = Array.from(text).slice(0, offset).join('').length;
  const nearest = (needle: string, near: number): number => {
    if (needle === '') return -1;
    let best = -1;
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1))
      if (best === -1 || Math.abs(at - near) < Math.abs(best - near)) best = at;
    return best;
  };
  const foundStart = nearest(sentence.slice(0, anchor), approximate);
  const start = foundStart === -1 ? approximate : foundStart;
  const foundEnd = nearest(sentence.slice(-anchor), start + sentence.length - anchor);
  const end = foundEnd === -1 || foundEnd < start ? start + sentence.length : foundEnd + anchor;
  return text.slice(start, end);
}

/** Fields whose difference follows from a text already compared (hashes) or that only identify. */
const DERIVED =
  /(^|\.)sha256$|^claims\[\d+\]\.(text|answer_start|answer_end)$|^query\.text$|^answer\.text$|^claims\[\d+\]\.evidence\[\d+\]\.span\.(text|start|end)$/;
const MAX_FIELD_CHANGES = 12;

function leafDifferences(shown: unknown, original: unknown, path: string, out: Change[]): void {
  if (out.length >= MAX_FIELD_CHANGES) return;
  const isObject = (value: unknown) => typeof value === 'object' && value !== null;
  if (isObject(shown) && isObject(original) && Array.isArray(shown) === Array.isArray(original)) {
    const keys = Array.isArray(shown)
      ? [...Array(Math.max((shown as unknown[]).length, (original as unknown[]).length)).keys()].map(String)
      : [...new Set([...Object.keys(shown as object), ...Object.keys(original as object)])].sort();
    for (const key of keys) {
      const next = Array.isArray(shown) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
      leafDifferences(
        (shown as Record<string, unknown>)[key],
        (original as Record<string, unknown>)[key],
        next,
        out,
      );
    }
    return;
  }
  if (DERIVED.test(path)) return;
  const text = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));
  if (text(shown) !== text(original))
    out.push({
      where: 'field',
      label: path,
      shown: text(shown),
      original: text(original),
      basis: 'published',
    });
}

/**
 * The changes between a presented bundle and the published one (same certificate id, verified by the
 * caller): the question, each claim, each passage, the signature, and up to twelve other fields.
 */
export function comparePublished(input: unknown, publishedBundle: Bundle): Change[] {
  let bundle: Bundle;
  try {
    bundle = validateBundle(input);
  } catch {
    return [];
  }
  const changes: Change[] = [];
  const shown = bundle.certificate;
  const published = publishedBundle.certificate;
  if (shown.query.text !== published.query.text)
    changes.push({
      where: 'question',
      shown: shown.query.text,
      original: published.query.text,
      basis: 'published',
    });
  const count = Math.max(shown.claims.length, published.claims.length);
  let claimChanged = false;
  for (let index = 0; index < count; index++) {
    const a = shown.claims[index]?.text ?? '';
    const b = published.claims[index]?.text ?? '';
    if (a !== b) {
      claimChanged = true;
      changes.push({ where: 'claim', claim: index + 1, shown: a, original: b, basis: 'published' });
    }
  }
  if (!claimChanged && shown.answer.text !== published.answer.text)
    changes.push({
      where: 'answer',
      shown: shown.answer.text,
      original: published.answer.text,
      basis: 'published',
    });
  const originalPassages = new Map(publishedBundle.chunks.map((chunk) => [chunk.chunk_id, chunk.text]));
  const labels = new Map(
    published.claims.flatMap((claim) =>
      claim.evidence.map((evidence) => [evidence.chunk_id, passageLabel(evidence)]),
    ),
  );
  for (const chunk of bundle.chunks) {
    const original = originalPassages.get(chunk.chunk_id);
    if (original !== undefined && original !== chunk.text)
      changes.push({
        where: 'passage',
        label: labels.get(chunk.chunk_id) ?? chunk.chunk_id,
        shown: chunk.text,
        original,
        basis: 'published',
      });
  }
  const fields: Change[] = [];
  leafDifferences(shown, published, '', fields);
  changes.push(...fields);
  if (bundle.signature !== publishedBundle.signature && changes.length === 0)
    changes.push({
      where: 'signature',
      shown: bundle.signature,
      original: publishedBundle.signature,
      basis: 'published',
    });
  return changes;
}

// ---------------------------------------------------------------------------------------------
// Word diff

export interface DiffSegment {
  text: string;
  changed: boolean;
}

/** Words and the white space between them, in order. */
function tokens(text: string): string[] {
  return text.split(/(\s+)/).filter((token) => token !== '');
}

/** Largest middle (tokens × tokens) compared word by word; beyond it the middle is marked whole. */
const LCS_MAX_CELLS = 250_000;

function segmentsOf(list: readonly string[], changed: readonly boolean[]): DiffSegment[] {
  const out: DiffSegment[] = [];
  list.forEach((token, index) => {
    // White space takes the state of the word before it, so a change reads as one run.
    const mark = /^\s+$/.test(token)
      ? (changed[index - 1] ?? false) && (changed[index + 1] ?? false)
      : changed[index]!;
    const last = out[out.length - 1];
    if (last && last.changed === mark) last.text += token;
    else out.push({ text: token, changed: mark });
  });
  return out;
}

/**
 * A word-level diff of `original` and `shown`: each side as segments, the words that differ marked.
 * Common leading and trailing words are matched first; the middle by longest common subsequence.
 */
export function diffWords(
  original: string,
  shown: string,
): { original: DiffSegment[]; shown: DiffSegment[] } {
  const a = tokens(original);
  const b = tokens(shown);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const changedA = a.map((_, index) => index >= start && index < endA);
  const changedB = b.map((_, index) => index >= start && index < endB);
  const n = endA - start;
  const m = endB - start;
  if (n > 0 && m > 0 && n * m <= LCS_MAX_CELLS) {
    const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        table[i]![j] =
          a[start + i] === b[start + j]
            ? table[i + 1]![j + 1]! + 1
            : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[start + i] === b[start + j]) {
        changedA[start + i] = false;
        changedB[start + j] = false;
        i++;
        j++;
      } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
      else j++;
    }
  }
  return { original: segmentsOf(a, changedA), shown: segmentsOf(b, changedB) };
}

/**
 * The segments with long unchanged stretches cut down to `around` characters of context on each side
 * of a change (an ellipsis marks a cut). Nothing changed: the first `2 × around` characters.
 */
export function excerpt(segments: readonly DiffSegment[], around = 90): DiffSegment[] {
  const anyChange = segments.some((segment) => segment.changed);
  const limit = anyChange ? around : around * 2;
  return segments.map((segment, index) => {
    if (segment.changed) return segment;
    const points = Array.from(segment.text);
    const isFirst = index === 0;
    const isLast = index === segments.length - 1;
    if (!anyChange || isLast) {
      if (points.length <= limit) return segment;
      return { text: `${headWords(points, limit)}…`, changed: false };
    }
    if (isFirst)
      return points.length > limit ? { text: `…${tailWords(points, limit)}`, changed: false } : segment;
    if (points.length > 2 * limit)
      return { text: `${headWords(points, limit)} … ${tailWords(points, limit)}`, changed: false };
    return segment;
  });
}

/** The first `limit` code points, cut back to the last word boundary when there is one. */
function headWords(points: readonly string[], limit: number): string {
  const head = points.slice(0, limit).join('');
  const cut = head.search(/\s\S*$/);
  return cut > limit / 2 ? head.slice(0, cut + 1) : head;
}

/** The last `limit` code points, starting at a word boundary when there is one. */
function tailWords(points: readonly string[], limit: number): string {
  const tail = points.slice(-limit).join('');
  const cut = tail.search(/\s/);
  return cut !== -1 && cut < limit / 2 ? tail.slice(cut) : tail;
}
