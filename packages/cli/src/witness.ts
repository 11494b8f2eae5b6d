/**
 * `saksi witness`: an independent witness of a Saksi transparency log (docs/transparency-log.md, "Witnesses";
 * C2SP tlog-witness semantics over the log's HTTP API). It polls the log's checkpoint, verifies the log
 * signature, and cosigns a checkpoint only when it is consistent with the last one it cosigned
 * (RFC 9162 §2.1.4 consistency proof); a rollback or a fork is refused and reported, never cosigned.
 *
 * The state file holds the last cosigned checkpoint (and a log key pinned on first use). It is
 * written — atomically, mode 0600 — before the cosignature leaves the process, as tlog-witness asks,
 * so the witness never signs two views of the log even if a submission is lost.
 */
import { randomBytes } from 'node:crypto';
import { chmod, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readLimited } from '@saksi/engine';
import {
  type Checkpoint,
  createNoteVerifier,
  fromHex,
  isValidNoteKeyName,
  NOTE_MAX_BYTES,
  type NoteVerifier,
  parseCheckpoint,
  parseJson,
  parseNote,
  parseTrustedKeys,
  plural,
  type TrustedLog,
  toHex,
  verifyCheckpoint,
  verifyConsistencyProof,
} from '@saksi/proof';
import {
  cosignatureLine,
  createCosigner,
  formatCosignatureVerifierKey,
  formatSignerKey,
  generateKeyPair,
  type NoteSigner,
  parseSignerKey,
} from '@saksi/proof/issue';
import { type Command, flag, integerOption, type OptionValues, stringOption } from './command.js';
import { readJsonFile, readTextFile } from './files.js';
import { CliError, type Io, UsageError } from './io.js';
import { safeText } from './text.js';

/** Exit status when the log showed a rollback, a fork or anything else the witness refuses to sign. */
export const EXIT_REFUSED = 3;
/** Exit status when the log could not be reached or rejected the cosignature (try again later). */
export const EXIT_UNAVAILABLE = 1;
export const DEFAULT_INTERVAL_SECONDS = 30;
const STATE_VERSION = 1;
const REQUEST_TIMEOUT_MS = 15_000;
/** RFC 9162 §2.1.4 proofs have at most ~2·log2(n) nodes. */
const MAX_PROOF_NODES = 128;
const MAX_JSON_BYTES = 1024 * 1024;

export const witnessCommand: Command = {
  name: 'witness',
  summary: 'Witness a log: cosign each checkpoint consistent with the last one, refuse forks',
  usage:
    'saksi witness --log <url> --key <file> [--state <file>] [--trust keys.json | --log-key <vkey>] [--interval <s>] [--once] [--json]\n' +
    '       saksi witness keygen --name <name> --out <file> [--force]',
  help: `Polls <url>/api/v1/log/checkpoint.txt, verifies the log's signature and, when the checkpoint
is new, checks the RFC 9162 consistency proof from the last checkpoint this witness cosigned. Only
then it cosigns (C2SP tlog-cosignature) and sends the cosignature to <url>/api/v1/log/cosignatures.
A smaller tree (rollback), a different root for the same size (fork) or a bad proof is refused: not
cosigned, state unchanged, both checkpoints reported on stderr.

Options:
  --log <url>          The Saksi server (e.g. https://saksi.example.org)
  --key <file>         The witness signer key (PRIVATE+KEY+…; saksi witness keygen writes one)
  --state <file>       Last cosigned checkpoint and pinned log key (default: <key file>.state.json)
  --trust <keys.json>  Take the log key from a trusted keys file
  --log-key <vkey>     The log's verifier key (origin+keyid+base64)
                       Without either, the key pinned in the state file is used; on the very first
                       run the log's /.well-known/saksi-keys.json is fetched once and pinned (trust on
                       first use — compare it with the operator's published key).
  --interval <s>       Seconds between polls (default ${DEFAULT_INTERVAL_SECONDS})
  --once               Poll once and exit
  --json               One JSON object per poll on stdout

saksi witness keygen --name <name> --out <file> writes a new witness key (mode 0600) and prints its
cosignature verifier key; the log operator trusts it with: saksi keys add-witness <vkey>

Exit status (with --once): 0 cosigned or nothing new, 1 log unreachable or cosignature rejected,
2 bad usage or unreadable files, 3 refused (rollback, fork, inconsistent or badly signed checkpoint).
Without --once it polls until stopped (Ctrl-C) and exits 3 if it refused anything, else 0.`,
  options: {
    log: { type: 'string' },
    key: { type: 'string' },
    state: { type: 'string' },
    trust: { type: 'string' },
    'log-key': { type: 'string' },
    interval: { type: 'string' },
    once: { type: 'boolean' },
    json: { type: 'boolean' },
    name: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
  },
  run: runWitness,
};

