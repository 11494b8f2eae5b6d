import { trustOptions, utf8Encode, verifyBundle } from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A small regulation in the shape of the real texts: body Pasal with ayat, then the Penjelasan.
const regulation = [
  'UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 22 TAHUN 2009 TENTANG LALU LINTAS DAN ANGKUTAN JALAN',
  'BAB XX KETENTUAN PIDANA',
  'Pasal 286',
  'Setiap orang yang mengemudikan Kendaraan Bermotor wajib membawa surat.',
  'Pasal 287',
  '(1) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan perintah atau larangan yang dinyatakan dengan Rambu Lalu Lintas dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah).',
  '(2) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan perintah atau larangan yang dinyatakan dengan Alat Pemberi Isyarat Lalu Lintas dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah).',
  'Pasal 288',
  'Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang tidak dilengkapi Surat Tanda Nomor Kendaraan dipidana denda.',
  'Pasal 289',
  'Cukup di sini.',
  'Pasal 290',
  'Undang-Undang ini mulai berlaku pada tanggal diundangkan.',
  'P E N J E L A S A N',
  'ATAS UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 22 TAHUN 2009',
  'I. UMUM Lalu lintas mempunyai peran strategis.',
  'II. PASAL DEMI PASAL',
  'Pasal 286 Cukup jelas. Pasal 287 Ayat (1) Cukup jelas. Ayat (2) Yang dimaksud dengan Alat Pemberi Isyarat Lalu Lintas adalah lampu lalu lintas (lampu merah). Pasal 288 Cukup jelas. Pasal 289 Cukup jelas. Pasal 290 Cukup jelas.',
].join('\n');

let test: TestEngine;
beforeAll(async () => {
  test = await openTestEngine();
  await test.engine.ingest(
    'lalu-lintas',
    {
      bytes: utf8Encode(regulation),
      filename: 'uu-22-2009.md',
      title: 'UU No. 22 Tahun 2009 tentang Lalu Lintas dan Angkutan Jalan',
    },
    { language: 'id' },
  );
});
afterAll(async () => {
  await test?.close();
});

describe('citation labels', () => {
  it('reads "Pasal 287 ayat (2) UU 22/2009" for body chunks and "Penjelasan Pasal 287 …" for the elucidation', async () => {
    const result = await test.engine.query('lalu-lintas', {
      question: 'denda melanggar Alat Pemberi Isyarat Lalu Lintas',
      top_k: 10,
    });
    const labels = result.results.map((r) => r.citation.label);
    expect(labels).toContain('Pasal 287 ayat (2) UU 22/2009');
    expect(labels).toContain('Penjelasan Pasal 287 ayat (2) UU 22/2009');
    const body = result.results.find((r) => r.citation.label === 'Pasal 287 ayat (2) UU 22/2009')!;
    expect(body.citation).toMatchObject({ pasal: '287', ayat: '2' });
    expect(body.legal).toMatchObject({ bab: 'XX', pasal: '287', ayat: '2' });
    expect(body.text).toContain('Rp500.000,00');
  });

  it('names the regulation only from the title: the file name is not in the certificate', async () => {
    await test.engine.ingest(
      'peraturan',
      {
        bytes: utf8Encode(regulation),
        filename: 'nasional/uu/uu-22-2009.md',
        title: 'Undang-Undang Lalu Lintas',
      },
      { language: 'id' },
    );
    const result = await test.engine.query('peraturan', {
      question: 'denda Alat Pemberi Isyarat Lalu Lintas',
    });
    // A verifier recomputes the label from the signed citation (docs/certificate.md, "Citation
    // labels"), which has the title but not the file name.
    const labels = result.results.map((r) => r.citation.label);
    expect(labels).toContain('Pasal 287 ayat (2)');
    expect(labels.some((label) => label?.includes('UU 22/2009'))).toBe(false);
    expect(result.results[0]?.document.filename).toBe('nasional/uu/uu-22-2009.md');
  });

  it('carries the label into a certificate that verifies', async () => {
    const question = 'Berapa denda melanggar Alat Pemberi Isyarat Lalu Lintas?';
    const result = await test.engine.ask('lalu-lintas', { question });
    expect(result.found).toBe(true);
    const labels = result.bundle.certificate.claims.flatMap((claim) =>
      claim.evidence.map((e) => e.citation.label),
    );
    expect(labels.some((label) => label?.endsWith('UU 22/2009'))).toBe(true);
    const verification = await verifyBundle(result.bundle, {
      ...trustOptions(test.engine.trustedKeys()),
      presentedQuestion: question,
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(verification.verdict).toBe('verified');
  });
});
