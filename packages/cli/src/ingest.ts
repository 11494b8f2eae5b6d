/** `saksi ingest <paths...> --collection <name>`: files and folders into a collection, with progress. */

import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type CollectionProfile,
  checkedProfile,
  DEFAULT_WORKSPACE,
  type Engine,
  isEngineError,
  isIngestError,
  isSupportedFile,
  parseGlossaryText,
} from '@saksi/engine';
import { plural } from '@saksi/proof';
import { type Command, flag, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine } from './engine-io.js';
import { CliError, type Io, styleFor, UsageError } from './io.js';
import { safeText } from './text.js';

export const ingestCommand: Command = {
  name: 'ingest',
  summary: 'Ingest Markdown, PDF, DOCX, HTML and text files into a collection',
  usage:
    'saksi ingest <paths...> --collection <name> [--language id|en] [--base-url <url> [--base-url-folder <folder>]] [--glossary <file>] [--json]',
  help: `Parses, chunks, hashes, embeds and stores each file (folders are walked for .md .mdx .pdf .docx
.html .htm .txt). The same bytes ingested twice into a collection are stored once. A file found in a
folder is stored under its path relative to that folder (guide/setup.md); a file named on its own,
under its name.

Options:
  --collection <name>   Target collection (created if missing)
  --language id|en      Language of a new collection (default id)
  --document-type <t>   Document type metadata (e.g. "UU APBN")
  --fiscal-year <yyyy>  Fiscal year metadata
  --base-url <url>      The http(s) site the documents are published on (new or existing collection):
                        citations of Markdown pages then link to <page>#<heading> (the page from
                        frontmatter slug or id, else the file's path, as Docusaurus builds it)
  --base-url-folder <f> The folder of the stored paths the base URL serves (e.g. docs, when the
                        whole repository was ingested); default all of them
  --glossary <file>     The collection's glossary (docs/glossary.md): its vocabulary as JSON, checked
                        first (a bad entry is INVALID_GLOSSARY, exit 2); replaces the one it had
  --no-anchor           Do not anchor the new documents on chain now (a running server or
                        \`saksi anchor run\` anchors them later)
  --json                One JSON line per file
After ingesting, the new document roots are anchored in one round on the configured chain
(SAKSI_ANCHOR; default local: anvil in the data directory).

Exit status: 0 all ingested, 1 some files failed, 2 bad usage.
With the embedded database (PGlite), stop a running server first or upload through its API.`,
  options: {
    collection: { type: 'string' },
    language: { type: 'string' },
    'document-type': { type: 'string' },
    'fiscal-year': { type: 'string' },
    'base-url': { type: 'string' },
    'base-url-folder': { type: 'string' },
    glossary: { type: 'string' },
    json: { type: 'boolean' },
    'no-anchor': { type: 'boolean' },
  },
  run: runIngest,
};

/** A file to ingest and the name it is stored under. */
interface FoundFile {
  path: string;
  /** Relative to the folder named on the command line (`/`-separated); a file named on its own: its name. */
  name: string;
}

async function expand(cwd: string, inputs: readonly string[]): Promise<FoundFile[]> {
  const files: FoundFile[] = [];
  const visit = async (target: string, root: string | undefined) => {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(target);
    } catch {
      throw new CliError(
        `cannot read ${safeText(path.relative(cwd, target) || target)}: no such file or folder`,
      );
    }
    if (info.isDirectory()) {
      for (const entry of (await readdir(target)).sort())
        await visit(path.join(target, entry), root ?? target);
    } else if (info.isFile() && (root === undefined || isSupportedFile(target))) {
      const name = root === undefined ? path.basename(target) : path.relative(root, target);
      files.push({ path: target, name: name.split(path.sep).join('/') });
    }
  };
  for (const input of inputs) await visit(path.resolve(cwd, input), undefined);
  return files;
}

/** `--base-url` and `--base-url-folder` as a profile patch, checked before anything is opened. */
function baseUrlProfile(values: OptionValues): (CollectionProfile & Record<string, unknown>) | undefined {
  const baseUrl = stringOption(values, 'base-url');
  const folder = stringOption(values, 'base-url-folder');
  if (baseUrl === undefined && folder === undefined) return undefined;
  try {
    return checkedProfile({
      ...(baseUrl !== undefined ? { base_url: baseUrl } : {}),
      ...(folder !== undefined ? { base_url_folder: folder } : {}),
    });
  } catch (error) {
    if (isEngineError(error)) throw new UsageError(`${error.message} (${error.code})`);
    throw error;
  }
}

/** `--glossary <file>`, read and checked before anything is opened. */
async function glossaryOption(values: OptionValues, cwd: string): Promise<unknown> {
  const file = stringOption(values, 'glossary');
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(path.resolve(cwd, file), 'utf8');
  } catch {
    throw new CliError(`cannot read the glossary ${safeText(file)}`);
  }
  try {
    return parseGlossaryText(text);
  } catch (error) {
    if (isEngineError(error)) throw new UsageError(`${error.message} (${error.code})`);
    throw error;
  }
}

/**
 * The most specific code of a failed file: the parser's `IngestError` code (MALFORMED_FILE,
 * UNSUPPORTED_TYPE, …) that the engine wraps in INGEST_FAILED, else the engine's own code.
 */
function failureCode(error: unknown): string {
  if (isEngineError(error)) return isIngestError(error.cause) ? error.cause.code : error.code;
  return isIngestError(error) ? error.code : 'ERROR';
}

