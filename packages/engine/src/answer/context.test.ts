import { describe, expect, it } from 'vitest';
import { antecedentOf, copiesError, explanationBeside, fixAfter, isCodeLike, refersBack } from './context.js';
import { type AnswerSource, extractiveAnswer, isStatement } from './extractive.js';
import { splitSentences } from './sentences.js';

function source(text: string, citation: Partial<AnswerSource['citation']> = {}): AnswerSource {
  return {
    chunk_id: 'chunk-0',
    document_id: 'doc-1',
    text,
    score: 1,
    citation: { document_title: 'Docs', ...citation },
  };
}

/** The span of `sentence` in `text`. */
function at(text: string, sentence: string) {
  const start = text.indexOf(sentence);
  if (start < 0) throw new Error(`${sentence} not in the text`);
  return { start, end: start + sentence.length, text: sentence };
}

/** Every claim is an exact span of its source. */
function spansOf(answer: ReturnType<typeof extractiveAnswer>, sources: readonly AnswerSource[]): string[] {
  for (const claim of answer.claims)
    expect(sources[claim.source_index]!.text.slice(claim.span.start, claim.span.end)).toBe(claim.span.text);
  return answer.claims.map((claim) => claim.span.text);
}

describe('back-references', () => {
  it('are read at the start and in the first words, in English and Indonesian', () => {
    expect(refersBack('You can use them to write reducers.')).toBe(true);
    expect(refersBack('This means the store never changes.')).toBe(true);
    expect(refersBack('(2) Dana tersebut digunakan untuk membayar tunjangan.')).toBe(true);
    expect(refersBack('Hal ini dilakukan setiap tahun.')).toBe(true);
    expect(refersBack('A reducer is a function.')).toBe(false);
    // A sentence naming its own document points to nothing before it.
    expect(refersBack('Undang-Undang ini mulai berlaku pada tanggal diundangkan.')).toBe(false);
    expect(refersBack('This guide explains the store.')).toBe(false);
  });

  it('bring the sentence they point to, never across a heading', () => {
    const text =
      '## Utilities\n\nRedux Toolkit includes createSelector and createEntityAdapter. You can use them to derive data and to normalize state.';
    const sentence = at(text, 'You can use them to derive data and to normalize state.');
    expect(antecedentOf(text, sentence, isStatement).map((found) => found.text)).toEqual([
      'Redux Toolkit includes createSelector and createEntityAdapter.',
    ]);
    const headed = '## Utilities\n\nYou can use them to derive data and to normalize state.';
    expect(
      antecedentOf(
        headed,
        at(headed, 'You can use them to derive data and to normalize state.'),
        isStatement,
      ),
    ).toEqual([]);
  });

  it('are quoted after their antecedent, as exact spans of the chunk', () => {
    const text =
      'Redux Toolkit includes createSelector and createEntityAdapter helpers.\n\nYou can use them to derive data and to normalize state in a slice.';
    const sources = [source(text)];
    const answer = extractiveAnswer('how can I derive data and normalize state in a slice?', sources, {
      language: 'en',
    });
    expect(spansOf(answer, sources)).toEqual([
      'Redux Toolkit includes createSelector and createEntityAdapter helpers.',
      'You can use them to derive data and to normalize state in a slice.',
    ]);
  });

  it('bring the sentence an Indonesian "tersebut" points to', () => {
    const text =
      'Pemerintah menyediakan dana cadangan bencana setiap tahun. Dana tersebut digunakan untuk membiayai rehabilitasi wilayah terdampak bencana alam.';
    const sources = [source(text)];
    const answer = extractiveAnswer(
      'untuk apa digunakan dana rehabilitasi wilayah terdampak bencana?',
      sources,
      {
        language: 'id',
      },
    );
    expect(spansOf(answer, sources)).toEqual([
      'Pemerintah menyediakan dana cadangan bencana setiap tahun.',
      'Dana tersebut digunakan untuk membiayai rehabilitasi wilayah terdampak bencana alam.',
    ]);
  });
});

describe('list items', () => {
  it('follow an Indonesian introduction ("meliputi:") with their huruf', () => {
    const text =
      '(2) Pengujian kendaraan bermotor sebagaimana dimaksud pada ayat (1) meliputi:\na. uji tipe; dan\nb. uji berkala.';
    const sources = [source(text, { pasal: '49', ayat: '2' })];
    const answer = extractiveAnswer('pengujian kendaraan bermotor meliputi apa saja?', sources, {
      language: 'id',
    });
    expect(spansOf(answer, sources)).toEqual([text.slice(text.indexOf('(2)'))]);
  });

  it('follow an English introduction, lettered "a)" items too', () => {
    const text =
      'The store configuration accepts these options:\na) reducer: the root reducer;\nb) middleware: extra middleware.';
    const sources = [source(text)];
    const answer = extractiveAnswer('which options does the store configuration accept?', sources, {
      language: 'en',
    });
    expect(spansOf(answer, sources)).toEqual([text]);
  });

  it('follow across blank lines between items and the lines an item wraps onto', () => {
    const text =
      'Ada dua jenis pengujian kendaraan bermotor berikut:\n\n1) uji tipe yang dilakukan sebelum\n   kendaraan dipasarkan;\n\n2) uji berkala.\n\nLain hal.';
    const sources = [source(text)];
    const answer = extractiveAnswer('apa saja jenis pengujian kendaraan bermotor?', sources, {
      language: 'id',
    });
    expect(spansOf(answer, sources)[0]).toBe(text.slice(0, text.indexOf('\n\nLain')));
  });
});

