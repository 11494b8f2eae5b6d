/** `saksi log checkpoint | inclusion <index> | consistency <old> <new>`: read the transparency log. */
import { type Command, flag, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine } from './engine-io.js';
import { CliError, type Io, UsageError } from './io.js';

export const logCommand: Command = {
  name: 'log',
  summary: 'Show the log checkpoint, or inclusion and consistency proofs',
  usage: 'saksi log checkpoint | inclusion <index> [--size N] | consistency <old> <new> [--json]',
  help: `Reads the transparency log of this data directory.
  checkpoint                  the latest signed checkpoint (C2SP note) with witness cosignatures
  inclusion <index>           RFC 9162 inclusion proof of entry <index> (in the tree of --size entries)
  consistency <old> <new>     RFC 9162 consistency proof between two sizes

Options:
  --size <n>   Tree size for inclusion (default: current size)
  --json       JSON output`,
  options: { size: { type: 'string' }, json: { type: 'boolean' } },
  run: runLog,
};

function integer(text: string | undefined, what: string): number {
  const value = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || !Number.isSafeInteger(value))
    throw new UsageError(`${what} must be a whole number`);
  return value;
}

type LogRequest =
  | { sub: 'checkpoint' }
  | { sub: 'inclusion'; index: number; size: number | undefined }
  | { sub: 'consistency'; first: number; second: number };

/** Checks the command line before the engine is opened, so a typo costs no database start. */
function parseRequest(values: OptionValues, positionals: readonly string[]): LogRequest {
  const [sub, ...rest] = positionals;
  const expectArguments = (names: readonly string[]) => {
    if (rest.length > names.length)
      throw new UsageError(`unexpected argument ${JSON.stringify(rest[names.length])}`);
  };
  if (sub === 'checkpoint') {
    expectArguments([]);
    return { sub };
  }
  if (sub === 'inclusion') {
    expectArguments(['<index>']);
    const sizeText = stringOption(values, 'size');
    return {
      sub,
      index: integer(rest[0], '<index>'),
      size: sizeText === undefined ? undefined : integer(sizeText, '--size'),
    };
  }
  if (sub === 'consistency') {
    expectArguments(['<old>', '<new>']);
    return { sub, first: integer(rest[0], '<old>'), second: integer(rest[1], '<new>') };
  }
  throw new UsageError('say which: checkpoint, inclusion <index> or consistency <old> <new>');
}

async function runLog(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const request = parseRequest(values, positionals);
  const json = flag(values, 'json');
  const engine = await openEngine(configFrom(io));
  try {
    if (request.sub === 'checkpoint') {
      const checkpoint = await engine.log.latestCheckpoint(engine.db);
      if (!checkpoint)
        throw new CliError('the log is empty', {
          hint: 'Ask a question first: saksi ask "…" --collection <name>',
        });
      io.stdout.write(
        json
          ? `${JSON.stringify(checkpoint, null, 2)}\n`
          : checkpoint.checkpoint + checkpoint.cosignatures.map((line) => `${line}\n`).join(''),
      );
      return 0;
    }
    if (request.sub === 'inclusion') {
      const proof = await engine.log.inclusionProof(engine.db, request.index, request.size);
      io.stdout.write(
        json
          ? `${JSON.stringify(proof, null, 2)}\n`
          : `entry ${proof.leaf_index} in tree of ${proof.tree_size}:\n${proof.proof.join('\n')}\n`,
      );
      return 0;
    }
    const proof = await engine.log.consistencyProof(engine.db, request.first, request.second);
    io.stdout.write(
      json
        ? `${JSON.stringify(proof, null, 2)}\n`
        : `consistency ${proof.first} → ${proof.second}:\n${proof.proof.join('\n')}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof Error && 'code' in error && (error as { code: string }).code === 'INVALID_INPUT') {
      throw new CliError(error.message);
    }
    throw error;
  } finally {
    await engine.close();
  }
}
