/**
 * Composed claims (certificate v1.1, docs/certificate.md "Composed claims"): the claim's text is
 * recomputed from its evidence and the fixed words of a registered template, so a verifier needs
 * to trust no word of it beyond the template registry it is given (templates.ts; Saksi's is
 * `COMPOSITION_TEMPLATES` of vocabulary.ts).
 *
 * `renderComposition` is the one implementation: the issuer (the engine's composer) renders claims
 * with it, `buildCertificate` checks them with it, and `verifyBundle` recomputes them with it. It is
 * pure, never throws, and refuses anything it cannot render exactly.
 */
import { parseNumberWords } from './number-words.js';
import { parseAmounts } from './numbers.js';
import {
  type CompositionLanguage,
  type CompositionTemplates,
  compositionTemplate,
  isFixedAllowed,
} from './templates.js';

/**
 * v1.1: one part of a composed claim. `span`, `cite`, `spelled` and the two `difference` numbers are
 * indices into the claim's `evidence`:
 * - `{ fixed }` a fixed word of the template (exactly one of the registry's strings, templates.ts);
 * - `{ span: n }` the text of `evidence[n].span`;
 * - `{ cite: n }` the citation label of `evidence[n]` (it must have one);
 * - `{ marker: n }` the citation marker `[n]` (n ≥ 1);
 * - `{ difference: [a, b] }` b − a of two evidence spans that are each exactly one rupiah amount
 *   (in digits, or in words as a `spelled` span reads them),
 *   written as the absolute difference in the composition's language (`Rp1.234,00` / `Rp1,234.00`);
 * - `{ spelled: n }` the amount `evidence[n].span` spells in Indonesian words (letters and
 *   whitespace only, an optional trailing "rupiah", more than zero), written like a difference:
 *   "dua ribu lima ratus rupiah" is `Rp2.500,00` / `Rp2,500.00`. Added within v1.1: verifiers that
 *   predate it refuse such claims (an unknown part kind, `MALFORMED`).
 */
export type CompositionPart =
  | { fixed: string }
  | { span: number }
  | { cite: number }
  | { marker: number }
  | { difference: [number, number] }
  | { spelled: number };

/** v1.1: how a verifier recomputes a composed claim's text from its evidence. */
export interface Composition {
  /** A template of the registry (templates.ts), e.g. `"law.sanction"`. */
  template: string;
  /** The language of the fixed words. */
  language: CompositionLanguage;
  /** 1 to 64 parts; the claim's text is their rendered concatenation. */
  parts: CompositionPart[];
}

/** What a composition reads from each evidence item: the span's text and the citation's label. */
export interface CompositionEvidence {
  span: { text: string };
  citation: { label?: string };
}

/** Why a composition does not render. */
export type CompositionProblem =
  | 'UNKNOWN_TEMPLATE'
  | 'UNKNOWN_LANGUAGE'
  | 'INVALID_PART'
  | 'FIXED_NOT_ALLOWED'
  | 'INDEX_OUT_OF_RANGE'
  | 'CITATION_LABEL_MISSING'
  | 'NOT_AN_AMOUNT'
  | 'EVIDENCE_UNUSED';

/** The text of a composition, or why there is none (`part` is the index of the offending part). */
export type CompositionRendering =
  | { ok: true; text: string }
  | { ok: false; problem: CompositionProblem; part?: number; message: string };

/** Most parts a composition may have (the certificate schema's limit). */
export const MAX_COMPOSITION_PARTS = 64;

/**
 * Renders `composition` from `evidence` (the claim's evidence, in order): checks the template is
 * one of `templates` and the language is registered, every fixed part is one of the template's strings, every index is in
 * range, every cited evidence has a label, every difference reads two whole rupiah amounts, every
 * spelled part reads an amount in Indonesian words, and every evidence item is used by a `span`,
 * `cite`, `difference` or `spelled` part. Never throws.
 *
 * @example
 * renderComposition(
 *   { template: 'law.provision', language: 'id', parts: [{ fixed: 'Menurut ' }, { cite: 0 }, { fixed: ': ' }, { span: 0 }, { fixed: ' ' }, { marker: 1 }] },
 *   [{ span: { text: 'Setiap orang dilarang …' }, citation: { label: 'Pasal 106 ayat (1)' } }],
 *   COMPOSITION_TEMPLATES,
 * ); // { ok: true, text: 'Menurut Pasal 106 ayat (1): Setiap orang dilarang … [1]' }
 */
