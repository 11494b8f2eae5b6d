/**
 * Evaluation sets (docs/evaluation.md) from `../shared/data/eval`: one loader for every format, each
 * row reduced to a question, whether it is answerable, its relevant items, the phrases an answer must
 * mention and, where the set has them, gold answers. Relevance is per collection kind: the Pasal
 * (traffic law), the document + Pasal (budgets), the file and optionally its heading (docs), the
 * passage id (BEIR). Fields a loader does not use (`evidence`, `comparison`, `relevant_section`,
 * `relevant_ayat`, `note`…) are ignored.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { EngineError } from '../errors.js';

/** One relevant item: a Pasal, a document (+ Pasal), a file (+ heading) or a BEIR passage. */
export interface RelevantItem {
  /** Stable key, unique within a question (e.g. `pasal:287`, `uu-2015-3#18`, `docs/api/store.md`). */
  key: string;
  pasal?: string;
  /** Document id as the set writes it; matched against the ingested file name without extension. */
  document?: string;
  /** File path relative to the corpus root; a stored path matches when one is a path-suffix of the other. */
  file?: string;
  heading?: string;
}

export type EvalSetKind = 'legal' | 'budget' | 'docs' | 'selection' | 'beir';

export interface EvalQuestion {
  id: string;
  question: string;
  answerable: boolean;
  relevant: RelevantItem[];
  must_mention: string[];
  /** Selected-text mode: the passage the reader selected. */
  selection?: string;
  /**
   * Gold answers for exact match, token F1 and ROUGE-L (any one counts: the best score is kept):
   * SQuAD's and FacQA's answer spans, a budget row's `answer`.
   */
  gold_answers?: string[];
}

export interface EvalSet {
  name: string;
  kind: EvalSetKind;
  /** The demo collection the set is asked against. */
  collection: string;
  questions: EvalQuestion[];
  /** BEIR and SQuAD: the passages to ingest (id → text). */
  corpus?: Map<string, string>;
  /** The language of the passages (default Indonesian). */
  language?: 'id' | 'en';
  /** A passage set whose answers are measured too (SQuAD 2.0, FacQA: gold answer spans). */
  answers?: boolean;
}

function invalid(file: string, line: number, what: string): never {
  throw new EngineError('INVALID_INPUT', `${file}:${line}: ${what}`);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function pasalList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item) => typeof item === 'number' || typeof item === 'string').map((item) => String(item))
    : [];
}

/** The kinds a JSONL set can be given explicitly (`loadEvalSet(file, { kind })`). */
export const JSONL_SET_KINDS = ['legal', 'budget', 'docs', 'selection'] as const;
export type JsonlSetKind = (typeof JSONL_SET_KINDS)[number];

/**
 * The collection and kind a set belongs to by its file name (`lalin-*`, `apbn-*`, `redux-*`,
 * `redux-selection-*`, `facqa-*`), or null for a name that says neither.
 */
export function knownSetKind(name: string): { kind: EvalSetKind; collection: string } | null {
  if (name.startsWith('lalin')) return { kind: 'legal', collection: 'lalu-lintas' };
  if (name.startsWith('apbn')) return { kind: 'budget', collection: 'apbn' };
  if (name.startsWith('redux-selection')) return { kind: 'selection', collection: 'docs' };
  if (name.startsWith('redux')) return { kind: 'docs', collection: 'docs' };
  if (name.startsWith('facqa')) return { kind: 'beir', collection: 'facqa-id' };
  return null;
}

/**
 * The collection and kind a set belongs to, from its file name ({@link knownSetKind}); an
 * `INVALID_INPUT` error for a name it cannot place, which asks for the set's kind.
 */
export function setKindFor(name: string): { kind: EvalSetKind; collection: string } {
  const known = knownSetKind(name);
  if (known) return known;
  throw new EngineError(
    'INVALID_INPUT',
    `Cannot tell the kind of the evaluation set ${JSON.stringify(name)} from its name (lalin-, apbn-, redux-, redux-selection- or facqa-): give its kind (${JSONL_SET_KINDS.join(', ')}).`,
  );
}

/** How {@link loadEvalSet} reads a set whose name does not say its kind, or against another collection. */
export interface LoadEvalSetOptions {
  /** The set's kind; without it the name decides ({@link setKindFor}). */
  kind?: JsonlSetKind;
  /** The collection the set is asked against; without it the name's default, or the set's name. */
  collection?: string;
}

