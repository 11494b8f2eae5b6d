/**
 * The text of a related answer (docs/engine.md, "Answering"): claims the answer check did not confirm
 * are shown as related passages, never as the answer, with what they are not and, when the check's
 * deterministic part knows it, why.
 */
import type { AnswerCheck } from './answer-check.js';
import type { QuestionPlan } from './understand.js';

const RELATED_LEAD: Record<'id' | 'en', { first: string; heading: string }> = {
  id: {
    first: 'Dokumen tidak menjawab pertanyaan ini secara pasti.',
    heading: 'Bagian yang terkait (bukan jawaban yang dikonfirmasi):',
  },
  en: {
    first: 'The documents do not confirm an answer to this question.',
    heading: 'Related passages (not a confirmed answer):',
  },
};
/** How a reader names a constraint the passages do not meet ("2013", "UU 17/2003", "version 6", "Pasal 300"). */
const CONSTRAINT_NAMES: Record<'id' | 'en', Record<string, (value: string) => string>> = {
  id: {
    year: (value) => value,
    regulation: (value) => `nomor ${value}`,
    version: (value) => `versi ${value}`,
    section: (value) => `Pasal ${value}`,
  },
  en: {
    year: (value) => value,
    regulation: (value) => `number ${value}`,
    version: (value) => `version ${value}`,
    section: (value) => `section ${value}`,
  },
};
/** The kind of value a question asks for, as the reason names it. */
const ASKED_NAMES: Record<'id' | 'en', Record<string, string>> = {
  id: {
    amount: 'angka atau jumlah',
    duration: 'lama waktu',
    age: 'usia',
    date: 'tanggal atau waktu',
    sanction: 'sanksi',
    definition: 'pengertian',
  },
  en: {
    amount: 'an amount',
    duration: 'a length of time',
    age: 'an age',
    date: 'a date or time',
    sanction: 'a penalty',
    definition: 'a definition',
  },
};
/** Why the check did not confirm the answer, when its deterministic part says so. */
const RELATED_WHY: Record<
  'id' | 'en',
  { unmet: (what: string) => string; value: (kind: string) => string; misread: string }
> = {
  id: {
    unmet: (what) => `Bagian ini tidak menyebut ${what}.`,
    value: (kind) => `Bagian ini tidak menyatakan ${kind} yang ditanyakan.`,
    misread: 'Angka di bagian ini terbaca keliru oleh OCR (hasil pindaian); periksa dokumen aslinya.',
  },
  en: {
    unmet: (what) => `These passages do not mention ${what}.`,
    value: (kind) => `These passages do not state ${kind}, which the question asks for.`,
    misread: 'A figure in these passages was misread by OCR (a scanned page); check the original document.',
  },
};

/** The text of a related answer: what it is not, why when known, then the quotes. */
export function relatedText(
  plan: Pick<QuestionPlan, 'language'>,
  check: AnswerCheck | undefined,
  quoted: string,
): string {
  const language = plan.language === 'en' ? 'en' : 'id';
  const why = RELATED_WHY[language];
  const unmet = (check?.reading.unmet ?? []).map((constraint) => {
    const [kind = '', value = ''] = constraint.split(/:(.*)/su);
    return CONSTRAINT_NAMES[language][kind]?.(value) ?? value;
  });
  const asked = check ? ASKED_NAMES[language][check.reading.asked] : undefined;
  const reason = check?.misread
    ? why.misread
    : unmet.length > 0
      ? why.unmet(unmet.join(language === 'id' ? ' dan ' : ' and '))
      : check && !check.reading.value_stated && asked
        ? why.value(asked)
        : '';
  const lead = RELATED_LEAD[language];
  return `${lead.first}${reason ? ` ${reason}` : ''} ${lead.heading}\n\n${quoted}`;
}
