/**
 * The select stage of the offline answer: which exact spans answer the question, composed into
 * claims (compose.ts). In order of preference:
 *
 * 0. A budget figure or comparison: the figure table (packs/budget/answer.ts).
 * 1. A sanction question on a statute: the criminal provision whose penalty and rule best cover the
 *    question, found among the retrieved chunks or through the cross-references of the retrieved
 *    rules ("sebagaimana dimaksud dalam Pasal 106 ayat (8)"), quoted with the rule it punishes.
 * 2. Otherwise the best sentences of the retrieved chunks (extractive.ts), the kind of statement the
 *    intent asks for first, lists and code blocks quoted whole.
 *
 * Chunks the first path brings in are appended to the sources, so the certificate lists every
 * chunk it cites among its retrieval results.
 */
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import {
  followingQuotes,
  internalReferences,
  listItems,
  packClaims,
  parseReferences,
  referencedItems,
} from '../packs/registry.js';
import { lexemesOf } from '../retrieve/lexemes.js';
import type { RetrievedChunk } from '../retrieve/retrieve.js';
import {
  type ComposedClaim,
  type CompositionPart,
  composeClaim,
  LAW_LEADS_PROVISION,
  LAW_LEADS_SANCTION,
  LAW_RULE_LEAD,
  type LawRole,
  lawQuote,
  type SourceSpan,
  sourceIndexOf,
  verbatimQuote,
  withoutAyatNumber,
} from './compose.js';
import { findDefinitions } from './definitions.js';
import { completeSpan, extractiveAnswer, isStatement, paragraphFollowing } from './extractive.js';
import { answersIntent, breadth, coverage, kindWords, type QuestionTerms } from './relevance.js';
import { splitSentences } from './sentences.js';
import type { QuestionPlan } from './understand.js';

/** The statute's cross-references, read from the stored chunks (packs/legislation/cross-references.ts). */
export interface StatuteLinks {
  /** Criminal provisions that refer to this Pasal (and ayat). */
  sanctionsFor(ref: { pasal: string; ayat?: string }): Promise<RetrievedChunk[]>;
  /** The provisions a criminal provision refers to. */
  rulesFor(sanction: { text: string; pasal?: string }): Promise<RetrievedChunk[]>;
  /** One provision's body chunk. */
  provision(ref: { pasal: string; ayat?: string }): Promise<RetrievedChunk | undefined>;
  /** One provision's elucidation (Penjelasan), which often says in plain words what the rule covers. */
  elucidation(ref: { pasal: string; ayat?: string }): Promise<RetrievedChunk | undefined>;
  /** The other ayat of a provision's Pasal that build on an earlier ayat (its graver forms). */
  dependents?(ref: { pasal: string; ayat?: string }): Promise<RetrievedChunk[]>;
}

export interface SelectInput {
  db: Queryable;
  collection: Collection;
  plan: QuestionPlan;
  /** The question's weighted lexemes, for choosing among candidate provisions. */
  terms: QuestionTerms;
  /** Ranked retrieval results; chunks brought in by a path are appended. */
  sources: RetrievedChunk[];
  /** The rewrites of the question the sentences are also scored against. */
  variants: string[];
  /** Selection mode: sentences following the selected passage. */
  continuation?: { sourceIndex: number; start: number; end: number; text: string }[];
  links?: StatuteLinks;
}

const PENALTY = /\b(?:dipidana|denda paling banyak|sanksi administratif)\b/iu;
/** Sanction candidates considered (retrieved and cross-referenced). */
const MAX_SANCTIONS = 16;
/** Candidates whose graver forms (later ayat of their Pasal) are considered too. */
const MAX_WIDENED = 4;

