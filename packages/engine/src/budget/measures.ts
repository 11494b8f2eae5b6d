/**
 * Budget measures a question can name — the aggregates a UU APBN states in its articles — with the
 * statutes' wording and everyday and English names. Longest names match first.
 */

export type BudgetMeasure =
  | 'pendapatan_negara'
  | 'penerimaan_perpajakan'
  | 'penerimaan_negara_bukan_pajak'
  | 'hibah'
  | 'belanja_negara'
  | 'belanja_pemerintah_pusat'
  | 'transfer_ke_daerah'
  | 'dana_desa'
  | 'defisit'
  | 'pembiayaan'
  | 'subsidi'
  | 'anggaran_pendidikan';

export const BUDGET_MEASURES: readonly { id: BudgetMeasure; names: readonly string[] }[] = [
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
  },
  {
    id: 'penerimaan_perpajakan',
    names: ['penerimaan perpajakan', 'penerimaan pajak', 'pajak', 'tax revenue', 'taxes', 'tax'],
  },
  {
    id: 'penerimaan_negara_bukan_pajak',
    names: ['penerimaan negara bukan pajak', 'pnbp', 'non-tax revenue', 'non tax revenue'],
  },
  { id: 'hibah', names: ['penerimaan hibah', 'hibah', 'grants', 'grant'] },
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
  },
  {
    id: 'belanja_pemerintah_pusat',
    names: ['belanja pemerintah pusat', 'central government spending', 'central government expenditure'],
  },
  {
    id: 'transfer_ke_daerah',
    names: ['transfer ke daerah', 'tkd', 'transfers to regions', 'regional transfers'],
  },
  { id: 'dana_desa', names: ['dana desa', 'village fund', 'village funds'] },
  { id: 'defisit', names: ['defisit anggaran', 'defisit', 'deficit'] },
  { id: 'pembiayaan', names: ['pembiayaan anggaran', 'pembiayaan', 'financing', 'utang', 'debt'] },
  { id: 'subsidi', names: ['subsidi', 'subsidy', 'subsidies'] },
  { id: 'anggaran_pendidikan', names: ['anggaran pendidikan', 'education budget', 'education spending'] },
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
