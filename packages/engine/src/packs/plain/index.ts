/**
 * The plain pack: the general fallback, for documents no other pack recognizes (letters, reports,
 * notes). It contributes nothing of its own: such documents get the general parsing, chunking,
 * retrieval and answering every collection gets.
 */
import type { DocumentPack } from '../pack.js';
import { DOCUMENT_PACK_SPECIFICATION } from '../pack.js';

export const plainPack: DocumentPack = {
  specificationVersion: DOCUMENT_PACK_SPECIFICATION,
  id: 'plain',
  version: '1',
  description: 'Any other document: general handling only',
  detect: () => true,
};
