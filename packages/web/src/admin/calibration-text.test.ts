import { describe, expect, it } from 'vitest';
import { calibrationQuestions } from './calibration-text.js';

describe('the questions of a calibration file', () => {
  it('are its JSON lines, blank lines skipped, a byte-order mark ignored', () => {
    const text =
      '\uFEFF{"question":"Berapa denda?","must_mention":["Rp500.000"]}\n\n{"question":"Siapa?","answerable":false}\r\n';
    expect(calibrationQuestions(text)).toEqual({
      questions: [
        { question: 'Berapa denda?', must_mention: ['Rp500.000'] },
        { question: 'Siapa?', answerable: false },
      ],
    });
  });

  it('name the first line that is not a JSON object', () => {
    expect(calibrationQuestions('{"question":"a"}\n[1, 2]\nnot json')).toEqual({ badLine: 2 });
    expect(calibrationQuestions('{"question":"a"}\n{"question": \n')).toEqual({ badLine: 2 });
  });
});
