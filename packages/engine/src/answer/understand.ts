/**
 * The first stage of answering: what the question asks (docs/engine.md, "Answering"). One plan per
 * question — its language, its intent, the slots it names (fiscal years, budget measures,
 * concepts) and its normalized wording — that retrieval, selection, composition and the relevance
 * check all read, so the offline and the language-model paths agree on what was asked.
 *
 * Rule-based: the intent comes from the question's kinds (language/question-kinds.ts, the table the
 * query rewriter reads too), the most specific kind winning ("berapa tahun penjara" is a sanction,
 * not a figure; "umur minimal SIM" a requirement). Which words are distinctive is decided
 * later against the collection's statistics (`terms.ts`), not here.
 */
import { detectLanguage } from '../language/detect.js';
import { type QuestionKind, questionKinds, yearsIn } from '../language/question-kinds.js';
import { questionMeasures } from '../packs/registry.js';
import type { Intent, QuestionPlan, QuestionSlots, RequirementKind } from './question-plan.js';
import type { Language } from './stem.js';

export type { Intent, QuestionPlan, QuestionSlots, RequirementKind };

export const INTENTS: readonly Intent[] = [
  'sanction',
  'obligation',
  'requirement',
  'definition',
  'figure',
  'comparison',
  'procedure',
  'reason',
  'other',
];

/** Everyday Indonesian spellings, written out so rules and the statute's words meet them. */
const ABBREVIATIONS: Record<string, string> = {
  brp: 'berapa',
  brapa: 'berapa',
  gmn: 'gimana',
  gmna: 'gimana',
  bgmn: 'bagaimana',
  yg: 'yang',
  dgn: 'dengan',
  dg: 'dengan',
  utk: 'untuk',
  tdk: 'tidak',
  gk: 'nggak',
  ga: 'nggak',
  gak: 'nggak',
  ngga: 'nggak',
  krn: 'karena',
  kalo: 'kalau',
  klo: 'kalau',
  kl: 'kalau',
  sdh: 'sudah',
  udh: 'sudah',
  udah: 'sudah',
  blm: 'belum',
  bs: 'bisa',
  bsa: 'bisa',
  org: 'orang',
  thn: 'tahun',
  th: 'tahun',
  jt: 'juta',
  dr: 'dari',
  pd: 'pada',
  sm: 'sama',
  spt: 'seperti',
  aja: 'saja',
  gaes: '',
  wkwk: '',
};

const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';
function words(source: string): RegExp {
  return new RegExp(`${B}(?:${source})${E}`, 'iu');
}

/** The intent of each question kind (language/question-kinds.ts); a kind without one does not decide it. */
const INTENT_OF: Partial<Record<QuestionKind, { intent: Intent; requirement?: RequirementKind }>> = {
  comparison: { intent: 'comparison' },
  sanction: { intent: 'sanction' },
  age: { intent: 'requirement', requirement: 'age' },
  duration: { intent: 'requirement', requirement: 'duration' },
  documents: { intent: 'requirement', requirement: 'documents' },
  definition: { intent: 'definition' },
  reason: { intent: 'reason' },
  procedure: { intent: 'procedure' },
  obligation: { intent: 'obligation' },
  figure: { intent: 'figure' },
};

const INSTRUCTIONS = words(
  'ignore (?:all |the )?(?:previous|prior|above)|disregard (?:all |the )?(?:previous|prior|above)|system prompt|you are now|act as|pretend (?:to be|you)|abaikan (?:semua )?(?:instruksi|perintah)|lupakan (?:semua )?(?:instruksi|perintah)|jailbreak',
);

/** Emoji, pictographs, variation selectors and other symbols that carry no searchable words. */
const SYMBOLS = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u{FE0F}|\u{200D}|\u{20E3}/gu;

/**
 * One line, symbols dropped, and — unless the question is English — everyday Indonesian
 * abbreviations written out; the case is kept.
 */
export function normalizeQuestion(question: string, language?: Language): string {
  const line = question
    .normalize('NFKC')
    .replace(SYMBOLS, ' ')
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ');
  const written =
    language === 'en'
      ? line
      : line.replace(/\p{L}+/gu, (word) => {
          const full = ABBREVIATIONS[word.toLowerCase()];
          return full === undefined ? word : full;
        });
  return written.replace(/\s+/g, ' ').trim();
}

