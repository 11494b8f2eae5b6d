import { describe, expect, it } from 'vitest';
import { newCapabilityId, newId } from './ids.js';

describe('newId', () => {
  it('sorts ids made one after the other in the order they were made, even within a millisecond', () => {
    const ids = Array.from({ length: 5_000 }, () => newId('job'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^job_[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
  });
});

describe('newCapabilityId', () => {
  it('draws fresh random bits each time: ids made in one millisecond are not neighbours', () => {
    const ids = Array.from({ length: 5_000 }, () => newCapabilityId('ses'));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^ses_[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    // The low 60 bits of the random part: a counter would put ids of one millisecond 1 apart.
    const low = (id: string) => BigInt(`0x${id.slice(-15)}`);
    let sameMillisecond = 0;
    for (let index = 1; index < ids.length; index++) {
      const [previous, current] = [ids[index - 1]!, ids[index]!];
      if (previous.slice(4, 16) !== current.slice(4, 16)) continue;
      sameMillisecond++;
      const distance = low(current) - low(previous);
      expect(distance < 0n ? -distance : distance).toBeGreaterThan(1n << 32n);
    }
    expect(sameMillisecond).toBeGreaterThan(0);
  });
});
