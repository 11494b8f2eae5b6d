/**
 * `@saksi/proof/vocabulary`: Saksi's product words, as data — the composition template registry and
 * the negations and quantifiers of the render policy (docs/verification.md, "Vocabulary"). The
 * verifier reads no word list of its own: every caller passes this one as `vocabulary` in
 * `VerifyBundleOptions`, and a verifier for another product (or a new template) passes its own.
 */
import type { AskedRule } from './answer-check.js';
import type { Vocabulary } from './render-policy.js';
import type { CompositionTemplate } from './templates.js';

/**
 * Saksi's composition templates, by id (docs/certificate.md "Composed claims"). Fixed strings carry
 * no digits and none of the negation or quantifier words (`templates.test.ts` checks it).
 *
 * @example
 * COMPOSITION_TEMPLATES['law.sanction']?.fixed.id.includes('Menurut '); // true
 */
export const COMPOSITION_TEMPLATES: Readonly<Record<string, CompositionTemplate>> = {
  quote: { version: '1', fixed: { id: [' '], en: [' '] } },
  'law.sanction': {
    version: '1',
    fixed: {
      id: ['Menurut ', ', ', ': ', '. ', ' ', 'Aturan yang dilanggar, ', 'Sanksi, '],
      en: ['Under ', ', ', ': ', '. ', ' ', 'The rule broken, ', 'The penalty, '],
    },
  },
  'law.provision': {
    version: '1',
    fixed: { id: ['Menurut ', ', ', ': ', ' '], en: ['Under ', ', ', ': ', ' '] },
  },
  'budget.figure': {
    version: '1',
    fixed: { id: ['Menurut ', ', ', ': ', ' '], en: ['According to ', ', ', ': ', ' '] },
  },
  /**
   * A figure stated by the amount its words spell, for statutes whose digits are misread:
   * `Menurut {cite 0}, {span 0: the subject} sebesar {spelled 1} ({span 1: the words}) [1]`
   * (English: `: ` for ` sebesar `).
   */
  'budget.figure-words': {
    version: '1',
    fixed: {
      id: ['Menurut ', ', ', ' sebesar ', ' (', ')', ' '],
      en: ['According to ', ', ', ': ', ' (', ')', ' '],
    },
  },
  'budget.comparison': {
    version: '1',
    fixed: {
      id: ['Menurut ', ', ', ': ', ' ', '; menurut ', '. Selisihnya ', '.', ' sebesar ', ' (', ')'],
      en: ['According to ', ', ', ': ', ' ', '; according to ', '. The difference is ', '.', ' (', ')'],
    },
  },
  'docs.definition': { version: '1', fixed: { id: [' '], en: [' '] } },
};

/** Words that flip a statement: a claim may use one only where its evidence does. */
export const NEGATIONS: readonly string[] = [
  'tidak',
  'tak',
  'bukan',
  'tanpa',
  'belum',
  'jangan',
  'enggak',
  'nggak',
  'gak',
  'not',
  'never',
  'without',
];
/** Words and phrases that widen or narrow a statement: a claim may use one only where its evidence does. */
export const QUANTIFIERS: readonly string[] = [
  'paling banyak',
  'paling sedikit',
  'paling lama',
  'paling singkat',
  'paling cepat',
  'paling tinggi',
  'paling rendah',
  'sekurang-kurangnya',
  'setidaknya',
  'sebanyak-banyaknya',
  'minimal',
  'maksimal',
  'semua',
  'seluruh',
  'setiap',
  'sebagian',
  'beberapa',
  'at least',
  'at most',
  'all',
  'every',
  'some',
  'only',
  'hanya',
];

const MONTHS =
  'januari|februari|maret|april|mei|juni|juli|agustus|september|oktober|november|desember|january|february|march|may|june|july|august|october|december';
const TIME_UNITS =
  'tahun|bulan|minggu|hari|jam|menit|detik|years?|months?|weeks?|days?|hours?|minutes?|seconds?';

/**
 * What a question asks for, in Indonesian and English (docs/certificate.md, "The answer check"): the
 * first rule whose `question` pattern matches a question gives its asked type; a rule with a `value`
 * pattern is met only when a claim or its evidence states such a value. Patterns are matched against
 * lower-case text. Order matters: "berapa lama" is a duration before "berapa" is an amount.
 */