async function runWitness(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const [subcommand, ...rest] = positionals;
  if (subcommand === 'keygen') {
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    return keygen(values, io);
  }
  if (subcommand !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(subcommand)}`);
  const witness = await setUp(values, io);
  const json = flag(values, 'json');
  if (flag(values, 'once')) {
    const outcome = await poll(witness);
    print(outcome, witness, json, io);
    return exitCodeOf(outcome);
  }
  const intervalMs = (integerOption(values, 'interval', 1, 86_400) ?? DEFAULT_INTERVAL_SECONDS) * 1000;
  let refused = false;
  let stopped = false;
  let wake: (() => void) | undefined;
  const stop = () => {
    stopped = true;
    wake?.();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    while (!stopped) {
      const outcome = await poll(witness);
      print(outcome, witness, json, io);
      if (outcome.kind === 'refused') refused = true;
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return refused ? EXIT_REFUSED : 0;
}

// ---------------------------------------------------------------------------------------------------
// Set-up: flags, key, state, log key

interface WitnessState {
  version: number;
  log: { url: string; origin: string; vkey: string; pinned: 'given' | 'trust-on-first-use' };
  /** The last cosigned checkpoint, as the log served it (log-signed note). */
  checkpoint: string;
  size: number;
  root_hash: string;
  /** This witness's cosignature line on that checkpoint. */
  cosignature: string;
  updated_at: string;
}

interface Witness {
  baseUrl: string;
  cosigner: NoteSigner;
  name: string;
  vkey: string;
  statePath: string;
  shownStatePath: string;
  /** Keys from --log-key / --trust; undefined means "pinned in the state, or trust on first use". */
  givenLogs: TrustedLog[] | undefined;
  state: WitnessState | undefined;
  /** --once: a failed poll is final, not retried. */
  once: boolean;
  io: Io;
}

async function setUp(values: OptionValues, io: Io): Promise<Witness> {
  const logUrl = stringOption(values, 'log');
  const keyFile = stringOption(values, 'key');
  if (logUrl === undefined) throw new UsageError('missing --log <url> (the Saksi server to witness)');
  if (keyFile === undefined) throw new UsageError('missing --key <file> (saksi witness keygen writes one)');
  if (stringOption(values, 'trust') !== undefined && stringOption(values, 'log-key') !== undefined) {
    throw new UsageError('give the log key once: --trust or --log-key, not both');
  }
  integerOption(values, 'interval', 1, 86_400);
  const baseUrl = parseBaseUrl(logUrl);

  const keyText = await readTextFile(io.cwd, keyFile, 'witness key');
  let key: ReturnType<typeof parseSignerKey>;
  try {
    key = parseSignerKey(keyText.trim());
  } catch {
    throw new CliError(`witness key ${safeText(keyFile)} is not a signer key (PRIVATE+KEY+<name>+…)`, {
      hint: 'Create one with: saksi witness keygen --name <name> --out <file>',
    });
  }
  const mode = (await stat(path.resolve(io.cwd, keyFile))).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    io.stderr.write(
      `warning: witness key ${safeText(keyFile)} is readable by others (mode ${mode.toString(8)}); chmod 600 it\n`,
    );
  }

  const stateOption = stringOption(values, 'state') ?? `${keyFile}.state.json`;
  const statePath = path.resolve(io.cwd, stateOption);
  const witness: Witness = {
    baseUrl,
    cosigner: createCosigner(key.name, key.secretKey),
    name: key.name,
    vkey: formatCosignatureVerifierKey(key.name, key.publicKey),
    statePath,
    shownStatePath: safeText(stateOption),
    givenLogs: await givenLogKeys(values, io),
    state: undefined,
    once: flag(values, 'once'),
    io,
  };
  witness.state = await loadState(witness);
  return witness;
}

function parseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--log must be an http(s) URL, e.g. https://saksi.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError('--log must be an http(s) URL');
  }
  if (url.search !== '' || url.hash !== '') throw new UsageError('--log must not have a query or fragment');
  return url.toString().replace(/\/+$/, '');
}

async function givenLogKeys(values: OptionValues, io: Io): Promise<TrustedLog[] | undefined> {
  const vkey = stringOption(values, 'log-key');
  if (vkey !== undefined) {
    try {
      const verifier = createNoteVerifier(vkey);
      return [{ origin: verifier.name, vkey }];
    } catch {
      throw new UsageError('--log-key is not a log verifier key (<origin>+<8 hex key id>+<base64>)');
    }
  }
  const trustFile = stringOption(values, 'trust');
  if (trustFile === undefined) return undefined;
  const document = await readJsonFile(io.cwd, trustFile, 'trusted keys file');
  try {
    const logs = parseTrustedKeys(document).logs;
    if (logs.length === 0) throw new Error('no logs');
    return logs;
  } catch {
    throw new CliError(`trusted keys file ${safeText(trustFile)} lists no valid log key`, {
      hint: 'Expected {"logs":[{"origin":…,"vkey":…}], …} as the server publishes at /.well-known/saksi-keys.json.',
    });
  }
}

async function loadState(witness: Witness): Promise<WitnessState | undefined> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(witness.statePath);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw new CliError(`cannot read witness state ${witness.shownStatePath}`);
  }
  if (!info.isFile()) throw new CliError(`witness state ${witness.shownStatePath} is not a file`);
  const value = await readJsonFile(witness.io.cwd, witness.statePath, 'witness state');
  const state = value as Partial<WitnessState> | null;
  const corrupt = (why: string) =>
    new CliError(`witness state ${witness.shownStatePath} is unusable: ${why}`, {
      hint: 'Restore it from a backup. Starting afresh (a new --state) forgets what this witness cosigned.',
    });
  if (
    typeof state !== 'object' ||
    state === null ||
    state.version !== STATE_VERSION ||
    typeof state.checkpoint !== 'string' ||
    typeof state.cosignature !== 'string' ||
    typeof state.log !== 'object' ||
    state.log === null ||
    typeof state.log.vkey !== 'string' ||
    typeof state.log.origin !== 'string'
  ) {
    throw corrupt('not a saksi witness state file');
  }
  let verifier: NoteVerifier;
  try {
    verifier = createNoteVerifier(state.log.vkey);
  } catch {
    throw corrupt('its pinned log key is malformed');
  }
  const opened = verifyCheckpoint(state.checkpoint, verifier);
  if (!opened.ok) throw corrupt(`its checkpoint does not verify with its log key (${opened.reason})`);
  if (witness.givenLogs !== undefined) {
    const given = witness.givenLogs.find((log) => log.origin === state.log!.origin);
    if (given === undefined || given.vkey !== state.log.vkey) {
      throw new CliError(
        `witness state ${witness.shownStatePath} is for log ${safeText(state.log.origin)} with key ${safeText(state.log.vkey)}, not the log key given`,
        { hint: 'Use a separate --state file per log (and per log key).' },
      );
    }
  }
  return {
    ...(state as WitnessState),
    size: opened.checkpoint.size,
    root_hash: toHex(opened.checkpoint.rootHash),
  };
}

/** Writes the state atomically: a temporary file (0600) in the same folder, fsynced, then renamed. */
async function saveState(witness: Witness, state: WitnessState): Promise<void> {
  const temporary = `${witness.statePath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(state, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(temporary, 0o600);
    await rename(temporary, witness.statePath);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    const code = (error as { code?: unknown }).code;
    throw new CliError(
      `cannot write witness state ${witness.shownStatePath}: ${typeof code === 'string' ? code : 'write failed'}`,
      { hint: 'Nothing was cosigned. Check that the folder exists and is writable.' },
    );
  }
  witness.state = state;
}

// ---------------------------------------------------------------------------------------------------
// One poll

type RefusalReason = 'ROLLBACK' | 'FORK' | 'INCONSISTENT' | 'SIGNATURE_INVALID' | 'UNKNOWN_LOG';

type Outcome =
  | { kind: 'cosigned'; checkpoint: Checkpoint; cosignature: string; previous: number | null }
  | { kind: 'unchanged'; checkpoint: Checkpoint; resubmitted: boolean }
  | { kind: 'empty' }
  | {
      kind: 'refused';
      reason: RefusalReason;
      message: string;
      previous: { note: string; checkpoint: Checkpoint } | undefined;
      served: { note: string; checkpoint: Checkpoint | undefined };
    }
  | { kind: 'unavailable'; message: string };

class Unavailable extends Error {}

async function poll(witness: Witness): Promise<Outcome> {
  try {
    return await pollOnce(witness);
  } catch (error) {
    if (error instanceof Unavailable) return { kind: 'unavailable', message: error.message };
    throw error;
  }
}

async function pollOnce(witness: Witness): Promise<Outcome> {
  const response = await request(witness, 'GET', '/api/v1/log/checkpoint.txt');
  if (response.status === 404 && witness.state === undefined) return { kind: 'empty' };
  if (response.status !== 200) throw new Unavailable(describeFailure('checkpoint', response));
  const note = response.text;
  const previous = witness.state && {
    note: witness.state.checkpoint,
    checkpoint: parseCheckpoint(parseNote(witness.state.checkpoint).text),
  };
  const refuse = (reason: RefusalReason, message: string, checkpoint: Checkpoint | undefined): Outcome => ({
    kind: 'refused',
    reason,
    message,
    previous,
    served: { note, checkpoint },
  });

  const log = await logKeyFor(witness, note);
  if (log === undefined) {
    return refuse(
      'UNKNOWN_LOG',
      'the checkpoint is not of a log this witness trusts (its origin matches no trusted log key)',
      undefined,
    );
  }
  const opened = verifyCheckpoint(note, createNoteVerifier(log.vkey));
  if (!opened.ok) {
    return refuse(
      'SIGNATURE_INVALID',
      `the checkpoint is not validly signed by the log key ${log.vkey} (${opened.reason})`,
      undefined,
    );
  }
  const checkpoint = opened.checkpoint;
  const signedNote = logSignedNote(note, opened.text, log.vkey);

  if (previous !== undefined) {
    const last = previous.checkpoint;
    if (checkpoint.size < last.size) {
      return refuse(
        'ROLLBACK',
        `the log now serves a tree of ${plural(checkpoint.size, 'entry', 'entries')}, smaller than the ${last.size} this witness already cosigned`,
        checkpoint,
      );
    }
    if (checkpoint.size === last.size) {
      if (toHex(checkpoint.rootHash) !== toHex(last.rootHash)) {
        return refuse(
          'FORK',
          `the log serves a different root for size ${checkpoint.size} than the one this witness cosigned`,
          checkpoint,
        );
      }
      // Nothing new; make sure the log holds this witness's cosignature (a submission may have been lost).
      const cosignature = witness.state!.cosignature;
      const held = parseNote(note).signatures.some((signature) => signature.line === cosignature);
      if (!held) await submit(witness, checkpoint.size, cosignature);
      return { kind: 'unchanged', checkpoint, resubmitted: !held };
    }
    const proof = await consistencyProof(witness, last.size, checkpoint.size);
    if (proof === undefined) {
      return refuse(
        'INCONSISTENT',
        `the log gave no usable consistency proof from size ${last.size} to ${checkpoint.size}`,
        checkpoint,
      );
    }
    if (!verifyConsistencyProof(last.size, checkpoint.size, proof, last.rootHash, checkpoint.rootHash)) {
      return refuse(
        'INCONSISTENT',
        `the tree of size ${checkpoint.size} does not extend the tree of size ${last.size} this witness cosigned (the consistency proof fails)`,
        checkpoint,
      );
    }
  }

  const cosignature = cosignatureLine(opened.text, witness.cosigner);
  await saveState(witness, {
    version: STATE_VERSION,
    log: {
      url: witness.baseUrl,
      origin: checkpoint.origin,
      vkey: log.vkey,
      pinned: log.pinned,
    },
    checkpoint: signedNote,
    size: checkpoint.size,
    root_hash: toHex(checkpoint.rootHash),
    cosignature,
    updated_at: new Date().toISOString(),
  });
  await submit(witness, checkpoint.size, cosignature);
  return { kind: 'cosigned', checkpoint, cosignature, previous: previous?.checkpoint.size ?? null };
}

/** The note with only the log's signature lines (cosignatures of others are not this witness's state). */
function logSignedNote(note: string, text: string, vkey: string): string {
  const verifier = createNoteVerifier(vkey);
  const lines = parseNote(note)
    .signatures.filter(
      (signature) => signature.name === verifier.name && toHex(signature.keyId) === toHex(verifier.keyId),
    )
    .map((signature) => `${signature.line}\n`);
  return `${text}\n${lines.join('')}`;
}

/** The log key to check `note` with: given, pinned in the state, or fetched once and pinned (TOFU). */
async function logKeyFor(
  witness: Witness,
  note: string,
): Promise<(TrustedLog & { pinned: WitnessState['log']['pinned'] }) | undefined> {
  let origin: string;
  try {
    origin = parseCheckpoint(parseNote(note).text).origin;
  } catch {
    origin = '';
  }
  if (witness.givenLogs !== undefined) {
    const log = witness.givenLogs.find((candidate) => candidate.origin === origin);
    return log && { ...log, pinned: 'given' };
  }
  if (witness.state !== undefined) {
    const pinned = witness.state.log;
    return pinned.origin === origin ? { origin, vkey: pinned.vkey, pinned: pinned.pinned } : undefined;
  }
  const response = await request(witness, 'GET', '/.well-known/saksi-keys.json');
  if (response.status !== 200) throw new Unavailable(describeFailure('published keys', response));
  let logs: TrustedLog[];
  try {
    logs = parseTrustedKeys(parseJson(response.text, { maxLength: MAX_JSON_BYTES })).logs;
  } catch {
    throw new Unavailable(`${witness.baseUrl}/.well-known/saksi-keys.json is not a trusted keys document`);
  }
  const log = logs.find((candidate) => candidate.origin === origin);
  if (log === undefined) return undefined;
  witness.io.stderr.write(
    `warning: no log key given; trusting the key the log publishes, on first use: ${safeText(log.vkey)}\n` +
      `  It is pinned in ${witness.shownStatePath} once this witness cosigns. Compare it with the key the operator\n` +
      `  publishes elsewhere, or pass --log-key / --trust to pin it yourself.\n`,
  );
  return { ...log, pinned: 'trust-on-first-use' };
}

/** The consistency proof between two sizes, or undefined when the log gives none usable. */
async function consistencyProof(
  witness: Witness,
  first: number,
  second: number,
): Promise<Uint8Array[] | undefined> {
  const response = await request(
    witness,
    'GET',
    `/api/v1/log/proof/consistency?first=${first}&second=${second}`,
  );
  if (response.status >= 500) throw new Unavailable(describeFailure('consistency proof', response));
  if (response.status !== 200) return undefined;
  try {
    const body = parseJson(response.text, { maxLength: MAX_JSON_BYTES }) as {
      first?: unknown;
      second?: unknown;
      proof?: unknown;
    };
    if (body.first !== first || body.second !== second || !Array.isArray(body.proof)) return undefined;
    if (body.proof.length > MAX_PROOF_NODES) return undefined;
    return body.proof.map((node) => {
      if (typeof node !== 'string') throw new Error('not hex');
      return fromHex(node, 32);
    });
  } catch {
    return undefined;
  }
}

async function submit(witness: Witness, size: number, cosignature: string): Promise<void> {
  const response = await request(witness, 'POST', '/api/v1/log/cosignatures', { size, cosignature });
  if (response.status !== 200) throw new Unavailable(describeFailure('cosignature submission', response));
}

// ---------------------------------------------------------------------------------------------------
// HTTP

interface HttpResult {
  status: number;
  text: string;
}

async function request(
  witness: Witness,
  method: 'GET' | 'POST',
  route: string,
  body?: unknown,
): Promise<HttpResult> {
  const url = `${witness.baseUrl}${route}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    throw new Unavailable(
      `cannot reach ${safeText(url)}${typeof cause === 'string' ? ` (${cause})` : error instanceof Error && error.name === 'TimeoutError' ? ' (timed out)' : ''}`,
    );
  }
  return { status: response.status, text: await readText(response, NOTE_MAX_BYTES, url) };
}

async function readText(response: Response, limit: number, url: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readLimited(
      response.body,
      limit,
      () => new Unavailable(`${safeText(url)} sent more than ${limit} bytes`),
    );
  } catch (error) {
    if (error instanceof Unavailable) throw error;
    throw new Unavailable(`reading ${safeText(url)} failed`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Unavailable(`${safeText(url)} sent something that is not UTF-8 text`);
  }
}

function describeFailure(what: string, response: HttpResult): string {
  let detail = '';
  try {
    const body = JSON.parse(response.text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string') {
      detail = `: ${body.error.code}${typeof body.error.message === 'string' ? ` — ${body.error.message}` : ''}`;
    }
  } catch {}
  return safeText(`${what} request failed with HTTP ${response.status}${detail}`.slice(0, 600));
}

// ---------------------------------------------------------------------------------------------------
// Output

function exitCodeOf(outcome: Outcome): number {
  if (outcome.kind === 'refused') return EXIT_REFUSED;
  if (outcome.kind === 'unavailable') return EXIT_UNAVAILABLE;
  return 0;
}

function summary(checkpoint: Checkpoint): string {
  return `${safeText(checkpoint.origin)} size ${checkpoint.size} root ${toHex(checkpoint.rootHash)}`;
}

function print(outcome: Outcome, witness: Witness, json: boolean, io: Io): void {
  const time = new Date().toISOString();
  if (outcome.kind === 'refused') {
    const lines = [
      `REFUSED (${outcome.reason}): ${safeText(outcome.message)}.`,
      `  last cosigned:  ${outcome.previous ? summary(outcome.previous.checkpoint) : '(none)'}`,
      `  now served:     ${outcome.served.checkpoint ? summary(outcome.served.checkpoint) : '(unverified)'}`,
      `Not cosigned; ${witness.shownStatePath} is unchanged. Keep both checkpoints as evidence:`,
      '--- last cosigned checkpoint',
      outcome.previous ? safeText(outcome.previous.note, true).trimEnd() : '(none)',
      '--- checkpoint now served',
      safeText(outcome.served.note.slice(0, 10_000), true).trimEnd(),
      '---',
    ];
    io.stderr.write(`${lines.join('\n')}\n`);
  } else if (outcome.kind === 'unavailable') {
    io.stderr.write(`error: ${outcome.message}${witness.once ? '' : '; trying again on the next poll'}\n`);
  }
  if (json) {
    io.stdout.write(`${JSON.stringify(jsonOf(outcome, witness, time))}\n`);
    return;
  }
  if (outcome.kind === 'cosigned') {
    const from = outcome.previous === null ? 'first checkpoint' : `consistent with size ${outcome.previous}`;
    io.stdout.write(`${time} cosigned ${summary(outcome.checkpoint)} (${from})\n`);
  } else if (outcome.kind === 'unchanged') {
    io.stdout.write(
      `${time} nothing new: ${summary(outcome.checkpoint)}${outcome.resubmitted ? ' (cosignature sent again)' : ''}\n`,
    );
  } else if (outcome.kind === 'empty') {
    io.stdout.write(`${time} the log is empty; nothing to cosign yet\n`);
  }
}

function jsonOf(outcome: Outcome, witness: Witness, time: string): Record<string, unknown> {
  const view = (checkpoint: Checkpoint | undefined) =>
    checkpoint && { origin: checkpoint.origin, size: checkpoint.size, root_hash: toHex(checkpoint.rootHash) };
  const base = { time, log: witness.baseUrl, witness: witness.vkey };
  switch (outcome.kind) {
    case 'cosigned':
      return {
        ...base,
        status: 'cosigned',
        checkpoint: view(outcome.checkpoint),
        previous_size: outcome.previous,
        cosignature: outcome.cosignature,
      };
    case 'unchanged':
      return {
        ...base,
        status: 'unchanged',
        checkpoint: view(outcome.checkpoint),
        resubmitted: outcome.resubmitted,
      };
    case 'empty':
      return { ...base, status: 'empty' };
    case 'refused':
      return {
        ...base,
        status: 'refused',
        reason: outcome.reason,
        message: outcome.message,
        previous: view(outcome.previous?.checkpoint) ?? null,
        served: view(outcome.served.checkpoint) ?? null,
        previous_note: outcome.previous?.note ?? null,
        served_note: outcome.served.note,
      };
    case 'unavailable':
      return { ...base, status: 'unavailable', message: outcome.message };
  }
}

// ---------------------------------------------------------------------------------------------------
// keygen

async function keygen(values: OptionValues, io: Io): Promise<number> {
  const name = stringOption(values, 'name');
  const out = stringOption(values, 'out');
  if (name === undefined) throw new UsageError('missing --name <name> (e.g. witness.example.org/w1)');
  if (out === undefined) throw new UsageError('missing --out <file>');
  if (!isValidNoteKeyName(name)) {
    throw new UsageError(
      '--name must be a non-empty key name without spaces or "+", e.g. example.org/witness',
    );
  }
  const pair = generateKeyPair();
  const file = path.resolve(io.cwd, out);
  try {
    await writeFile(file, `${formatSignerKey(name, pair.secretKey)}\n`, {
      mode: 0o600,
      flag: flag(values, 'force') ? 'w' : 'wx',
    });
    await chmod(file, 0o600);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST') {
      throw new CliError(`refusing to overwrite ${safeText(out)}`, {
        hint: 'Choose another --out, or pass --force (the old witness key is lost and logs stop trusting it).',
      });
    }
    throw new CliError(`cannot write ${safeText(out)}: ${typeof code === 'string' ? code : 'write failed'}`);
  }
  const vkey = formatCosignatureVerifierKey(name, pair.publicKey);
  if (flag(values, 'json')) {
    io.stdout.write(`${JSON.stringify({ name, vkey, key_file: file })}\n`);
    return 0;
  }
  io.stdout.write(
    [
      `Wrote witness key ${safeText(out)} (secret, mode 0600).`,
      '',
      `Cosignature verifier key (public):`,
      `  ${vkey}`,
      '',
      'Next:',
      `  - The log operator trusts this witness with:  saksi keys add-witness ${vkey}`,
      `  - Then run:  saksi witness --log <url> --key ${safeText(out)}`,
      '',
    ].join('\n'),
  );
  return 0;
}
