import { describe, expect, it } from 'vitest';
import type { RetrievedChunk } from '../retrieve/retrieve.js';
import { type DefinitionCandidate, definitionOrder, definitionStrength } from './definitions.js';

describe('definitionStrength', () => {
  it.each([
    ['A reducer is a function that receives the current state and an action object.', 'reducer', 0.95],
    ['Reducers are functions that take the current state and an action as arguments.', 'reducer', 0.95],
    [
      'The word "thunk" is a programming term that means "a piece of code that does some delayed work".',
      'thunk',
      1,
    ],
    ['3. Jalan Tol adalah Jalan umum yang merupakan bagian sistem jaringan Jalan.', 'Jalan Tol', 0.95],
    [
      'Yang dimaksud dengan "penuh konsentrasi" adalah setiap orang yang mengemudikan dengan penuh perhatian.',
      'penuh konsentrasi',
      1,
    ],
    ['Reducers are the most important concept in Redux.', 'reducer', 0.7],
    [
      'A "selector function" is any function that accepts the Redux store state as an argument.',
      'selector function',
      0.95,
    ],
    [
      '"Selector functions" are a powerful tool for encapsulating reading values from the store state.',
      'selector function',
      0.8,
    ],
    ['The Redux core is a very small and deliberately unopinionated library.', 'Redux core', 0.8],
    ['In Redux, a selector is a function that extracts a value from the state.', 'selector', 0.6],
    ['Now that we know what a reducer does, we can write one.', 'reducer', 0],
    ['Thunk middleware is installed by default.', 'thunk', 0],
  ])('%s', (sentence, subject, strength) => {
    expect(definitionStrength(sentence, subject)).toBe(strength);
  });

  it('does not take a subject longer than four words or without letters as a pattern', () => {
    expect(definitionStrength('a b c d e is a thing.', 'a b c d e')).toBe(0);
    expect(definitionStrength('is a thing.', '')).toBe(0);
  });
});

describe('definitionOrder', () => {
  const candidate = (id: string, text: string, strength: number): DefinitionCandidate => ({
    chunk: { chunk_id: id } as RetrievedChunk,
    span: { start: 0, end: text.length, text },
    strength,
  });
  const bare = candidate('faq', 'Redux is a pattern for managing application state.', 0.95);
  const full = candidate(
    'tutorial',
    'Redux is a pattern and library for managing and updating global application state, where the UI triggers events called "actions" to describe what happened.',
    0.95,
  );

  it('puts the strongest first, then the fuller over a bare one retrieved earlier', () => {
    const weak = candidate(
      'guide',
      'In Redux, a store is an object that holds the whole state of the app, and more.',
      0.6,
    );
    expect(
      [weak, bare, full].sort(definitionOrder(['faq', 'guide'])).map((item) => item.chunk.chunk_id),
    ).toEqual(['tutorial', 'faq', 'guide']);
  });

  it('breaks a tie of strength and fullness by retrieval rank', () => {
    const other = candidate('other', bare.span.text, 0.95);
    expect([other, bare].sort(definitionOrder(['faq', 'other'])).map((item) => item.chunk.chunk_id)).toEqual([
      'faq',
      'other',
    ]);
  });
});
