/**
 * Budget measures: the aggregates a UU APBN states in its articles ("Pendapatan Negara …
 * direncanakan sebesar Rp…"). Each has the names a question may use (the statutes' wording,
 * everyday and English names; {@link measuresIn}, longest names first) and the subjects the statutes
 * themselves write before "sebesar" ({@link measureOfSubject}, exact match), which is how the figure
 * table (figures.ts) knows what an amount measures.
 */

export type BudgetMeasure =
  | 'pendapatan_negara'
  | 'penerimaan_perpajakan'
  | 'penerimaan_negara_bukan_pajak'
  | 'hibah'
  | 'belanja_negara'
  | 'belanja_pemerintah_pusat'
  | 'transfer_ke_daerah_dan_dana_desa'
  | 'transfer_ke_daerah'
  | 'dana_desa'
  | 'defisit'
  | 'pembiayaan'
  | 'pembiayaan_utang'
  | 'subsidi'
  | 'anggaran_pendidikan'
  | 'pajak_dalam_negeri'
  | 'pajak_penghasilan'
  | 'pajak_pertambahan_nilai'
  | 'pajak_bumi_dan_bangunan'
  | 'cukai'
  | 'pajak_perdagangan_internasional'
  | 'bea_masuk'
  | 'bea_keluar'
  | 'pendapatan_sumber_daya_alam'
  | 'kekayaan_negara_dipisahkan'
  | 'pendapatan_blu'
  | 'dana_perimbangan'
  | 'dana_bagi_hasil'
  | 'dana_alokasi_umum'
  | 'dana_alokasi_khusus'
  | 'dana_otonomi_khusus'
  | 'dana_keistimewaan';

export interface BudgetMeasureNames {
  id: BudgetMeasure;
  /** How a question names it (lower case). */
  names: readonly string[];
  /**
   * The subject a statute writes before "sebesar", lower case, without a leading "anggaran",
   * "jumlah", "total" or "program pengelolaan" and without the fiscal year ("Anggaran Belanja Negara
   * Tahun Anggaran 2023" → "belanja negara").
   */
  statute: readonly string[];
}

export const BUDGET_MEASURES: readonly BudgetMeasureNames[] = [
  {
    id: 'pendapatan_negara',
    names: [
      'pendapatan negara',
      'penerimaan negara',
      'state revenue',
      'government revenue',
      'revenue',
      'revenues',
    ],
    statute: ['pendapatan negara'],
  },
  {
    id: 'penerimaan_perpajakan',
    names: ['penerimaan perpajakan', 'penerimaan pajak', 'pajak', 'tax revenue', 'taxes', 'tax'],
    statute: ['penerimaan perpajakan'],
  },
  {
    id: 'penerimaan_negara_bukan_pajak',
    names: ['penerimaan negara bukan pajak', 'pnbp', 'non-tax revenue', 'non tax revenue'],
    statute: ['pnbp', 'penerimaan negara bukan pajak'],
  },
  { id: 'hibah', names: ['penerimaan hibah', 'hibah', 'grants', 'grant'], statute: ['penerimaan hibah'] },
  {
    id: 'belanja_negara',
    names: [
      'belanja negara',
      'pengeluaran negara',
      'state spending',
      'state expenditure',
      'spending',
      'expenditure',
      'belanja',
    ],
    statute: ['belanja negara'],
  },
  {
    id: 'belanja_pemerintah_pusat',
    names: ['belanja pemerintah pusat', 'central government spending', 'central government expenditure'],
    statute: ['belanja pemerintah pusat'],
  },
  {
    id: 'transfer_ke_daerah_dan_dana_desa',
    names: ['transfer ke daerah dan dana desa', 'tkdd', 'transfers to regions and village funds'],
    statute: ['transfer ke daerah dan dana desa', 'tkdd'],
  },
  {
    id: 'transfer_ke_daerah',
    names: ['transfer ke daerah', 'tkd', 'transfers to regions', 'regional transfers'],
    statute: ['transfer ke daerah', 'tkd'],
  },
  { id: 'dana_desa', names: ['dana desa', 'village fund', 'village funds'], statute: ['dana desa'] },
  {
    id: 'defisit',
    names: ['defisit anggaran', 'defisit', 'deficit'],
    statute: ['defisit', 'defisit anggaran'],
  },
  {
    id: 'pembiayaan',
    names: ['pembiayaan anggaran', 'pembiayaan', 'financing', 'budget financing'],
    statute: ['pembiayaan anggaran'],
  },
  {
    id: 'pembiayaan_utang',
    names: ['pembiayaan utang', 'utang', 'debt financing', 'debt', 'borrowing'],
    statute: ['pembiayaan utang'],
  },
  {
    id: 'subsidi',
    names: ['subsidi', 'subsidy', 'subsidies'],
    statute: ['subsidi'],
  },
  {
    id: 'anggaran_pendidikan',
    names: ['anggaran pendidikan', 'education budget', 'education spending'],
    statute: ['anggaran pendidikan'],
  },
  {
    id: 'pajak_dalam_negeri',
    names: ['pajak dalam negeri', 'domestic tax', 'domestic taxes'],
    statute: ['pendapatan pajak dalam negeri'],
  },
  {
    id: 'pajak_penghasilan',
    names: ['pajak penghasilan', 'pph', 'income tax', 'income taxes'],
    statute: ['pendapatan pajak penghasilan'],
  },
  {
    id: 'pajak_pertambahan_nilai',
    names: ['pajak pertambahan nilai', 'ppn', 'vat', 'value added tax', 'value-added tax'],
    statute: ['pendapatan pajak pertambahan nilai barang dan jasa dan pajak penjualan atas barang mewah'],
  },
  {
    id: 'pajak_bumi_dan_bangunan',
    names: ['pajak bumi dan bangunan', 'pbb', 'land and building tax', 'property tax'],
    statute: ['pendapatan pajak bumi dan bangunan'],
  },
  {
    id: 'cukai',
    names: ['pendapatan cukai', 'penerimaan cukai', 'cukai', 'excise', 'excise revenue', 'excises'],
    statute: ['pendapatan cukai'],
  },
  {
    id: 'pajak_perdagangan_internasional',
    names: ['pajak perdagangan internasional', 'international trade tax', 'international trade taxes'],
    statute: ['pendapatan pajak perdagangan internasional'],
  },
  {
    id: 'bea_masuk',
    names: ['bea masuk', 'import duty', 'import duties'],
    statute: ['pendapatan bea masuk'],
  },
  {
    id: 'bea_keluar',
    names: ['bea keluar', 'export duty', 'export duties'],
    statute: ['pendapatan bea keluar'],
  },
  {
    id: 'pendapatan_sumber_daya_alam',
    names: [
      'pendapatan sumber daya alam',
      'penerimaan sumber daya alam',
      'pnbp sumber daya alam',
      'pnbp sda',
      'natural resource revenue',
      'natural resources revenue',
    ],
    statute: ['pendapatan sumber daya alam', 'penerimaan sumber daya alam'],
  },
  {
    id: 'kekayaan_negara_dipisahkan',
    names: ['kekayaan negara dipisahkan', 'laba bumn', 'dividen bumn', 'soe dividends'],
    statute: ['pendapatan dari kekayaan negara dipisahkan', 'pendapatan bagian laba bumn'],
  },
  {
    id: 'pendapatan_blu',
    names: ['pendapatan badan layanan umum', 'pendapatan blu', 'badan layanan umum', 'blu'],
    statute: ['pendapatan badan layanan umum', 'pendapatan blu'],
  },
  {
    id: 'dana_perimbangan',
    names: ['dana perimbangan', 'balancing fund', 'balancing funds'],
    statute: ['dana perimbangan'],
  },
  {
    id: 'dana_bagi_hasil',
    names: ['dana bagi hasil', 'dbh', 'revenue sharing fund', 'revenue-sharing fund'],
    statute: ['dbh', 'dana bagi hasil'],
  },
  {
    id: 'dana_alokasi_umum',
    names: ['dana alokasi umum', 'dau', 'general allocation fund'],
    statute: ['dau', 'dana alokasi umum'],
  },
  {
    id: 'dana_alokasi_khusus',
    names: ['dana alokasi khusus', 'dak', 'special allocation fund'],
    statute: ['dak', 'dana alokasi khusus'],
  },
  {
    id: 'dana_otonomi_khusus',
    names: ['dana otonomi khusus', 'dana otsus', 'otsus', 'special autonomy fund', 'special autonomy funds'],
    statute: ['dana otonomi khusus'],
  },
  {
    id: 'dana_keistimewaan',
    names: ['dana keistimewaan', 'dana keistimewaan yogyakarta', 'special fund for yogyakarta'],
    statute: ['dana keistimewaan', 'dana keistimewaan daerah istimewa yogyakarta'],
  },
];

