/**
 * The widget's words in Indonesian and English. `STRINGS` is what widget.js shows; `CHECK_WORDS`
 * (the failed checks in plain words) and `RELATED_WORDS` (why passages are only related) are used
 * only by the verifier it loads when an answer arrives, so they stay out of widget.js.
 */
import type { CheckId } from '@saksi/proof';
import type { Constraint } from '../answer-reading.js';
import type { WidgetLang } from './core.js';

export interface WidgetStrings {
  ask: string;
  askLabel: string;
  askSelection: string;
  title: string;
  close: string;
  input: string;
  placeholder: string;
  send: string;
  selectionQuestion: string;
  quoted: string;
  thinking: string;
  sources: string;
  /** Heading of the retrieved passages shown when the answer cites none (a refusal). */
  related: string;
  /** Read after a source's link (visually hidden). */
  newTab: string;
  /** A "[n]" marker's accessible name. */
  sourceNumber: (n: number) => string;
  /** Who wrote a message (visually hidden). */
  you: string;
  saksi: string;
  verify: string;
  notFound: string;
  networkError: string;
  serverError: string;
  poweredBy: string;
  // Feedback on an answer.
  feedbackQuestion: string;
  feedbackUp: string;
  feedbackDown: string;
  feedbackCommentLabel: string;
  feedbackSend: string;
  feedbackThanks: string;
  feedbackFailed: string;
  // The badge: what the widget's own check found.
  checking: string;
  verified: string;
  /** The badge of an answer the v1.2 answer check confirms. */
  answers: string;
  /** The badge of related passages: authentic, not a confirmed answer. */
  relatedTitle: string;
  failed: string;
  refused: string;
  notAnswered: string;
  keyChanged: string;
  keyChangedText: string;
  trustNewKey: string;
  unavailable: string;
  verifierMissing: string;
  authentic: string;
  altered: string;
  supported: (count: number, total: number) => string;
  relevant: string;
  notRelevant: string;
  relevanceUnknown: string;
  /** The answer check's chip: score, threshold and risk, already formatted. */
  answersChip: (score: string, threshold: string, risk: string) => string;
  notConfirmed: string;
  details: string;
  explainAuthentic: string;
  explainSupported: string;
  explainRelevant: string;
  explainSkipped: string;
  whatFailed: string;
  keyPinned: (fingerprint: string) => string;
  keyFirstUse: (fingerprint: string) => string;
  keyPublished: (fingerprint: string) => string;
}

