import { describe, expect, it } from 'vitest';
import { definingPattern } from './definitions.js';

describe('definingPattern', () => {
  it('finds the sentence that defines a word of the question, in English', () => {
    const pattern = definingPattern('what is a reducer?', 'en')!;
    expect(pattern.test('Reducers\n\nA reducer is a function that receives the current state')).toBe(true);
    expect(pattern.test('It calls the root reducer. Reducers are pure functions.')).toBe(true);
    expect(pattern.test('Pass the reducer to configureStore, which is the standard way')).toBe(false);
    expect(
      definingPattern("what's a selector function", 'en')!.test('A "selector function" is any function'),
    ).toBe(true);
  });

  it('finds a statute’s definitions and elucidations, in Indonesian', () => {
    const pattern = definingPattern('Bedanya parkir sama berhenti itu apa?', 'id')!;
    expect(
      pattern.test('Dalam Undang-Undang ini yang dimaksud dengan:\n15. Parkir adalah keadaan Kendaraan'),
    ).toBe(true);
    expect(pattern.test('Pengemudi dilarang berhenti atau Parkir di tempat penyeberangan')).toBe(false);
    expect(
      definingPattern('apa itu penuh konsentrasi', 'id')!.test(
        'Yang dimaksud dengan “penuh konsentrasi” adalah',
      ),
    ).toBe(true);
  });

  it('has no pattern for a question of stopwords only', () => {
    expect(definingPattern('apa itu?', 'id')).toBeUndefined();
    expect(definingPattern('what is it', 'en')).toBeUndefined();
  });
});
