/**
 * The golden bundles: deterministic bundles (fixed keys, timestamps, ids, nonce) over real text from
 * UU 22/2009 Pasal 287–289. `make-golden-bundle.ts` writes them to `__fixtures__/`; tests rebuild
 * them here and require byte-identical output, so any change to the format is a deliberate one.
 *
 * - `golden-bundle.json` is a v1 certificate, kept as the regression fixture: v1 bundles must keep
 *   verifying unchanged.
 * - `golden-v1.1-bundle.json` is a v1.1 certificate: a verbatim quote and a claim composed from two
 *   spans with the `law.sanction` template, each with its relevance, and the answer's relevance and
 *   outcome (docs/certificate.md).
 *
 * The keys are derived from public labels: they are test keys, never to be trusted for anything else.
 * The anchor names chain 31337 (anvil) and the address anvil gives the first contract deployed by its
 * first default account; the transaction hash is derived, not mined — the on-chain lookup is injected
 * in tests until the anchor service exists.
 */
import {
  type Bundle,
  CERTIFICATE_SCHEMA_V1,
  type CertificateSchema,
  type ClaimRelevance,
  type Composition,
  sha256,
  type TrustedKeys,
  toBase64,
  toHex,
  utf8Encode,
} from '@saksi/proof';
import {
  createCosigner,
  createNoteSigner,
  formatCosignatureVerifierKey,
  formatVerifierKey,
  getPublicKey,
  issueBundle,
  MemoryLog,
  type SourceDocument,
} from '@saksi/proof/issue';

export const GOLDEN_ORIGIN = 'saksi.example/log';
export const GOLDEN_ISSUER = 'saksi-golden';
export const GOLDEN_WITNESSES = ['witness.example/w1', 'witness.example/w2'];
export const GOLDEN_QUESTION = 'Kalau nerobos lampu merah kena denda berapa?';

/** A deterministic test secret key from a label. */
export function testSecretKey(label: string): Uint8Array {
  return sha256(utf8Encode(`saksi golden fixture key: ${label}`));
}

const UU22: SourceDocument = {
  document_id: 'doc-uu-22-2009',
  title: 'UU No. 22 Tahun 2009 tentang Lalu Lintas dan Angkutan Jalan',
  chunks: [
    {
      chunk_id: 'uu22-p287-a1',
      citation: { pasal: '287', ayat: '1', section_path: ['BAB XX Ketentuan Pidana', 'Pasal 287'] },
      text: '(1) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan perintah atau larangan yang dinyatakan dengan Rambu Lalu Lintas sebagaimana dimaksud dalam Pasal 106 ayat (4) huruf a atau Marka Jalan sebagaimana dimaksud dalam Pasal 106 ayat (4) huruf b dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah).',
    },
    {
      chunk_id: 'uu22-p287-a2',
      citation: { pasal: '287', ayat: '2', section_path: ['BAB XX Ketentuan Pidana', 'Pasal 287'] },
      text: '(2) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan perintah atau larangan yang dinyatakan dengan Alat Pemberi Isyarat Lalu Lintas sebagaimana dimaksud dalam Pasal 106 ayat (4) huruf c dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah).',
    },
    {
      chunk_id: 'uu22-p287-a3',
      citation: { pasal: '287', ayat: '3', section_path: ['BAB XX Ketentuan Pidana', 'Pasal 287'] },
      text: '(3) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan gerakan lalu lintas sebagaimana dimaksud dalam Pasal 106 ayat (4) huruf d atau tata cara berhenti dan Parkir sebagaimana dimaksud dalam Pasal 106 ayat (4) huruf e dipidana dengan pidana kurungan paling lama 1 (satu) bulan atau denda paling banyak Rp250.000,00 (dua ratus lima puluh ribu rupiah).',
    },
    {
      chunk_id: 'uu22-p288-a2',
      citation: { pasal: '288', ayat: '2', section_path: ['BAB XX Ketentuan Pidana', 'Pasal 288'] },
      text: '(2) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang tidak dapat menunjukkan Surat Izin Mengemudi yang sah sebagaimana dimaksud dalam Pasal 106 ayat (5) huruf b dipidana dengan pidana kurungan paling lama 1 (satu) bulan dan/atau denda paling banyak Rp250.000,00 (dua ratus lima puluh ribu rupiah).',
    },
    {
      chunk_id: 'uu22-p289',
      citation: { pasal: '289', section_path: ['BAB XX Ketentuan Pidana', 'Pasal 289'] },
      text: 'Setiap orang yang mengemudikan Kendaraan Bermotor atau Penumpang yang duduk di samping Pengemudi yang tidak mengenakan sabuk keselamatan sebagaimana dimaksud dalam Pasal 106 ayat (6) dipidana dengan pidana kurungan paling lama 1 (satu) bulan atau denda paling banyak Rp250.000,00 (dua ratus lima puluh ribu rupiah).',
    },
  ],
};

