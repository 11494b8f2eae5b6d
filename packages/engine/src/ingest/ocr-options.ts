/**
 * What OCR is asked to do, apart from how (`ocr.ts`): kept out of `ocr.ts` so that choosing the
 * language does not load pdf.js, the canvas and tesseract.js.
 */
import type { OcrSettings } from './limits.js';

/** Tesseract's language codes for the collection languages: Indonesian and English. */
export type OcrLanguage = 'ind' | 'eng';

/** What `parsePdf` needs to run OCR: the settings and the language to read. */
export interface OcrOptions extends OcrSettings {
  language: OcrLanguage;
}

/** The recognition language for a collection or document language (`id` → `ind`, `en` → `eng`). */
export function ocrLanguageOf(language: string | undefined): OcrLanguage {
  return language === 'en' ? 'eng' : 'ind';
}