/** Parses one JSONL row of a lalin/apbn/redux/redux-selection set. */
export function parseRow(kind: EvalSetKind, row: Record<string, unknown>, where: string): EvalQuestion {
  const id = typeof row['id'] === 'string' ? row['id'] : where;
  const question = typeof row['question'] === 'string' ? row['question'].trim() : '';
  if (!question) throw new EngineError('INVALID_INPUT', `${where}: the row has no "question".`);
  const answerable = row['answerable'] !== false;
  const mustMention = strings(row['must_mention']);
  const relevant: RelevantItem[] = [];
  if (kind === 'legal') {
    // A set over several regulations names them (`documents`): a Pasal counts in those documents only,
    // in the one `relevant_pasal_by_doc` gives it when the row has that.
    const documents = strings(row['documents']);
    const pasals = pasalList(row['relevant_pasal']);
    const byDoc = row['relevant_pasal_by_doc'];
    const pasalsOf = (document: string) =>
      byDoc && typeof byDoc === 'object' && !Array.isArray(byDoc)
        ? pasalList((byDoc as Record<string, unknown>)[document])
        : pasals;
    if (documents.length === 0) for (const pasal of pasals) relevant.push({ key: `pasal:${pasal}`, pasal });
    for (const document of documents) {
      const own = pasalsOf(document);
      if (own.length === 0) relevant.push({ key: document, document });
      for (const pasal of own) relevant.push({ key: `${document}#${pasal}`, document, pasal });
    }
  } else if (kind === 'budget') {
    const byDoc = (row['relevant_pasal_by_doc'] ?? {}) as Record<string, unknown>;
    for (const document of strings(row['documents'])) {
      const pasals = pasalList(byDoc[document]);
      if (pasals.length === 0) relevant.push({ key: document, document });
      for (const pasal of pasals) relevant.push({ key: `${document}#${pasal}`, document, pasal });
    }
  } else if (kind === 'docs') {
    const headings = strings(row['relevant_headings']);
    for (const [index, file] of strings(row['relevant_files']).entries()) {
      const heading = headings[index];
      relevant.push({ key: file, file, ...(heading ? { heading } : {}) });
    }
  } else if (kind === 'selection') {
    const file = typeof row['file'] === 'string' ? row['file'] : undefined;
    if (file) relevant.push({ key: file, file });
  }
  const selection = typeof row['selection'] === 'string' ? row['selection'] : undefined;
  const gold = typeof row['answer'] === 'string' ? row['answer'].trim() : '';
  return {
    id,
    question,
    answerable,
    relevant,
    must_mention: mustMention,
    ...(selection ? { selection } : {}),
    ...(answerable && gold ? { gold_answers: [gold] } : {}),
  };
}

/**
 * Loads a JSONL set. Its kind and collection follow from its name (lalin-*, apbn-*, redux-*,
 * redux-selection-*) unless `options` give them; a set of any other name needs `options.kind`.
 */
export async function loadEvalSet(file: string, options: LoadEvalSetOptions = {}): Promise<EvalSet> {
  const name = path.basename(file).replace(/\.jsonl$/, '');
  const placed =
    options.kind === undefined
      ? setKindFor(name)
      : { kind: options.kind, collection: knownSetKind(name)?.collection ?? name };
  const kind: EvalSetKind = placed.kind;
  const collection = options.collection ?? placed.collection;
  if (kind === 'beir') return loadBeirSet(file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new EngineError('INVALID_INPUT', `Cannot read the evaluation set ${file}.`, { cause });
  }
  const questions: EvalQuestion[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      invalid(file, index + 1, 'not a JSON object');
    }
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      invalid(file, index + 1, 'not a JSON object');
    questions.push(parseRow(kind, row as Record<string, unknown>, `${name}:${index + 1}`));
  }
  if (questions.length === 0) throw new EngineError('INVALID_INPUT', `The evaluation set ${file} is empty.`);
  return {
    name,
    kind,
    collection,
    questions,
    language: kind === 'docs' || kind === 'selection' ? 'en' : 'id',
  };
}

/**
 * A BEIR folder (corpus.jsonl, queries.jsonl, qrels/*.tsv or qrels.*.tsv): relevance is the passage id.
 * A query's `metadata.answers` (FacQA: the gold spans of its B/I tags) become its gold answers and
 * `must_mention` phrases (any one counts), and the set's answers are measured too.
 */
