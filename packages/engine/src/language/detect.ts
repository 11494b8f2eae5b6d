/**
 * The language of a question, from its function words: Indonesian (formal and everyday) or English.
 * Code identifiers, numbers and emoji carry no evidence; `undefined` when nothing tells.
 */

const INDONESIAN = new Set(
  `yang dan di ke dari untuk dengan apa apakah berapa bagaimana gimana kenapa mengapa siapa kapan kalau kalo
  jika itu ini ada tidak nggak gak enggak bisa boleh harus wajib sih dong kah nya aja saja sama atau juga
  tentang dalam pada oleh bagi karena agar supaya sudah belum masih akan sedang lagi kena buat bikin
  mana tahun berapakah bagaimanakah menurut adalah ialah maksud pengertian apa saja tuh deh kok ya`.split(
    /\s+/,
  ),
);
const ENGLISH = new Set(
  `the a an is are was were be been of to in on for with what which who whom how why when where does do did
  can could should would will shall may might must i you we they it this that these those my your there
  if or and not no about from by as at into than then so any some all much many need get use using`.split(
    /\s+/,
  ),
);

/** `id`, `en`, or undefined when the words do not tell. */
export function detectLanguage(text: string): 'id' | 'en' | undefined {
  let indonesian = 0;
  let english = 0;
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    if (INDONESIAN.has(word)) indonesian++;
    else if (/^(?:me[mng]?|ber|di|ter|pe[mn]?)\p{L}{3,}(?:kan|an|i|nya)$/u.test(word)) indonesian += 0.5;
    else if (/\p{L}{3,}nya$/u.test(word)) indonesian += 0.5;
    if (ENGLISH.has(word)) english++;
    else if (/\p{L}{3,}(?:ing|tion|ed|ly)$/u.test(word)) english += 0.5;
  }
  if (indonesian === 0 && english === 0) return undefined;
  if (indonesian === english) return undefined;
  return indonesian > english ? 'id' : 'en';
}
