import { describe, expect, it } from 'vitest';
import { definitionStrength } from './definitions.js';

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