export function renderComposition(
  composition: Composition,
  evidence: readonly CompositionEvidence[],
  templates: CompositionTemplates,
): CompositionRendering {
  const template = typeof composition?.template === 'string' ? composition.template : '';
  if (compositionTemplate(templates, template) === undefined)
    return problem(
      'UNKNOWN_TEMPLATE',
      `template ${JSON.stringify(template.slice(0, 100))} is not registered`,
    );
  const language = composition.language;
  if (language !== 'id' && language !== 'en')
    return problem('UNKNOWN_LANGUAGE', 'the language must be "id" or "en"');
  const parts: unknown = composition.parts;
  if (!Array.isArray(parts) || parts.length === 0 || parts.length > MAX_COMPOSITION_PARTS)
    return problem('INVALID_PART', `a composition has 1 to ${MAX_COMPOSITION_PARTS} parts`);
  const used = new Array<boolean>(evidence.length).fill(false);
  const pieces: string[] = [];
  for (const [index, part] of parts.entries()) {
    const rendered = renderPart(part as CompositionPart, template, language, evidence, used, templates);
    if (typeof rendered !== 'string') return { ...rendered, part: index };
    pieces.push(rendered);
  }
  const unused = used.indexOf(false);
  if (unused >= 0) return problem('EVIDENCE_UNUSED', `evidence ${unused} is used by no part`);
  return { ok: true, text: pieces.join('') };
}

type PartFailure = { ok: false; problem: CompositionProblem; message: string };

function problem(code: CompositionProblem, message: string): PartFailure {
  return { ok: false, problem: code, message };
}

function renderPart(
  part: CompositionPart,
  template: string,
  language: CompositionLanguage,
  evidence: readonly CompositionEvidence[],
  used: boolean[],
  templates: CompositionTemplates,
): string | PartFailure {
  if (typeof part !== 'object' || part === null || Array.isArray(part) || Object.keys(part).length !== 1)
    return problem(
      'INVALID_PART',
      'a part has exactly one of fixed, span, cite, marker, difference, spelled',
    );
  const index = (value: unknown): number | PartFailure => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value >= evidence.length)
      return problem(
        'INDEX_OUT_OF_RANGE',
        `evidence index ${String(value)} is not one of the claim's evidence`,
      );
    return value;
  };
  if ('fixed' in part) {
    if (typeof part.fixed !== 'string' || !isFixedAllowed(templates, template, language, part.fixed))
      return problem(
        'FIXED_NOT_ALLOWED',
        `the fixed text is not a word of template ${template} (${language})`,
      );
    return part.fixed;
  }
  if ('span' in part) {
    const n = index(part.span);
    if (typeof n !== 'number') return n;
    used[n] = true;
    return evidence[n]!.span.text;
  }
  if ('cite' in part) {
    const n = index(part.cite);
    if (typeof n !== 'number') return n;
    const label = evidence[n]!.citation.label;
    if (typeof label !== 'string' || label.length === 0)
      return problem('CITATION_LABEL_MISSING', `evidence ${n} has no citation label`);
    used[n] = true;
    return label;
  }
  if ('marker' in part) {
    if (typeof part.marker !== 'number' || !Number.isSafeInteger(part.marker) || part.marker < 1)
      return problem('INVALID_PART', 'a marker is an integer of at least 1');
    return `[${part.marker}]`;
  }
  if ('difference' in part) {
    const pair: unknown = part.difference;
    if (!Array.isArray(pair) || pair.length !== 2)
      return problem('INVALID_PART', 'a difference names two evidence indices');
    const a = index(pair[0]);
    if (typeof a !== 'number') return a;
    const b = index(pair[1]);
    if (typeof b !== 'number') return b;
    // Each side is an amount as written, or the amount its words spell (a `spelled` span).
    const amountOf = (text: string) => wholeRupiah(text) ?? spelledRupiah(text);
    const from = amountOf(evidence[a]!.span.text);
    const to = amountOf(evidence[b]!.span.text);
    if (from === undefined || to === undefined)
      return problem(
        'NOT_AN_AMOUNT',
        'each span of a difference must be exactly one whole rupiah amount, in digits or in words',
      );
    used[a] = true;
    used[b] = true;
    return formatRupiah(to - from, language);
  }
  if ('spelled' in part) {
    const n = index(part.spelled);
    if (typeof n !== 'number') return n;
    const value = spelledRupiah(evidence[n]!.span.text);
    if (value === undefined)
      return problem('NOT_AN_AMOUNT', 'the span of a spelled part must be an amount in Indonesian words');
    used[n] = true;
    return formatRupiah(value, language);
  }
  return problem('INVALID_PART', 'unknown part kind');
}

/**
 * The value of `text` when it is exactly one exact, whole rupiah amount (`Rp2.463.016.000.000.000,00`),
 * read by the proof package's number parser; otherwise `undefined`. Rounded figures (`Rp2,4
 * kuadriliun`) and fractions are refused: a difference must be exact.
 */
