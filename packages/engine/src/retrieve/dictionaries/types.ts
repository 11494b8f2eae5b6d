export interface DictionaryEntry {
  /** Everyday forms, matched as whole words, case-insensitively. */
  terms: string[];
  /** The words the documents use: one phrase or several, each occurring in the documents' text. */
  expansion: string | string[];
}
