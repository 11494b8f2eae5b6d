/** Identifiers: a type prefix and a UUIDv7 (time-ordered, so rows sort by creation). */
import { uuidv7 } from '@saksi/proof';

export function newId(
  prefix:
    | 'doc'
    | 'col'
    | 'job'
    | 'ses'
    | 'msg'
    | 'wsp'
    | 'key'
    | 'usr'
    | 'anc'
    | 'whk'
    | 'dlv'
    | 'upl'
    | 'evt',
): string {
  return `${prefix}_${uuidv7().replace(/-/g, '')}`;
}
