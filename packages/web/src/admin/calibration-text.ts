/**
 * The calibration panel's reading of a question file (docs/evaluation.md, "Calibrating a collection"):
 * one JSON object per line, as `saksi eval calibrate --collection` reads it. The server checks every
 * question again and names the bad one; this only turns the lines into the request, naming a line that
 * is not JSON.
 */
import type { CalibrationQuestion } from '@saksi/client';

/** The questions of a file, or the number (from 1) of the first line that is not a JSON object. */
export function calibrationQuestions(
  text: string,
): { questions: CalibrationQuestion[] } | { badLine: number } {
  const questions: CalibrationQuestion[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      return { badLine: index + 1 };
    }
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return { badLine: index + 1 };
    questions.push(row as CalibrationQuestion);
  }
  return { questions };
}
