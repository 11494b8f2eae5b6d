/**
 * The plan of a question (understand.ts) as types only, so that document packs (packs/) can read a
 * plan without importing the module that consults them.
 */
import type { Language } from './stem.js';

export type Intent =
  | 'sanction'
  | 'obligation'
  | 'requirement'
  | 'definition'
  | 'figure'
  | 'comparison'
  | 'procedure'
  | 'reason'
  | 'other';

/** What a requirement question asks for. */
export type RequirementKind = 'age' | 'documents' | 'duration';

export interface QuestionSlots {
  /** Fiscal or calendar years the question names (1945–2099), in order of appearance. */
  years: number[];
  /**
   * Measures it names in a document pack's vocabulary (the budget pack's: "pendapatan negara",
   * "defisit", "village fund"), read by the packs' question readers (packs/registry.ts).
   */
  measures: string[];
  /** Code identifiers and quoted names (`createSlice`, `useSelector`, "reducer"). */
  concepts: string[];
  /** What a definition question asks to define ("reducer", "kendaraan bermotor umum"), as asked. */
  subject?: string;
}

export interface QuestionPlan {
  /** The question as asked, trimmed. */
  question: string;
  /** One line, no emoji or control characters, everyday abbreviations written out ("brp" → "berapa"). */
  normalized: string;
  /** The question's language (the collection's when the words do not tell). */
  language: Language;
  intent: Intent;
  requirement?: RequirementKind;
  slots: QuestionSlots;
  /** The question tries to instruct the system ("ignore previous instructions"); it is answered as text. */
  instructions: boolean;
  /** Nothing to search for: no letters or digits after normalization (emoji only, punctuation only). */
  empty: boolean;
}