const UU22_PENJELASAN: SourceDocument = {
  document_id: 'doc-uu-22-2009-penjelasan',
  title: 'Penjelasan UU No. 22 Tahun 2009',
  chunks: [
    {
      chunk_id: 'uu22-penj-p106',
      citation: { pasal: '106', section_path: ['Penjelasan', 'Pasal demi Pasal', 'Pasal 106'] },
      text: 'Ayat (1) Yang dimaksud dengan ”penuh konsentrasi” adalah setiap orang yang mengemudikan Kendaraan Bermotor dengan penuh perhatian dan tidak terganggu perhatiannya karena sakit, lelah, mengantuk, menggunakan telepon atau menonton televisi atau video yang terpasang di Kendaraan.',
    },
    {
      chunk_id: 'uu22-penj-p287',
      citation: { pasal: '287', section_path: ['Penjelasan', 'Pasal demi Pasal', 'Pasal 287'] },
      text: 'Pasal 287 Cukup jelas.',
    },
  ],
};

export const GOLDEN_DOCUMENTS: SourceDocument[] = [UU22, UU22_PENJELASAN];

/** The golden documents with a citation label on every chunk ("Pasal 287 ayat (2) UU 22/2009"), for `cite` parts. */
export const GOLDEN_LABELLED_DOCUMENTS: SourceDocument[] = GOLDEN_DOCUMENTS.map((document) => ({
  ...document,
  chunks: document.chunks.map((chunk) => {
    const pasal = chunk.citation?.pasal ?? '';
    const ayat = chunk.citation?.ayat === undefined ? '' : ` ayat (${chunk.citation.ayat})`;
    const prefix = document.document_id.endsWith('penjelasan') ? 'Penjelasan ' : '';
    return { ...chunk, citation: { ...chunk.citation, label: `${prefix}Pasal ${pasal}${ayat} UU 22/2009` } };
  }),
}));

/** The relevance the v1.1 golden records (as the engine's `lexical-v3` would). */
export const GOLDEN_RELEVANCE: ClaimRelevance = {
  score: 0.74,
  threshold: 0.3,
  method: { id: 'lexical-v3', version: '3' },
};

const RULE_SPAN =
  'melanggar aturan perintah atau larangan yang dinyatakan dengan Alat Pemberi Isyarat Lalu Lintas';
const SANCTION_SPAN =
  'dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah)';
const QUOTE_SPAN =
  'Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan perintah atau larangan yang dinyatakan dengan Alat Pemberi Isyarat Lalu Lintas sebagaimana dimaksud dalam Pasal 106 ayat (4) huruf c dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah).';

/** The `law.sanction` composition of the v1.1 golden's second claim: the rule broken and its penalty. */
export const GOLDEN_SANCTION_COMPOSITION: Composition = {
  template: 'law.sanction',
  language: 'id',
  parts: [
    { fixed: 'Menurut ' },
    { cite: 0 },
    { fixed: ': ' },
    { fixed: 'Aturan yang dilanggar, ' },
    { span: 0 },
    { fixed: '. ' },
    { fixed: 'Sanksi, ' },
    { span: 1 },
    { fixed: ' ' },
    { marker: 1 },
  ],
};

/** The claims of the v1.1 golden: a verbatim quote and a composed sanction. */
export const GOLDEN_V11_CLAIMS = [
  {
    text: `${QUOTE_SPAN} [1]`,
    evidence: [{ chunk_id: 'uu22-p287-a2', span_text: QUOTE_SPAN }],
    verification: { label: 'entailed' as const, confidence: 1, verifier: { id: 'verbatim', version: '1' } },
    relevance: GOLDEN_RELEVANCE,
  },
  {
    text: `Menurut Pasal 287 ayat (2) UU 22/2009: Aturan yang dilanggar, ${RULE_SPAN}. Sanksi, ${SANCTION_SPAN} [1]`,
    evidence: [
      { chunk_id: 'uu22-p287-a2', span_text: RULE_SPAN },
      { chunk_id: 'uu22-p287-a2', span_text: SANCTION_SPAN },
    ],
    verification: {
      label: 'entailed' as const,
      confidence: 1,
      verifier: { id: 'composition', version: '1' },
    },
    composition: GOLDEN_SANCTION_COMPOSITION,
    relevance: { ...GOLDEN_RELEVANCE, score: 0.81 },
  },
];

export interface GoldenFixture {
  bundle: Bundle;
  keys: TrustedKeys;
  /** A later checkpoint of the same log (two more entries), signed by the log. */
  laterCheckpoint: string;
  /** RFC 9162 consistency proof from the bundle's checkpoint to the later one, hex. */
  consistencyProof: string[];
  log: MemoryLog;
}

/**
 * Builds a golden fixture: the v1 one by default (`claimCount` > 2 repeats its claims, for the
 * 10-claim benchmark bundle), or the v1.1 one with `version: 'v1.1'`.
 */