describe('the fix after a copied error', () => {
  const text = [
    '## Troubleshooting',
    '',
    'If you see an error like "Actions must be plain objects" when dispatching a thunk, the thunk middleware is missing from the store.',
    '',
    'Add the thunk middleware with configureStore, which includes it by default.',
  ].join('\n');

  it('is read after a sentence that copies an error', () => {
    expect(copiesError('Error: Actions must be plain objects.')).toBe(true);
    expect(
      copiesError(
        'If you see an error like "Actions must be plain objects", make sure the middleware is added.',
      ),
    ).toBe(false);
    const span = at(text, text.split('\n')[2]!);
    expect(fixAfter(text, span, isStatement).map((found) => found.text)).toEqual([
      'Add the thunk middleware with configureStore, which includes it by default.',
    ]);
  });

  it('is quoted after the error, across the paragraph break', () => {
    const sources = [source(text)];
    const answer = extractiveAnswer(
      'error "Actions must be plain objects" when dispatching a thunk',
      sources,
      {
        language: 'en',
      },
    );
    expect(spansOf(answer, sources)).toEqual([text.split('\n')[2]!, text.split('\n')[4]!]);
  });

  it('is read past a copied log line', () => {
    const log =
      'TypeError: store.dispatch is not a function\n\nMake sure you pass the store to the Provider component.';
    const span = at(log, 'TypeError: store.dispatch is not a function');
    expect(fixAfter(log, span, isStatement).map((found) => found.text)).toEqual([
      'Make sure you pass the store to the Provider component.',
    ]);
  });
});

describe('code and the sentence explaining it', () => {
  const text = [
    'The configureStore function sets up the store with good defaults for the reducer and middleware.',
    'const store = configureStore({ reducer: rootReducer, middleware: (getDefault) => getDefault() });',
  ].join('\n\n');

  it('tells code lines from prose, an arrow inside a sentence included', () => {
    expect(isCodeLike('console.log(store.getState(), action);')).toBe(true);
    expect(isCodeLike('import { configureStore } from "@reduxjs/toolkit";')).toBe(true);
    expect(
      isCodeLike(
        'A reducer receives the current state and an action, and returns the new state: (state, action) => newState.',
      ),
    ).toBe(false);
    expect(isCodeLike('a. uji tipe; dan')).toBe(false);
  });

  it('quotes the explanation beside the code, not the code', () => {
    const code = at(text, text.split('\n\n')[1]!);
    expect(explanationBeside(text, code, isStatement)?.text).toBe(text.split('\n\n')[0]);
    const sources = [source(text)];
    const answer = extractiveAnswer(
      'what does configureStore do with getDefault middleware and rootReducer?',
      sources,
      {
        language: 'en',
      },
    );
    expect(spansOf(answer, sources)).toEqual([text.split('\n\n')[0]]);
  });

  it('keeps code that stands alone in its chunk, with no statement beside it, quotable', () => {
    const example = [
      'rootReducer = combineReducers({potato: potatoReducer, tomato: tomatoReducer})',
      '// This would produce the following state object',
      '{ potato: {}, tomato: {} }',
    ].join('\n');
    const sources = [source(example)];
    const answer = extractiveAnswer('how does combineReducers produce the state object?', sources, {
      language: 'en',
    });
    expect(spansOf(answer, sources).join('\n')).toContain('rootReducer = combineReducers(');
  });

  it('quotes the code when the question asks for code', () => {
    const sources = [source(text)];
    const answer = extractiveAnswer(
      'show example code: configureStore with getDefault middleware and rootReducer',
      sources,
      {
        language: 'en',
      },
    );
    expect(spansOf(answer, sources)[0]).toBe(text.split('\n\n')[1]);
  });
});

describe('table rows', () => {
  const text = [
    'Feature | Redux Toolkit | Plain Redux',
    'Immutable updates written as mutations | built in with Immer | written by hand with spread syntax',
    'Store setup with good defaults | configureStore | createStore with applyMiddleware and compose',
  ].join('\n');

  it('are sentences of their own, one per line', () => {
    expect(splitSentences(text).map((sentence) => sentence.text)).toEqual(text.split('\n'));
    // A lone "string | undefined" in prose is no table.
    expect(splitSentences('The id is typed as string | undefined\nin the selector.')).toHaveLength(1);
  });

  it('are quoted after their header row, not as the whole table', () => {
    const sources = [source(text)];
    const answer = extractiveAnswer(
      'how are immutable updates written as mutations in Redux Toolkit?',
      sources,
      {
        language: 'en',
      },
    );
    expect(spansOf(answer, sources)).toEqual(text.split('\n').slice(0, 2));
  });

  it('are quoted when short, with their header row, but never as a row of figures', () => {
    const table =
      'API | Redux Toolkit | Plain Redux\ncreateSlice | included | not included\nTotal | 1.250.000 | 2.500.000';
    const sources = [source(table)];
    const answer = extractiveAnswer('is createSlice included in Redux Toolkit?', sources, { language: 'en' });
    expect(spansOf(answer, sources)).toEqual(table.split('\n').slice(0, 2));
    expect(
      extractiveAnswer('what is the total in Redux Toolkit?', sources, { language: 'en' }).claims.some(
        (claim) => claim.span.text.startsWith('Total'),
      ),
    ).toBe(false);
  });
});
