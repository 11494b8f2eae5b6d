/**
 * Pattern rules for frequent question shapes (docs/engine.md, "Retrieval"): a question that asks for the
 * penalty, whether something is allowed, or what the requirements are gets the statute's wording for that
 * kind of provision; a budget question with fiscal years yields a year hint, and a comparison of two
 * years one variant per year.
 */

/**
 * The pattern-rule groups a collection's glossary can enable (collection-glossary.ts): `traffic` for
 * statutes (penalty, permission, requirements, definitions, liability), `budget` for budget laws
 * (figures, fiscal years, comparisons of years), `docs` for developer documentation.
 */
export const PATTERN_GROUPS = ['traffic', 'budget', 'docs'] as const;
export type RuleGroup = (typeof PATTERN_GROUPS)[number];

export interface PatternRule {
  id: string;
  group: RuleGroup;
  /** Matched against the question, case-insensitively. */
  pattern: RegExp;
  /** Statute wording appended to the legal variant; each phrase occurs in the documents' text. */
  add: string[];
}

/** Word boundaries for Indonesian text: letters and digits only. */
const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';
const NEG = '(?:nggak|ngga|enggak|gak|ga|tidak|tdk|gk|ngak)';

function rule(id: string, group: RuleGroup, source: string, add: string[]): PatternRule {
  return { id, group, pattern: new RegExp(`${B}(?:${source})${E}`, 'iu'), add };
}

export const PATTERN_RULES: PatternRule[] = [
  // "kena denda berapa", "dendanya berapa", "sanksinya apa", "hukumannya apa", "bisa dipenjara?"
  rule(
    'penalty',
    'traffic',
    'dend[ae]\\p{L}*|sanksi\\p{L}*|hukuman\\p{L}*|dihukum|dipenjara|penjara|dipidana|pidana\\p{L}*|kurungan|kena apa|kena berapa|ancaman\\p{L}*',
    ['dipidana dengan pidana kurungan paling lama', 'denda paling banyak'],
  ),
  // "boleh nggak", "apakah boleh", "bolehkah", "dilarang nggak", "harus nggak", "wajib nggak", "melanggar?"
  rule(
    'permission',
    'traffic',
    `boleh(?:kah)?|dilarang|larangan|diperbolehkan|dibolehkan|harus(?:kah)?|wajib(?:kah)?|melanggar|legal(?:kah)?|${NEG} boleh`,
    ['dilarang', 'wajib'],
  ),
  // "syaratnya apa", "gimana cara bikin SIM", "cara mengurus", "prosedur"
  rule(
    'requirements',
    'traffic',
    'syarat\\p{L}*|persyaratan|(?:gimana|bagaimana|gmn) cara|cara (?:bikin|buat|membuat|ngurus|mengurus|dapat|dapet|mendapatkan|memperoleh|perpanjang|memperpanjang)|prosedur\\p{L}*|ngurus|mengurus|bikin',
    ['persyaratan', 'tata cara'],
  ),
  // "apa itu ...", "yang dimaksud ...", "yang namanya ... itu apa", "pengertian"
  rule(
    'definition',
    'traffic',
    'apa itu|apa sih|yang dimaksud|yang namanya|pengertian|definisi|artinya|maksudnya',
    ['adalah'],
  ),
  // "siapa yang tanggung", "siapa yang bertanggung jawab"
  rule('liability', 'traffic', 'siapa yang (?:tanggung|bayar|salah)|bertanggung ?jawab|tanggung ?jawab', [
    'bertanggung jawab',
    'ganti kerugian',
  ]),
  // Developer documentation, a question that opens by asking what something is: "what is a reducer",
  // "what's a thunk", "what exactly is …", "define …", "apa itu …". No wording is added; the match marks
  // the question for the definition preference and the heading arm (plan.ts).
  rule(
    'definition',
    'docs',
    "^\\s*(?:so\\s+|ok\\s+|hi\\s+)?(?:what(?:'s|’s|s| is| are)|what exactly is|what even is|define|definition of|meaning of|apa itu|apa sih)",
    [],
  ),
  // Budget questions: "berapa defisit/belanja/pendapatan tahun 2020", "alokasinya berapa". No wording is
  // added (the figure's own words find it); the match marks the question as a figure question in the hints.
  rule(
    'figure',
    'budget',
    'berapa|jumlah\\p{L}*|besar(?:an|nya)?|total\\p{L}*|alokasi\\p{L}*|target\\p{L}*',
    [],
  ),
];

/** A comparison between years: "bandingkan 2015 dan 2016", "naik atau turun", "selisih", "dibanding". */
export const COMPARISON = new RegExp(
  `${B}(?:bandingkan|membandingkan|dibanding\\p{L}*|perbandingan|banding|naik|turun|kenaikan|penurunan|selisih\\p{L}*|beda\\p{L}*|perbedaan|lebih besar|lebih kecil|vs|versus)${E}`,
  'iu',
);

/** Four-digit years 1945–2099, as fiscal years. */
export function yearsIn(question: string): number[] {
  const years: number[] = [];
  for (const match of question.matchAll(/(?<![\p{L}\p{N}.,])(19[4-9]\d|20\d\d)(?![\p{L}\p{N}]|[.,]\d)/gu)) {
    const year = Number(match[1]);
    if (!years.includes(year)) years.push(year);
  }
  return years;
}

/** The rules of `groups` that match `question`. */
export function matchingRules(question: string, groups: readonly RuleGroup[]): PatternRule[] {
  return PATTERN_RULES.filter((rule) => groups.includes(rule.group) && rule.pattern.test(question));
}