export function wholeRupiah(text: string): bigint | undefined {
  const amounts = parseAmounts(text);
  if (amounts.length !== 1) return undefined;
  const amount = amounts[0]!;
  if (amount.unit !== 'currency' || amount.approximate || !/^\d+$/.test(amount.value)) return undefined;
  if (!/(?:^|[^\p{L}])(?:Rp|IDR)\.?\s*\d/iu.test(text)) return undefined;
  return BigInt(amount.value);
}

/**
 * The amount `text` spells when it is exactly an amount in Indonesian words — letters and whitespace
 * only, besides the caret a scan leaves before words ("tiga ^ratus"), an optional trailing "rupiah",
 * read by `parseNumberWords` — and more than zero; otherwise `undefined`. Digits are refused: a
 * spelled part states what the words say, never the (often misread) digits beside them.
 *
 * @example
 * spelledRupiah('dua ribu lima ratus rupiah'); // 2500n
 * spelledRupiah('Rp2.500 (dua ribu lima ratus rupiah)'); // undefined
 */
export function spelledRupiah(text: string): bigint | undefined {
  if (!/^[\p{L}\s^]+$/u.test(text)) return undefined;
  const value = parseNumberWords(text);
  return value === undefined || value === 0n ? undefined : value;
}

/**
 * The absolute value of `amount` as Saksi writes a recomputed rupiah figure: `Rp` + the integer with
 * its thousands grouped by `.` (id) or `,` (en), then `,00` (id) or `.00` (en).
 *
 * @example
 * formatRupiah(511222477000000n, 'id'); // 'Rp511.222.477.000.000,00'
 * formatRupiah(-1500n, 'en'); // 'Rp1,500.00'
 */
export function formatRupiah(amount: bigint, language: CompositionLanguage): string {
  const digits = (amount < 0n ? -amount : amount).toString();
  const group = language === 'id' ? '.' : ',';
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `Rp${grouped}${language === 'id' ? ',00' : '.00'}`;
}

/**
 * Whether a composition is a verbatim quote: apart from citation markers and whitespace-only fixed
 * words, it is exactly one span.
 */
export function isVerbatimComposition(composition: Composition): boolean {
  let spans = 0;
  for (const part of composition.parts) {
    if ('span' in part) spans++;
    else if ('marker' in part) continue;
    else if ('fixed' in part && part.fixed.trim() === '') continue;
    else return false;
  }
  return spans === 1;
}

/** A citation marker of a composition and the evidence it cites (docs/certificate.md, "Citation markers"). */
export interface CompositionMarker {
  /** The index of the marker part. */
  part: number;
  /** Its number: the `n` of "[n]". */
  marker: number;
  /**
   * The evidence indices the parts since the previous marker read (a `span`, `cite` or `spelled`
   * part reads one, a `difference` two), in order and without repeats: what the marker cites.
   */
  evidence: number[];
}

/**
 * The citation markers of `composition`, each with the evidence it cites: the evidence read by the
 * parts between it and the previous marker (or the start). Parts after the last marker cite nothing.
 * Reads the structure only (indices are not checked against any evidence); never throws.
 *
 * @example
 * compositionMarkers({ template: 'law.provision', language: 'id', parts: [{ fixed: 'Menurut ' }, { cite: 0 }, { fixed: ': ' }, { span: 0 }, { fixed: ' ' }, { marker: 2 }] });
 * // [{ part: 5, marker: 2, evidence: [0] }]
 */
export function compositionMarkers(composition: Composition): CompositionMarker[] {
  const markers: CompositionMarker[] = [];
  let evidence: number[] = [];
  const read = (index: unknown) => {
    if (typeof index === 'number' && !evidence.includes(index)) evidence.push(index);
  };
  const parts: unknown = composition?.parts;
  if (!Array.isArray(parts)) return markers;
  parts.forEach((part: CompositionPart, index) => {
    if (typeof part !== 'object' || part === null) return;
    if ('marker' in part) {
      markers.push({ part: index, marker: part.marker, evidence });
      evidence = [];
    } else if ('span' in part) read(part.span);
    else if ('cite' in part) read(part.cite);
    else if ('spelled' in part) read(part.spelled);
    else if ('difference' in part && Array.isArray(part.difference)) part.difference.forEach(read);
  });
  return markers;
}

/**
 * The text of each non-fixed part (spans, citation labels, markers, differences, spelled amounts) of
 * a rendered composition.
 */
export function evidencePartTexts(
  composition: Composition,
  evidence: readonly CompositionEvidence[],
  templates: CompositionTemplates,
): string[] {
  const texts: string[] = [];
  for (const part of composition.parts) {
    if ('fixed' in part) continue;
    const rendered = renderPart(part, composition.template, composition.language, evidence, [], templates);
    if (typeof rendered === 'string') texts.push(rendered);
  }
  return texts;
}
