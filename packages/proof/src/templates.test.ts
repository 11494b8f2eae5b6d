import { describe, expect, it } from 'vitest';
import { extractFigures } from './numbers.js';
import { unsupportedQualifiers } from './render-policy.js';
import { compositionTemplate, isFixedAllowed } from './templates.js';
import { COMPOSITION_TEMPLATES, SAKSI_VOCABULARY } from './vocabulary.js';

const entries = Object.entries(COMPOSITION_TEMPLATES);

describe('the composition template registry', () => {
  it('has the agreed templates, each with fixed words in Indonesian and English', () => {
    expect(Object.keys(COMPOSITION_TEMPLATES).sort()).toEqual(
      [
        'budget.comparison',
        'budget.figure',
        'budget.figure-words',
        'docs.definition',
        'law.provision',
        'law.sanction',
        'quote',
      ].sort(),
    );
    for (const [id, template] of entries) {
      expect(template.version, id).toMatch(/^\d+$/);
      expect(template.fixed.id.length, id).toBeGreaterThan(0);
      expect(template.fixed.en.length, id).toBeGreaterThan(0);
    }
  });

  it('holds no digit and no figure in any fixed string', () => {
    const offending = entries.flatMap(([id, template]) =>
      [...template.fixed.id, ...template.fixed.en]
        .filter((fixed) => /\p{N}/u.test(fixed) || extractFigures(fixed).length > 0)
        .map((fixed) => `${id}: ${JSON.stringify(fixed)}`),
    );
    expect(offending).toEqual([]);
  });

  it("holds none of the render policy's negation or quantifier words", () => {
    const offending = entries.flatMap(([id, template]) =>
      [...template.fixed.id, ...template.fixed.en]
        // Against no evidence at all, every qualifier of the string is unsupported.
        .flatMap((fixed) =>
          unsupportedQualifiers(fixed, [], SAKSI_VOCABULARY).map((word) => `${id}: ${word} in ${fixed}`),
        ),
    );
    expect(offending).toEqual([]);
    // The check itself finds such words (so the test above can fail).
    expect(unsupportedQualifiers('Paling tidak, ', [], SAKSI_VOCABULARY)).toEqual(['tidak']);
    expect(unsupportedQualifiers('At least ', [], SAKSI_VOCABULARY)).toEqual(['at least']);
  });

  it('holds no empty and no repeated fixed string', () => {
    for (const [id, template] of entries) {
      for (const list of [template.fixed.id, template.fixed.en]) {
        expect(
          list.every((fixed) => fixed.length > 0),
          id,
        ).toBe(true);
        expect(new Set(list).size, id).toBe(list.length);
      }
    }
  });

  it('matches fixed strings exactly, per template and language, and ignores inherited names', () => {
    expect(isFixedAllowed(COMPOSITION_TEMPLATES, 'law.sanction', 'id', 'Sanksi, ')).toBe(true);
    expect(isFixedAllowed(COMPOSITION_TEMPLATES, 'law.sanction', 'en', 'Sanksi, ')).toBe(false);
    expect(isFixedAllowed(COMPOSITION_TEMPLATES, 'law.sanction', 'id', 'Sanksi,')).toBe(false);
    expect(isFixedAllowed(COMPOSITION_TEMPLATES, 'law.provision', 'id', 'Sanksi, ')).toBe(false);
    expect(isFixedAllowed(COMPOSITION_TEMPLATES, 'budget.comparison', 'en', '. The difference is ')).toBe(
      true,
    );
    expect(isFixedAllowed(COMPOSITION_TEMPLATES, 'nope', 'id', ' ')).toBe(false);
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(compositionTemplate(COMPOSITION_TEMPLATES, name)).toBeUndefined();
      expect(isFixedAllowed(COMPOSITION_TEMPLATES, name, 'id', ' ')).toBe(false);
    }
    expect(isFixedAllowed(COMPOSITION_TEMPLATES, 'quote', 'fr' as 'id', ' ')).toBe(false);
  });
});