async function runIngest(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const collection = stringOption(values, 'collection');
  if (!collection) throw new UsageError('--collection is required');
  if (positionals.length === 0) throw new UsageError('name at least one file or folder');
  const language = stringOption(values, 'language') ?? 'id';
  if (language !== 'id' && language !== 'en') throw new UsageError('--language must be id or en');
  const yearText = stringOption(values, 'fiscal-year');
  const fiscalYear = yearText === undefined ? undefined : Number(yearText);
  if (fiscalYear !== undefined && (!Number.isInteger(fiscalYear) || fiscalYear < 1945 || fiscalYear > 2200)) {
    throw new UsageError('--fiscal-year must be a year such as 2024');
  }
  const documentType = stringOption(values, 'document-type');
  const json = flag(values, 'json');
  const profile = baseUrlProfile(values);
  const glossary = await glossaryOption(values, io.cwd);
  const files = await expand(io.cwd, positionals);
  if (files.length === 0)
    throw new CliError('no supported files found', {
      hint: 'Supported: .md .mdx .pdf .docx .html .htm .txt',
    });
  const style = styleFor(io.stdout, io.env);
  const engine = await openEngine(configFrom(io));
  let failed = 0;
  let chunks = 0;
  const started = performance.now();
  try {
    if (profile) {
      // A new collection is created with it; an existing one has it merged into its profile.
      await engine.collections.ensure(collection, { workspaceId: DEFAULT_WORKSPACE, language, profile });
      await engine.collections.configure(collection, profile);
    }
    if (glossary !== undefined) {
      await engine.collections.ensure(collection, { workspaceId: DEFAULT_WORKSPACE, language });
      await engine.collections.setGlossary(collection, glossary);
    }
    for (const [index, file] of files.entries()) {
      const label = safeText(path.relative(io.cwd, file.path) || file.path);
      const fileStarted = performance.now();
      try {
        const bytes = new Uint8Array(await readFile(file.path));
        const result = await engine.ingest(
          collection,
          {
            bytes,
            filename: file.name,
            ...(documentType ? { document_type: documentType } : {}),
            ...(fiscalYear !== undefined ? { fiscal_year: fiscalYear } : {}),
          },
          { language },
        );
        chunks += result.deduplicated ? 0 : result.document.chunk_count;
        if (json) {
          io.stdout.write(
            `${JSON.stringify({ file: label, ok: true, deduplicated: result.deduplicated, document: result.document })}\n`,
          );
        } else {
          const seconds = ((performance.now() - fileStarted) / 1000).toFixed(2);
          const what = result.deduplicated
            ? 'already ingested'
            : `${plural(result.document.chunk_count, 'chunk')}, root ${result.document.root?.slice(0, 12)}…`;
          io.stdout.write(
            `${style.green('✓')} [${index + 1}/${files.length}] ${label} — ${what} (${seconds} s)\n`,
          );
        }
      } catch (error) {
        failed++;
        const code = failureCode(error);
        const message = error instanceof Error ? error.message : String(error);
        if (json)
          io.stdout.write(`${JSON.stringify({ file: label, ok: false, error: { code, message } })}\n`);
        else
          io.stdout.write(
            `${style.red('✗')} [${index + 1}/${files.length}] ${label} — ${code}: ${safeText(message)}\n`,
          );
      }
    }
    if (chunks > 0) await engine.analyze();
    if (!flag(values, 'no-anchor') && engine.config.anchor.provider !== 'none' && failed < files.length) {
      await anchorNew(engine, io, json);
    }
  } finally {
    await engine.close();
  }
  if (!json) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    io.stdout.write(
      `${files.length - failed} of ${plural(files.length, 'file')} ingested into "${safeText(collection)}" (${plural(chunks, 'new chunk')}) in ${seconds} s${failed ? `; ${failed} failed` : ''}.\n`,
    );
  }
  return failed > 0 ? 1 : 0;
}

/** One anchoring round for what waits; a chain that fails leaves the documents PENDING_ANCHOR, not the ingest failed. */
async function anchorNew(engine: Engine, io: Io, json: boolean): Promise<void> {
  const style = styleFor(io.stdout, io.env);
  try {
    const rounds = (await engine.anchoring.runNow()) ?? [];
    const chain = engine.anchoring.chain();
    for (const round of rounds) {
      if (json) {
        io.stdout.write(
          `${JSON.stringify({ anchor: { round_id: round.id, status: round.status, chain_id: round.chain_id, contract: round.contract, tx_hash: round.tx_hash, block_number: round.block_number, roots: round.size } })}\n`,
        );
      } else {
        io.stdout.write(
          `${round.status === 'CONFIRMED' ? style.green('⚓') : style.yellow('…')} anchored ${plural(round.size, 'root')} on chain ${round.chain_id}${chain?.provider === 'local' ? ' (local anvil)' : ''}: ${round.status}, tx ${round.tx_hash ?? '-'}${round.block_number !== null ? `, block ${round.block_number}` : ''}\n`,
        );
      }
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (json) io.stdout.write(`${JSON.stringify({ anchor: { error: message } })}\n`);
    else
      io.stdout.write(
        `${style.yellow('!')} anchoring failed: ${safeText(message)} — the documents stay PENDING_ANCHOR; run \`saksi anchor run\` later.\n`,
      );
  }
}