export const STRINGS: Record<WidgetLang, WidgetStrings> = {
  id: {
    ask: 'Tanya',
    askLabel: 'Tanya dokumen ini',
    askSelection: 'Tanya tentang ini',
    title: 'Tanya dokumentasi',
    close: 'Tutup',
    input: 'Pertanyaan Anda',
    placeholder: 'Tulis pertanyaan…',
    send: 'Kirim',
    selectionQuestion: 'Apa maksud bagian ini?',
    quoted: 'Teks yang dipilih',
    thinking: 'Mencari jawaban…',
    sources: 'Sumber',
    related: 'Bagian terkait',
    newTab: '(membuka halaman di tab baru)',
    sourceNumber: (n) => `Sumber ${n}`,
    you: 'Anda',
    saksi: 'Saksi',
    verify: 'Lihat bukti lengkap',
    notFound: 'Tidak ada jawaban di dokumen ini.',
    networkError: 'Server Saksi tidak dapat dihubungi dari halaman ini.',
    serverError: 'Server Saksi menolak permintaan',
    poweredBy: 'Jawaban bersertifikat oleh Saksi, diperiksa di peramban Anda',
    feedbackQuestion: 'Apakah jawaban ini membantu?',
    feedbackUp: 'Membantu',
    feedbackDown: 'Tidak membantu',
    feedbackCommentLabel: 'Komentar (opsional)',
    feedbackSend: 'Kirim komentar',
    feedbackThanks: 'Terima kasih atas masukan Anda.',
    feedbackFailed: 'Masukan tidak terkirim. Coba lagi nanti.',
    checking: 'Memeriksa di peramban Anda…',
    verified: '✓ Diperiksa di peramban Anda',
    answers: '✓ Menjawab pertanyaan Anda — diperiksa di peramban Anda',
    relatedTitle: 'Bagian terkait — bukan jawaban yang dikonfirmasi',
    failed: '✗ Pemeriksaan gagal: jawaban ini diubah setelah ditandatangani. Jangan diandalkan.',
    refused: 'Tidak dijawab: dokumen tidak mencakup pertanyaan ini.',
    notAnswered: 'Tidak dijawab: kutipan yang ditemukan kurang menjawab pertanyaan.',
    keyChanged: '⚠ Kunci server berubah: jawaban ini belum terverifikasi.',
    keyChangedText:
      'Peramban ini menyimpan kunci lain saat pertama kali dipakai. Percayai kunci baru hanya jika situs ini mengumumkan perubahannya.',
    trustNewKey: 'Percayai kunci baru',
    unavailable: 'Tidak dapat diperiksa di peramban ini: jawaban ini belum terverifikasi.',
    verifierMissing: 'Program pemeriksa tidak dapat dimuat dari server.',
    authentic: 'Asli',
    altered: 'Diubah',
    supported: (count, total) => `Didukung ${count}/${total}`,
    relevant: 'Relevan',
    notRelevant: 'Kurang relevan',
    relevanceUnknown: 'Relevansi tak diketahui',
    answersChip: (score, threshold, risk) =>
      `Menjawab pertanyaan Anda (${score}, minimal ${threshold}; risiko ≤ ${risk})`,
    notConfirmed: 'Bukan jawaban yang dikonfirmasi',
    details: 'Apa yang diperiksa',
    explainAuthentic:
      'Asli: kutipan tidak diubah, berasal dari dokumen yang diterbitkan, dan tercatat di log publik.',
    explainSupported: 'Didukung: tiap kalimat jawaban sesuai dengan kutipannya.',
    explainRelevant:
      'Menjawab pertanyaan Anda: pemeriksaan jawaban yang dikalibrasi harus memberi nilai minimal ambangnya; risiko adalah bagian pertanyaan kalibrasi yang mendapat jawaban keliru yang ditampilkan sebagai jawaban. Bila tidak, kutipan ditampilkan sebagai bagian terkait.',
    explainSkipped:
      'Tidak diperiksa di sini: catatan di blockchain dan riwayat log; lihat bukti lengkap untuk itu.',
    whatFailed: 'Yang gagal:',
    keyPinned: (fingerprint) => `Kunci server yang disimpan di peramban ini: ${fingerprint}`,
    keyFirstUse: (fingerprint) => `Kunci server, disimpan sekarang pada pemakaian pertama: ${fingerprint}`,
    keyPublished: (fingerprint) => `Kunci yang kini diterbitkan server: ${fingerprint}`,
  },
  en: {
    ask: 'Ask',
    askLabel: 'Ask these docs',
    askSelection: 'Ask about this',
    title: 'Ask the docs',
    close: 'Close',
    input: 'Your question',
    placeholder: 'Type a question…',
    send: 'Send',
    selectionQuestion: 'What does this passage mean?',
    quoted: 'Selected text',
    thinking: 'Looking for the answer…',
    sources: 'Sources',
    related: 'Related passages',
    newTab: '(opens the page in a new tab)',
    sourceNumber: (n) => `Source ${n}`,
    you: 'You',
    saksi: 'Saksi',
    verify: 'See the full proof',
    notFound: 'These documents do not answer it.',
    networkError: 'The Saksi server cannot be reached from this page.',
    serverError: 'The Saksi server refused the request',
    poweredBy: 'Certified answers by Saksi, checked in your browser',
    feedbackQuestion: 'Was this answer helpful?',
    feedbackUp: 'Helpful',
    feedbackDown: 'Not helpful',
    feedbackCommentLabel: 'Comment (optional)',
    feedbackSend: 'Send comment',
    feedbackThanks: 'Thank you for your feedback.',
    feedbackFailed: 'The feedback was not sent. Try again later.',
    checking: 'Checking in your browser…',
    verified: '✓ Checked in your browser',
    answers: '✓ Answers your question — checked in your browser',
    relatedTitle: 'Related passages — not a confirmed answer',
    failed: '✗ Check failed: this answer was changed after it was signed. Do not rely on it.',
    refused: 'Not answered: the documents do not cover this question.',
    notAnswered: 'Not answered: the quotes found do not answer the question well enough.',
    keyChanged: '⚠ The server’s key has changed: this answer is not verified.',
    keyChangedText:
      'This browser pinned a different key on first use. Trust the new key only if the site announced the change.',
    trustNewKey: 'Trust the new key',
    unavailable: 'Could not be checked in this browser: this answer is not verified.',
    verifierMissing: 'The checking program could not be loaded from the server.',
    authentic: 'Authentic',
    altered: 'Altered',
    supported: (count, total) => `Supported ${count}/${total}`,
    relevant: 'Relevant',
    notRelevant: 'Weak match',
    relevanceUnknown: 'Relevance unknown',
    answersChip: (score, threshold, risk) =>
      `Answers your question (${score}, at least ${threshold}; risk ≤ ${risk})`,
    notConfirmed: 'Not a confirmed answer',
    details: 'What was checked',
    explainAuthentic:
      'Authentic: the quotes are unaltered, come from the published documents and are recorded in the public log.',
    explainSupported: 'Supported: each sentence of the answer follows from its quote.',
    explainRelevant:
      'Answers your question: a calibrated answer check must score the answer at or above its threshold; the risk is the share of calibration questions that got a wrong answer shown as answering them. Otherwise the quotes are shown as related passages.',
    explainSkipped:
      'Not checked here: the blockchain record and the log’s history; see the full proof for those.',
    whatFailed: 'What failed:',
    keyPinned: (fingerprint) => `Server key pinned in this browser: ${fingerprint}`,
    keyFirstUse: (fingerprint) => `Server key, pinned now on first use: ${fingerprint}`,
    keyPublished: (fingerprint) => `Key the server publishes now: ${fingerprint}`,
  },
};