/** The sentence of a provision that states its penalty, or the provision's first statement. */
function penaltySpan(text: string): SourceSpan | undefined {
  const sentences = splitSentences(text);
  // A heading carried into the chunk ("Bagian Keempat Belas Sanksi Administratif") states no penalty.
  const found = sentences.find((sentence) => PENALTY.test(sentence.text) && isStatement(sentence.text));
  if (!found) return undefined;
  // "(2) Setiap orang …": the ayat number is the citation's, not the statement's; a penalty that
  // introduces a list is quoted with its items.
  const lead = /^\(\d+[a-z]?\)\s*/.exec(found.text)?.[0].length ?? 0;
  return completeSpan(text, { start: found.start + lead, end: found.end, text: found.text.slice(lead) });
}

/**
 * A quote of `chunk` (appended to the sources when new): led by its provision on a statute
 * ("Menurut Pasal 291 ayat (1) UU 22/2009: …"), verbatim elsewhere.
 */
function quote(
  input: SelectInput,
  role: LawRole,
  chunk: RetrievedChunk,
  span: SourceSpan,
  marker: number,
): ComposedClaim {
  const sourceIndex = sourceIndexOf(input.sources, chunk);
  if (!chunk.citation.pasal || !chunk.citation.label) return verbatimQuote(sourceIndex, span, marker);
  return lawQuote(role, input.plan.language, { sourceIndex, span, label: chunk.citation.label }, marker);
}

/**
 * The sanction for the rules the answer quotes from one Pasal, through the statute's cross-references:
 * the criminal provision that names a quoted ayat (the first that has one), else one that names the
 * Pasal as a whole — the one whose penalty and rule best cover the question. Returns the rule it
 * punishes with it.
 */
async function sanctionForRules(
  input: SelectInput,
  rules: readonly RetrievedChunk[],
): Promise<{ sanction: RetrievedChunk; rule: RetrievedChunk } | undefined> {
  const { links } = input;
  const first = rules[0];
  if (!links || !first?.citation.pasal || PENALTY.test(first.text)) return undefined;
  const pasal = first.citation.pasal;
  let candidates: RetrievedChunk[] = [];
  let rule = first;
  for (const quoted of rules) {
    if (!quoted.citation.ayat) continue;
    candidates = await links.sanctionsFor({ pasal, ayat: quoted.citation.ayat });
    candidates = candidates.filter((chunk) => penaltySpan(chunk.text) !== undefined);
    rule = quoted;
    if (candidates.length > 0) break;
  }
  // A sanction that names the Pasal as a whole punishes each of its ayat; one that names other ayat
  // only ("Pasal 124 ayat (1) huruf d" for a rule of ayat (2)) does not.
  if (candidates.length === 0) {
    rule = first;
    candidates = (await links.sanctionsFor({ pasal })).filter(
      (chunk) =>
        penaltySpan(chunk.text) !== undefined &&
        (!first.citation.ayat ||
          parseReferences(chunk.text).some((ref) => ref.pasal === pasal && ref.ayat === undefined)),
    );
  }
  if (candidates.length <= 1) return candidates[0] ? { sanction: candidates[0], rule } : undefined;
  const lexemes = await lexemesOf(
    input.db,
    input.collection,
    candidates.map((chunk) => chunk.text),
  );
  let best = candidates[0]!;
  let bestScore = -1;
  candidates.forEach((chunk, index) => {
    const evidence = new Set(lexemes[index]);
    const score = coverage(input.terms, evidence) + breadth(input.terms, evidence);
    if (score > bestScore + 1e-9) {
      best = chunk;
      bestScore = score;
    }
  });
  return { sanction: best, rule };
}

/** The letters of the list items a quote of a provision holds ("d. memberhentikan …" gives d). */
function quotedItems(claims: readonly { span: SourceSpan }[]): string[] {
  const letters: string[] = [];
  for (const claim of claims)
    for (const line of claim.span.text.split('\n')) {
      const letter = /^([a-z])\.\s/.exec(line.trim())?.[1];
      if (letter && !letters.includes(letter)) letters.push(letter);
    }
  return letters;
}

