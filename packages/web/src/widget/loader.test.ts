import { describe, expect, it } from 'vitest';
import { type LoaderPage, loadVerifier, VERIFIER_FILE } from './loader.js';

/** A page whose script elements load (or fail) when `finish` is called, setting the global on load. */
function fakePage(global: unknown) {
  const scripts: { src: string; listeners: Map<string, () => void> }[] = [];
  let current: unknown;
  const page: LoaderPage = {
    createScript(src) {
      const script = { src, listeners: new Map<string, () => void>() };
      scripts.push(script);
      return { addEventListener: (type, listener) => void script.listeners.set(type, listener) };
    },
    append: () => {},
    global: () => current,
  };
  return {
    page,
    scripts,
    finish(index: number, outcome: 'load' | 'error') {
      if (outcome === 'load') current = global;
      scripts[index]?.listeners.get(outcome)?.();
    },
  };
}

const verifier = { VERIFIER_VERSION: 2, verifyAnswer: async () => ({}) };

describe('loadVerifier', () => {
  it('adds one script from the widget server and resolves with the global it sets', async () => {
    const fake = fakePage(verifier);
    const first = loadVerifier('https://one.example', fake.page);
    const again = loadVerifier('https://one.example', fake.page);
    expect(fake.scripts.map((script) => script.src)).toEqual([`https://one.example${VERIFIER_FILE}`]);
    fake.finish(0, 'load');
    expect(await first).toBe(verifier);
    expect(await again).toBe(verifier);
  });

  it('rejects when the script fails or sets no usable verifier, and tries again next time', async () => {
    const fake = fakePage({ VERIFIER_VERSION: 1, verifyAnswer: () => {} });
    const failed = loadVerifier('https://two.example', fake.page);
    fake.finish(0, 'error');
    await expect(failed).rejects.toThrow();
    const wrongVersion = loadVerifier('https://two.example', fake.page);
    expect(fake.scripts).toHaveLength(2);
    fake.finish(1, 'load');
    await expect(wrongVersion).rejects.toThrow();
  });
});