export async function loadBeirSet(directory: string, name = 'facqa-id'): Promise<EvalSet> {
  const read = async (file: string) => {
    try {
      return await readFile(path.join(directory, file), 'utf8');
    } catch (cause) {
      throw new EngineError('INVALID_INPUT', `Cannot read ${file} in the BEIR folder ${directory}.`, {
        cause,
      });
    }
  };
  const rows = (text: string) =>
    text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const corpus = new Map<string, string>();
  for (const row of rows(await read('corpus.jsonl'))) {
    const title = typeof row['title'] === 'string' && row['title'] ? `${row['title']}\n\n` : '';
    corpus.set(String(row['_id']), `${title}${String(row['text'] ?? '')}`);
  }
  const { readdir } = await import('node:fs/promises');
  const qrelsFile = (await readdir(directory)).find((file) => /^qrels.*\.tsv$/.test(file));
  if (!qrelsFile) throw new EngineError('INVALID_INPUT', `No qrels*.tsv in the BEIR folder ${directory}.`);
  const qrels = new Map<string, string[]>();
  for (const line of (await read(qrelsFile)).split('\n').slice(1)) {
    const [query, passage, score] = line.split('\t');
    if (!query || !passage || Number(score) <= 0) continue;
    qrels.set(query, [...(qrels.get(query) ?? []), passage]);
  }
  const questions: EvalQuestion[] = rows(await read('queries.jsonl')).map((row) => {
    const id = String(row['_id']);
    const relevant = (qrels.get(id) ?? []).map((passage) => ({ key: passage, document: passage }));
    const metadata = row['metadata'];
    const gold = [
      ...new Set(
        strings(
          typeof metadata === 'object' && metadata !== null
            ? (metadata as Record<string, unknown>)['answers']
            : [],
        )
          .map((answer) => answer.trim())
          .filter(Boolean),
      ),
    ];
    return {
      id,
      question: String(row['text'] ?? ''),
      answerable: relevant.length > 0,
      relevant,
      must_mention: gold,
      ...(gold.length > 0 ? { gold_answers: gold } : {}),
    };
  });
  const answers = questions.some((question) => question.gold_answers !== undefined);
  return { name, kind: 'beir', collection: name, questions, corpus, ...(answers ? { answers } : {}) };
}

/**
 * SQuAD 2.0 (Rajpurkar et al. 2018) as a passage set: each paragraph one passage (`<title>-<n>`), each
 * question relevant to its paragraph, its gold answers as `must_mention` (any one counts), and the
 * `is_impossible` questions unanswerable. `sample` keeps every k-th question so about that many remain
 * (0: all); the paragraphs are always all ingested.
 */
export async function loadSquadSet(file: string, sample = 0, name = 'squad2-dev'): Promise<EvalSet> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    throw new EngineError('INVALID_INPUT', `Cannot read the SQuAD file ${file} as JSON.`, { cause });
  }
  const articles = (data as { data?: unknown }).data;
  if (!Array.isArray(articles))
    throw new EngineError('INVALID_INPUT', `${file}: no "data" array (SQuAD 2.0).`);
  const corpus = new Map<string, string>();
  const all: EvalQuestion[] = [];
  for (const article of articles as { title?: unknown; paragraphs?: unknown }[]) {
    const title = String(article.title ?? 'untitled').replace(/[^\p{L}\p{N}_-]+/gu, '_');
    const paragraphs = Array.isArray(article.paragraphs) ? article.paragraphs : [];
    paragraphs.forEach((paragraph: { context?: unknown; qas?: unknown }, index: number) => {
      const id = `${title}-${index}`;
      corpus.set(id, String(paragraph.context ?? ''));
      for (const qa of (Array.isArray(paragraph.qas) ? paragraph.qas : []) as Record<string, unknown>[]) {
        const impossible = qa['is_impossible'] === true;
        const answers = Array.isArray(qa['answers'])
          ? (qa['answers'] as { text?: unknown }[]).map((answer) => String(answer.text ?? '')).filter(Boolean)
          : [];
        all.push({
          id: String(qa['id'] ?? `${id}-${all.length}`),
          question: String(qa['question'] ?? ''),
          answerable: !impossible,
          relevant: impossible ? [] : [{ key: id, document: id }],
          must_mention: impossible ? [] : [...new Set(answers)],
          ...(impossible || answers.length === 0 ? {} : { gold_answers: [...new Set(answers)] }),
        });
      }
    });
  }
  return {
    name,
    kind: 'beir',
    collection: name,
    questions: everyKth(all, sample),
    corpus,
    language: 'en',
    answers: true,
  };
}

/** Every k-th item, k chosen so that about `sample` remain (at least `sample`); 0 keeps them all. */
export function everyKth<T>(items: readonly T[], sample: number): T[] {
  const step = sample > 0 ? Math.max(1, Math.floor(items.length / sample)) : 1;
  return items.filter((_, index) => index % step === 0);
}

/**
 * `set` with about `sample` of its answerable questions (every k-th; 0: all of them) and none of
 * the others: the answers run of a large passage set (FacQA) on its gold spans.
 */
export function sampleAnswerable(set: EvalSet, sample: number): EvalSet {
  return {
    ...set,
    questions: everyKth(
      set.questions.filter((question) => question.answerable),
      sample,
    ),
  };
}
