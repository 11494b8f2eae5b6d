/**
 * Identifiers: a type prefix and a UUIDv7 (time-ordered, so rows sort by creation). Within one
 * millisecond the random part counts up (RFC 9562, section 6.2, method 2), so ids made one after
 * the other by this process also sort in the order they were made — a tie on `created_at` (one
 * transaction's `now()`) still orders rows by creation.
 */
import { uuidv7 } from '@saksi/proof/issue';

let lastMs = -1;
const lastRandom = new Uint8Array(10);

function monotonicRandom(nowMs: number): { ms: number; random: Uint8Array } {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    crypto.getRandomValues(lastRandom);
    // Leave headroom (the variant bits take the top two of this byte) so counting up within the
    // millisecond never carries into them.
    lastRandom[2]! &= 0x1f;
  } else {
    // Same (or an earlier, clock-stepped) millisecond: keep the time and add one.
    for (let i = lastRandom.length - 1; i >= 0; i--) {
      lastRandom[i] = (lastRandom[i]! + 1) & 0xff;
      if (lastRandom[i] !== 0) break;
    }
  }
  return { ms: lastMs, random: lastRandom.slice() };
}

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
  const { ms, random } = monotonicRandom(Date.now());
  return `${prefix}_${uuidv7(ms, random).replace(/-/g, '')}`;
}

/**
 * An id that is also a credential: a chat session's id is what lets the public chat's anonymous
 * creator read and delete the session (docs/api.md, sessions). A UUIDv7 whose 74 random bits are
 * drawn fresh every time, so no other id — one made in the same millisecond included — says
 * anything about it. Such ids sort by their millisecond only.
 */
export function newCapabilityId(prefix: 'ses'): string {
  return `${prefix}_${uuidv7(Date.now()).replace(/-/g, '')}`;
}
