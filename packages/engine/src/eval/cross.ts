/**
 * Cross-corpus evaluation (docs/evaluation.md, "Cross-corpus sets"): collections no answer rule was
 * written for, each with questions written from its documents before any rule change and never used
 * to tune. A manifest (`sets.json` in the sets' folder) names each set, its kind, the collection it is
 * asked against, its corpus folder and its language. The corpus is ingested as a user would ingest
 * their own documents: a new collection, its language, no profile.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { corpusFiles } from '../demo.js';
import type { Engine } from '../engine.js';
import { EngineError } from '../errors.js';
import { type EvalSet, JSONL_SET_KINDS, type JsonlSetKind, loadEvalSet } from './sets.js';

/** One row of a cross-corpus manifest. */
export interface CrossSetEntry {
  name: string;
  kind: JsonlSetKind;
  collection: string;
  /** The corpus folder, relative to the manifest. */
  corpus: string;
  language: 'id' | 'en';
}

/** A cross-corpus set with the folder its collection is made of. */
export interface CrossSet {
  set: EvalSet;
  corpus: string;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

function entryOf(value: unknown, index: number, file: string): CrossSetEntry {
  const where = `${file}: entry ${index + 1}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new EngineError('INVALID_INPUT', `${where} is not an object.`);
  const row = value as Record<string, unknown>;
  const text = (key: string) => {
    const field = row[key];
    if (typeof field !== 'string' || field.trim() === '')
      throw new EngineError('INVALID_INPUT', `${where} has no "${key}".`);
    return field;
  };
  const kind = text('kind');
  if (!(JSONL_SET_KINDS as readonly string[]).includes(kind))
    throw new EngineError('INVALID_INPUT', `${where}: "kind" is one of ${JSONL_SET_KINDS.join(', ')}.`);
  const language = text('language');
  if (language !== 'id' && language !== 'en')
    throw new EngineError('INVALID_INPUT', `${where}: "language" is "id" or "en".`);
  const collection = text('collection');
  if (!SLUG.test(collection))
    throw new EngineError('INVALID_INPUT', `${where}: "collection" is a slug (a-z, 0-9, "-").`);
  const corpus = text('corpus');
  if (path.isAbsolute(corpus) || corpus.split(/[\\/]/).includes('..'))
    throw new EngineError('INVALID_INPUT', `${where}: "corpus" is a folder inside the manifest's folder.`);
  return { name: text('name'), kind: kind as JsonlSetKind, collection, corpus, language };
}

/**
 * The sets of the manifest `sets.json` in `directory`, each loaded from `<name>.jsonl` beside it;
 * an empty list when the folder has no manifest.
 */
export async function loadCrossSets(directory: string): Promise<CrossSet[]> {
  const file = path.join(directory, 'sets.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new EngineError('INVALID_INPUT', `Cannot read the cross-corpus manifest ${file}.`, {
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new EngineError('INVALID_INPUT', `${file} is not JSON.`, { cause });
  }
  if (!Array.isArray(parsed)) throw new EngineError('INVALID_INPUT', `${file} is not a list of sets.`);
  const entries = parsed.map((value, index) => entryOf(value, index, file));
  return Promise.all(
    entries.map(async (entry) => {
      const set = await loadEvalSet(path.join(directory, `${entry.name}.jsonl`), {
        kind: entry.kind,
        collection: entry.collection,
      });
      return { set: { ...set, language: entry.language }, corpus: path.join(directory, entry.corpus) };
    }),
  );
}

/**
 * Ingests a cross-corpus set's folder into its collection as a user's own documents: in the set's
 * language, with no profile (no demo vocabulary, no configured rules). Returns the documents stored
 * and the files that failed, each with its error.
 */
export async function ingestCrossCorpus(
  engine: Engine,
  cross: CrossSet,
): Promise<{ added: number; failed: { file: string; error: string }[] }> {
  const failed: { file: string; error: string }[] = [];
  let added = 0;
  for (const file of await corpusFiles(cross.corpus)) {
    const relative = path.relative(cross.corpus, file).split(path.sep).join('/');
    try {
      const bytes = new Uint8Array(await readFile(file));
      const result = await engine.ingest(
        cross.set.collection,
        { bytes, filename: relative },
        { language: cross.set.language ?? 'id' },
      );
      if (!result.deduplicated) added++;
    } catch (error) {
      failed.push({ file: relative, error: error instanceof Error ? error.message : String(error) });
    }
  }
  if (added > 0) await engine.analyze();
  return { added, failed };
}
