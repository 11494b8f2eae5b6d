/**
 * Hostile and awkward files for the ingestion tests and `bench:hostile` (docs/security.md, "Hostile
 * files"): a seeded corpus of malformed, oversized and deceptive files with the outcome each allows,
 * and the minimal PDF and ZIP writers that build them.
 */
export type { HostileCase, HostileFamily, HostileOutcome } from './hostile-case.js';
export {
  diskName,
  HOSTILE_CI_SUBSET,
  type HostileCorpusOptions,
  hostileBytes,
  hostileCorpus,
  type WrittenHostileFile,
  writeHostileCorpus,
} from './hostile-files.js';
export {
  ascii,
  concatBytes,
  deflated,
  docxArchive,
  PdfWriter,
  pdfString,
  repeatedDeflate,
  textPdf,
  wordDocumentXml,
  wordParagraph,
  zipArchive,
} from './hostile-formats.js';
