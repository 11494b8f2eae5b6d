/**
 * Alignment of a claim to its evidence (docs/language-models.md, "What happens to a question"): the
 * parts of a claim that word overlap cannot weigh — codes, actors and polarity words — each found in
 * the evidence or reported unaligned. The lexical verifier (entailment.ts) fails a claim with any of
 * them unaligned, whatever its coverage.
 *
 * - **Codes** ({@link codesOf}): identifiers whose every character matters. Legal references
 *   (`Pasal 281`, `ayat (2)`, `huruf a`, `BAB IV`, `UU 22/2009`, `Undang-Undang Nomor 22 Tahun 2009`),
 *   licence plates (`B 1234 XYZ`), error and constant codes (`ERR_INVALID_ARG`, `E1234`, `HTTP 404`),
 *   `snake_case`, `camelCase` and `PascalCase` names, dotted names (`store.dispatch`), calls
 *   (`dispatch()`), anything in backticks, command-line flags (`--save-dev`, `-g`), versions (`v5`,
 *   `version 5.0`, `5.0.1`) and scoped packages (`@reduxjs/toolkit`). A claim's code is aligned when
 *   the evidence, or the headings of its citation (its label, section path and document title), has
 *   the same code; letter case, backticks and `()` aside.
 * - **Actors** ({@link actorsOf}): the persons, roles and bodies a claim is about — the nouns of
 *   {@link ROLE_NOUNS}, and in Indonesian every agent noun formed with `pe(N)-` ("pengemudi",
 *   "pejabat", "pelanggar"). A claim's actor is aligned when its stem occurs anywhere in the evidence
 *   ("pengemudi" and "mengemudikan" share the stem "emudi"): a role the evidence never names is not
 *   the evidence's subject, whichever other role the evidence names.
 * - **Polarity** ({@link polarityOf}): words whose opposite states the opposite rule, from the data
 *   table {@link POLARITY_WORDS}, in classes — duty (wajib/must → boleh/may, dilarang/must not,
 *   opsional/optional), sanction (dikenai/liable ↔ dibebaskan/exempt), direction (naik/increase ↔
 *   turun/decrease), time (sebelum/before ↔ sesudah/after), state (enabled ↔ disabled), right
 *   (berhak ↔ tidak berhak) and scope (hanya/only). A negation right before a word turns it into
 *   its opposite ("tidak boleh" is forbidding, "must not" and "may not" too, "tidak wajib" and "not
 *   required" optional, "tidak dikenai" exempt). A claim's polarity is aligned when the evidence has
 *   the same value, reversed when the evidence has another value of the same class and not this
 *   one, and unaligned when the evidence has none of its class.
 */
import { foldText, type Language, stemWord } from './stem.js';

// ---------------------------------------------------------------------------------------------
// Codes
// ---------------------------------------------------------------------------------------------

/** One identifier of a claim: its text as written and the key it is compared by. */
export interface Code {
  text: string;
  key: string;
}

const REGULATION_KINDS: Record<string, string> = {
  uu: 'uu',
  'undang-undang': 'uu',
  'undang undang': 'uu',
  pp: 'pp',
  'peraturan pemerintah': 'pp',
  perpu: 'perppu',
  perppu: 'perppu',
  perpres: 'perpres',
  'peraturan presiden': 'perpres',
  keppres: 'keppres',
  'keputusan presiden': 'keppres',
  inpres: 'inpres',
  permen: 'permen',
  pmk: 'pmk',
  'peraturan menteri keuangan': 'pmk',
  perda: 'perda',
  'peraturan daerah': 'perda',
};
const REGULATION_KIND = Object.keys(REGULATION_KINDS)
  .sort((a, b) => b.length - a.length)
  .map((kind) => kind.replace(/[- ]/g, '[-\\s]'))
  .join('|');
