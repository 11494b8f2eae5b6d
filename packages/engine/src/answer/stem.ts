/**
 * Content words for lexical matching (the lexical verifier's stemmed words, docs/language-models.md,
 * "What happens to a question"): tokens with diacritics removed, stopwords dropped, and a light
 * stemmer per language.
 *
 * The Indonesian stemmer follows the confix-stripping idea of Nazief–Adriani (particle, possessive,
 * derivational suffix, then up to two prefixes with nasal substitution) but has no dictionary, so it
 * cannot check that a stem is a real root. It is therefore conservative and aims to be *consistent*
 * (related forms meet on one stem) rather than linguistically exact:
 * `mengemudikan`, `pengemudi` and `mengemudi` → `emudi`; `pelanggaran`, `melanggar` → `langgar`;
 * `kendaraan` → `kendara`; `berlalu` → `lalu`; `peraturan`, `mengatur`, `diatur` → `atur`.
 * Where a rule would guess (`meng` + vowel may hide a `k`), the same guess is made for the `me-` and
 * `pe-` families so the forms still meet. Stems never shrink below {@link MIN_STEM_LENGTH} letters.
 *
 * The English stemmer only folds inflections: plural `-s`/`-es`/`-ies`, `-ing`, `-ed` and a final `-e`.
 */

export type Language = 'id' | 'en';

/** No affix is removed if the stem left would be shorter than this. */
export const MIN_STEM_LENGTH = 4;

const INDONESIAN_STOPWORDS = new Set(
  `yang dan di ke dari atau dengan untuk pada dalam ini itu adalah ialah merupakan oleh sebagai akan
  dapat bisa juga telah sudah sedang masih harus ada apa apakah siapa siapakah berapa berapakah
  bagaimana bagaimanakah mengapa kenapa kapan dimana mana manakah saja serta para tersebut tentang
  terhadap karena agar supaya jika apabila bila kalau maka namun tetapi tapi hingga sampai bahwa secara
  suatu sebuah seorang setiap sebagaimana yaitu yakni antara lain kami kita saya aku anda kamu dia ia
  mereka beliau nya pun lah kah si sang per atas bagi kepada daripada sejak selama setelah sebelum
  sesudah ketika saat sambil lagi pula hanya lebih sangat paling banyak sekali begitu demikian
  tersebutlah pernah belum tidak tak bukan tanpa jangan enggak nggak gak ga tdk yg dgn utk dg dr
  dll dsb dst sdh blm krn jd jadi mau ingin perlu boleh punya semua seluruh tiap mohon tolong dong sih
  ya kok aja deh nih tuh kah gimana gmn berapakah apabila manakala sedangkan meskipun walaupun
  ataupun maupun baik pun juga hal cara`.split(/\s+/),
);

const ENGLISH_STOPWORDS = new Set(
  `a an the and or but if then else of to in on at by for with from as is are was were be been being
  am do does did doing done have has had having this that these those it its itself they them their
  theirs there here what which who whom whose when where why how i me my mine we us our ours you your
  yours he him his she her hers so than too very can could will would shall should may might must
  about into over under up down out off just also such any each more most other own same both few nor
  not no never without cannot neither only some all many much again further once while during before
  after above below between through until against because since per via s t let lets get gets got
  etc e g ie eg vs don doesn didn isn aren wasn weren won wouldn couldn shouldn hasn haven hadn`.split(/\s+/),
);

/** Consonant pairs that may begin an Indonesian stem (others, like `nd`, mean a prefix was not a prefix). */
const ALLOWED_ONSETS = new Set(
  'ny ng sy kh tr pr kr gr br dr fr st sp sk sl sm sn sw pl bl kl gl fl'.split(' '),
);
const VOWELS = 'aiueo';

/** Lower-case, compatibility-decompose and drop combining marks: `Café` → `cafe`, `ﬁ` → `fi`. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Word tokens of `text` after {@link foldText}: runs of letters or runs of digits. */
export function tokenize(text: string): string[] {
  return foldText(text).match(/\p{L}+|\p{N}+/gu) ?? [];
}

/** Whether a folded token carries no content: a stopword (negations included) or a single letter. */
export function isStopword(token: string, language: Language): boolean {
  if (token.length === 1 && !/\d/.test(token)) return true;
  return (language === 'id' ? INDONESIAN_STOPWORDS : ENGLISH_STOPWORDS).has(token);
}

/**
 * Stemmed content words of `text`, in order (duplicates kept). Negations are stopwords here; the
 * entailment check looks at them separately. Digit runs are kept (`287` in "Pasal 287").
 */
