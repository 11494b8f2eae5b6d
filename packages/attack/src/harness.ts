/**
 * The attack harness (docs/attacks.md): generates bundles with the offline engine from the three demo
 * collections (anchored on a local anvil, logged, witnessed), tampers with them (mutations.ts),
 * verifies every presentation once with `verifyBundle` with every option on, and scores it under
 * each ablation (ablations.ts): tamper detection (TDR), equivocation detection (EDR), false blocking
 * of untampered bundles (FBR) and utility under attack (UAA), with bootstrap intervals (metrics.ts).
 *
 * A bundle directory holds `bundle-NNNN.json` files plus:
 * - `trust.json` — the pinned keys (issuer, log, witness, registry), as `saksi verify --trust` reads them;
 * - `checkpoints.json` — the latest genuine checkpoint and consistency proofs to it from every
 *   checkpoint size the bundles carry (what a verifier that follows the log knows);
 * - `manifest.json` — per bundle: collection, language, question;
 * - `chain/state.json`, `chain/deployment.json` — the local anvil chain the anchors are on;
 * - `log-operator.key` — the log's signing key of this throwaway deployment, for A7 (an equivocating
 *   log operator signs forks with it).
 */

import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AnvilHandle, createRegistryLookup, startAnvil } from '@saksi/contracts';
import {
  checkEntailment,
  Engine,
  KEY_FILES,
  loadConfig,
  loadDemoCollections,
  SaksiError,
} from '@saksi/engine';
import {
  type Anchor,
  type AnchorLookup,
  type AnchorRecord,
  type Bundle,
  type BundleVerification,
  normalizeText,
  parseCheckpoint,
  parseNote,
  parseTrustedKeys,
  plural,
  sha256Hex,
  trustOptions,
  type VerifyBundleOptions,
  validateBundle,
  verifyBundle,
} from '@saksi/proof';
import { createNoteSigner, parseSignerKey } from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { ABLATIONS, type AblationId, decide } from './ablations.js';
import { createRandom, type Random } from './metrics.js';
import {
  type AttackClass,
  allTamperings,
  attackerKeys,
  type EquivocationContext,
  type MutationContext,
  type Tampering,
} from './mutations.js';

export type AttackErrorCode =
  | 'SETS_MISSING'
  | 'GENERATION_FAILED'
  | 'TRUST_MISSING'
  | 'NO_BUNDLES'
  | 'INVALID_INPUT';

/** A failure of the harness a person can act on (missing sets, keys or bundles; a failed generation). */
export class AttackError extends SaksiError<AttackErrorCode> {
  override readonly name = 'AttackError';
}

export function isAttackError(error: unknown): error is AttackError {
  return error instanceof AttackError;
}

// ---------------------------------------------------------------------------------------------
// Generation

/** The evaluation sets questions are drawn from, and their collection. */
export const QUESTION_SETS: readonly { file: string; collection: string; language: 'id' | 'en' }[] = [
  { file: 'lalin-dev.jsonl', collection: 'lalu-lintas', language: 'id' },
  { file: 'lalin-spec-cases.jsonl', collection: 'lalu-lintas', language: 'id' },
  { file: 'apbn-dev.jsonl', collection: 'apbn', language: 'id' },
  { file: 'redux-dev.jsonl', collection: 'docs', language: 'en' },
];

const VARIATIONS: Record<'id' | 'en', ((question: string) => string)[]> = {
  id: [
    (q) => q,
    (q) => `Tolong jelaskan: ${q}`,
    (q) => `Menurut undang-undang, ${lowerFirst(q)}`,
    (q) => `${q} Mohon sebutkan dasar hukumnya.`,
    (q) => `Pertanyaan warga: ${q}`,
  ],
  en: [
    (q) => q,
    (q) => `Please explain: ${q}`,
    (q) => `According to the docs, ${lowerFirst(q)}`,
    (q) => `${q} Cite the section.`,
    (q) => `Question: ${q}`,
  ],
};

function lowerFirst(text: string): string {
  return text.length > 0 ? text[0]!.toLowerCase() + text.slice(1) : text;
}

