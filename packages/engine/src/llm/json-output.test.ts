import { describe, expect, it } from 'vitest';
import { jsonValues } from './json-output.js';

describe('jsonValues', () => {
  it('yields the balanced objects or arrays that parse, in order, skipping thinking and broken ones', () => {
    const output = '<think>{"a": 0}</think> Sure {not json} ```json\n{"a": {"b": "}"}}\n``` and [1, "]"]';
    expect([...jsonValues(output)]).toEqual([{ a: { b: '}' } }, { b: '}' }]);
    expect([...jsonValues(output, '[')]).toEqual([[1, ']']]);
    expect([...jsonValues('no json')]).toEqual([]);
  });

  it('finishes on hostile output full of brackets, finding only the one object in it', () => {
    const hostile = '{'.repeat(2_000) + '}'.repeat(10);
    expect([...jsonValues(hostile)]).toEqual([{}]);
  });
});
