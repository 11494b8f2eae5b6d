/**
 * Everyday Indonesian spellings written out in the standard form the documents use, before a question
 * is rewritten and searched: chat abbreviations ("yg", "dgn"), Jakarta verb forms ("nyebrang",
 * "ngerusak", "nurunin", "dibalikin"), and common misspellings. The stemmer then meets the statute's
 * words ("menyeberang" and "penyeberangan" share a stem; "nyebrang" shares none).
 *
 * Each entry is a general spelling of a general word, never a question's wording. A word that is not
 * listed is left as it is.
 */

const EVERYDAY: Record<string, string> = {
  // Chat abbreviations.
  yg: 'yang',
  dgn: 'dengan',
  dg: 'dengan',
  utk: 'untuk',
  tdk: 'tidak',
  krn: 'karena',
  sdh: 'sudah',
  blm: 'belum',
  bs: 'bisa',
  org: 'orang',
  thn: 'tahun',
  th: 'tahun',
  jt: 'juta',
  rb: 'ribu',
  brp: 'berapa',
  brapa: 'berapa',
  gmn: 'bagaimana',
  bgmn: 'bagaimana',
  kmn: 'kemana',
  kpn: 'kapan',
  knp: 'kenapa',
  dr: 'dari',
  pd: 'pada',
  spt: 'seperti',
  jln: 'jalan',
  kendaraaan: 'kendaraan',
  // Jakarta and everyday verb forms.
  nyebrang: 'menyeberang',
  nyeberang: 'menyeberang',
  nyebrangin: 'menyeberangkan',
  nyetir: 'mengemudi',
  nyupir: 'mengemudi',
  nyopir: 'mengemudi',
  ngerusak: 'merusak',
  ngrusak: 'merusak',
  ngerusakin: 'merusak',
  nutup: 'menutup',
  nutupin: 'menutup',
  nurunin: 'menurunkan',
  turunin: 'menurunkan',
  naikin: 'menaikkan',
  dinaikin: 'dinaikkan',
  balikin: 'mengembalikan',
  dibalikin: 'dikembalikan',
  ngembaliin: 'mengembalikan',
  ngasih: 'memberi',
  dikasih: 'diberi',
  kasih: 'beri',
  nyalain: 'menyalakan',
  matiin: 'mematikan',
  nyuruh: 'menyuruh',
  disuruh: 'diperintah',
  ngerokok: 'merokok',
  ngelanggar: 'melanggar',
  nglanggar: 'melanggar',
  ngangkut: 'mengangkut',
  ngebawa: 'membawa',
  bawa: 'membawa',
  nabrak: 'menabrak',
  ketabrak: 'tertabrak',
  nabrakin: 'menabrak',
  ngalah: 'mengalah',
  ngelewatin: 'melewati',
  lewatin: 'melewati',
  ngecek: 'memeriksa',
  ngurus: 'mengurus',
  ngisi: 'mengisi',
  ngebayar: 'membayar',
  bayarin: 'membayar',
  nungguin: 'menunggu',
  nunggu: 'menunggu',
  nyimpen: 'menyimpan',
  minjem: 'meminjam',
  minjemin: 'meminjamkan',
  dipinjemin: 'dipinjamkan',
  nyewa: 'menyewa',
  nerbitin: 'menerbitkan',
  diterbitin: 'diterbitkan',
  nyabut: 'mencabut',
  ngeblokir: 'memblokir',
  pake: 'pakai',
  dipake: 'dipakai',
  pakein: 'memakaikan',
  ngambil: 'mengambil',
  ambil: 'mengambil',
  ngirim: 'mengirim',
  // Spellings of nouns.
  helem: 'helm',
  sepedah: 'sepeda',
  montor: 'motor',
  ijin: 'izin',
  resiko: 'risiko',
  propinsi: 'provinsi',
  trotoir: 'trotoar',
  apotik: 'apotek',
  tehnis: 'teknis',
  sistim: 'sistem',
  karir: 'karier',
  hutang: 'utang',
  milyar: 'miliar',
  trilyun: 'triliun',
};

/** The word pattern: letters only, so numbers and code identifiers are never touched. */
const WORD = /\p{L}+/gu;

/** `text` with the everyday spellings of {@link EVERYDAY} written out; case is kept for untouched words. */
export function normalizeSpelling(text: string): string {
  return text.replace(WORD, (word) => {
    const standard = EVERYDAY[word.toLowerCase()];
    return standard === undefined ? word : standard;
  });
}