/** `UU 22/2009`, `UU No. 22 Tahun 2009`, `Undang-Undang Nomor 22 Tahun 2009`, `uu-22-2009`. */
const REGULATION = new RegExp(
  `\\b(${REGULATION_KIND})(?:\\s+republik\\s+indonesia)?(?:\\s*(?:nomor|no\\.?)\\s*|[\\s_-]+)(\\d{1,4}[a-z]?)\\s*(?:tahun|\\/|[_-])\\s*((?:19|20)\\d{2})\\b`,
  'giu',
);
/** A regulation without its kind: `Nomor 22 Tahun 2009`. */
const BARE_REGULATION = /\b(?:nomor|no\.)\s*(\d{1,4}[a-z]?)\s+tahun\s+((?:19|20)\d{2})\b/giu;
/** `Pasal 281`, `Pasal 5A`, `ayat (2)`, `huruf a`, `BAB IV`. */
const PROVISION =
  /\b(pasal|ayat|huruf|bab)\s*\(?\s*(\d{1,4}[a-z]?|[ivxlcdm]{1,7}|[a-z])\s*\)?(?![\p{L}\p{N}])/giu;
/** `Pasal 106 ayat (4) huruf c`: an ayat belongs to its Pasal, a letter to its ayat. */
const PROVISION_CHAIN =
  /\bpasal\s*(\d{1,4}[a-z]?)\s*ayat\s*\(?\s*(\d{1,3}[a-z]?)\s*\)?(?:\s*huruf\s*([a-z])(?![\p{L}\p{N}]))?/giu;
