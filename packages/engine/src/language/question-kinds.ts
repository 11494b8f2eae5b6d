/**
 * What kind of thing a question asks for, from its own words in Indonesian (formal and everyday) or
 * English: one table that the plan's intent (answer/understand.ts) and the query rewriter's pattern
 * rules (retrieve/rewrite.ts) both read, so the two cannot disagree about what was asked
 * (docs/engine.md, "Answering" and "Retrieval").
 *
 * A question may be of several kinds ("boleh nggak parkir di sini, dendanya berapa?" asks whether it
 * is allowed, for the penalty and for a figure); the table's order is the order in which the more
 * specific kind wins when one intent is wanted ("berapa tahun penjara" is a sanction, not a figure;
 * "umur minimal SIM" a requirement).
 */

/** The kinds, in the order the more specific one wins. */
export const QUESTION_KINDS = [
  'comparison',
  'sanction',
  'age',
  'duration',
  'documents',
  'definition',
  'reason',
  'procedure',
  'obligation',
  'liability',
  'figure',
] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** Word boundaries for Indonesian and English text: letters and digits only. */
const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';
const NEG = '(?:nggak|ngga|enggak|gak|ga|tidak|tdk|gk|ngak)';

function words(source: string): RegExp {
  return new RegExp(`${B}(?:${source})${E}`, 'iu');
}

const PATTERNS: Record<QuestionKind, RegExp> = {
  // "bandingkan 2015 dan 2016", "naik atau turun", "selisihnya", "difference between"
  comparison: words(
    'bandingkan|membandingkan|dibanding\\p{L}*|perbandingan|banding|selisih\\p{L}*|beda\\p{L}*|perbedaan\\p{L}*|naik|turun|kenaikan|penurunan|mana yang lebih|lebih besar|lebih kecil|compare[ds]?|comparison|difference between|differ|versus|vs\\.?',
  ),
  // "kena denda berapa", "dendanya berapa", "sanksinya apa", "bisa dipenjara?", "what is the fine"
  sanction: words(
    '(?:di)?dend[ae]\\p{L}*|sanksi\\p{L}*|hukuman\\p{L}*|dihukum|dipenjara|penjara\\p{L}*|dipidana|pidana\\p{L}*|kurungan|ditilang|tilang|kena berapa|kena apa|ancaman\\p{L}*|fine[sd]?|penalt(?:y|ies)|punish\\p{L}*|jail|prison|imprison\\p{L}*|sentence[ds]?|ticket(?:ed)?',
  ),
  age: words(
    'umur\\p{L}*|usia\\p{L}*|berapa tahun (?:minimal|minimum|paling)|minimal (?:umur|usia)|how old|minimum age|age (?:limit|requirement)|old enough',
  ),
  duration: words(
    'masa berlaku\\p{L}*|berlaku\\p{L}* (?:berapa|sampai|selama)|berapa (?:lama|tahun|bulan|minggu|hari|jam|menit)|how long|how many (?:years|months|weeks|days|hours)|valid for|expire\\p{L}*',
  ),
  // "syaratnya apa", "dokumen apa yang perlu dibawa"
  documents: words(
    'syarat\\p{L}*|persyaratan|dokumen apa|berkas apa|perlu (?:bawa|membawa)|harus (?:bawa|membawa)|requirements?|required documents|what do i need',
  ),
  // "apa itu …", "yang dimaksud …", "yang namanya … itu apa", "what's a thunk", "define …"
  definition: words(
    "apa itu|apa sih|apa yang dimaksud|yang dimaksud|yang namanya|pengertian\\p{L}*|definisi\\p{L}*|artinya|maksudnya|what(?:'s|’s| is| are| exactly is| even is| does .{1,40} mean)|define|definition|meaning of|explain",
  ),
  reason: words('mengapa|kenapa|alasan\\p{L}*|why|reason'),
  // "gimana cara bikin SIM", "cara mengurus", "prosedurnya", "how do I set up …"
  procedure: words(
    'bagaimana cara|gimana cara|cara (?:\\p{L}+)|langkah\\p{L}*|prosedur\\p{L}*|tata cara|ngurus|mengurus|how (?:do|can|should|to|would)|steps?|set ?up|configure|install',
  ),
  // "boleh nggak", "bolehkah", "dilarang nggak", "wajib nggak", "melanggar?", "am I allowed"
  obligation: words(
    `boleh(?:kah)?|dilarang|larangan|diperbolehkan|dibolehkan|harus(?:kah)?|wajib(?:kah)?|melanggar|legal(?:kah)?|${NEG} boleh|can i|am i allowed|allowed|is it (?:legal|ok|okay|illegal|required)|must|required to|should i|have to|mandatory|forbidden|prohibited`,
  ),
  // "siapa yang tanggung", "siapa yang bertanggung jawab"
  liability: words('siapa yang (?:tanggung|bayar|salah)|bertanggung ?jawab|tanggung ?jawab|liable|liability'),
  // "berapa defisit 2020", "seberapa besar", "alokasinya", "how much"
  figure: words(
    'berapa\\p{L}*|seberapa|jumlah\\p{L}*|besar(?:an|nya)|total\\p{L}*|alokasi\\p{L}*|target\\p{L}*|nilai\\p{L}*|how (?:much|many)|amount|figure',
  ),
};

/** The kinds `question` is of, in the table's order (the first is the most specific). */
export function questionKinds(question: string): QuestionKind[] {
  return QUESTION_KINDS.filter((kind) => PATTERNS[kind].test(question));
}

/** Whether `question` is of `kind`. */
export function isQuestionKind(question: string, kind: QuestionKind): boolean {
  return PATTERNS[kind].test(question);
}

/**
 * Whether `question` opens by being of `kind`: its first match comes before any other word but a
 * greeting or filler ("so what is a thunk", "ok define …"), not later in the question.
 */
export function opensWithKind(question: string, kind: QuestionKind): boolean {
  // "whats a thunk": an opening typed without its apostrophe still opens the question.
  const opened = question.replace(/^(\s*(?:(?:so|ok|okay|hi|hey)[\s\p{P}]+)?)whats(?=\s)/iu, "$1what's");
  const match = PATTERNS[kind].exec(opened);
  if (!match) return false;
  return /^[\s\p{P}]*(?:(?:so|ok|okay|hi|hey|jadi|eh)[\s\p{P}]+)?$/iu.test(opened.slice(0, match.index));
}

/**
 * The pieces of a question that asks several things, split at question marks, ";" and at "dan"/"and"
 * before another question word ("… berapa persen PDB, dan apakah masih di bawah batas …"); empty
 * pieces dropped. A question that asks one thing is one piece.
 */
export function questionPieces(question: string): string[] {
  return question
    .split(
      /[?;]|,?\s+(?:dan|serta|and|also)\s+(?=(?:apa|apakah|berapa|bagaimana|gimana|kapan|siapa|mengapa|kenapa|what|how|when|who|why|which|is|are|does|do|can|should)\b)/iu,
    )
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0);
}

/** Four-digit years 1945–2099 named in a question, in order of mention. */
export function yearsIn(question: string): number[] {
  const years: number[] = [];
  for (const match of question.matchAll(/(?<![\p{L}\p{N}.,])(19[4-9]\d|20\d\d)(?![\p{L}\p{N}]|[.,]\d)/gu)) {
    const year = Number(match[1]);
    if (!years.includes(year)) years.push(year);
  }
  return years;
}
