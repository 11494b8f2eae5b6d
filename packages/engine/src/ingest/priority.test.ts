import { describe, expect, it } from 'vitest';
import { asForeground, foregroundBusy, giveWayToForeground } from './priority.js';

describe('ingestion gives way to foreground work', () => {
  it('waits for a running query, and does not wait when none runs', async () => {
    expect(foregroundBusy()).toBe(false);
    expect(await giveWayToForeground(1_000)).toBe(false);
    let release: () => void = () => undefined;
    const query = asForeground(() => new Promise<void>((resolve) => (release = resolve)));
    expect(foregroundBusy()).toBe(true);
    let waited = false;
    const storing = giveWayToForeground(10_000).then((gaveWay) => {
      waited = gaveWay;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(waited).toBe(false);
    release();
    await query;
    await storing;
    expect(waited).toBe(true);
    expect(foregroundBusy()).toBe(false);
  });

  it('is slowed, never starved: it goes on after the bound', async () => {
    const query = asForeground(() => new Promise<void>((resolve) => setTimeout(resolve, 5_000)));
    expect(await giveWayToForeground(10)).toBe(true);
    expect(foregroundBusy()).toBe(true);
    await query;
  });

  it('counts a failed query as finished', async () => {
    await expect(asForeground(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(foregroundBusy()).toBe(false);
  });
});
