/**
 * The demo corpora `npm start` loads on first start: `lalu-lintas` (UU 22/2009),
 * `apbn` (the UU APBN texts with document type and fiscal year) and `docs` (the Redux docs), each with
 * the title, one-line description and example questions the chat shows, in Indonesian and English.
 * They live in `corpora/` with their SOURCE.txt and their glossary (`glossary.json`, docs/glossary.md:
 * the collection's vocabulary, which it gets at load); ingestion is idempotent by content hash, so a
 * restart only adds what is missing.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CollectionProfile } from './collections.js';
import type { Engine } from './engine.js';
import { isSupportedFile } from './ingest/files.js';
import type { IngestInput, IngestResult } from './ingest/pipeline.js';
import { readGlossaryFile } from './retrieve/collection-glossary.js';

export interface DemoCollection {
  name: string;
  language: 'id' | 'en';
  directory: string;
  profile: CollectionProfile;
  /** The collection's glossary file (`<corpus>/glossary.json`), set at every load. */
  glossary: string;
  describe?: (file: string) => Partial<IngestInput>;
}

/** `uu-2019-20.md` → UU 20/2019 on the APBN of fiscal year 2020 (from corpora/apbn-uu/SOURCE.txt). */
const APBN_FILES: Record<string, { title: string; fiscal_year?: number; document_type: string }> = {
  'uu-2003-17.md': { title: 'UU No. 17 Tahun 2003 tentang Keuangan Negara', document_type: 'UU' },
  'uu-2015-3.md': {
    title: 'UU No. 3 Tahun 2015 tentang Perubahan APBN TA 2015',
    fiscal_year: 2015,
    document_type: 'UU APBN-P',
  },
  'uu-2016-18.md': {
    title: 'UU No. 18 Tahun 2016 tentang APBN TA 2017',
    fiscal_year: 2017,
    document_type: 'UU APBN',
  },
  'uu-2017-15.md': {
    title: 'UU No. 15 Tahun 2017 tentang APBN TA 2018',
    fiscal_year: 2018,
    document_type: 'UU APBN',
  },
  'uu-2018-12.md': {
    title: 'UU No. 12 Tahun 2018 tentang APBN TA 2019',
    fiscal_year: 2019,
    document_type: 'UU APBN',
  },
  'uu-2019-20.md': {
    title: 'UU No. 20 Tahun 2019 tentang APBN TA 2020',
    fiscal_year: 2020,
    document_type: 'UU APBN',
  },
  'uu-2021-6.md': {
    title: 'UU No. 6 Tahun 2021 tentang APBN TA 2022',
    fiscal_year: 2022,
    document_type: 'UU APBN',
  },
  'uu-2022-28.md': {
    title: 'UU No. 28 Tahun 2022 tentang APBN TA 2023',
    fiscal_year: 2023,
    document_type: 'UU APBN',
  },
};