export const ASKED_RULES: readonly AskedRule[] = [
  {
    type: 'reference',
    question: '\\b(?:pasal|ayat|bab) (?:berapa|apa|mana)\\b|\\bwhich (?:article|section|chapter)\\b',
  },
  {
    type: 'age',
    question: '\\b(?:umur|usia|berumur|berusia|how old|minimum age|age limit|what age)\\b',
    value: `\\d+\\s*(?:\\([^)]{1,40}\\)\\s*)?(?:tahun|years?)\\b`,
  },
  {
    type: 'duration',
    question: `\\bberapa (?:lama|${TIME_UNITS})\\b|\\b(?:lamanya|jangka waktu|masa berlaku|how long|how many (?:${TIME_UNITS}))\\b`,
    value: `\\d+\\s*(?:\\([^)]{1,40}\\)\\s*)?(?:${TIME_UNITS})\\b|seumur hidup|for life`,
  },
  {
    type: 'date',
    question:
      '\\b(?:kapan|tanggal berapa|sejak kapan|batas waktu|tenggat|what date|deadline|by when)\\b|^when (?:is|was|does|did|will|do|must|are)\\b',
    value: `\\b\\d{1,2}\\s+(?:${MONTHS})\\b|\\b(?:${MONTHS})\\s+\\d{1,4}\\b|\\b(?:19|20)\\d{2}\\b|\\d+\\s*(?:\\([^)]{1,40}\\)\\s*)?(?:${TIME_UNITS})\\b`,
  },
  { type: 'who', question: '\\b(?:siapa|who|whom|instansi apa|lembaga apa)\\b' },
  {
    type: 'amount',
    question:
      '\\bberapa\\b|\\b(?:how much|how many|besaran|besarnya|nilai|jumlah|total|nominal|tarif|amount of)\\b',
    value:
      '(?:rp\\.?|\\$|€|usd|idr)\\s?\\d|\\d{1,3}(?:[.,]\\d{3})+|\\d\\s*(?:%|persen\\b|percent\\b|ribu\\b|juta\\b|miliar\\b|triliun\\b|thousand\\b|million\\b|billion\\b|trillion\\b)|\\d+\\s*\\(\\s*\\p{L}',
  },
  {
    type: 'sanction',
    question:
      '\\b(?:hukuman\\w*|dihukum|sanksi\\w*|pidana\\w*|dipidana|dipenjara|penjara\\w*|denda\\w*|didenda|tilang|ditilang|penalty|penalties|punish\\w*|fined?|sanctions?)\\b',
    value:
      '\\b(?:dipidana|pidana|denda|sanksi|dikenai|dicabut|fined?|penalty|penalties|imprisonment|jail|prison)\\b',
  },
  {
    type: 'comparison',
    question:
      '\\b(?:beda|bedanya|perbedaan|dibandingkan|bandingkan|selisih|versus|vs|difference|differences|compare|compared)\\b',
  },
  {
    type: 'definition',
    question: `\\b(?:apa (?:itu|yang dimaksud|arti|maksud)|apa artinya|artinya apa|pengertian|definisi|yang dimaksud dengan|^what(?:'s|s| is| are| even is| exactly is)\\b|what does .{1,60} (?:mean|do)|meaning of|define)`,
    value:
      '\\b(?:adalah|ialah|merupakan|yaitu|yakni|yang dimaksud dengan|is|are|means|refers to|lets you|allows)\\b',
  },
  { type: 'reason', question: '\\b(?:mengapa|kenapa|why)\\b' },
  { type: 'place', question: '\\b(?:di ?mana|ke ?mana|where)\\b' },
  {
    type: 'steps',
    question: '\\b(?:bagaimana|gimana|cara|langkah|prosedur|how (?:do|can|to|should|would)|how\\b|steps?)\\b',
  },
  { type: 'list', question: '\\b(?:apa saja|sebutkan|list|which)\\b' },
  {
    type: 'permission',
    question:
      '^(?:apakah|apa|bolehkah|bisakah|haruskah|wajibkah|kalau|kalo|can|may|is|are|am|do|does|should|must)\\b',
  },
];

/**
 * Saksi's vocabulary, to pass as `vocabulary` to `verifyBundle` (and to `decideRender`,
 * `renderComposition` with its `templates`).
 *
 * @example
 * await verifyBundle(bundle, { ...trustOptions(keys), vocabulary: SAKSI_VOCABULARY });
 */
export const SAKSI_VOCABULARY: Vocabulary = {
  templates: COMPOSITION_TEMPLATES,
  negations: NEGATIONS,
  quantifiers: QUANTIFIERS,
  asked: ASKED_RULES,
};