export function buildGoldenFixture(
  options: { claimCount?: number; version?: 'v1' | 'v1.1' } = {},
): GoldenFixture {
  const v11 = options.version === 'v1.1';
  const schema: { schema?: CertificateSchema } = v11 ? {} : { schema: CERTIFICATE_SCHEMA_V1 };
  const issuerKey = testSecretKey('issuer');
  const logKey = testSecretKey('log');
  const witnessKeys = GOLDEN_WITNESSES.map((name) => testSecretKey(name));
  const logSigner = createNoteSigner(GOLDEN_ORIGIN, logKey);
  let clock = 1_795_000_000;
  const cosigners = GOLDEN_WITNESSES.map((name, i) => createCosigner(name, witnessKeys[i]!, () => clock));
  const log = new MemoryLog(GOLDEN_ORIGIN);
  const common = {
    ...schema,
    documents: v11 ? GOLDEN_LABELLED_DOCUMENTS : GOLDEN_DOCUMENTS,
    issuerName: GOLDEN_ISSUER,
    issuerSecretKey: issuerKey,
    log,
    logSigner,
    cosigners,
    collection: 'uu-22-2009-llaj',
    anchor: {
      chain_id: 31337,
      contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      tx_hash: `0x${toHex(sha256(utf8Encode('golden anchor tx')))}`,
      block_number: 2,
      document_ids: ['doc-uu-22-2009', 'doc-uu-22-2009-penjelasan'],
    },
  };

  // Two earlier entries, so the golden certificate is not alone in its log.
  const earlier = [
    ['Berapa denda tidak pakai sabuk pengaman?', 'uu22-p289', 'denda paling banyak Rp250.000,00'],
    ['Denda tidak bawa SIM berapa?', 'uu22-p288-a2', 'denda paling banyak Rp250.000,00'],
  ] as const;
  earlier.forEach(([question, chunkId, span], i) => {
    clock += 60;
    issueBundle({
      ...common,
      question,
      answer: `Pelanggar dikenai ${span} [1].`,
      claims: [
        { text: `Pelanggar dikenai ${span} [1].`, evidence: [{ chunk_id: chunkId, span_text: span }] },
      ],
      issued_at: `2026-11-0${i + 1}T08:00:00Z`,
      certificate_id: `0196f000-0000-7000-8000-00000000000${i + 1}`,
      nonce: toHex(sha256(utf8Encode(`earlier nonce ${i}`))).slice(0, 32),
    });
  });

  const baseClaims = [
    {
      text: 'Menerobos lampu merah berarti melanggar larangan yang dinyatakan dengan Alat Pemberi Isyarat Lalu Lintas [1].',
      evidence: [
        {
          chunk_id: 'uu22-p287-a2',
          span_text:
            'melanggar aturan perintah atau larangan yang dinyatakan dengan Alat Pemberi Isyarat Lalu Lintas',
        },
      ],
    },
    {
      text: 'Pelanggarnya dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 [1].',
      evidence: [
        {
          chunk_id: 'uu22-p287-a2',
          span_text:
            'dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah)',
        },
      ],
    },
  ];
  const claimCount = options.claimCount ?? 2;
  const chosen = v11 ? GOLDEN_V11_CLAIMS : baseClaims;
  const claims = Array.from({ length: claimCount }, (_, i) => chosen[i % chosen.length]!);
  const answer = claims.map((claim) => claim.text).join(' ');
  clock += 60;
  const bundle = issueBundle({
    ...common,
    question: GOLDEN_QUESTION,
    answer,
    claims,
    retrieved: ['uu22-p287-a2', 'uu22-p287-a1', 'uu22-p287-a3', 'uu22-penj-p287'],
    issued_at: '2026-11-21T09:30:00Z',
    certificate_id: v11 ? '0196f000-0000-7000-8000-0000000000bb' : '0196f000-0000-7000-8000-0000000000aa',
    nonce: toHex(sha256(utf8Encode(v11 ? 'golden v1.1 nonce' : 'golden nonce'))).slice(0, 32),
    ...(v11 ? { answerRelevance: GOLDEN_RELEVANCE, outcome: 'answered' as const } : {}),
  });

  // Two later entries, to test consistency with a newer checkpoint.
  const goldenSize = log.size;
  log.append(utf8Encode('{"later":1}'));
  log.append(utf8Encode('{"later":2}'));
  const laterCheckpoint = log.signedCheckpoint(logSigner);
  const consistencyProof = log.consistencyProof(goldenSize, log.size).map(toHex);

  const keys: TrustedKeys = {
    issuers: [
      {
        name: GOLDEN_ISSUER,
        key_id: bundle.certificate.issuer.key_id,
        public_key: toBase64(getPublicKey(issuerKey)),
      },
    ],
    logs: [{ origin: GOLDEN_ORIGIN, vkey: formatVerifierKey(GOLDEN_ORIGIN, getPublicKey(logKey)) }],
    witnesses: GOLDEN_WITNESSES.map((name, i) => ({
      name,
      vkey: formatCosignatureVerifierKey(name, getPublicKey(witnessKeys[i]!)),
    })),
    required_cosignatures: 2,
  };
  return { bundle, keys, laterCheckpoint, consistencyProof, log };
}
