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

async function runLog(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const [sub, ...rest] = positionals;
  if (!sub || !['checkpoint', 'inclusion', 'consistency'].includes(sub)) {
    throw new UsageError('say which: checkpoint, inclusion <index> or consistency <old> <new>');
  }
  const json = flag(values, 'json');
  const engine = await openEngine(configFrom(io));
  try {
    if (sub === 'checkpoint') {
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
    if (sub === 'inclusion') {
      const index = integer(rest[0], '<index>');
      const sizeText = stringOption(values, 'size');
      const proof = await engine.log.inclusionProof(
        engine.db,
        index,
        sizeText === undefined ? undefined : integer(sizeText, '--size'),
      );
      io.stdout.write(
        json
          ? `${JSON.stringify(proof, null, 2)}\n`
          : `entry ${proof.leaf_index} in tree of ${proof.tree_size}:\n${proof.proof.join('\n')}\n`,
      );
      return 0;
    }
    const proof = await engine.log.consistencyProof(
      engine.db,
      integer(rest[0], '<old>'),
      integer(rest[1], '<new>'),
    );
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