export function demoCollections(corporaDirectory: string): DemoCollection[] {
  return [
    {
      name: 'lalu-lintas',
      language: 'id',
      directory: path.join(corporaDirectory, 'uu-22-2009-llaj'),
      glossary: path.join(corporaDirectory, 'uu-22-2009-llaj', 'glossary.json'),
      profile: {
        domain: 'legal',
        public: true,
        title: { id: 'Lalu lintas (UU 22/2009)', en: 'Traffic law (UU 22/2009)' },
        description: {
          id: 'Undang-Undang Lalu Lintas dan Angkutan Jalan: aturan berkendara, SIM dan STNK, serta sanksi dan denda pelanggaran.',
          en: "Indonesia's Road Traffic and Transport Act: driving rules, licences and registration, and the penalties and fines for violations.",
        },
        examples: {
          id: [
            'Kalau menerobos lampu merah, dendanya berapa?',
            'Berapa denda naik motor tanpa helm?',
            'Bolehkah main HP sambil menyetir?',
          ],
          en: [
            'What is the fine for running a red light?',
            'What is the penalty for riding a motorcycle without a helmet?',
            'Is it allowed to use a phone while driving?',
          ],
        },
      },
      describe: () => ({
        title: 'UU No. 22 Tahun 2009 tentang Lalu Lintas dan Angkutan Jalan',
        document_type: 'UU',
        source: 'UU 22/2009',
      }),
    },
    {
      name: 'apbn',
      language: 'id',
      directory: path.join(corporaDirectory, 'apbn-uu'),
      glossary: path.join(corporaDirectory, 'apbn-uu', 'glossary.json'),
      profile: {
        domain: 'budget',
        public: true,
        title: { id: 'Anggaran negara (APBN)', en: 'State budget (APBN)' },
        description: {
          id: 'Undang-Undang APBN tahun anggaran 2015, 2017–2020, 2022 dan 2023, serta UU 17/2003 tentang Keuangan Negara.',
          en: "Indonesia's state budget laws for fiscal years 2015, 2017–2020, 2022 and 2023, and the State Finance Law (UU 17/2003).",
        },
        examples: {
          id: [
            'Berapa defisit anggaran APBN 2023?',
            'Berapa dana desa tahun 2023?',
            'Menurut UU Keuangan Negara, defisit APBN maksimal berapa persen dari PDB?',
          ],
          en: [
            'What was the budget deficit planned for 2023?',
            'How much village funding (dana desa) was budgeted for 2023?',
            'Under the State Finance Law, what is the maximum deficit as a share of GDP?',
          ],
        },
      },
      describe: (file) => {
        const known = APBN_FILES[path.basename(file)];
        return known ? { ...known, source: 'JDIH / data-peraturan' } : {};
      },
    },
    {
      name: 'docs',
      language: 'en',
      directory: path.join(corporaDirectory, 'docs-redux'),
      glossary: path.join(corporaDirectory, 'docs-redux', 'glossary.json'),
      // Citations link to the page on the Redux site (only text in the citation: nothing is fetched);
      // the site serves the repository's docs/ folder at its root.
      profile: {
        domain: 'docs',
        public: true,
        base_url: 'https://redux.js.org/',
        base_url_folder: 'docs',
        title: { id: 'Dokumentasi Redux', en: 'Redux documentation' },
        description: {
          id: 'Dokumentasi resmi Redux (dalam bahasa Inggris): tutorial, Redux Toolkit, TypeScript, dan tanya jawab umum.',
          en: 'The official Redux documentation: tutorials, Redux Toolkit, usage with TypeScript, and the FAQ.',
        },
        examples: {
          id: [
            'Apa itu reducer?',
            'Apa itu Redux Toolkit?',
            'Bagaimana cara memberi tipe state createSlice dengan TypeScript?',
          ],
          en: [
            'What is a reducer?',
            'Can I use Redux without React?',
            'How do I type createSlice state with TypeScript?',
          ],
        },
      },
    },
  ];
}

/** The files of a corpus folder a collection is made of, in name order (not its LICENSE, README or SOURCE). */
export async function corpusFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) files.push(...(await corpusFiles(full)));
    else if (entry.isFile() && isSupportedFile(entry.name) && !/^(LICENSE|README|SOURCE)/i.test(entry.name))
      files.push(full);
  }
  return files;
}

export interface DemoProgress {
  collection: string;
  file: string;
  index: number;
  total: number;
  result?: IngestResult;
  error?: string;
}

/** The profile and glossary a demo collection gets. */
async function configureDemoCollection(engine: Engine, collection: DemoCollection): Promise<void> {
  await engine.collections.configure(collection.name, collection.profile);
  await engine.collections.setGlossary(collection.name, await readGlossaryFile(collection.glossary));
}

/**
 * Gives the demo collections that already exist their current profile (policy, title, description,
 * example questions) and glossary: a data directory loaded by an older version shows the same chat as a
 * new one.
 */
export async function configureDemoCollections(engine: Engine, corporaDirectory: string): Promise<void> {
  const existing = new Set((await engine.collections.list()).map((collection) => collection.name));
  for (const collection of demoCollections(corporaDirectory)) {
    if (existing.has(collection.name)) await configureDemoCollection(engine, collection);
  }
}

/** Ingests every demo collection; returns how many documents were new. */
export async function loadDemoCollections(
  engine: Engine,
  corporaDirectory: string,
  onProgress: (progress: DemoProgress) => void = () => {},
): Promise<{ added: number; failed: number }> {
  let added = 0;
  let failed = 0;
  for (const collection of demoCollections(corporaDirectory)) {
    const files = await corpusFiles(collection.directory);
    for (const [index, file] of files.entries()) {
      // Stored relative to the corpus folder, as `saksi ingest <folder>` stores it (docs/api/Store.md).
      const relative = path.relative(collection.directory, file).split(path.sep).join('/');
      try {
        const bytes = new Uint8Array(await readFile(file));
        const result = await engine.ingest(
          collection.name,
          { bytes, filename: relative, ...(collection.describe?.(file) ?? {}) },
          { language: collection.language, profile: collection.profile },
        );
        if (!result.deduplicated) added++;
        onProgress({
          collection: collection.name,
          file: relative,
          index: index + 1,
          total: files.length,
          result,
        });
      } catch (error) {
        failed++;
        onProgress({
          collection: collection.name,
          file: relative,
          index: index + 1,
          total: files.length,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    // Also for a data directory loaded before the collections had profiles or glossaries.
    if (files.length > 0) await configureDemoCollection(engine, collection);
  }
  if (added > 0) await engine.analyze();
  return { added, failed };
}
