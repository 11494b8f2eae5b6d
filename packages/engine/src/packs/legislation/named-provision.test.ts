import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A small regulation drafted by the UU 12/2011 conventions: Pasal 2 is cited by the sanction of
 * Pasal 3, and its elucidation says only "Cukup jelas" — the two passages that answered "what does
 * Pasal 2 say" before the provision itself.
 */
const REGULATION = [
  'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA',
  'NOMOR 10/PMK.07/2015',
  'TENTANG',
  'TARIF LAYANAN PENGUJIAN',
  'DENGAN RAHMAT TUHAN YANG MAHA ESA',
  'MENTERI KEUANGAN REPUBLIK INDONESIA,',
  'Menimbang : bahwa tarif layanan pengujian perlu ditetapkan;',
  'Mengingat : Undang-Undang Nomor 17 Tahun 2003 tentang Keuangan Negara;',
  'MEMUTUSKAN:',
  'Menetapkan : PERATURAN MENTERI KEUANGAN TENTANG TARIF LAYANAN PENGUJIAN.',
  'Pasal 1',
  'Tarif layanan pengujian ditetapkan sebesar Rp10.000,00 (sepuluh ribu rupiah) untuk setiap pengujian.',
  'Pasal 2',
  '(1) Tarif sebagaimana dimaksud dalam Pasal 1 dibayar ke kas negara sebelum pengujian dilaksanakan.',
  '(2) Bukti pembayaran diserahkan kepada petugas pengujian.',
  'Pasal 3',
  'Pemohon yang tidak membayar tarif sebagaimana dimaksud dalam Pasal 2 ayat (1) dikenai sanksi administratif berupa penolakan pengujian.',
  'Pasal 4',
  'Peraturan Menteri ini mulai berlaku pada tanggal diundangkan.',
  'PENJELASAN',
  'ATAS',
  'PERATURAN MENTERI KEUANGAN NOMOR 10/PMK.07/2015',
  'II. PASAL DEMI PASAL',
  'Pasal 1',
  'Cukup jelas.',
  'Pasal 2',
  'Cukup jelas.',
  'Pasal 3',
  'Cukup jelas.',
].join('\n');

describe('a question asking what a named Pasal says', () => {
  let test: TestEngine;
  beforeAll(async () => {
    test = await openTestEngine();
    await test.engine.ingest(
      'tarif',
      { bytes: new TextEncoder().encode(REGULATION), filename: 'tarif.txt' },
      { language: 'id' },
    );
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });

  const firstClaim = async (question: string) => {
    const result = await test.engine.ask('tarif', { question });
    return result.bundle.certificate.claims[0]?.text ?? '';
  };

  it('is answered with the provision itself, not its elucidation or a sanction citing it', async () => {
    expect(await firstClaim('pasal 2 isinya apa?')).toMatch(
      /^Menurut Pasal 2 ayat \(1\) PMK 10\/PMK\.07\/2015: Tarif sebagaimana dimaksud dalam Pasal 1 dibayar ke kas negara/u,
    );
    expect(await firstClaim('pasal 2 ngomongin apa sih')).toMatch(/^Menurut Pasal 2 ayat \(1\) PMK/u);
    expect(await firstClaim('Apa bunyi Pasal 2 ayat (2) PMK 10/PMK.07/2015?')).toMatch(
      /^Menurut Pasal 2 ayat \(2\) PMK 10\/PMK\.07\/2015: Bukti pembayaran diserahkan/u,
    );
  });

  it('leaves a question asking something else of the Pasal to the general selection', async () => {
    expect(await firstClaim('Kalau tidak bayar tarif menurut pasal 2, sanksinya apa?')).toMatch(
      /sanksi administratif/u,
    );
  });
});