/** Each check that can fail, in plain words (docs/certificate.md, "Verification result"). */
export const CHECK_WORDS: Record<WidgetLang, Record<CheckId, string>> = {
  id: {
    structure: 'Bukti tidak terbaca atau tidak lengkap.',
    issuer: 'Ditandatangani dengan kunci yang tidak dikenal.',
    signature: 'Tanda tangan tidak cocok dengan isi jawaban.',
    hashes: 'Ada teks yang berbeda dari yang ditandatangani.',
    claim_offsets: 'Teks jawaban tidak cocok dengan kalimat yang ditandatangani.',
    spans: 'Kutipan tidak ada di tempatnya dalam dokumen.',
    compositions: 'Kalimat susunan tidak cocok bila dihitung ulang dari kutipannya.',
    citations: 'Rujukan tidak cocok dengan dokumen.',
    document_proofs: 'Dokumen tidak termasuk dalam kumpulan yang diterbitkan.',
    anchor_proofs: 'Catatan di blockchain tidak cocok.',
    anchor_onchain: 'Catatan di blockchain tidak ditemukan.',
    query_replay: 'Bukti ini diterbitkan untuk pertanyaan lain.',
    checkpoint_signature: 'Tanda tangan log publik tidak sah.',
    log_inclusion: 'Jawaban tidak tercatat di log publik.',
    cosignatures: 'Terlalu sedikit saksi yang ikut menandatangani log.',
    checkpoint_consistency: 'Log publik ditulis ulang.',
  },
  en: {
    structure: 'The proof is unreadable or incomplete.',
    issuer: 'It was signed with a key that is not known.',
    signature: 'The signature does not match the answer.',
    hashes: 'Some text differs from what was signed.',
    claim_offsets: 'The answer text does not match the signed sentences.',
    spans: 'A quote is not where the document has it.',
    compositions: 'A composed sentence does not recompute from its quotes.',
    citations: 'A citation does not match its document.',
    document_proofs: 'A document is not in the published set.',
    anchor_proofs: 'The blockchain record does not match.',
    anchor_onchain: 'The blockchain record was not found.',
    query_replay: 'This proof was issued for another question.',
    checkpoint_signature: 'The public log’s signature is not valid.',
    log_inclusion: 'The answer is not recorded in the public log.',
    cosignatures: 'Too few witnesses co-signed the log.',
    checkpoint_consistency: 'The public log was rewritten.',
  },
};