/** An ayat or a letter item at the start of a line of evidence: `(2) Setiap …`, `a. Kendaraan …`. */
const AYAT_START = /(?:^|\n)\s*\((\d{1,3}[a-z]?)\)/gu;
const ITEM_START = /(?:^|\n)\s*([a-z])[.)]\s/gu;
/** `B 1234 XYZ`: one or two capitals, up to four digits, up to three capitals (case kept). */
const PLATE = /\b([A-Z]{1,2}) (\d{1,4})(?: ([A-Z]{1,3}))?(?![\p{L}\p{N}])/gu;
const GENERIC_CODES: readonly RegExp[] = [
  // ERR_INVALID_ARG, NUMBER_MISMATCH
  /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/gu,
  // E1234, TS2345
  /\b[A-Z]{1,4}\d{2,6}\b/gu,
  // snake_case
  /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/gu,
  // camelCase
  /\b[a-z]+[0-9]*(?:[A-Z][a-z0-9]*)+\b/gu,
  // PascalCase with at least two humps
  /\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b/gu,
  // store.dispatch, redux.config.js
  /(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+/gu,
  // dispatch()
  /(?<![\w$.])[A-Za-z_$][\w$]*\(\)/gu,
  // @reduxjs/toolkit
  /@[\w-]+\/[\w.-]+/gu,
  // --save-dev, -g
  /(?<=^|[\s`(])--?[A-Za-z][\w-]*(?![\w-])/gu,
];
const BACKTICKED = /`([^`\n]{1,80})`/gu;
const VERSIONS: readonly RegExp[] = [
  /\bv(\d+(?:\.\d+){0,3})\b/giu,
  /\b(?:version|versi|release|rilis)\s+v?(\d+(?:\.\d+){0,3})\b/giu,
  /\b(\d+\.\d+\.\d+)(?:-[\w.]+)?\b/gu,
];
const HTTP_STATUS = /\b(?:http|status|kode|code)\s+([1-5]\d{2})\b/giu;
/** Dotted words that are abbreviations, not names: "e.g", "i.e", "s.d". */
const ABBREVIATION = /^(?:[a-z]\.)+[a-z]?$/iu;

function normalizeCode(text: string): string {
  return foldText(text).replace(/`/g, '').replace(/\(\)/g, '').replace(/\s+/g, ' ').trim();
}

function regulationKey(kind: string, number: string, year: string): string {
  const normalized =
    REGULATION_KINDS[kind.toLowerCase().replace(/[-\s]+/g, ' ')] ??
    REGULATION_KINDS[kind.toLowerCase()] ??
    kind.toLowerCase();
  return `${normalized} ${number.toLowerCase()}/${year}`;
}

/** Roman numerals of a BAB compare as written; provision keys are lower case. */
function provisionKey(kind: string, value: string): string {
  return `${kind.toLowerCase()} ${value.toLowerCase()}`;
}

/** The codes of a text (see the module header), each once. */
export function codesOf(text: string): Code[] {
  const found = new Map<string, Code>();
  const add = (written: string, key: string) => {
    if (!found.has(key)) found.set(key, { text: written.trim(), key });
  };
  const folded = foldText(text);
  for (const match of folded.matchAll(REGULATION))
    add(match[0], regulationKey(match[1]!, match[2]!, match[3]!));
  for (const match of folded.matchAll(BARE_REGULATION)) {
    const before = folded.slice(Math.max(0, match.index - 40), match.index);
    if (new RegExp(`(?:${REGULATION_KIND})(?:\\s+republik\\s+indonesia)?\\s*$`, 'iu').test(before)) continue;
    add(match[0], `nomor ${match[1]!.toLowerCase()}/${match[2]}`);
  }
  for (const match of folded.matchAll(PROVISION)) add(match[0], provisionKey(match[1]!, match[2]!));
  for (const match of folded.matchAll(PROVISION_CHAIN)) {
    const ayat = `pasal ${match[1]!.toLowerCase()} ayat ${match[2]!.toLowerCase()}`;
    add(match[0], ayat);
    if (match[3]) add(match[0], `${ayat} huruf ${match[3].toLowerCase()}`);
  }
  for (const match of text.matchAll(PLATE)) {
    if (REGULATION_KINDS[match[1]!.toLowerCase()] !== undefined) continue;
    add(match[0], `plate ${match[0].toLowerCase()}`);
  }
  for (const pattern of GENERIC_CODES) {
    for (const match of text.matchAll(pattern)) {
      const key = normalizeCode(match[0]);
      if (ABBREVIATION.test(key) || /^[\d.]+$/.test(key)) continue;
      add(match[0], key);
    }
  }
  for (const match of text.matchAll(BACKTICKED)) {
    const key = normalizeCode(match[1]!);
    if (key !== '') add(match[0], key);
  }
  for (const pattern of VERSIONS) {
    for (const match of folded.matchAll(pattern)) {
      // 1.761.642 is a grouped figure (figures are checked apart), not a version.
      if (/^\d{1,3}(?:\.\d{3})+$/.test(match[1]!)) continue;
      add(match[0], `version ${match[1]}`);
    }
  }
  for (const match of folded.matchAll(HTTP_STATUS)) add(match[0], `status ${match[1]}`);
  return [...found.values()];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The codes of `claim` that neither `evidence` nor `context` (the headings of the claim's citation)
 * has. A legal reference or regulation compares by its key (`Pasal 287` = `pasal 287`, `UU 22/2009`
 * = `Undang-Undang Nomor 22 Tahun 2009`), an ayat named with its Pasal also with that Pasal
 * (`Pasal 106 ayat (2)` is not aligned by a Pasal 106 and an ayat (2) of another Pasal); a lone ayat
 * or letter item also by the `(2)` or `a.` that opens a line of the evidence; a version by its numbers; anything else by its normalized text occurring
 * in the evidence as a whole name.
 */
export function unalignedCodes(claim: string, evidence: string, context = ''): Code[] {
  const claimCodes = codesOf(claim);
  if (claimCodes.length === 0) return [];
  const source = `${evidence}\n${context}`;
  const keys = new Set(codesOf(source).map((code) => code.key));
  for (const match of evidence.matchAll(AYAT_START)) keys.add(`ayat ${match[1]!.toLowerCase()}`);
  for (const match of foldText(evidence).matchAll(ITEM_START)) keys.add(`huruf ${match[1]}`);
  const bare = new Set([...keys].filter((key) => key.startsWith('nomor ')).map((key) => key.slice(6)));
  const normalized = normalizeCode(source);
  return claimCodes.filter((code) => {
    if (keys.has(code.key)) return false;
    const regulation = /^(?:\S+) (\S+\/\d{4})$/u.exec(code.key);
    if (regulation && !code.key.startsWith('plate ') && bare.has(regulation[1]!)) return false;
    if (/^(?:pasal|ayat|huruf|bab|nomor|status) /u.test(code.key) || regulation) {
      if (code.key.startsWith('status ')) return !new RegExp(`\\b${code.key.slice(7)}\\b`).test(normalized);
      return true;
    }
    if (code.key.startsWith('version ')) {
      const numbers = code.key.slice(8);
      return !new RegExp(`(?<![\\d.])v?${escapeRegExp(numbers)}(?![\\d])`, 'u').test(normalized);
    }
    const key = code.key.startsWith('plate ') ? code.key.slice(6) : code.key;
    return !new RegExp(`(?<![\\w$-])${escapeRegExp(key)}(?![\\w$-])`, 'u').test(normalized);
  });
}

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/**
 * Nouns for persons, roles and bodies that a rule or an instruction is about. Data, not a list tuned
 * to one claim: any of them in a claim must be named by its evidence. Indonesian agent nouns formed
 * with `pe(N)-` need no entry (see {@link isAgentNoun}).
 */
export const ROLE_NOUNS: Readonly<Record<Language, readonly string[]>> = {
  id: [
    'orang',
    'warga',
    'penduduk',
    'masyarakat',
    'rakyat',
    'publik',
    'pejabat',
    'pegawai',
    'aparatur',
    'polisi',
    'kepolisian',
    'polri',
    'tni',
    'tentara',
    'hakim',
    'jaksa',
    'advokat',
    'pengacara',
    'pemerintah',
    'negara',
    'menteri',
    'kementerian',
    'presiden',
    'gubernur',
    'bupati',
    'walikota',
    'camat',
    'lurah',
    'kades',
    'dpr',
    'dprd',
    'mpr',
    'bpk',
    'kepala',
    'direktur',
    'ketua',
    'anggota',
    'anak',
    'remaja',
    'dewasa',
    'siswa',
    'pelajar',
    'mahasiswa',
    'guru',
    'dosen',
    'buruh',
    'karyawan',
    'pekerja',
    'majikan',
    'perusahaan',
    'badan',
    'lembaga',
    'instansi',
    'dinas',
    'konsumen',
    'pelanggan',
    'nasabah',
    'dokter',
    'bidan',
    'perawat',
    'pasien',
    'sopir',
    'supir',
    'kondektur',
    'admin',
    'administrator',
    'operator',
    'developer',
    'tamu',
    'pemda',
  ],
  en: [
    'person',
    'people',
    'citizen',
    'resident',
    'public',
    'official',
    'officer',
    'police',
    'policeman',
    'judge',
    'prosecutor',
    'lawyer',
    'government',
    'state',
    'minister',
    'ministry',
    'president',
    'governor',
    'mayor',
    'parliament',
    'head',
    'director',
    'chair',
    'member',
    'child',
    'children',
    'adult',
    'minor',
    'student',
    'teacher',
    'worker',
    'employee',
    'employer',
    'company',
    'agency',
    'authority',
    'consumer',
    'customer',
    'client',
    'patient',
    'doctor',
    'driver',
    'rider',
    'passenger',
    'pedestrian',
    'owner',
    'user',
    'admin',
    'administrator',
    'operator',
    'moderator',
    'maintainer',
    'contributor',
    'developer',
    'author',
    'reviewer',
    'subscriber',
    'visitor',
    'guest',
    'team',
    'manager',
    'seller',
    'buyer',
    'vendor',
    'supplier',
    'tenant',
    'landlord',
    'applicant',
  ],
};

const ROLE_STEMS: Record<Language, ReadonlySet<string>> = {
  id: new Set(ROLE_NOUNS.id.map((word) => stemWord(word, 'id'))),
  en: new Set(ROLE_NOUNS.en.map((word) => stemWord(word, 'en'))),
};

/** Indonesian words that start like a `pe(N)-` agent noun and are not one. */
const NOT_AGENT_NOUNS: ReadonlySet<string> = new Set([
  'pertama',
  'penting',
  'pendapat',
  'perintah',
  'pernah',
  'perlu',
  'penuh',
  'pendek',
  'pelan',
  'pesat',
  'peduli',
  'pergi',
  'pesan',
  'pekan',
  'persen',
  'percuma',
  'pesawat',
  'peta',
  'pelat',
  'perkara',
  'pemberi',
  'pengaman',
  'penghalang',
  'pemantul',
  'pengukur',
  'pengatur',
  'pemadam',
  'penerang',
]);

/**
 * An Indonesian agent noun: `pe(N)-` + a verb root, no `-an` suffix ("pengemudi", "pejabat",
 * "pelanggar", "penumpang", "pemilik"; not "pelanggaran" or "peraturan"). Instruments made the same
 * way ("Alat Pemberi Isyarat") are in {@link NOT_AGENT_NOUNS}.
 */
export function isAgentNoun(word: string): boolean {
  if (word.length < 6 || !/^pe(?:ng|ny|m|n|r|l)?/u.test(word) || /(?:an|nya|kah|lah)$/u.test(word))
    return false;
  if (NOT_AGENT_NOUNS.has(word)) return false;
  const stem = stemWord(word, 'id');
  return stem !== word && !stem.startsWith('pe');
}

/** The actor words of a text: each as written (folded) with its stem. */
export function actorsOf(text: string, language: Language): { word: string; stem: string }[] {
  const actors = new Map<string, { word: string; stem: string }>();
  for (const [word] of foldText(text).matchAll(/\p{L}+/gu)) {
    const stem = stemWord(word, language);
    if (ROLE_STEMS[language].has(stem) || (language === 'id' && isAgentNoun(word)))
      if (!actors.has(stem)) actors.set(stem, { word, stem });
  }
  return [...actors.values()];
}

// ---------------------------------------------------------------------------------------------
// Polarity
// ---------------------------------------------------------------------------------------------

export type PolarityClass = 'duty' | 'sanction' | 'direction' | 'time' | 'state' | 'right' | 'scope';
export type PolarityValue =
  | 'oblige'
  | 'permit'
  | 'forbid'
  | 'optional'
  | 'liable'
  | 'exempt'
  | 'up'
  | 'down'
  | 'before'
  | 'after'
  | 'enabled'
  | 'disabled'
  | 'entitled'
  | 'unentitled'
  | 'only';

const CLASS_OF: Record<PolarityValue, PolarityClass> = {
  oblige: 'duty',
  permit: 'duty',
  forbid: 'duty',
  optional: 'duty',
  liable: 'sanction',
  exempt: 'sanction',
  up: 'direction',
  down: 'direction',
  before: 'time',
  after: 'time',
  enabled: 'state',
  disabled: 'state',
  entitled: 'right',
  unentitled: 'right',
  only: 'scope',
};

/** What a negation right before the word makes of it; none: the negation check (entailment.ts) reads it. */
const NEGATED: Partial<Record<PolarityValue, PolarityValue>> = {
  oblige: 'optional',
  optional: 'oblige',
  permit: 'forbid',
  forbid: 'permit',
  liable: 'exempt',
  exempt: 'liable',
  enabled: 'disabled',
  disabled: 'enabled',
  entitled: 'unentitled',
  unentitled: 'entitled',
};

/** Polarity words (folded, as written) by value: the antonym table, as data. */
export const POLARITY_WORDS: Readonly<
  Record<Language, Readonly<Partial<Record<PolarityValue, readonly string[]>>>>
> = {
  id: {
    oblige: ['wajib', 'diwajibkan', 'mewajibkan', 'harus', 'diharuskan', 'mengharuskan'],
    permit: [
      'boleh',
      'diperbolehkan',
      'dibolehkan',
      'memperbolehkan',
      'diizinkan',
      'mengizinkan',
      'diperkenankan',
    ],
    forbid: ['dilarang', 'melarang', 'terlarang', 'jangan'],
    optional: ['opsional', 'fakultatif', 'sukarela'],
    liable: ['dikenai', 'dikenakan', 'dipidana', 'didenda', 'diancam', 'dihukum', 'dijatuhi', 'dipenjara'],
    exempt: ['dibebaskan', 'membebaskan', 'pembebasan', 'dikecualikan', 'digratiskan', 'gratis'],
    up: [
      'naik',
      'menaikkan',
      'dinaikkan',
      'kenaikan',
      'bertambah',
      'penambahan',
      'meningkat',
      'peningkatan',
      'ditingkatkan',
      'meningkatkan',
    ],
    down: [
      'turun',
      'menurun',
      'menurunkan',
      'diturunkan',
      'penurunan',
      'berkurang',
      'pengurangan',
      'dikurangi',
      'mengurangi',
    ],
    before: ['sebelum'],
    after: ['sesudah', 'setelah'],
    enabled: ['aktif', 'diaktifkan', 'mengaktifkan'],
    disabled: ['nonaktif', 'dinonaktifkan', 'menonaktifkan'],
    entitled: ['berhak'],
    only: ['hanya', 'semata'],
  },
  en: {
    oblige: [
      'must',
      'shall',
      'should',
      'required',
      'requires',
      'require',
      'mandatory',
      'obligatory',
      'obliged',
    ],
    permit: ['may', 'allowed', 'allow', 'allows', 'permitted', 'permit', 'permits'],
    forbid: ['forbidden', 'forbid', 'forbids', 'prohibited', 'prohibit', 'prohibits', 'banned', 'disallowed'],
    optional: ['optional'],
    liable: ['liable', 'fined', 'penalized', 'penalised', 'punished', 'punishable'],
    exempt: ['exempt', 'exempted', 'exemption', 'waived', 'waive', 'waives', 'excused'],
    up: [
      'increase',
      'increases',
      'increased',
      'increasing',
      'rise',
      'rises',
      'rose',
      'grow',
      'grows',
      'grew',
    ],
    down: [
      'decrease',
      'decreases',
      'decreased',
      'decreasing',
      'decline',
      'declines',
      'declined',
      'shrink',
      'shrinks',
      'shrank',
    ],
    before: ['before', 'prior'],
    after: ['after', 'afterwards'],
    enabled: ['enabled', 'enable', 'enables'],
    disabled: ['disabled', 'disable', 'disables'],
    entitled: ['entitled'],
    only: ['only', 'solely', 'exclusively'],
  },
};

const POLARITY_INDEX: Record<Language, ReadonlyMap<string, PolarityValue>> = {
  id: indexOf('id'),
  en: indexOf('en'),
};

function indexOf(language: Language): Map<string, PolarityValue> {
  const index = new Map<string, PolarityValue>();
  for (const [value, words] of Object.entries(POLARITY_WORDS[language]))
    for (const word of words ?? []) index.set(word, value as PolarityValue);
  return index;
}

const POLARITY_NEGATIONS: Record<Language, ReadonlySet<string>> = {
  id: new Set(['tidak', 'tak', 'bukan', 'belum', 'tanpa', 'tdk', 'enggak', 'nggak', 'gak']),
  en: new Set(['not', 'no', 'never', 'nor']),
};
/** English modals of duty that "not" follows: "must not" forbids, "need not" leaves optional. */
const FORBIDDING_MODALS: ReadonlySet<string> = new Set(['must', 'shall', 'should']);

/** One polarity word of a text, negation applied. */
export interface Polarity {
  word: string;
  value: PolarityValue;
  polarityClass: PolarityClass;
}

/** The polarity words of a text with their value (see the module header). */
export function polarityOf(text: string, language: Language): Polarity[] {
  const folded = foldText(text.replace(/n't\b/gi, ' not').replace(/\bcannot\b/gi, 'can not'));
  const tokens = [...folded.matchAll(/\p{L}+|[.;:!?](?=\s|$)/gu)].map((match) => match[0]);
  const index = POLARITY_INDEX[language];
  const negations = POLARITY_NEGATIONS[language];
  const found: Polarity[] = [];
  tokens.forEach((token, position) => {
    let value = index.get(token);
    if (value === undefined) return;
    let negatedBefore = false;
    for (let back = position - 1; back >= Math.max(0, position - 2); back--) {
      const word = tokens[back]!;
      if (/^[.;:!?]$/.test(word)) break;
      if (negations.has(word)) negatedBefore = true;
    }
    const negatedAfter = language === 'en' && tokens[position + 1] === 'not';
    if (negatedAfter && FORBIDDING_MODALS.has(token)) value = 'forbid';
    else if (negatedBefore || negatedAfter) {
      const negated = NEGATED[value];
      if (negated === undefined) return;
      value = negated;
    }
    found.push({ word: token, value, polarityClass: CLASS_OF[value] });
  });
  return found;
}

/** How each polarity word of a claim stands to its evidence. */
export function comparePolarity(
  claim: string,
  evidence: string,
  language: Language,
): { reversed: Polarity[]; unaligned: Polarity[] } {
  const evidenceValues = new Set(polarityOf(evidence, language).map((polarity) => polarity.value));
  const evidenceClasses = new Set([...evidenceValues].map((value) => CLASS_OF[value]));
  const reversed: Polarity[] = [];
  const unaligned: Polarity[] = [];
  for (const polarity of polarityOf(claim, language)) {
    if (evidenceValues.has(polarity.value)) continue;
    if (evidenceClasses.has(polarity.polarityClass)) reversed.push(polarity);
    else unaligned.push(polarity);
  }
  return { reversed, unaligned };
}
