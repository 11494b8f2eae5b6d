import { describe, expect, it } from 'vitest';
import type { CollectionSummary } from './api.js';
import {
  collectionDescription,
  collectionExamples,
  collectionTitle,
  defaultCollection,
} from './collection-presentation.js';

function collection(
  name: string,
  language: string,
  extra: Partial<CollectionSummary> = {},
): CollectionSummary {
  return { name, language, documents: 3, title: {}, description: {}, examples: {}, ...extra };
}

const law = collection('lalu-lintas', 'id', {
  title: { id: 'Lalu lintas', en: 'Traffic law' },
  description: { id: 'UU 22/2009.' },
  examples: { id: ['a?', 'b?', 'c?', 'd?'], en: ['x?'] },
});
const docs = collection('docs', 'en', { title: { en: 'Redux documentation' } });
const bare = collection('notes', 'en');

describe('collection presentation', () => {
  it('uses the page language, then the other one, then the bare name', () => {
    expect(collectionTitle(law, 'en')).toBe('Traffic law');
    expect(collectionTitle(docs, 'id')).toBe('Redux documentation');
    expect(collectionTitle(bare, 'id')).toBe('notes');
    expect(collectionDescription(law, 'en')).toBe('UU 22/2009.');
    expect(collectionDescription(bare, 'en')).toBeUndefined();
  });

  it('offers at most three examples, in the page language when there are any', () => {
    expect(collectionExamples(law, 'id')).toEqual(['a?', 'b?', 'c?']);
    expect(collectionExamples(law, 'en')).toEqual(['x?']);
    expect(collectionExamples(docs, 'en')).toEqual([]);
  });

  it('opens on the reader’s choice, else a collection in the page language that has documents', () => {
    const empty = collection('kosong', 'id', { documents: 0 });
    const all = [docs, empty, law];
    expect(defaultCollection(all, 'en', null)).toBe('docs');
    expect(defaultCollection(all, 'id', null)).toBe('lalu-lintas');
    expect(defaultCollection(all, 'id', 'docs')).toBe('docs');
    // A remembered choice that no longer exists is ignored.
    expect(defaultCollection(all, 'en', 'gone')).toBe('docs');
    expect(defaultCollection([bare], 'id', null)).toBe('notes');
    // In the page's language, one that offers example questions comes first.
    const presented = collection('redux', 'en', { examples: { en: ['What is a reducer?'] } });
    expect(defaultCollection([bare, presented], 'en', null)).toBe('redux');
    expect(defaultCollection([bare, presented], 'id', null)).toBe('notes');
    expect(defaultCollection([], 'id', null)).toBe('');
  });
});
