/** The widget's words in Indonesian and English. */
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
  /** Read after a source's link (visually hidden). */
  newTab: string;
  summary: (verified: number, blocked: number, total: number) => string;
  verify: string;
  notFound: string;
  networkError: string;
  serverError: string;
  poweredBy: string;
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
    newTab: '(membuka halaman di tab baru)',
    summary: (verified, blocked, total) =>
      `${verified} terverifikasi / ${blocked} diblokir / ${total} total klaim`,
    verify: 'Periksa bukti',
    notFound: 'Tidak ada jawaban di dokumen ini.',
    networkError: 'Server Saksi tidak dapat dihubungi dari halaman ini.',
    serverError: 'Server Saksi menolak permintaan',
    poweredBy: 'Jawaban bersertifikat oleh Saksi',
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
    newTab: '(opens the page in a new tab)',
    summary: (verified, blocked, total) =>
      `${verified} verified / ${blocked} blocked / ${total} total claims`,
    verify: 'Check the proof',
    notFound: 'These documents do not answer it.',
    networkError: 'The Saksi server cannot be reached from this page.',
    serverError: 'The Saksi server refused the request',
    poweredBy: 'Certified answers by Saksi',
  },
};