/**
 * The sanction of a rule the answer quotes: its penalty, and when the penalty lists several
 * offences ("Dipidana …, setiap Pengemudi … yang: a. … b. … c. …"), only the items that name the
 * quoted items of the rule ("… sebagaimana dimaksud dalam Pasal 124 ayat (1) huruf d"), with the
 * list's introduction.
 */
function sanctionQuote(
  input: SelectInput,
  sanction: RetrievedChunk,
  rule: RetrievedChunk,
  ruleLetters: readonly string[],
  marker: number,
): ComposedClaim {
  const penalty = penaltySpan(sanction.text)!;
  const label = sanction.citation.label;
  const ref = {
    pasal: rule.citation.pasal ?? '',
    ...(rule.citation.ayat ? { ayat: rule.citation.ayat } : {}),
  };
  const named = ruleLetters.length > 0 ? itemsNaming(sanction.text, ref, ruleLetters) : undefined;
  if (!named || !label) return quote(input, 'sanction', sanction, penalty, marker);
  return listClaim(input, LAW_LEADS_SANCTION, sanction, named, marker);
}

/**
 * A list of a provision quoted as its introduction and some of its items, led by `lead` and the
 * provision ("Sanksi, Pasal 300 UU 22/2009: Dipidana … yang: b. … [2]"), composed (`law.sanction`).
 */
function listClaim(
  input: SelectInput,
  lead: Record<'id' | 'en', string>,
  chunk: RetrievedChunk,
  list: { intro: SourceSpan; items: SourceSpan[] },
  marker: number,
): ComposedClaim {
  const sourceIndex = sourceIndexOf(input.sources, chunk);
  const spans = [list.intro, ...list.items];
  const parts: CompositionPart[] = [{ fixed: lead[input.plan.language] }, { cite: 0 }, { fixed: ': ' }];
  spans.forEach((_, index) => {
    parts.push({ span: index }, { fixed: ' ' });
  });
  parts.push({ marker });
  const evidence = spans.map((span) => ({ sourceIndex, span, label: chunk.citation.label! }));
  return composeClaim('law.sanction', input.plan.language, evidence, parts);
}

/**
 * The items of a criminal provision's list that punish the items `letters` of the rule `ref`, with
 * the list's introduction; undefined when the provision is no such list or names none of them.
 */
function itemsNaming(
  text: string,
  ref: { pasal: string; ayat?: string },
  letters: readonly string[],
): { intro: SourceSpan; items: SourceSpan[] } | undefined {
  const ownLetters: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    const letter = /^([a-z])\.\s/.exec(trimmed)?.[1];
    if (letter && referencedItems(trimmed, ref).some((named) => letters.includes(named)))
      ownLetters.push(letter);
  }
  const found = listSpans(text, ownLetters);
  // Every item of the list named: the whole penalty is as short.
  if (!found || found.items.length === text.split('\n').filter((line) => /^\s*[a-z]\.\s/.test(line)).length)
    return undefined;
  return found;
}

/** A definition question: the sentence of the collection that defines its subject. */
async function definitionClaims(input: SelectInput): Promise<ComposedClaim[]> {
  const subject = input.plan.slots.subject;
  if (!subject) return [];
  const found = await findDefinitions(
    input.db,
    input.collection,
    subject,
    input.sources.map((source) => source.chunk_id),
  );
  const best = found[0];
  if (!best) return [];
  const definition = quote(input, 'provision', best.chunk, withoutAyatNumber(best.span), 1);
  if (best.chunk.citation.pasal) return [definition];
  // Outside a statute the definition goes on in its paragraph ("You can think of a reducer as…"),
  // a list or code block it introduces quoted whole.
  const sourceIndex = definition.evidence[0]!.sourceIndex;
  const following = paragraphFollowing(best.chunk.text, best.span)
    .map((span) => completeSpan(best.chunk.text, span))
    .filter((span) => span !== undefined)
    .map((span) => verbatimQuote(sourceIndex, span, 1));
  return [definition, ...following];
}

/**
 * How well a provision and what it punishes cover the question: all the question's wordings together
 * first (a wording of common words alone — "denda", "melanggar" — fits every penalty), then the best
 * single wording.
 */