/** Code identifiers (camelCase, calls, dotted names, backticked) and quoted names in a question. */
function conceptsIn(question: string): string[] {
  const found = new Set<string>();
  for (const match of question.matchAll(/`([^`]{1,60})`|"([^"]{1,60})"|“([^”]{1,60})”/gu))
    found.add((match[1] ?? match[2] ?? match[3] ?? '').trim());
  for (const match of question.matchAll(
    /(?<![\p{L}\p{N}])([a-z]+[A-Z][A-Za-z0-9]*|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+|[A-Za-z_$][\w$]*\(\))/gu,
  ))
    found.add(match[1]!.replace(/\(\)$/, ''));
  found.delete('');
  return [...found];
}

/** How definition questions name what they ask about; the first capture is the subject. */
const SUBJECT_PATTERNS: RegExp[] = [
  /\bwhat(?:\s+(?:exactly|even|really|actually))?(?:'s|\s+is|\s+are)\s+(?:(?:exactly|even|really|actually|basically)\s+)*(?:an?\s+|the\s+)?(.+)$/iu,
  /\bwhat\s+does\s+(.+?)\s+(?:mean|stand for)\b/iu,
  /\b(?:define|definition of|meaning of|explain)\s+(?:an?\s+|the\s+)?(.+)$/iu,
  /\bapa\s+(?:sih\s+)?(?:yang\s+)?dimaksud\s+(?:dengan\s+)?(.+)$/iu,
  /\bapa\s+(?:sih\s+)?itu\s+(.+)$/iu,
  /\b(?:pengertian|definisi|arti)\s+(?:dari\s+)?(.+)$/iu,
  /^(.+?)\s+(?:itu\s+)?(?:apa|artinya\s+apa|maksudnya\s+apa)\b/iu,
];
/** Words that end a subject: where the question goes on about something else. */
const SUBJECT_END =
  /\s+(?:in|for|with|within|inside|when|and|or|menurut|dalam|di|pada|sih|itu|ya|dong|tuh|sebenarnya|exactly)\b.*$/iu;

/** Words that point at something rather than name it. */
const POINTING = new Set(['this', 'that', 'it', 'these', 'those', 'ini', 'itu', 'tersebut', 'tsb']);

/** The subject of a definition question: a short noun phrase, without quotes and trailing words. */
export function definitionSubject(question: string): string | undefined {
  const first = question.split(/(?<=[?!.])\s+/u)[0] ?? question;
  for (const pattern of SUBJECT_PATTERNS) {
    const match = pattern.exec(first.replace(/[?!.]+\s*$/u, ''));
    if (!match?.[1]) continue;
    const subject = match[1]
      .replace(SUBJECT_END, '')
      .replace(/["'`“”‘’]/gu, '')
      .replace(/^(?:an?|the|sebuah|suatu)\s+/iu, '')
      .trim();
    const words = subject.split(/\s+/u);
    // "What does this mean?" points at something (a selection), it does not name it.
    if (words.length === 1 && POINTING.has(subject.toLowerCase())) continue;
    // "What's the difference between reducers and extraReducers?" compares two things; it defines neither.
    if (/^(?:differences?|beda\p{L}*|perbedaan\p{L}*|selisih\p{L}*)(?![\p{L}])/iu.test(subject))
      return undefined;
    if (subject.length >= 2 && words.length <= 4 && /\p{L}/u.test(subject)) return subject;
  }
  return undefined;
}

export interface UnderstandOptions {
  /** The collection's language: the plan's language when the question's words do not tell. */
  collectionLanguage: Language;
}

/** The plan of `question`: language, intent, slots and normalized wording. */
export function understand(question: string, options: UnderstandOptions): QuestionPlan {
  const asked = question.trim();
  const language = detectLanguage(normalizeQuestion(asked, 'en')) ?? options.collectionLanguage;
  const normalized = normalizeQuestion(asked, language);
  const empty = !/[\p{L}\p{N}]/u.test(normalized);
  const years = yearsIn(normalized);
  let intent: Intent = 'other';
  let requirement: RequirementKind | undefined;
  for (const kind of questionKinds(normalized)) {
    const rule = INTENT_OF[kind];
    if (!rule) continue;
    // A comparison needs two things to compare: two years, or an explicit comparison word with a measure.
    if (rule.intent === 'comparison' && years.length < 2 && !/compar|banding/iu.test(normalized)) continue;
    intent = rule.intent;
    requirement = rule.requirement;
    break;
  }
  // "What is the state revenue in 2023?" asks for a figure, not for a definition.
  const measures = questionMeasures(normalized);
  if (intent === 'definition' && measures.length > 0 && years.length > 0) intent = 'figure';
  const subject = intent === 'definition' ? definitionSubject(normalized) : undefined;
  return {
    question: asked,
    normalized,
    language,
    intent,
    ...(requirement ? { requirement } : {}),
    slots: {
      years,
      measures,
      concepts: conceptsIn(asked),
      ...(subject ? { subject } : {}),
    },
    instructions: INSTRUCTIONS.test(normalized),
    empty,
  };
}