const NAMES = BUDGET_MEASURES.flatMap((measure) =>
  measure.names.map((name) => ({ name, id: measure.id })),
).sort((a, b) => b.name.length - a.name.length);

/** The measures `text` names, longest name first; an overlapping shorter name is not counted again. */
export function measuresIn(text: string): BudgetMeasure[] {
  let rest = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}-]+/gu, ' ')} `;
  const found: BudgetMeasure[] = [];
  for (const { name, id } of NAMES) {
    const needle = ` ${name} `;
    if (!rest.includes(needle)) continue;
    rest = rest.split(needle).join(' | ');
    if (!found.includes(id)) found.push(id);
  }
  return found;
}

const MEASURE_IDS: ReadonlySet<string> = new Set(BUDGET_MEASURES.map((measure) => measure.id));

/** Whether a question plan's measure (a string there: the plan is general) is one of this pack's. */
export function isBudgetMeasure(measure: string): measure is BudgetMeasure {
  return MEASURE_IDS.has(measure);
}

const STATUTE_SUBJECTS = new Map<string, BudgetMeasure>(
  BUDGET_MEASURES.flatMap((measure) => measure.statute.map((subject) => [subject, measure.id] as const)),
);

/** Words a statute puts before the measure's name: "Anggaran Belanja Negara", "Program Pengelolaan Subsidi". */
const SUBJECT_PREFIX = /^(?:jumlah|total|anggaran|program pengelolaan|target|pagu)\s+/;

/**
 * The measure a statute's subject names, exactly ("Anggaran Belanja Negara", "PNBP", "Program
 * Pengelolaan Subsidi", "defisit anggaran"), or undefined ("Anggaran Transfer ke Daerah dan Dana
 * Desa" is its own measure, never "dana desa"; "DAK fisik" is no measure). Expects the subject
 * without its reference, verb and fiscal year.
 */
export function measureOfSubject(subject: string): BudgetMeasure | undefined {
  let rest = subject
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  for (;;) {
    const found = STATUTE_SUBJECTS.get(rest);
    if (found) return found;
    const stripped = rest.replace(SUBJECT_PREFIX, '');
    if (stripped === rest) return undefined;
    rest = stripped;
  }
}