function sanctionScore(terms: QuestionTerms, evidence: ReadonlySet<string>): number {
  return breadth(terms, evidence) + 0.5 * coverage(terms, evidence);
}

/** Exact spans of a list's introduction and of its items `letters`, in `text`. */
function listSpans(
  text: string,
  letters: readonly string[],
): { intro: SourceSpan; items: SourceSpan[] } | undefined {
  if (letters.length === 0) return undefined;
  let intro: SourceSpan | undefined;
  const items: SourceSpan[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset + (line.length - line.trimStart().length);
    const trimmed = line.trim();
    const span = { start, end: start + trimmed.length, text: trimmed };
    offset += line.length + 1;
    const letter = /^([a-z])\.\s/.exec(trimmed)?.[1];
    if (letter === undefined) {
      if (items.length === 0 && /:$/.test(trimmed)) intro = withoutAyatNumber(span);
      continue;
    }
    if (letters.includes(letter)) items.push(span);
  }
  return intro && items.length > 0 ? { intro, items } : undefined;
}

/**
 * The rule a sanction punishes, quoted: the items it names with their list's introduction ("Pada saat
 * diadakan pemeriksaan … wajib menunjukkan: b. Surat Izin Mengemudi;"), else its statement that best
 * answers the question; a list introduction never without its items.
 */
function ruleClaim(
  input: SelectInput,
  sanction: RetrievedChunk,
  rule: RetrievedChunk,
): ComposedClaim | undefined {
  const ref = {
    pasal: rule.citation.pasal ?? '',
    ...(rule.citation.ayat ? { ayat: rule.citation.ayat } : {}),
  };
  const named = listSpans(rule.text, referencedItems(sanction.text, ref));
  if (named && rule.citation.label) return listClaim(input, LAW_RULE_LEAD, rule, named, 2);
  const statement = extractiveAnswer(input.plan.normalized, [rule], {
    language: input.collection.language,
    variants: input.variants,
    maxSentences: 1,
  }).claims[0];
  const sentence =
    statement?.span ??
    splitSentences(rule.text)
      .filter((item) => item.text.length > 20 && isStatement(item.text))
      .map((item) => completeSpan(rule.text, item))
      .find((item) => item !== undefined);
  if (!sentence) return undefined;
  return quote(input, 'rule', rule, withoutAyatNumber(sentence), 2);
}

/** The weight of a provision's own text beside what it punishes. */
const OWN_TEXT = 0.5;

/** Hops followed through "sebagaimana dimaksud pada ayat (k)" within one Pasal. */
const MAX_INTERNAL_HOPS = 3;

/**
 * What a criminal provision punishes, as text to read the question against: the provision, the
 * items of the rules it names ("Pasal 106 ayat (5) huruf b" is the SIM, not the whole list), and the
 * earlier ayat of its own Pasal it builds on ("perbuatan sebagaimana dimaksud pada ayat (4)").
 */
async function sanctionContext(
  links: StatuteLinks,
  sanction: RetrievedChunk,
  rules: readonly RetrievedChunk[],
): Promise<string> {
  const parts = [sanction.text];
  for (const rule of rules) {
    const ref = {
      pasal: rule.citation.pasal ?? '',
      ...(rule.citation.ayat ? { ayat: rule.citation.ayat } : {}),
    };
    const items = listItems(rule.text, referencedItems(sanction.text, ref));
    parts.push(items.length > 0 ? items.join('\n') : rule.text);
    // The elucidation of the whole provision, unless the sanction names some of its items only.
    if (ref.pasal && items.length === 0) {
      const elucidation = await links.elucidation(ref);
      if (elucidation) parts.push(elucidation.text);
    }
  }
  const pasal = sanction.citation.pasal;
  const seen = new Set([sanction.citation.ayat]);
  let text = sanction.text;
  for (let hop = 0; pasal && hop < MAX_INTERNAL_HOPS; hop++) {
    const ayat = internalReferences(text).find((item) => !seen.has(item));
    if (!ayat) break;
    seen.add(ayat);
    const earlier = await links.provision({ pasal, ayat });
    if (!earlier) break;
    parts.push(earlier.text);
    text = earlier.text;
  }
  return parts.join('\n');
}

