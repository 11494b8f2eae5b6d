/**
 * Query rewriting (DESIGN.md §8), first layer: per-language dictionaries that turn everyday words into
 * the terms the documents use ("lampu merah" → "Alat Pemberi Isyarat Lalu Lintas", "SIM" → "Surat Izin
 * Mengemudi"). Each variant carries a weight for the weighted RRF: the rewritten, legal-language variant
 * 2.0, the original question 1.0. Pattern rules, follow-up condensation and LLM expansion come next.
 */
import type { QueryVariant } from './retrieve.js';

export interface DictionaryEntry {
  /** Everyday forms, matched as whole words, case-insensitively. */
  terms: string[];
  /** The words the documents use. */
  expansion: string;
}

/** Everyday Indonesian traffic words → UU 22/2009 terms. */
export const TRAFFIC_DICTIONARY: DictionaryEntry[] = [
  {
    terms: ['lampu merah', 'lampu lalu lintas', 'lampu setopan', 'bangjo'],
    expansion: 'Alat Pemberi Isyarat Lalu Lintas',
  },
  {
    terms: ['nerobos', 'menerobos', 'terobos', 'nrobos', 'melanggar'],
    expansion: 'melanggar aturan perintah atau larangan',
  },
  { terms: ['sim'], expansion: 'Surat Izin Mengemudi' },
  { terms: ['stnk'], expansion: 'Surat Tanda Nomor Kendaraan Bermotor' },
  { terms: ['plat nomor', 'pelat nomor', 'nopol'], expansion: 'Tanda Nomor Kendaraan Bermotor' },
  { terms: ['helm'], expansion: 'helm yang memenuhi standar nasional Indonesia' },
  { terms: ['sabuk pengaman', 'seat belt', 'seatbelt'], expansion: 'sabuk keselamatan' },
  { terms: ['ngebut', 'kebut-kebutan', 'kecepatan tinggi'], expansion: 'batas kecepatan paling tinggi' },
  { terms: ['balap liar', 'balapan', 'trek-trekan'], expansion: 'berbalapan dengan Kendaraan Bermotor lain' },
  {
    terms: ['hp', 'handphone', 'ponsel', 'main hp', 'nelpon'],
    expansion: 'menggunakan telepon gangguan konsentrasi',
  },
  { terms: ['mabuk', 'miras'], expansion: 'minuman yang mengandung alkohol' },
  {
    terms: ['tilang', 'ditilang', 'kena denda', 'denda berapa', 'dendanya'],
    expansion: 'dipidana denda paling banyak',
  },
  {
    terms: ['knalpot racing', 'knalpot brong', 'knalpot bising'],
    expansion: 'knalpot persyaratan teknis dan laik jalan',
  },
  { terms: ['motor'], expansion: 'Sepeda Motor' },
  { terms: ['mobil'], expansion: 'Kendaraan Bermotor' },
  { terms: ['parkir sembarangan', 'parkir'], expansion: 'tata cara berhenti dan Parkir' },
  { terms: ['trotoar'], expansion: 'trotoar fasilitas Pejalan Kaki' },
  { terms: ['bahu jalan'], expansion: 'bahu Jalan' },
  { terms: ['menyalip', 'nyalip'], expansion: 'melewati Kendaraan lain' },
  { terms: ['lawan arah'], expansion: 'gerakan lalu lintas arah' },
  { terms: ['anak di bawah umur', 'bocah', 'anak sekolah'], expansion: 'usia Surat Izin Mengemudi' },
  { terms: ['angkot'], expansion: 'angkutan umum mobil penumpang umum' },
  { terms: ['ojek', 'ojol'], expansion: 'Sepeda Motor angkutan orang' },
  { terms: ['lampu motor', 'lampu siang'], expansion: 'menyalakan lampu utama pada siang hari' },
];

/** Everyday budget words → UU APBN terms. */
export const BUDGET_DICTIONARY: DictionaryEntry[] = [
  { terms: ['apbn'], expansion: 'Anggaran Pendapatan dan Belanja Negara' },
  { terms: ['apbd'], expansion: 'Anggaran Pendapatan dan Belanja Daerah' },
  { terms: ['dau'], expansion: 'Dana Alokasi Umum' },
  { terms: ['dak'], expansion: 'Dana Alokasi Khusus' },
  { terms: ['dbh'], expansion: 'Dana Bagi Hasil' },
  { terms: ['sbn'], expansion: 'Surat Berharga Negara' },
  { terms: ['pnbp'], expansion: 'Penerimaan Negara Bukan Pajak' },
  { terms: ['defisit'], expansion: 'defisit anggaran' },
  { terms: ['pajak'], expansion: 'Penerimaan Perpajakan' },
  { terms: ['transfer daerah', 'tkdd'], expansion: 'Transfer ke Daerah dan Dana Desa' },
];

export interface RewriteOptions {
  language: 'id' | 'en';
  dictionaries?: DictionaryEntry[][];
  /** Weight of the rewritten variant (default 2.0) and the original (default 1.0). */
  weights?: { legal?: number; original?: number };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The query variants for `question`: the original, plus a legal-language rewrite when a dictionary term matched. */
export function rewriteQuery(question: string, options: RewriteOptions): QueryVariant[] {
  const original: QueryVariant = { text: question, weight: options.weights?.original ?? 1, kind: 'original' };
  if (options.language !== 'id') return [original];
  const dictionaries = options.dictionaries ?? [TRAFFIC_DICTIONARY, BUDGET_DICTIONARY];
  let rewritten = question;
  let matched = false;
  for (const entry of dictionaries.flat()) {
    for (const term of [...entry.terms].sort((a, b) => b.length - a.length)) {
      const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}(?![\\p{L}\\p{N}])`, 'giu');
      if (pattern.test(rewritten)) {
        rewritten = rewritten.replace(pattern, entry.expansion);
        matched = true;
        break;
      }
    }
  }
  if (!matched) return [original];
  return [original, { text: rewritten, weight: options.weights?.legal ?? 2, kind: 'legal' }];
}
