/**
 * Composition templates (certificate v1.1, docs/certificate.md "Composed claims"): their types and
 * the lookups the verifier makes in a registry it is given. Saksi's registry itself is data, in
 * vocabulary.ts (`@saksi/proof/vocabulary`).
 *
 * A composed claim is made of evidence spans, citation labels, citation markers, recomputed figures
 * (differences, spelled amounts) and *fixed* words. The fixed words are the only text of a composed
 * claim that comes from no evidence, so a verifier accepts only the exact strings listed here for
 * the claim's template and language. The registry is a plain data table: a new template (or a new fixed word) is
 * a new entry, and verifiers that do not know it refuse claims that use it (`COMPOSITION_MISMATCH`).
 *
 * Fixed strings carry no digits and none of the render policy's negation or quantifier words
 * (`templates.test.ts` checks Saksi's table): a figure or a "tidak" in an answer must come from
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
 * A template registry: the templates a verifier knows, by id. The verifier takes it from its caller
 * (`VerifyBundleOptions.vocabulary`); Saksi's own is `COMPOSITION_TEMPLATES` of
 * `@saksi/proof/vocabulary` (vocabulary.ts).
 */
export type CompositionTemplates = Readonly<Record<string, CompositionTemplate>>;

/**
 * The template of `templates` registered under `id`, or `undefined` (only the registry's own entries
 * count, never inherited properties such as `constructor`).
 *
 * @example
 * compositionTemplate(COMPOSITION_TEMPLATES, 'budget.comparison')?.version; // '1'
 * compositionTemplate(COMPOSITION_TEMPLATES, 'toString'); // undefined
 */
export function compositionTemplate(
  templates: CompositionTemplates,
  id: string,
): CompositionTemplate | undefined {
  return Object.hasOwn(templates, id) ? templates[id] : undefined;
}

/**
 * Whether `fixed` is one of the fixed strings of template `template` of `templates` in `language`
 * (exact match).
 *
 * @example
 * isFixedAllowed(COMPOSITION_TEMPLATES, 'law.sanction', 'id', 'Sanksi, '); // true
 * isFixedAllowed(COMPOSITION_TEMPLATES, 'law.sanction', 'id', 'Sanksi paling ringan, '); // false
 */
export function isFixedAllowed(
  templates: CompositionTemplates,
  template: string,
  language: CompositionLanguage,
  fixed: string,
): boolean {
  const entry = compositionTemplate(templates, template);
  if (entry === undefined || !Object.hasOwn(entry.fixed, language)) return false;
  return entry.fixed[language].includes(fixed);
}