async function sanctionClaims(input: SelectInput): Promise<ComposedClaim[]> {
  const { sources, links } = input;
  if (!links) return [];
  const candidates: RetrievedChunk[] = [];
  const seen = new Set<string>();
  const add = (chunk: RetrievedChunk) => {
    if (seen.has(chunk.chunk_id) || candidates.length >= MAX_SANCTIONS) return;
    seen.add(chunk.chunk_id);
    candidates.push(chunk);
  };
  for (const source of sources) if (PENALTY.test(source.text) && penaltySpan(source.text)) add(source);
  for (const source of sources) {
    if (PENALTY.test(source.text) || !source.citation.pasal) continue;
    const ref = {
      pasal: source.citation.pasal,
      ...(source.citation.ayat ? { ayat: source.citation.ayat } : {}),
    };
    for (const chunk of (await links.sanctionsFor(ref)).slice(0, 3)) if (penaltySpan(chunk.text)) add(chunk);
  }
  // The graver forms of an offence found ("… mengakibatkan orang lain meninggal dunia"), which build
  // on it in later ayat of its Pasal.
  if (links.dependents)
    for (const candidate of candidates.slice(0, MAX_WIDENED)) {
      if (!candidate.citation.pasal || !candidate.citation.ayat) continue;
      const siblings = await links.dependents({
        pasal: candidate.citation.pasal,
        ayat: candidate.citation.ayat,
      });
      for (const chunk of siblings) if (penaltySpan(chunk.text)) add(chunk);
    }
  if (candidates.length === 0) return [];
  // Each candidate with the rules it punishes: coverage is read over both.
  const rules = await Promise.all(
    candidates.map((candidate) =>
      links.rulesFor({
        text: candidate.text,
        ...(candidate.citation.pasal ? { pasal: candidate.citation.pasal } : {}),
      }),
    ),
  );
  const texts = await Promise.all(
    candidates.map((candidate, index) => sanctionContext(links, candidate, rules[index]!.slice(0, 2))),
  );
  const lexemes = await lexemesOf(input.db, input.collection, [
    ...texts,
    ...candidates.map((candidate) => candidate.text),
  ]);
  let best = -1;
  let bestScore = 0;
  candidates.forEach((_, index) => {
    // What the provision itself says counts again: "meninggal dunia" in its own ayat, not only in
    // the rule it builds on.
    const score =
      sanctionScore(input.terms, new Set(lexemes[index])) +
      OWN_TEXT * breadth(input.terms, new Set(lexemes[candidates.length + index]));
    if (score > bestScore + 1e-9) {
      best = index;
      bestScore = score;
    }
  });
  if (best < 0) return [];
  const sanction = candidates[best]!;
  const claims = [quote(input, 'penalty', sanction, penaltySpan(sanction.text)!, 1)];
  const rule = rules[best]![0];
  if (rule) {
    const claim = ruleClaim(input, sanction, rule);
    if (claim) claims.push({ ...claim, linked: true });
  }
  return claims;
}