export function contentWords(text: string, language: Language): string[] {
  const words: string[] = [];
  for (const token of tokenize(text)) {
    // A lone letter is a list marker ("a.", "c.") or a class ("SIM C"): it says nothing on its own.
    if (isStopword(token, language) || /^\p{L}$/u.test(token)) continue;
    const stem = stemWord(token, language);
    if (stem !== token && isStopword(stem, language)) continue;
    words.push(stem);
  }
  return words;
}

/** Stems one word (folded first). Words with digits and short words are returned as they are. */
export function stemWord(word: string, language: Language): string {
  const folded = foldText(word);
  if (!/^\p{L}+$/u.test(folded)) return folded;
  return language === 'id' ? stemIndonesian(folded) : stemEnglish(folded);
}

// ---------------------------------------------------------------------------------------------
// Indonesian

type PrefixFamily = 'me' | 'pe' | 'per' | 'ber' | 'ter' | 'di' | 'ke' | 'se';
type Suffix = 'kan' | 'an' | 'i';

/** Prefixes that may follow a first prefix (`di-per-`, `ke-ber-`, `mem-per-`, `ke-se-`). */
const SECOND_PREFIXES = new Set<PrefixFamily>(['per', 'pe', 'ber', 'ter', 'se']);
/** Words ending in `-kah`, `-nya` that are roots, not particles/possessives. */
const KAH_ROOTS = ['langkah', 'tingkah', 'sedekah', 'bongkah', 'rekah', 'jangkah'];
const NYA_ROOTS = ['tanya', 'punya', 'hanya'];

function stemIndonesian(word: string): string {
  if (word.length <= MIN_STEM_LENGTH) return word;
  let w = removeParticle(word);
  w = removePossessive(w);
  const suffix = derivationalSuffix(w);
  if (suffix === undefined) return removePrefixes(w, undefined).stem;
  if (suffix === 'kan') {
    // pe-/per-/ke-…-kan is not a confix: the `k` belongs to the root (penyidikan → sidik,
    // kebijakan → bijak).
    const asAn = removePrefixes(w.slice(0, -2), 'an');
    if (asAn.first === 'pe' || asAn.first === 'per' || asAn.first === 'ke') return asAn.stem;
  }
  const base = w.slice(0, -suffix.length);
  const stripped = removePrefixes(base, suffix);
  const first = stripped.first;
  // Nazief–Adriani's disallowed confixes: me-/di-/ter-…-an mean the `an` belongs to the root
  // (melawan → lawan).
  const disallowed = suffix === 'an' && (first === 'me' || first === 'di' || first === 'ter');
  // `-i` is only a suffix with me-/di- and a long enough root (memenuhi → penuh, but memberi → beri).
  const badI = suffix === 'i' && (!(first === 'me' || first === 'di') || stripped.stem.length < 5);
  if (!disallowed && !badI && first !== undefined) return stripped.stem;
  const whole = removePrefixes(w, undefined);
  if (whole.first !== undefined || disallowed || badI) return whole.stem;
  return stripped.stem; // no prefix either way: keep the suffix removal (aturan → atur)
}

function removeParticle(w: string): string {
  if (w.endsWith('kah') && !KAH_ROOTS.some((root) => w.endsWith(root))) return chop(w, 3, 3);
  if (w.endsWith('pun') && VOWELS.includes(w.at(-4) ?? '')) return chop(w, 3, 3);
  // `-lah` only after a suffixed verb (jelaskanlah); otherwise it is a root (masalah, sekolah).
  if (w.endsWith('lah') && /(?:kan|an|i)$/.test(w.slice(0, -3))) return chop(w, 3, MIN_STEM_LENGTH);
  return w;
}

function removePossessive(w: string): string {
  if (w.endsWith('nya') && !NYA_ROOTS.some((root) => w.endsWith(root))) return chop(w, 3, 3);
  // `-ku`/`-mu` only after a consonant (mobilku), else it is a root (berlaku, bertemu).
  if ((w.endsWith('ku') || w.endsWith('mu')) && !VOWELS.includes(w.at(-3) ?? 'a')) return chop(w, 2, 3);
  return w;
}

function derivationalSuffix(w: string): Suffix | undefined {
  if (w.endsWith('kan') && w.length - 3 >= MIN_STEM_LENGTH) return 'kan';
  if (w.endsWith('an') && w.length - 2 >= MIN_STEM_LENGTH) return 'an';
  if (w.endsWith('i') && w.length - 1 >= MIN_STEM_LENGTH) return 'i';
  return undefined;
}

function chop(w: string, length: number, minimum: number): string {
  return w.length - length >= minimum ? w.slice(0, -length) : w;
}

