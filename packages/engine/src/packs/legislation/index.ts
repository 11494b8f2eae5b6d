/**
 * The legislation pack: Indonesian regulations drafted by the UU 12/2011 conventions (UU, Perppu,
 * PP, Perpres, PMK, Permen, Perpol, Perda). It reads a regulation's structure at ingestion (BAB,
 * Bagian, Paragraf, Pasal, ayat, Penjelasan; legal-structure.ts), names it from its title block
 * (regulation-identity.ts), searches a regulation a question names by its number within its own
 * documents first (named-regulation.ts), and follows its cross-references when answering
 * (cross-references.ts).
 */
import { plainLabel } from '@saksi/proof';
import type { DocumentPack, RewriteGroup, StructureInput } from '../pack.js';
import { DOCUMENT_PACK_SPECIFICATION } from '../pack.js';
import {
  dependentAyat,
  elucidationChunk,
  provisionChunk,
  rulesFor,
  sanctionsFor,
} from './cross-references.js';
import { looksLikeRegulation, parseRegulation, parseRegulationBlocks } from './legal-structure.js';
import { namedProvisionClaims } from './named-provision.js';
import { documentsNamedBy } from './named-regulation.js';

/** How much of a document the detector reads. */
const DETECT_CHARS = 20_000;

/**
 * A regulation found by its content whatever its format: text and Markdown are read again from their
 * bytes, a PDF or Word document from its blocks, which keep their pages and tables; HTML pages are not
 * read this way (docs/engine.md, "Regulations").
 */
function structure({ parsed, bytes, filename }: StructureInput) {
  const fromText = parsed.mime === 'text/markdown' || parsed.mime === 'text/plain';
  const regulation = fromText
    ? parseRegulation(new TextDecoder().decode(bytes), filename)
    : parsed.mime !== 'text/html'
      ? parseRegulationBlocks(parsed.blocks, filename)
      : null;
  if (!regulation) return null;
  return {
    ...regulation,
    // A PDF or Word regulation without a title block keeps the title its parser found.
    title:
      regulation.title === filename && !fromText
        ? parsed.title
        : plainLabel(regulation.title) || parsed.title,
    mime: parsed.mime,
    metadata: { ...parsed.metadata, ...regulation.metadata },
    ...(parsed.pages !== undefined ? { pages: parsed.pages } : {}),
  };
}

/**
 * The wording a statute uses for a kind of question: a question asking for the penalty gets "denda
 * paling banyak", whether something is allowed "dilarang" and "wajib", what the requirements are
 * "persyaratan" and "tata cara". The group's name, `traffic`, is the one glossaries enable it by.
 */
const STATUTE_WORDING: RewriteGroup = {
  name: 'traffic',
  rules: [
    { kind: 'sanction', add: ['dipidana dengan pidana kurungan paling lama', 'denda paling banyak'] },
    { kind: 'obligation', add: ['dilarang', 'wajib'] },
    { kind: 'documents', add: ['persyaratan', 'tata cara'] },
    { kind: 'procedure', add: ['persyaratan', 'tata cara'] },
    { kind: 'definition', add: ['adalah'] },
    { kind: 'liability', add: ['bertanggung jawab', 'ganti kerugian'] },
  ],
};

export const legislationPack: DocumentPack = {
  specificationVersion: DOCUMENT_PACK_SPECIFICATION,
  id: 'legislation',
  version: '1',
  description: 'Indonesian regulations (UU 12/2011 conventions): Pasal, ayat, Penjelasan, cross-references',
  detect: (sample) =>
    sample.mime !== 'text/html' &&
    (typeof sample.metadata['regulation_number'] === 'string' ||
      looksLikeRegulation(sample.text.slice(0, DETECT_CHARS))),
  rewriteGroup: STATUTE_WORDING,
  structure,
  scope: documentsNamedBy,
  claims: async (input) => {
    const claims = namedProvisionClaims(input);
    return claims.length > 0 ? claims : undefined;
  },
  links: (db, collection) => ({
    sanctionsFor: (ref) => sanctionsFor(db, collection, ref),
    rulesFor: (sanction) => rulesFor(db, collection, sanction),
    provision: (ref) => provisionChunk(db, collection, ref),
    elucidation: (ref) => elucidationChunk(db, collection, ref),
    dependents: (ref) => dependentAyat(db, collection, ref),
  }),
};

export { internalReferences, listItems, parseReferences, referencedItems } from './cross-references.js';
export {
  legalCitationLabel,
  parseRegulation,
  type RegulationAyat,
  type RegulationOutline,
  type RegulationPasal,
  type RegulationPoint,
  regulationOutline,
  regulationShortName,
} from './legal-structure.js';