/** The offline claims for the question: composed from exact spans, or none when nothing answers. */
export async function selectClaims(input: SelectInput): Promise<ComposedClaim[]> {
  const { plan, sources } = input;
  // A document pack may answer first: the budget pack's figures and macroeconomic assumptions, from
  // the statute's clauses (packs/budget/); an empty list means no other sentence stands in for it.
  const packed = await packClaims({ db: input.db, collection: input.collection, plan, sources });
  if (packed) return packed;
  const extractive = extractiveAnswer(plan.normalized, sources, {
    language: input.collection.language,
    variants: input.variants,
    answersIntent: (text) => answersIntent(plan, text),
    kindAsked: kindWords(plan) !== undefined,
    ...(input.continuation && input.continuation.length > 0 ? { continuation: input.continuation } : {}),
  });
  if (plan.intent === 'sanction') {
    // Tried on a copy of the sources: chunks it brings in join them only when its answer is taken.
    const trial = { ...input, sources: [...sources] };
    const claims = await sanctionClaims(trial);
    // "Bisa titip bayar denda di bank?" names a fine but asks about paying it: a penalty is the
    // answer only when it covers the question about as well as the best sentence retrieved.
    if (claims.length > 0 && !(await betterAnswered(input, extractive, claims, trial.sources))) {
      sources.splice(0, sources.length, ...trial.sources);
      return claims;
    }
  }
  if (plan.intent === 'definition') {
    const claims = await definitionClaims(input);
    if (claims.length > 0) return claims;
  }
  if (!extractive.found) return [];
  const claims = statuteQuotes(input, extractive.claims);
  // A rule of a statute is answered with what breaking it costs, when the statute says so: the
  // rule's quotes, then its sanction (the other sources' sentences give way to it).
  if (plan.intent === 'obligation' || plan.intent === 'other') {
    const first = extractive.claims[0]!;
    const firstSource = sources[first.source_index]!;
    // The best sentence is itself a penalty ("melanggar aturan?" → Pasal 287): it is answered as a
    // sanction, with the rule it punishes.
    const penalty = firstSource.citation.pasal ? penaltySpan(firstSource.text) : undefined;
    if (penalty && input.links) {
      const rule = (
        await input.links.rulesFor({ text: firstSource.text, pasal: firstSource.citation.pasal! })
      )[0];
      const claims = [quote(input, 'penalty', firstSource, penalty, 1)];
      const ruleQuote = rule ? ruleClaim(input, firstSource, rule) : undefined;
      return ruleQuote ? [...claims, { ...ruleQuote, linked: true }] : claims;
    }
    // The quotes of the first provision's Pasal, and the sanction of the first of them a criminal
    // provision names ("Pasal 137 ayat (4)" punishes the second quote, not the first).
    const samePasal = claims.filter((claim) => {
      const source = sources[claim.evidence[0]!.sourceIndex]!;
      return (
        source.document_id === firstSource.document_id && source.citation.pasal === firstSource.citation.pasal
      );
    });
    const quotedChunks = [...new Set(samePasal.map((claim) => claim.evidence[0]!.sourceIndex))].map(
      (index) => sources[index]!,
    );
    const found = await sanctionForRules(input, quotedChunks);
    if (found) {
      const ruleIndex = sources.indexOf(found.rule);
      const last = samePasal.findIndex((claim) => claim.evidence[0]!.sourceIndex === ruleIndex);
      const rules = samePasal.slice(0, last + 1);
      const letters = quotedItems(extractive.claims.filter((claim) => claim.source_index === ruleIndex));
      // The next source number after the rules' own: a quote of another Pasal may have taken one
      // between them, and a number names one source (docs/certificate.md, "Citation markers").
      const next = Math.max(0, ...rules.map((claim) => Number(/\[(\d+)\]$/.exec(claim.text)?.[1] ?? 0))) + 1;
      const sanction = sanctionQuote(input, found.sanction, found.rule, letters, next);
      return [...rules, { ...sanction, linked: true }];
    }
  }
  if (plan.intent === 'procedure') return withHowTo(input, extractive.claims, claims);
  return claims;
}

/**
 * A how-to answer outside a statute goes on with the code its best passage introduces
 * (how-to.ts), right after that passage's quotes and linked to them.
 */