/** Removes up to two prefixes; `first` is the family of the first one removed, if any. */
function removePrefixes(word: string, suffix: Suffix | undefined): { stem: string; first?: PrefixFamily } {
  const one = removePrefix(word, suffix);
  if (one === undefined) return { stem: word };
  const two = removePrefix(one.stem, suffix);
  if (two !== undefined && SECOND_PREFIXES.has(two.family)) return { stem: two.stem, first: one.family };
  return { stem: one.stem, first: one.family };
}

function removePrefix(
  w: string,
  suffix: Suffix | undefined,
): { stem: string; family: PrefixFamily } | undefined {
  const candidate = prefixRule(w, suffix);
  if (candidate === undefined) return undefined;
  const [family, stem] = candidate;
  if (stem.length < MIN_STEM_LENGTH || !validOnset(stem)) return undefined;
  return { stem, family };
}

/** The Nazief–Adriani prefix rules, simplified (nasal substitution for me-/pe-). */
function prefixRule(w: string, suffix: Suffix | undefined): [PrefixFamily, string] | undefined {
  const c4 = w[4] ?? '';
  const c3 = w[3] ?? '';
  const c2 = w[2] ?? '';
  if (w.startsWith('me')) {
    if (w.startsWith('meny') && isVowel(c4)) return ['me', 's' + w.slice(4)];
    if (w.startsWith('meng') && (isVowel(c4) || 'ghk'.includes(c4))) return ['me', w.slice(4)];
    if (w.startsWith('men') && 'cdjstz'.includes(c3) && c3 !== '') return ['me', w.slice(3)];
    if (w.startsWith('men') && isVowel(c3)) return ['me', 't' + w.slice(3)];
    if (w.startsWith('mem') && 'bfpv'.includes(c3) && c3 !== '') return ['me', w.slice(3)];
    if (w.startsWith('mem') && isVowel(c3)) return ['me', 'p' + w.slice(3)];
    if ('lrwymn'.includes(c2) && c2 !== '') return ['me', w.slice(2)];
    return undefined;
  }
  if (w.startsWith('pe')) {
    if (w === 'pelajar' || w.startsWith('pelajar')) return ['pe', w.slice(3)];
    if (w.startsWith('peny') && isVowel(c4)) return ['pe', 's' + w.slice(4)];
    if (w.startsWith('peng') && (isVowel(c4) || 'ghk'.includes(c4))) return ['pe', w.slice(4)];
    if (w.startsWith('pen') && 'cdjstz'.includes(c3) && c3 !== '') return ['pe', w.slice(3)];
    if (w.startsWith('pen') && isVowel(c3)) return ['pe', 't' + w.slice(3)];
    if (w.startsWith('pem') && 'bfpv'.includes(c3) && c3 !== '') return ['pe', w.slice(3)];
    if (w.startsWith('pem') && isVowel(c3)) return ['pe', 'p' + w.slice(3)];
    if (w.startsWith('per')) return ['per', w.slice(3)];
    if (c2 !== '' && !isVowel(c2)) return ['pe', w.slice(2)];
    return undefined;
  }
  if (w.startsWith('belajar')) return ['ber', w.slice(3)];
  if (w.startsWith('ber')) return ['ber', w.slice(3)];
  if (w.startsWith('be') && !isVowel(c2) && w.slice(3, 5) === 'er') return ['ber', w.slice(2)]; // bekerja
  if (w.startsWith('ter')) return ['ter', w.slice(3)];
  if (w.startsWith('di')) return ['di', w.slice(2)];
  if (w.startsWith('ke') && suffix === 'an') return ['ke', w.slice(2)];
  if (w.startsWith('se')) return ['se', w.slice(2)];
  return undefined;
}

function isVowel(ch: string): boolean {
  return ch !== '' && VOWELS.includes(ch);
}

function validOnset(stem: string): boolean {
  const a = stem[0] ?? '';
  const b = stem[1] ?? '';
  if (isVowel(a) || isVowel(b)) return true;
  return ALLOWED_ONSETS.has(a + b);
}

// ---------------------------------------------------------------------------------------------
// English

function stemEnglish(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (/(?:ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing')) w = inflectionBase(w, 3);
  else if (w.endsWith('ed') && !w.endsWith('eed')) w = inflectionBase(w, 2);
  if (w.endsWith('e') && w.length >= 5) w = w.slice(0, -1);
  return w;
}

/** Removes `-ing`/`-ed` when a syllable remains: running → run, used → use, string stays. */
function inflectionBase(w: string, length: number): string {
  const base = w.slice(0, -length);
  if (!/[aeiouy]/.test(base)) return w;
  if (base.length < 3) return base.length === 2 ? base + 'e' : w;
  if (/([^aeiouylsz])\1$/.test(base)) return base.slice(0, -1);
  return base;
}