/** Why passages are only related (answer-reading.ts), in plain words: used by the verifier only. */
export interface RelatedWords {
  unmet: (what: string[]) => string;
  value: (asked: string) => string;
  below: (score: string, threshold: string) => string;
  reading: string;
  rules: string;
  relevance: string;
  issuer: string;
  constraint: (constraint: Constraint) => string;
}

const ASKED_ID: Record<string, string> = {
  amount: 'besaran atau jumlah',
  duration: 'jangka waktu',
  age: 'usia',
  date: 'tanggal atau waktu',
  sanction: 'sanksi',
  definition: 'definisi',
};

const ASKED_EN: Record<string, string> = {
  amount: 'amount',
  duration: 'duration',
  age: 'age',
  date: 'date',
  sanction: 'sanction',
  definition: 'definition',
};

export const RELATED_WORDS: Record<WidgetLang, RelatedWords> = {
  id: {
    unmet: (what) => `Bagian-bagian ini tidak menyebut ${what.join(' atau ')}.`,
    value: (asked) =>
      `Tidak ada ${ASKED_ID[asked] ?? 'nilai yang ditanyakan'} yang disebutkan dalam bagian-bagian ini.`,
    below: (score, threshold) => `Pemeriksaan jawaban bernilai ${score}, di bawah batas ${threshold}.`,
    reading: 'Pembacaan sertifikat atas pertanyaan Anda tidak cocok dengan pertanyaannya.',
    rules: 'Pemeriksa ini tidak punya aturan untuk membaca apa yang ditanyakan.',
    relevance: 'Bagian yang ditemukan tidak cukup menjawab pertanyaan.',
    issuer: 'Saksi memberikan bagian-bagian ini sebagai bagian terkait, bukan sebagai jawaban.',
    constraint: ({ kind, value }) =>
      kind === 'year'
        ? `tahun ${value}`
        : kind === 'regulation'
          ? `peraturan ${value}`
          : kind === 'version'
            ? `versi ${value}`
            : kind === 'section'
              ? `Pasal ${value}`
              : `“${value}”`,
  },
  en: {
    unmet: (what) => `The passages do not mention ${what.join(' or ')}.`,
    value: (asked) => `No ${ASKED_EN[asked] ?? 'value of the kind asked'} is stated in the passages.`,
    below: (score, threshold) => `The answer check scored ${score}, below the ${threshold} needed.`,
    reading: 'The certificate’s reading of your question does not match the question.',
    rules: 'This verifier has no rules to read what the question asks for.',
    relevance: 'The passages found do not answer the question well enough.',
    issuer: 'Saksi gave these passages as related to your question, not as its answer.',
    constraint: ({ kind, value }) =>
      kind === 'year'
        ? value
        : kind === 'regulation'
          ? `regulation ${value}`
          : kind === 'version'
            ? `version ${value}`
            : kind === 'section'
              ? `section ${value}`
              : `“${value}”`,
  },
};
