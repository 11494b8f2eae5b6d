import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseTrustedKeys, type TrustedKeys, toBase64 } from '@saksi/proof';
import { describe, expect, it } from 'vitest';
import {
  checkPin,
  keysFingerprint,
  type PinStorage,
  pinKeys,
  pinnedKeys,
  pinStorageKey,
  shortFingerprint,
} from './pinning.js';

const keys = parseTrustedKeys(
  readFileSync(path.resolve(import.meta.dirname, '../../../proof/__fixtures__/golden-keys.json'), 'utf8'),
);
const SERVER = 'https://saksi.example';

/** A Map behind the Storage methods the pins use. */
function memoryStorage(): PinStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
  };
}

function otherIssuer(base: TrustedKeys): TrustedKeys {
  return { ...base, issuers: [{ name: 'saksi-golden', public_key: toBase64(new Uint8Array(32).fill(9)) }] };
}

describe('keysFingerprint', () => {
  it('is the same for the same keys in another order or under other names, different for another key', () => {
    const reordered: TrustedKeys = {
      ...keys,
      issuers: keys.issuers.map((issuer) => ({ ...issuer, name: 'renamed' })),
      witnesses: [...(keys.witnesses ?? [])].reverse(),
    };
    expect(keysFingerprint(reordered)).toBe(keysFingerprint(keys));
    expect(keysFingerprint(otherIssuer(keys))).not.toBe(keysFingerprint(keys));
    expect(keysFingerprint({ ...keys, required_cosignatures: 1 })).not.toBe(keysFingerprint(keys));
    expect(keysFingerprint(keys)).toMatch(/^[0-9a-f]{64}$/);
    expect(shortFingerprint(keysFingerprint(keys))).toMatch(/^[0-9a-f]{4}( [0-9a-f]{4}){3}$/);
  });
});

describe('checkPin (trust on first use)', () => {
  it('keeps the published keys on first use, per server origin', () => {
    const storage = memoryStorage();
    const first = checkPin(storage, SERVER, keys);
    expect(first.state).toBe('first-use');
    expect(first.fingerprint).toBe(keysFingerprint(keys));
    expect(pinnedKeys(storage, SERVER)).toEqual(keys);
    expect([...storage.map.keys()]).toEqual([pinStorageKey(SERVER)]);
    expect(checkPin(storage, SERVER, keys).state).toBe('pinned');
    // Another server starts its own pin.
    expect(checkPin(storage, 'https://other.example', otherIssuer(keys)).state).toBe('first-use');
    expect(checkPin(storage, SERVER, keys).state).toBe('pinned');
  });

  it('reports a changed key and keeps checking with the pinned one', () => {
    const storage = memoryStorage();
    checkPin(storage, SERVER, keys);
    const changed = checkPin(storage, SERVER, otherIssuer(keys));
    expect(changed).toEqual({
      state: 'changed',
      keys,
      fingerprint: keysFingerprint(keys),
      published: keysFingerprint(otherIssuer(keys)),
    });
    // The pin is not replaced by the changed keys; only an explicit pinKeys does that.
    expect(pinnedKeys(storage, SERVER)).toEqual(keys);
    pinKeys(storage, SERVER, otherIssuer(keys));
    expect(checkPin(storage, SERVER, otherIssuer(keys)).state).toBe('pinned');
  });

  it('uses the pinned keys when the server publishes none, and has none to use without a pin', () => {
    const storage = memoryStorage();
    expect(checkPin(storage, SERVER, undefined)).toEqual({ state: 'unavailable' });
    checkPin(storage, SERVER, keys);
    expect(checkPin(storage, SERVER, undefined)).toMatchObject({ state: 'pinned', keys });
  });

  it('treats a corrupted pin as none, and works without storage or with storage that throws', () => {
    const storage = memoryStorage();
    storage.setItem(pinStorageKey(SERVER), '{"issuers": "x"');
    expect(checkPin(storage, SERVER, keys).state).toBe('first-use');
    expect(checkPin(undefined, SERVER, keys).state).toBe('first-use');
    const refusing: PinStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(checkPin(refusing, SERVER, keys)).toMatchObject({ state: 'first-use', keys });
  });
});
