/**
 * The bilingual glossary (cross-language retrieval): a question asked in English to an Indonesian
 * collection, or in Indonesian to an English one, is also searched in the collection's language. The
 * glossary of each rule group turns the other language's domain terms into the documents' own
 * ("fine" → "denda", "driver's license" → "Surat Izin Mengemudi", "state revenue" → "Pendapatan
 * Negara"; "aksi" → "action", "keadaan" → "state"); the question's other words are kept unless they
 * are stopwords of its language. The result is a variant of kind `translated`, which the collection's
 * own dictionaries and pattern rules then rewrite like a question asked in its language.
 *
 * Every expansion phrase occurs in the documents of its group (glossary.test.ts reads the corpora).
 * Entries are general domain terms, never a question's wording.
 */
import type { StopwordLanguage } from '../language/stopwords.js';
import type { DictionaryEntry } from './dictionaries/types.js';
import type { RuleGroup } from './patterns.js';

export interface Glossary {
  /** The language of the terms (the question's). */
  from: StopwordLanguage;
  /** The language of the expansions (the documents'). */
  to: StopwordLanguage;
  entries: DictionaryEntry[];
}

/** English traffic words → the wording of UU 22/2009. */
const TRAFFIC_GLOSSARY: DictionaryEntry[] = [
  { terms: ['how much', 'how many', 'what amount'], expansion: 'berapa' },
  { terms: ['fine', 'fines', 'fined', 'ticket', 'ticketed', 'penalty fine'], expansion: 'denda' },
  { terms: ['penalty', 'penalties', 'sanction', 'sanctions', 'punishment', 'punished'], expansion: 'sanksi' },
  { terms: ['jail', 'prison', 'imprisonment', 'imprisoned', 'jailed'], expansion: 'pidana penjara' },
  { terms: ['detention', 'confinement'], expansion: 'pidana kurungan' },
  {
    terms: [
      'driving licence',
      'driving license',
      "driver's license",
      'driver’s license',
      "driver's licence",
      'drivers license',
      'drivers licence',
      'licence',
      'license',
    ],
    expansion: 'Surat Izin Mengemudi',
  },
  {
    terms: ['vehicle registration', 'registration certificate', 'registration papers', 'registration'],
    expansion: 'Surat Tanda Nomor Kendaraan Bermotor',
  },
  {
    terms: ['license plate', 'licence plate', 'number plate', 'plate number', 'registration plate'],
    expansion: 'Tanda Nomor Kendaraan Bermotor',
  },
  { terms: ['helmet', 'helmets', 'crash helmet'], expansion: 'helm' },
  { terms: ['wear', 'wearing', 'put on'], expansion: 'mengenakan' },
  {
    terms: [
      'red light',
      'red lights',
      'traffic light',
      'traffic lights',
      'traffic signal',
      'traffic signals',
      'stoplight',
      'stop light',
    ],
    expansion: 'Alat Pemberi Isyarat Lalu Lintas',
  },
  {
    terms: ['running', 'run', 'ran', 'jumping', 'violate', 'violating', 'violation', 'breaking', 'disobey'],
    expansion: 'melanggar',
  },
  {
    terms: ['seat belt', 'seat belts', 'seatbelt', 'seatbelts', 'safety belt'],
    expansion: 'sabuk keselamatan',
  },
  { terms: ['speed limit', 'speed limits'], expansion: 'batas kecepatan' },
  { terms: ['speeding', 'too fast'], expansion: 'batas kecepatan paling tinggi' },
  { terms: ['speed'], expansion: 'kecepatan' },
  { terms: ['motorcycle', 'motorcycles', 'motorbike', 'motorbikes', 'scooter'], expansion: 'Sepeda Motor' },
  { terms: ['car', 'cars', 'passenger car'], expansion: 'Mobil Penumpang' },
  { terms: ['truck', 'trucks', 'lorry', 'lorries'], expansion: 'Mobil Barang' },
  { terms: ['bus', 'buses'], expansion: 'mobil bus' },
  { terms: ['motor vehicle', 'motor vehicles', 'vehicle', 'vehicles'], expansion: 'Kendaraan Bermotor' },
  {
    terms: ['bicycle', 'bicycles', 'bike', 'bikes', 'cyclist', 'cyclists'],
    expansion: ['sepeda', 'pesepeda'],
  },
  { terms: ['pedestrian', 'pedestrians', 'walking'], expansion: 'Pejalan Kaki' },
  {
    terms: ['crosswalk', 'zebra crossing', 'pedestrian crossing', 'crossing'],
    expansion: 'tempat penyeberangan',
  },
  { terms: ['sidewalk', 'sidewalks', 'pavement'], expansion: 'trotoar' },
  { terms: ['passenger', 'passengers', 'pillion'], expansion: 'Penumpang' },
  { terms: ['driver', 'drivers', 'rider', 'riders', 'motorist', 'motorists'], expansion: 'Pengemudi' },
  { terms: ['driving', 'drive', 'drives', 'riding', 'ride'], expansion: 'mengemudikan' },
  {
    terms: ['accident', 'accidents', 'crash', 'crashes', 'collision', 'collisions'],
    expansion: 'Kecelakaan Lalu Lintas',
  },
  {
    terms: ['hit and run', 'hit-and-run', 'flee the scene', 'fled the scene'],
    expansion: 'tidak menghentikan kendaraannya',
  },
  { terms: ['injured', 'injury', 'injuries'], expansion: 'luka' },
  { terms: ['killed', 'death', 'died', 'dies', 'fatal'], expansion: 'meninggal dunia' },
  {
    terms: ['drunk', 'drunk driving', 'alcohol', 'intoxicated'],
    expansion: 'minuman yang mengandung alkohol',
  },
  {
    terms: ['phone', 'mobile phone', 'cell phone', 'cellphone', 'texting', 'smartphone'],
    expansion: 'menggunakan telepon',
  },
  { terms: ['parking', 'park', 'parked'], expansion: 'Parkir' },
  { terms: ['stop', 'stopping', 'stopped'], expansion: 'berhenti' },
  {
    terms: ['toll road', 'toll roads', 'highway', 'freeway', 'motorway', 'expressway'],
    expansion: 'Jalan Tol',
  },
  { terms: ['road', 'roads', 'street', 'streets'], expansion: 'Jalan' },
  { terms: ['lane', 'lanes'], expansion: 'lajur' },
  { terms: ['road markings', 'road marking', 'markings'], expansion: 'Marka Jalan' },
  {
    terms: ['traffic sign', 'traffic signs', 'road sign', 'road signs', 'sign', 'signs'],
    expansion: 'Rambu Lalu Lintas',
  },
  { terms: ['overtake', 'overtaking', 'pass', 'passing'], expansion: 'mendahului' },
  { terms: ['u-turn', 'u turn', 'turn around'], expansion: 'berbalik arah' },
  { terms: ['turn', 'turning'], expansion: 'berbelok' },
  { terms: ['wrong way', 'against traffic', 'opposite direction'], expansion: 'arah berlawanan' },
  { terms: ['headlight', 'headlights', 'daytime lights', 'lights on'], expansion: 'lampu utama' },
  { terms: ['mirror', 'mirrors'], expansion: 'kaca spion' },
  { terms: ['exhaust', 'muffler', 'silencer'], expansion: 'knalpot' },
  { terms: ['emission', 'emissions', 'exhaust smoke', 'smoke'], expansion: 'ambang batas emisi gas buang' },
  { terms: ['roadworthy', 'roadworthiness'], expansion: 'laik jalan' },
  { terms: ['vehicle inspection', 'inspection'], expansion: 'uji berkala' },
  { terms: ['age', 'minimum age', 'old enough', 'years old'], expansion: 'usia' },
  { terms: ['requirement', 'requirements', 'required documents'], expansion: 'persyaratan' },
  {
    terms: ['police', 'traffic police', 'police officer', 'officer'],
    expansion: 'Kepolisian Negara Republik Indonesia',
  },
  { terms: ['ambulance', 'ambulances'], expansion: 'ambulans' },
  { terms: ['fire truck', 'fire engine', 'firefighters'], expansion: 'pemadam kebakaran' },
  { terms: ['siren', 'sirens'], expansion: 'sirene' },
  { terms: ['right of way', 'priority', 'give way', 'yield'], expansion: 'hak utama' },
  { terms: ['insurance'], expansion: 'asuransi' },
  { terms: ['compensation', 'damages', 'compensate'], expansion: 'ganti kerugian' },
  { terms: ['liable', 'liability', 'responsible', 'responsibility'], expansion: 'bertanggung jawab' },
  { terms: ['racing', 'street racing', 'drag racing', 'race'], expansion: 'berbalapan' },
  { terms: ['overloading', 'overloaded', 'load', 'cargo'], expansion: 'muatan' },
  { terms: ['public transport', 'public transportation', 'public vehicle'], expansion: 'angkutan umum' },
  { terms: ['taxi', 'taxis'], expansion: 'taksi' },
  { terms: ['required', 'must', 'mandatory', 'obligatory', 'obliged', 'have to'], expansion: 'wajib' },
  {
    terms: ['prohibited', 'forbidden', 'banned', 'not allowed', 'illegal', 'allowed'],
    expansion: 'dilarang',
  },
  { terms: ['maximum', 'at most'], expansion: 'paling banyak' },
  { terms: ['month', 'months'], expansion: 'bulan' },
  { terms: ['child', 'children', 'minor', 'minors', 'underage'], expansion: 'anak' },
];