function shuffle<T>(items: T[], random: Random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export interface PlannedQuestion {
  collection: string;
  language: 'id' | 'en';
  question: string;
  /** `set-id` of the question it varies, e.g. `lalin-003#2`. */
  source: string;
}

/**
 * `count` questions spread round-robin over the collections: the set questions in a seeded order,
 * then the same with each variation (prefix, suffix, rephrasing) in turn.
 */
export async function planQuestions(
  setsDirectory: string,
  count: number,
  seed: number,
): Promise<PlannedQuestion[]> {
  const random = createRandom(seed);
  const byCollection = new Map<string, PlannedQuestion[]>();
  for (const set of QUESTION_SETS) {
    const file = path.join(setsDirectory, set.file);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (cause) {
      throw new AttackError('SETS_MISSING', `Evaluation set ${file} is missing; pass its folder.`, { cause });
    }
    const list = byCollection.get(set.collection) ?? [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as { id?: unknown; question?: unknown };
      if (typeof row.question !== 'string') continue;
      list.push({
        collection: set.collection,
        language: set.language,
        question: row.question,
        source: String(row.id),
      });
    }
    byCollection.set(set.collection, list);
  }
  const queues = [...byCollection.values()].map((base) => {
    shuffle(base, random);
    const language = base[0]?.language ?? 'id';
    return VARIATIONS[language].flatMap((vary, v) =>
      base.map((entry) => ({ ...entry, question: vary(entry.question), source: `${entry.source}#${v}` })),
    );
  });
  const planned: PlannedQuestion[] = [];
  const positions = queues.map(() => 0);
  for (let i = 0; planned.length < count && queues.length > 0; i++) {
    const q = i % queues.length;
    const queue = queues[q]!;
    if (queue.length === 0) continue;
    planned.push(queue[positions[q]! % queue.length]!);
    positions[q]!++;
  }
  return planned;
}

export interface GenerateOptions {
  /** Where the bundles and their trust material are written (created when missing). */
  directory: string;
  count: number;
  seed: number;
  /** `corpora/` of the repository. */
  corporaDirectory: string;
  /** `../shared/data/eval`: the JSONL sets questions come from. */
  setsDirectory: string;
  onProgress?: (message: string) => void;
}

export interface ManifestEntry {
  file: string;
  collection: string;
  language: 'id' | 'en';
  question: string;
  source: string;
}

export interface Manifest {
  generated_at: string;
  seed: number;
  count: number;
  anchor_rounds: number;
  entries: ManifestEntry[];
}

/**
 * Creates a fresh data directory, ingests the demo collections, anchors them in one round on a local
 * anvil, asks `count` questions with the extractive generator and writes the bundles with their trust
 * material into `directory`. The data directory is removed afterwards; the chain state is kept.
 */
export async function generateBundles(options: GenerateOptions): Promise<Manifest> {
  const say = options.onProgress ?? (() => {});
  const planned = await planQuestions(options.setsDirectory, options.count, options.seed);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'saksi-attack-'));
  await mkdir(options.directory, { recursive: true });
  const config = loadConfig({ SAKSI_DATA_DIR: dataDir, SAKSI_ANCHOR: 'local' }, dataDir);
  const engine = await Engine.open({ config });
  try {
    const started = performance.now();
    const loaded = await loadDemoCollections(engine, options.corporaDirectory);
    if (loaded.failed > 0) {
      throw new AttackError('GENERATION_FAILED', `${loaded.failed} demo documents failed to ingest.`);
    }
    say(`Ingested the demo corpora (${loaded.added} documents) in ${seconds(started)} s.`);
    const anchorStarted = performance.now();
    const rounds = (await engine.anchoring.runNow()) ?? [];
    if (!rounds.some((round) => round.status === 'CONFIRMED')) {
      throw new AttackError('GENERATION_FAILED', 'Anchoring the demo documents on the local chain failed.');
    }
    say(`Anchored in ${plural(rounds.length, 'round')} on the local chain in ${seconds(anchorStarted)} s.`);

    const askStarted = performance.now();
    const entries: ManifestEntry[] = [];
    const bundles: Bundle[] = [];
    for (const [index, question] of planned.entries()) {
      const result = await engine.ask(question.collection, { question: question.question });
      const file = `bundle-${String(index + 1).padStart(4, '0')}.json`;
      await writeFile(path.join(options.directory, file), `${JSON.stringify(result.bundle, null, 2)}\n`);
      bundles.push(result.bundle);
      entries.push({ file, ...question });
      if ((index + 1) % 50 === 0) say(`Asked ${index + 1} of ${planned.length} questions.`);
    }
    say(`Asked ${planned.length} questions in ${seconds(askStarted)} s.`);

    const latest = await engine.logStorage.latestCheckpoint();
    if (!latest) throw new AttackError('GENERATION_FAILED', 'The log has no checkpoint after asking.');
    const consistency: Record<string, string[]> = {};
    for (const bundle of bundles) {
      const size = parseCheckpoint(parseNote(bundle.log.checkpoint).text).size;
      if (size < latest.size && consistency[size] === undefined) {
        consistency[size] = (await engine.logStorage.consistencyProof(size, latest.size)).proof;
      }
    }
    await writeJson(path.join(options.directory, 'checkpoints.json'), {
      latest: latest.checkpoint,
      latest_cosignatures: latest.cosignatures,
      latest_size: latest.size,
      consistency,
    });
    const keys = parseTrustedKeys(await readFile(path.join(config.keysDir, KEY_FILES.trust), 'utf8'));
    const chain = engine.anchoring.chain();
    if (
      chain &&
      !keys.registries?.some((entry) => entry.contract.toLowerCase() === chain.contract.toLowerCase())
    ) {
      keys.registries = [...(keys.registries ?? []), { chain_id: chain.chain_id, contract: chain.contract }];
    }
    await writeJson(path.join(options.directory, 'trust.json'), keys);
    await writeFile(
      path.join(options.directory, 'log-operator.key'),
      await readFile(path.join(config.keysDir, KEY_FILES.log), 'utf8'),
      { mode: 0o600 },
    );
    const manifest: Manifest = {
      generated_at: new Date().toISOString(),
      seed: options.seed,
      count: bundles.length,
      anchor_rounds: rounds.length,
      entries,
    };
    await writeJson(path.join(options.directory, 'manifest.json'), manifest);
    await engine.close();
    const chainDirectory = path.join(options.directory, 'chain');
    await mkdir(chainDirectory, { recursive: true });
    for (const name of ['state.json', 'deployment.json']) {
      const from = path.join(dataDir, 'anvil', name);
      if (existsSync(from)) await cp(from, path.join(chainDirectory, name));
    }
    return manifest;
  } finally {
    await engine.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------------
// Running the attacks

const RESERVED_FILES = new Set(['trust.json', 'checkpoints.json', 'manifest.json']);

export interface LoadedBundle {
  file: string;
  bundle: Bundle;
  question: string;
  language: 'id' | 'en';
  collection: string;
}

interface CheckpointsFile {
  latest: string;
  latest_size: number;
  consistency: Record<string, string[]>;
}

export interface BundleDirectory {
  bundles: LoadedBundle[];
  /** Files that are not valid bundles (reported, not attacked). */
  invalid: string[];
  trust: ReturnType<typeof trustOptions>;
  checkpoints: CheckpointsFile | null;
  logOperatorKey: string | null;
  chainStateFile: string | null;
}

/** Reads a bundle directory as `generateBundles` writes it. */
export async function readBundleDirectory(directory: string): Promise<BundleDirectory> {
  const trustFile = path.join(directory, 'trust.json');
  if (!existsSync(trustFile)) {
    throw new AttackError(
      'TRUST_MISSING',
      `${trustFile} is missing: the harness needs the pinned keys the bundles are checked against (saksi attack --generate writes it).`,
    );
  }
  const trust = trustOptions(parseTrustedKeys(await readFile(trustFile, 'utf8')));
  const manifest = await readOptionalJson<Manifest>(path.join(directory, 'manifest.json'));
  const byFile = new Map(manifest?.entries.map((entry) => [entry.file, entry]) ?? []);
  const checkpoints = await readOptionalJson<CheckpointsFile>(path.join(directory, 'checkpoints.json'));
  const keyFile = path.join(directory, 'log-operator.key');
  const logOperatorKey = existsSync(keyFile) ? (await readFile(keyFile, 'utf8')).trim() : null;
  const stateFile = path.join(directory, 'chain', 'state.json');
  const files = (await readdir(directory))
    .filter((name) => name.endsWith('.json') && !RESERVED_FILES.has(name))
    .sort();
  const bundles: LoadedBundle[] = [];
  const invalid: string[] = [];
  for (const file of files) {
    try {
      const bundle = validateBundle(JSON.parse(await readFile(path.join(directory, file), 'utf8')));
      const entry = byFile.get(file);
      const collection = entry?.collection ?? bundle.certificate.retrieval.collection;
      bundles.push({
        file,
        bundle,
        question: entry?.question ?? bundle.certificate.query.text,
        language: entry?.language ?? (collection === 'docs' ? 'en' : 'id'),
        collection,
      });
    } catch {
      invalid.push(file);
    }
  }
  return {
    bundles,
    invalid,
    trust,
    checkpoints,
    logOperatorKey,
    chainStateFile: existsSync(stateFile) ? stateFile : null,
  };
}

async function readOptionalJson<T>(file: string): Promise<T | null> {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (cause) {
    throw new AttackError('INVALID_INPUT', `${file} is not valid JSON.`, { cause });
  }
}

/** One presentation scored under one configuration. */
export interface Outcome {
  bundle: number;
  attack: AttackClass | 'NONE';
  kind: string;
  variant: string;
  config: AblationId;
  /** Tampered: the verdict failed or every altered claim was blocked. Untampered: the verdict failed (a false block). */
  detected: boolean;
  /** A7: caught as CHECKPOINT_INCONSISTENT. */
  inconsistent: boolean;
  /** Some altered claim was shown as verified. */
  falseShown: boolean;
  /** Utility under attack for this presentation (null when the genuine bundle shows no verified claim). */
  utility: number | null;
}

export interface Example {
  file: string;
  attack: AttackClass;
  kind: string;
  variant: string;
  description: string;
  codes: string[];
}

export interface HarnessResult {
  bundles: LoadedBundle[];
  invalid: string[];
  outcomes: Outcome[];
  /** Per configuration: up to a few undetected tamperings. */
  misses: Record<AblationId, Example[]>;
  /** Byte mutations that did not parse, and all byte mutations. */
  byteUnparseable: number;
  byteTotal: number;
  /** Whether the on-chain lookup, log consistency and A7 could run. */
  capabilities: { onchain: boolean; consistency: boolean; equivocation: boolean };
  /** Claims the certificate rendered but the C0 verifier blocked on untampered bundles. */
  untamperedClaimBlocks: { blocked: number; rendered: number };
}

export interface HarnessOptions {
  seed: number;
  /** Byte mutations per bundle (default 20). */
  byteMutations?: number;
  onProgress?: (message: string) => void;
}

/** A lookup that asks the chain once per distinct anchor (the answer cannot change between calls). */
function memoizedLookup(lookup: AnchorLookup): AnchorLookup {
  const cache = new Map<string, Promise<AnchorRecord>>();
  return (anchor: Anchor) => {
    const key = [
      anchor.chain_id,
      anchor.contract.toLowerCase(),
      anchor.tx_hash,
      anchor.block_number,
      anchor.batch_root,
    ].join('/');
    let record = cache.get(key);
    if (!record) {
      record = lookup(anchor);
      cache.set(key, record);
    }
    return record;
  };
}

/** Runs every attack on every bundle of `directory` and scores it under every configuration. */
export async function runAttackHarness(directory: string, options: HarnessOptions): Promise<HarnessResult> {
  const say = options.onProgress ?? (() => {});
  const loaded = await readBundleDirectory(directory);
  if (loaded.bundles.length === 0) {
    throw new AttackError('NO_BUNDLES', `No bundles in ${directory}; generate some with --generate N.`);
  }
  let anvil: AnvilHandle | undefined;
  let chainDir: string | undefined;
  try {
    let anchorLookup: AnchorLookup | undefined;
    if (loaded.chainStateFile) {
      chainDir = await mkdtemp(path.join(tmpdir(), 'saksi-attack-chain-'));
      const stateFile = path.join(chainDir, 'state.json');
      await cp(loaded.chainStateFile, stateFile);
      anvil = await startAnvil({ stateFile, chainId: 31337 });
      anchorLookup = memoizedLookup(createRegistryLookup({ rpcUrl: anvil.rpcUrl }));
    }
    const checkpoints = loaded.checkpoints;
    const base: VerifyBundleOptions = {
      ...loaded.trust,
      ...(anchorLookup ? { anchorLookup } : {}),
      ...(checkpoints
        ? {
            lastCheckpoint: checkpoints.latest,
            fetchConsistencyProof: async (first: number, second: number) => {
              if (second !== checkpoints.latest_size) throw new Error('no such proof');
              const proof = checkpoints.consistency[first];
              if (!proof) throw new Error('no such proof');
              return proof;
            },
          }
        : {}),
      vocabulary: SAKSI_VOCABULARY,
    };
    let equivocationContext: EquivocationContext | undefined;
    if (checkpoints && loaded.logOperatorKey) {
      const key = parseSignerKey(loaded.logOperatorKey);
      equivocationContext = {
        logSigner: createNoteSigner(key.name, key.secretKey),
        latest: checkpoints.latest,
        consistencyTo: (size) => checkpoints.consistency[size],
      };
    }
    const questions = loaded.bundles.map((entry) => entry.question);
    const attacker = attackerKeys(options.seed);
    const outcomes: Outcome[] = [];
    const misses = Object.fromEntries(ABLATIONS.map((ablation) => [ablation.id, [] as Example[]])) as Record<
      AblationId,
      Example[]
    >;
    let byteUnparseable = 0;
    let byteTotal = 0;
    const untamperedClaimBlocks = { blocked: 0, rendered: 0 };
    const started = performance.now();

    for (const [index, entry] of loaded.bundles.entries()) {
      const context: MutationContext = {
        random: createRandom((options.seed * 1_000_003 + index * 7919) >>> 0),
        attacker,
        language: entry.language,
        otherQuestions: questions,
        ...(equivocationContext ? { equivocation: equivocationContext } : {}),
      };
      const verifyAs = async (input: unknown, tampering?: Tampering): Promise<BundleVerification> =>
        verifyBundle(input, {
          ...base,
          presentedQuestion: tampering?.presentedQuestion ?? entry.question,
          ...(tampering?.lastCheckpoint !== undefined ? { lastCheckpoint: tampering.lastCheckpoint } : {}),
          ...(tampering?.consistencyProof !== undefined
            ? { consistencyProof: tampering.consistencyProof }
            : {}),
        });

      const genuine = await verifyAs(entry.bundle);
      const genuineRecheck = recheckClaims(entry.bundle, entry.language);
      const genuineTexts = new Map(
        entry.bundle.certificate.claims.map((claim) => [claim.claim_id, claim.text]),
      );
      const baseline = new Map<AblationId, Set<string>>();
      for (const ablation of ABLATIONS) {
        const decision = decide(ablation, entry.bundle, genuine, { recheck: genuineRecheck });
        const shown = new Set([...decision.rendered].filter(([, shown]) => shown).map(([id]) => id));
        baseline.set(ablation.id, shown);
        outcomes.push({
          bundle: index,
          attack: 'NONE',
          kind: 'untampered',
          variant: 'none',
          config: ablation.id,
          detected: decision.verdict === 'failed',
          inconsistent: decision.codes.includes('CHECKPOINT_INCONSISTENT'),
          falseShown: false,
          utility: null,
        });
        if (ablation.id === 'C0') {
          for (const claim of entry.bundle.certificate.claims) {
            if (!claim.render.rendered) continue;
            untamperedClaimBlocks.rendered++;
            if (!shown.has(claim.claim_id)) untamperedClaimBlocks.blocked++;
          }
        }
      }

      for (const tampering of allTamperings(entry.bundle, context, options.byteMutations ?? 20)) {
        if (tampering.attack === 'BYTE') {
          byteTotal++;
          if (tampering.unparseable) byteUnparseable++;
        }
        const verification = tampering.unparseable ? null : await verifyAs(tampering.bundle, tampering);
        const presented = certificateOf(tampering.bundle);
        const extras = {
          ...(tampering.unparseable ? { unparseable: true } : {}),
          ...(tampering.displayed !== undefined
            ? {
                displayOk:
                  presented !== null &&
                  sha256Hex(normalizeText(tampering.displayed)) === presented.answer.sha256,
              }
            : {}),
          recheck: recheckClaims(tampering.bundle, entry.language),
        };
        for (const ablation of ABLATIONS) {
          const decision = decide(ablation, tampering.bundle, verification, extras);
          const falseShown = tampering.altered.some((id) => decision.rendered.get(id) === true);
          const allBlocked = tampering.altered.length > 0 && !falseShown;
          const detected = decision.verdict === 'failed' || allBlocked;
          const expected = baseline.get(ablation.id)!;
          let utility: number | null = null;
          if (expected.size > 0) {
            if (falseShown) utility = 0;
            else {
              const texts = new Map(presented?.claims.map((claim) => [claim.claim_id, claim.text]) ?? []);
              let kept = 0;
              for (const id of expected) {
                if (
                  decision.rendered.get(id) === true &&
                  !tampering.altered.includes(id) &&
                  texts.get(id) === genuineTexts.get(id)
                )
                  kept++;
              }
              utility = kept / expected.size;
            }
          }
          outcomes.push({
            bundle: index,
            attack: tampering.attack,
            kind: tampering.kind,
            variant: tampering.variant,
            config: ablation.id,
            detected,
            inconsistent: decision.codes.includes('CHECKPOINT_INCONSISTENT'),
            falseShown,
            utility,
          });
          const list = misses[ablation.id];
          const undetected =
            tampering.attack === 'A7' ? !decision.codes.includes('CHECKPOINT_INCONSISTENT') : !detected;
          if (undetected && list.filter((example) => example.attack === tampering.attack).length < 3) {
            list.push({
              file: entry.file,
              attack: tampering.attack,
              kind: tampering.kind,
              variant: tampering.variant,
              description: tampering.description,
              codes: decision.codes,
            });
          }
        }
      }
      if ((index + 1) % 25 === 0) {
        say(`Attacked ${index + 1} of ${loaded.bundles.length} bundles (${seconds(started)} s).`);
      }
    }
    return {
      bundles: loaded.bundles,
      invalid: loaded.invalid,
      outcomes,
      misses,
      byteUnparseable,
      byteTotal,
      capabilities: {
        onchain: anchorLookup !== undefined,
        consistency: checkpoints !== null,
        equivocation: equivocationContext !== undefined,
      },
      untamperedClaimBlocks,
    };
  } finally {
    await anvil?.stop();
    if (chainDir) await rm(chainDir, { recursive: true, force: true });
  }
}

function certificateOf(input: unknown): Bundle['certificate'] | null {
  try {
    return validateBundle(input).certificate;
  } catch {
    return null;
  }
}

/**
 * The verifier re-runs the lexical entailment check (the engine's default verifier) on every claim
 * against its evidence spans: true when entailed. Undefined when the bundle does not validate.
 */
export function recheckClaims(input: unknown, language: 'id' | 'en'): boolean[] | undefined {
  const certificate = certificateOf(input);
  if (!certificate) return undefined;
  return certificate.claims.map((claim) => {
    if (claim.evidence.length === 0) return false;
    const spans = claim.evidence.map((evidence) => evidence.span.text).join('\n');
    // A code the claim cites ("Pasal 287 ayat (2)") may align to its citation's headings.
    const headings = claim.evidence
      .flatMap(({ citation }) => [
        citation.label ?? '',
        ...(citation.section_path ?? []),
        citation.document_title,
      ])
      .join('\n');
    return checkEntailment(claim.text, spans, language, { context: headings }).label === 'entailed';
  });
}
