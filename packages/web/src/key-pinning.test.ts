import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseTrustedKeys, type TrustedKeys } from '@saksi/proof';
import { describe, expect, it } from 'vitest';
import {
  decideTrust,
  keysFingerprint,
  type PinStorage,
  pinStorageKey,
  readPin,
  removePin,
  shortFingerprint,
  writePin,
} from './key-pinning.js';

const goldenKeys = parseTrustedKeys(
  readFileSync(path.resolve(import.meta.dirname, '../../proof/__fixtures__/golden-keys.json'), 'utf8'),
);
/** Another server's keys: another issuer key. */
const otherKeys: TrustedKeys = {
  ...structuredClone(goldenKeys),
  issuers: [{ name: 'saksi-other', public_key: 'A'.repeat(43) + '=' }],
};

function memoryStorage(): PinStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

const ORIGIN = 'http://127.0.0.1:3000';
const NOW = new Date('2026-11-25T10:00:00Z');

describe('keysFingerprint', () => {
  it('ignores order and display names, and changes with any key', () => {
    const reordered: TrustedKeys = {
      ...structuredClone(goldenKeys),
      witnesses: [...(goldenKeys.witnesses ?? [])]
        .reverse()
        .map((witness) => ({ ...witness, name: 'renamed' })),
      issuers: goldenKeys.issuers.map((issuer) => ({ ...issuer, name: 'renamed' })),
    };
    expect(keysFingerprint(reordered)).toBe(keysFingerprint(goldenKeys));
    expect(keysFingerprint(otherKeys)).not.toBe(keysFingerprint(goldenKeys));
    expect(keysFingerprint({ ...goldenKeys, required_cosignatures: 1 })).not.toBe(
      keysFingerprint(goldenKeys),
    );
    expect(keysFingerprint(goldenKeys)).toMatch(/^[0-9a-f]{64}$/);
    expect(shortFingerprint(keysFingerprint(goldenKeys))).toMatch(/^[0-9a-f]{4}( [0-9a-f]{4}){3}$/);
  });
});

describe('decideTrust', () => {
  it('pins the served keys on first use, then compares later loads with the pin', () => {
    const storage = memoryStorage();
    const first = decideTrust(storage, ORIGIN, goldenKeys, { now: NOW });
    expect(first.status).toBe('first-use');
    expect(first.pin?.source).toBe('first-use');
    expect(first.pin?.pinned_at).toBe(NOW.toISOString());
    expect(storage.map.has(pinStorageKey(ORIGIN))).toBe(true);

    expect(decideTrust(storage, ORIGIN, goldenKeys).status).toBe('pinned');
    // Another origin has a pin of its own.
    expect(decideTrust(storage, 'http://other.example', otherKeys).status).toBe('first-use');
  });

  it('warns when the server serves other keys, and keeps verifying with the pinned ones', () => {
    const storage = memoryStorage();
    decideTrust(storage, ORIGIN, goldenKeys);
    const changed = decideTrust(storage, ORIGIN, otherKeys);
    expect(changed.status).toBe('changed');
    expect(changed.keys).toEqual(goldenKeys);
    expect(changed.servedFingerprint).toBe(keysFingerprint(otherKeys));
    expect(changed.pin?.fingerprint).toBe(keysFingerprint(goldenKeys));
  });

  it('uses the pin when the server cannot be asked, and has nothing without either', () => {
    const storage = memoryStorage();
    expect(decideTrust(storage, ORIGIN, undefined).status).toBe('none');
    writePin(storage, ORIGIN, goldenKeys, 'file');
    const offline = decideTrust(storage, ORIGIN, undefined);
    expect(offline.status).toBe('pinned-offline');
    expect(offline.keys).toEqual(goldenKeys);
  });

  it('uses the served keys unpinned when storage is refused or the reader unpinned', () => {
    const refusing: PinStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    };
    expect(decideTrust(refusing, ORIGIN, goldenKeys).status).toBe('unpinned');
    const storage = memoryStorage();
    decideTrust(storage, ORIGIN, goldenKeys);
    removePin(storage, ORIGIN);
    expect(decideTrust(storage, ORIGIN, goldenKeys, { pinOnFirstUse: false }).status).toBe('unpinned');
    expect(storage.map.size).toBe(0);
  });
});

describe('readPin', () => {
  it('recomputes the fingerprint and drops a damaged pin', () => {
    const storage = memoryStorage();
    writePin(storage, ORIGIN, goldenKeys, 'url', { url: 'https://auditor.example/keys.json', now: NOW });
    const stored = JSON.parse(storage.map.get(pinStorageKey(ORIGIN))!);
    stored.fingerprint = '0'.repeat(64);
    storage.map.set(pinStorageKey(ORIGIN), JSON.stringify(stored));
    const pin = readPin(storage, ORIGIN);
    expect(pin?.fingerprint).toBe(keysFingerprint(goldenKeys));
    expect(pin?.url).toBe('https://auditor.example/keys.json');

    storage.map.set(pinStorageKey(ORIGIN), '{"keys":{"issuers":"no"}}');
    expect(readPin(storage, ORIGIN)).toBeUndefined();
    storage.map.set(pinStorageKey(ORIGIN), 'not json');
    expect(readPin(storage, ORIGIN)).toBeUndefined();
    // A damaged pin is as good as none: the served keys are pinned again.
    expect(decideTrust(storage, ORIGIN, goldenKeys).status).toBe('first-use');
  });
});
