/**
 * `@saksi/proof/vocabulary`: Saksi's product words, as data — the composition template registry and
 * the negations and quantifiers of the render policy (docs/verification.md, "Vocabulary"). The
 * verifier reads no word list of its own: every caller passes this one as `vocabulary` in
 * `VerifyBundleOptions`, and a verifier for another product (or a new template) passes its own.
 */
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
};
