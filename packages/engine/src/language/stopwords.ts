/**
 * Words a search does not look for: function words and the words people use to ask (question words,
 * everyday fillers), in Indonesian (formal and everyday) and English. PostgreSQL's `indonesian`
 * text-search configuration has a stemmer but no stopword list, so "yang", "dengan" and "apa" would
 * otherwise be searched like any other word; `english` has one, but not for the asking words.
 *
 * Modal words the documents use to state rules ("wajib", "dilarang", "harus", "boleh") are not
 * stopwords: a rule's wording finds them.
 */

export type StopwordLanguage = 'id' | 'en';

const INDONESIAN = new Set(
  `yang dan di ke dari atau dengan untuk pada dalam ini itu adalah ialah merupakan oleh sebagai akan
  juga telah sudah sedang masih ada apa apakah siapa siapakah berapa berapakah bagaimana bagaimanakah
  mengapa kenapa kapan dimana mana manakah saja serta para tersebut tentang terhadap karena agar supaya
  jika apabila bila kalau kalo klo maka namun tetapi tapi hingga bahwa secara suatu sebuah seorang yaitu
  yakni kami kita saya aku anda kamu dia ia mereka beliau nya pun lah kah si sang bagi kepada daripada
  sambil lagi pula hanya sangat sekali begitu demikian pernah belum tak bukan jangan enggak nggak ngga
  gak ga gk tdk yg dgn utk dg dr dll dsb dst sdh udah udh blm krn jd jadi mau ingin perlu punya mohon
  tolong dong sih ya kok aja deh nih tuh gimana gmn gmna bgmn brp brapa emang memang kira terus trus
  coba sebenarnya sebetulnya banget bener benar kayak kaya gitu begini gini ato atau apa2 kak min gan
  bro sis pak bu mas mbak bang om tante halo hai permisi maaf tanya nanya bertanya menurut sama`.split(/\s+/),
);

const ENGLISH = new Set(
  `a an the and or but if then else of to in on at by for with from as is are was were be been being
  am do does did doing done have has had having this that these those it its itself they them their
  theirs there here what which who whom whose when where why how i me my mine we us our ours you your
  yours he him his she her hers so than too very can could will would shall should may might must
  about into over under up down out off just also such any each more most other own same both few nor
  not no never only some all many much again further once while during before after above below
  between through until against because since per via let lets get gets got etc eg ie vs don doesn
  didn isn aren wasn weren won wouldn couldn shouldn hasn haven hadn im ive id youre whats thats
  theres hows whys please tell explain exactly even really actually kind sort thing things stuff
  someone something anyone anything hi hello thanks thank pls plz`.split(/\s+/),
);

/** Whether `word` (lower case) is a stopword of `language`; a single letter always is. */
export function isQueryStopword(word: string, language: StopwordLanguage): boolean {
  if (word.length === 1 && !/\d/.test(word)) return true;
  return (language === 'id' ? INDONESIAN : ENGLISH).has(word);
}

/**
 * `text` without the stopwords of `language` (words of letters and digits, lower case, joined by
 * spaces); the empty string when nothing is left.
 */
export function withoutStopwords(text: string, language: StopwordLanguage): string {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((word) => !isQueryStopword(word, language)).join(' ');
}