/** English budget words → the wording of the UU APBN texts and UU 17/2003. */
const BUDGET_GLOSSARY: DictionaryEntry[] = [
  { terms: ['how much', 'how many', 'what amount', 'amount', 'total'], expansion: 'berapa' },
  // The budgeted figures are stated as "Anggaran Pendapatan Negara … direncanakan sebesar".
  {
    terms: ['state revenue', 'government revenue', 'national revenue', 'state income', 'revenue', 'revenues'],
    expansion: 'anggaran Pendapatan Negara',
  },
  {
    terms: [
      'state spending',
      'state expenditure',
      'government spending',
      'government expenditure',
      'expenditure',
      'expenditures',
      'spending',
    ],
    expansion: 'anggaran Belanja Negara',
  },
  {
    terms: ['central government spending', 'central government expenditure'],
    expansion: 'Belanja Pemerintah Pusat',
  },
  { terms: ['deficit', 'budget deficit'], expansion: 'defisit anggaran' },
  { terms: ['village fund', 'village funds'], expansion: 'Dana Desa' },
  {
    terms: [
      'transfers to regions',
      'regional transfers',
      'transfer to the regions',
      'transfers to the regions',
    ],
    expansion: 'Transfer ke Daerah',
  },
  { terms: ['general allocation fund'], expansion: 'Dana Alokasi Umum' },
  { terms: ['special allocation fund'], expansion: 'Dana Alokasi Khusus' },
  {
    terms: ['revenue sharing fund', 'revenue-sharing fund', 'revenue sharing'],
    expansion: 'Dana Bagi Hasil',
  },
  { terms: ['tax revenue', 'tax revenues', 'taxation', 'taxes', 'tax'], expansion: 'Penerimaan Perpajakan' },
  {
    terms: ['non-tax revenue', 'non tax revenue', 'non-tax state revenue'],
    expansion: 'Penerimaan Negara Bukan Pajak',
  },
  { terms: ['income tax'], expansion: 'Pajak Penghasilan' },
  { terms: ['vat', 'value added tax', 'value-added tax'], expansion: 'Pajak Pertambahan Nilai' },
  { terms: ['excise', 'excise duty', 'excises'], expansion: 'cukai' },
  { terms: ['grant', 'grants'], expansion: 'Hibah' },
  { terms: ['financing', 'budget financing'], expansion: 'Pembiayaan Anggaran' },
  { terms: ['debt', 'borrowing', 'loans', 'loan'], expansion: 'utang' },
  { terms: ['interest payments', 'interest payment', 'debt interest'], expansion: 'pembayaran bunga utang' },
  {
    terms: ['energy subsidy', 'energy subsidies', 'fuel subsidy', 'electricity subsidy'],
    expansion: 'subsidi energi',
  },
  { terms: ['subsidy', 'subsidies'], expansion: 'Subsidi' },
  {
    terms: ['education budget', 'education spending', 'education fund', 'education'],
    expansion: 'anggaran pendidikan',
  },
  { terms: ['health', 'health budget', 'health spending'], expansion: 'kesehatan' },
  // Not "budget" alone: nearly every question to a budget collection says it, and the statute's full
  // name of the APBN would outweigh the measure asked about.
  { terms: ['state budget', 'national budget'], expansion: 'Anggaran Pendapatan dan Belanja Negara' },
  { terms: ['revised budget', 'budget revision', 'amended budget'], expansion: 'Perubahan' },
  { terms: ['fiscal year', 'financial year'], expansion: 'Tahun Anggaran' },
  {
    terms: ['ministries and agencies', 'ministries', 'ministry', 'agencies'],
    expansion: 'Kementerian Negara/Lembaga',
  },
  {
    terms: ['state-owned enterprises', 'state owned enterprises', 'soe', 'soes'],
    expansion: 'Badan Usaha Milik Negara',
  },
  {
    terms: ['capital injection', 'state capital participation', 'equity participation'],
    expansion: 'Penyertaan Modal Negara',
  },
  {
    terms: ['government securities', 'government bonds', 'bonds', 'bond'],
    expansion: 'Surat Berharga Negara',
  },
  { terms: ['exchange rate', 'rupiah exchange rate'], expansion: 'nilai tukar rupiah' },
  { terms: ['oil price', 'crude oil price', 'icp'], expansion: 'harga minyak mentah' },
  { terms: ['economic growth', 'growth'], expansion: 'pertumbuhan ekonomi' },
  { terms: ['inflation'], expansion: 'inflasi' },
  { terms: ['gdp', 'gross domestic product'], expansion: 'Produk Domestik Bruto' },
  { terms: ['oil lifting'], expansion: 'lifting minyak' },
  { terms: ['gas lifting'], expansion: 'lifting gas' },
  { terms: ['trillion', 'trillions'], expansion: 'triliun' },
  { terms: ['billion', 'billions'], expansion: 'miliar' },
  { terms: ['house of representatives', 'parliament', 'legislature'], expansion: 'Dewan Perwakilan Rakyat' },
  { terms: ['bill', 'draft law'], expansion: 'Rancangan Undang-Undang' },
  {
    terms: ['personnel spending', 'salaries', 'civil servant salaries', 'wages'],
    expansion: 'Belanja Pegawai',
  },
  { terms: ['goods spending', 'spending on goods'], expansion: 'Belanja Barang' },
  { terms: ['capital spending', 'capital expenditure'], expansion: 'Belanja Modal' },
  {
    terms: ['planned', 'projected', 'set at', 'budgeted', 'allocated', 'allocation'],
    expansion: 'direncanakan sebesar',
  },
  { terms: ['reserve fund', 'reserves'], expansion: 'Dana Cadangan' },
  { terms: ['surplus', 'budget surplus'], expansion: 'Saldo Anggaran Lebih' },
];