async function withHowTo(
  input: SelectInput,
  extracted: ReturnType<typeof extractiveAnswer>['claims'],
  claims: ComposedClaim[],
): Promise<ComposedClaim[]> {
  const first = extracted[0];
  if (!first) return claims;
  const markerOf = (text: string) => Number(/\[(\d+)\]$/.exec(text)?.[1] ?? 1);
  const spans = extracted
    .filter((claim) => claim.source_index === first.source_index)
    .map((claim) => claim.span);
  const following = await followingQuotes(input.collection, {
    db: input.db,
    sources: input.sources,
    sourceIndex: first.source_index,
    quoted: spans,
    markers: {
      source: markerOf(first.text),
      next: Math.max(0, ...claims.map((claim) => markerOf(claim.text))) + 1,
    },
  });
  if (following.length === 0) return claims;
  let after = 0;
  claims.forEach((claim, index) => {
    if (claim.evidence.some((item) => item.sourceIndex === first.source_index)) after = index + 1;
  });
  return [
    ...claims.slice(0, after),
    ...following.map((claim) => ({ ...claim, linked: true })),
    ...claims.slice(after),
  ];
}

/**
 * The extractive sentences as claims: on a statute, the sentences of one provision become one claim
 * led by it once ("Menurut Pasal 83 ayat (2) UU 22/2009: a. … b. … [1]"); elsewhere verbatim quotes.
 */
function statuteQuotes(
  input: SelectInput,
  extracted: ReturnType<typeof extractiveAnswer>['claims'],
): ComposedClaim[] {
  const claims: ComposedClaim[] = [];
  const markerOf = (text: string, fallback: number) => Number(/\[(\d+)\]$/.exec(text)?.[1] ?? fallback);
  for (let index = 0; index < extracted.length; index++) {
    const claim = extracted[index]!;
    const source = input.sources[claim.source_index]!;
    const marker = markerOf(claim.text, index + 1);
    if (!source.citation.pasal || !source.citation.label) {
      claims.push(verbatimQuote(claim.source_index, claim.span, marker));
      continue;
    }
    const spans = [withoutAyatNumber(claim.span)];
    while (extracted[index + 1]?.source_index === claim.source_index) spans.push(extracted[++index]!.span);
    if (spans.length === 1) {
      claims.push(quote(input, 'provision', source, spans[0]!, marker));
      continue;
    }
    const evidence = spans.map((span) => ({
      sourceIndex: claim.source_index,
      span,
      label: source.citation.label!,
    }));
    const parts: CompositionPart[] = [
      { fixed: LAW_LEADS_PROVISION[input.plan.language] },
      { cite: 0 },
      { fixed: ': ' },
    ];
    for (const [position] of spans.entries()) parts.push({ span: position }, { fixed: ' ' });
    parts.push({ marker });
    claims.push(composeClaim('law.provision', input.plan.language, evidence, parts));
  }
  return claims;
}

/** How much more of the question the best extractive sentence covers than a penalty must not exceed. */
const PENALTY_MARGIN = 1.3;

/** Whether the best extractive sentence answers the question clearly better than `claims` do. */
async function betterAnswered(
  input: SelectInput,
  extractive: ReturnType<typeof extractiveAnswer>,
  claims: readonly ComposedClaim[],
  claimSources: readonly RetrievedChunk[],
): Promise<boolean> {
  const best = extractive.claims[0];
  if (!best || PENALTY.test(best.span.text)) return false;
  const evidence = (
    sourcesOf: readonly RetrievedChunk[],
    spans: { sourceIndex: number; span: SourceSpan }[],
  ) =>
    spans
      .map(({ sourceIndex, span }) =>
        [span.text, ...(sourcesOf[sourceIndex]!.citation.section_path ?? [])].join('\n'),
      )
      .join('\n');
  const [penalty, sentence] = await lexemesOf(input.db, input.collection, [
    evidence(
      claimSources,
      claims.flatMap((claim) => claim.evidence),
    ),
    evidence(input.sources, [{ sourceIndex: best.source_index, span: best.span }]),
  ]);
  const score = (lexemes: string[] | undefined) => {
    const set = new Set(lexemes);
    return coverage(input.terms, set) + breadth(input.terms, set);
  };
  return score(sentence) > score(penalty) * PENALTY_MARGIN;
}
