/**
 * The registry of composition templates (certificate v1.1, docs/certificate.md "Composed claims").
 *
 * A composed claim is made of evidence spans, citation labels, citation markers, recomputed figures
 * (differences, spelled amounts) and *fixed* words. The fixed words are the only text of a composed
 * claim that comes from no evidence, so a verifier accepts only the exact strings listed here for
 * the claim's template and language. The registry is a plain data table: a new template (or a new fixed word) is
 * a new entry, and verifiers that do not know it refuse claims that use it (`COMPOSITION_MISMATCH`).
 *
 * Fixed strings carry no digits and none of the render policy's negation or quantifier words
 * (`templates.test.ts` checks the table itself): a figure or a "tidak" in an answer must come from
 * the evidence, never from a template.
 */

/** The languages a template's fixed words are written in. */
export type CompositionLanguage = 'id' | 'en';

/** One template: its version and the fixed strings it may use, per language. */
export interface CompositionTemplate {
  version: string;
  fixed: { readonly [language in CompositionLanguage]: readonly string[] };
}

/**
 * The templates a verifier knows, by id.
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

/**
 * The template registered under `id`, or `undefined` (only the registry's own entries count, never
 * inherited properties such as `constructor`).
 *
 * @example
 * compositionTemplate('budget.comparison')?.version; // '1'
 * compositionTemplate('toString'); // undefined
 */
export function compositionTemplate(id: string): CompositionTemplate | undefined {
  return Object.hasOwn(COMPOSITION_TEMPLATES, id) ? COMPOSITION_TEMPLATES[id] : undefined;
}

/**
 * Whether `fixed` is one of the fixed strings of template `template` in `language` (exact match).
 *
 * @example
 * isFixedAllowed('law.sanction', 'id', 'Sanksi, '); // true
 * isFixedAllowed('law.sanction', 'id', 'Sanksi paling ringan, '); // false
 */
export function isFixedAllowed(template: string, language: CompositionLanguage, fixed: string): boolean {
  const entry = compositionTemplate(template);
  if (entry === undefined || !Object.hasOwn(entry.fixed, language)) return false;
  return entry.fixed[language].includes(fixed);
}