/** Indonesian developer words → the wording of the Redux docs. */
const DOCS_GLOSSARY: DictionaryEntry[] = [
  { terms: ['apa itu', 'apakah itu', 'apa sih'], expansion: 'what is' },
  { terms: ['apa bedanya', 'bedanya', 'perbedaan', 'beda'], expansion: 'difference' },
  { terms: ['kapan harus', 'kapan sebaiknya', 'kapan perlu'], expansion: 'when should' },
  { terms: ['kapan'], expansion: 'when' },
  { terms: ['kenapa', 'mengapa'], expansion: 'why' },
  { terms: ['bagaimana cara', 'gimana cara', 'cara'], expansion: 'how to' },
  { terms: ['bagaimana', 'gimana'], expansion: 'how' },
  { terms: ['aksi', 'tindakan'], expansion: 'action' },
  { terms: ['pembuat aksi', 'pencipta aksi'], expansion: 'action creator' },
  { terms: ['keadaan', 'status', 'data aplikasi'], expansion: 'state' },
  { terms: ['penyimpanan', 'wadah', 'tempat penyimpanan', 'penyimpanan state'], expansion: 'store' },
  { terms: ['pengurang', 'fungsi reducer'], expansion: 'reducer' },
  { terms: ['pemilih', 'fungsi pemilih'], expansion: 'selector' },
  {
    terms: ['mengirim aksi', 'kirim aksi', 'mengirimkan aksi', 'mengirim', 'mengirimkan'],
    expansion: 'dispatch',
  },
  { terms: ['berlangganan', 'langganan'], expansion: 'subscribe' },
  { terms: ['perantara', 'lapisan perantara'], expansion: 'middleware' },
  { terms: ['irisan', 'potongan'], expansion: 'slice' },
  { terms: ['komponen'], expansion: 'component' },
  { terms: ['kait'], expansion: 'hook' },
  { terms: ['pengujian', 'tes', 'menguji', 'uji', 'testing'], expansion: ['testing', 'tests'] },
  { terms: ['tipe', 'jenis'], expansion: 'type' },
  { terms: ['asinkron', 'asinkronus'], expansion: 'async' },
  {
    terms: ['mengambil data', 'ambil data', 'memuat data', 'memanggil api', 'panggil api', 'fetch data'],
    expansion: 'fetching data',
  },
  { terms: ['tembolok'], expansion: 'cache' },
  { terms: ['render ulang', 'dirender ulang', 'merender ulang'], expansion: 're-render' },
  { terms: ['galat', 'kesalahan'], expansion: 'error' },
  { terms: ['peringatan'], expansion: 'warning' },
  { terms: ['argumen', 'parameter', 'masukan'], expansion: 'arguments' },
  { terms: ['nilai kembali', 'mengembalikan', 'dikembalikan', 'hasil'], expansion: 'returns' },
  { terms: ['menggabungkan', 'menggabung', 'gabungkan'], expansion: 'combine' },
  { terms: ['membuat', 'bikin', 'buat'], expansion: 'create' },
  { terms: ['memperbarui', 'perbarui', 'mengubah', 'ubah'], expansion: 'update' },
  { terms: ['tidak berubah', 'imutabel', 'kekal'], expansion: 'immutable' },
  { terms: ['memutasi', 'mutasi'], expansion: 'mutate' },
  { terms: ['normalisasi', 'menormalkan'], expansion: 'normalized' },
  { terms: ['migrasi', 'peningkatan versi', 'upgrade'], expansion: 'migrating' },
  { terms: ['usang', 'tidak digunakan lagi', 'tidak dianjurkan'], expansion: 'deprecated' },
  { terms: ['formulir'], expansion: 'form' },
  { terms: ['daftar'], expansion: 'list' },
  { terms: ['pengaturan', 'konfigurasi', 'mengatur', 'menyiapkan'], expansion: 'configure' },
  { terms: ['data turunan', 'turunan data'], expansion: 'derived data' },
  { terms: ['kinerja', 'performa'], expansion: 'performance' },
  { terms: ['pemecahan kode', 'memecah kode'], expansion: 'code splitting' },
  { terms: ['pendengar'], expansion: 'listener' },
  { terms: ['efek samping'], expansion: 'side effects' },
  { terms: ['logika'], expansion: 'logic' },
  { terms: ['tampilan', 'antarmuka'], expansion: 'UI' },
  { terms: ['aplikasi'], expansion: 'app' },
  { terms: ['contoh'], expansion: 'example' },
  { terms: ['fungsi'], expansion: 'function' },
  { terms: ['objek'], expansion: 'object' },
  { terms: ['kunci'], expansion: 'key' },
  { terms: ['nilai'], expansion: 'value' },
  { terms: ['perlu', 'butuh', 'membutuhkan', 'memerlukan'], expansion: 'need' },
  { terms: ['menggunakan', 'gunakan', 'memakai', 'pakai'], expansion: 'use' },
  { terms: ['sebaiknya', 'direkomendasikan', 'disarankan', 'dianjurkan'], expansion: 'recommended' },
  { terms: ['praktik terbaik', 'cara terbaik'], expansion: 'best practices' },
  { terms: ['panduan gaya'], expansion: 'style guide' },
  { terms: ['pemula'], expansion: 'beginner' },
  { terms: ['dokumentasi'], expansion: 'docs' },
  { terms: ['struktur folder', 'struktur berkas', 'struktur proyek'], expansion: 'folder structure' },
];

export const GLOSSARIES: Record<RuleGroup, Glossary> = {
  traffic: { from: 'en', to: 'id', entries: TRAFFIC_GLOSSARY },
  budget: { from: 'en', to: 'id', entries: BUDGET_GLOSSARY },
  docs: { from: 'id', to: 'en', entries: DOCS_GLOSSARY },
};

/** The glossaries of `groups` that translate from `from` into `to`, their entries together. */
export function glossaryEntries(
  groups: readonly RuleGroup[],
  from: StopwordLanguage,
  to: StopwordLanguage,
): DictionaryEntry[] {
  return groups.flatMap((group) => {
    const glossary = GLOSSARIES[group];
    return glossary.from === from && glossary.to === to ? glossary.entries : [];
  });
}
