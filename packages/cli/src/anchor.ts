/**
 * `saksi anchor status [document] | run | deploy`: where document roots stand on chain (docs/anchoring.md).
 * `status` reads a running server (`--server`) or this data directory; `run` anchors the waiting
 * documents now (embedded database, server stopped); `deploy` puts a DocumentRegistry on a chain.
 */

import {
  ANVIL_DEFAULT_PRIVATE_KEY,
  CHAIN_PRESETS,
  type ChainPresetName,
  deployDocumentRegistry,
  explorerAddressUrl,
  explorerTxUrl,
} from '@saksi/contracts';
import type { AnchorRoundSummary, AnchorStatus } from '@saksi/engine';
import { plural } from '@saksi/proof';
import { type Command, expectPositionals, flag, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine } from './engine-io.js';
import { CliError, type Io, type Style, styleFor, UsageError } from './io.js';
import { safeText } from './text.js';

export const anchorCommand: Command = {
  name: 'anchor',
  summary: 'Show anchoring status, anchor waiting documents now, or deploy the registry contract',
  usage:
    'saksi anchor status [document-id] [--server <url>] [--json] | run [--json] | require <collection> [--off] | deploy --rpc <url> [--chain <preset|id>]',
  help: `Document roots are anchored on an EVM chain in rounds: one transaction per round writes the
RFC 6962 root over every waiting document root (and the latest log root) to DocumentRegistry.
  status [document-id]   rounds, documents per state (PENDING_ANCHOR, ANCHORING, ANCHORED); for one
                         document its round, transaction, block, batch root and batch proof
  run                    anchor the waiting documents now, on the configured chain (SAKSI_ANCHOR;
                         default local: anvil in the data directory). Stop a running server first
                         when it uses the embedded database — it anchors by itself every few seconds
  require <collection>   collection policy: certificates block claims whose evidence is not yet
                         anchored (reason ANCHOR_REQUIRED); --off lifts it
  deploy                 deploy DocumentRegistry; prints the address for SAKSI_ANCHOR_CONTRACT.
                         The key comes from SAKSI_ANCHOR_PRIVATE_KEY (never from a flag)

Options:
  --server <url>       status: ask a running server (GET <url>/api/v1/anchors) instead of the data directory;
                       $SAKSI_API_KEY is sent for a document of a private collection
  --rpc <url>          deploy: the chain's JSON-RPC endpoint (default: the --chain preset's public RPC)
  --chain <name|id>    deploy: base-sepolia, base, or a chain id (default: the RPC's own)
  --json               machine-readable output`,
  options: {
    server: { type: 'string' },
    rpc: { type: 'string' },
    chain: { type: 'string' },
    json: { type: 'boolean' },
    off: { type: 'boolean' },
  },
  run: runAnchor,
};

async function runAnchor(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const [action, ...rest] = positionals;
  switch (action) {
    case 'status':
      return status(values, rest, io);
    case 'run':
      expectPositionals(rest, []);
      return runNow(values, io);
    case 'deploy':
      expectPositionals(rest, []);
      return deploy(values, io);
    case 'require': {
      const [collection] = expectPositionals(rest, ['<collection>']) as [string];
      return requireAnchors(collection, !flag(values, 'off'), io);
    }
    default:
      throw new UsageError(
        action
          ? `unknown anchor action ${JSON.stringify(action)}`
          : 'name an action: status, run, require or deploy',
      );
  }
}

async function status(values: OptionValues, rest: readonly string[], io: Io): Promise<number> {
  if (rest.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(rest[1])}`);
  const documentId = rest[0];
  const server = stringOption(values, 'server');
  let result: AnchorStatus;
  if (server) {
    result = await fetchStatus(server, documentId, io.env['SAKSI_API_KEY']);
  } else {
    const engine = await openEngine(configFrom(io));
    try {
      result = await engine.anchoring.status(documentId ? { documentId } : {});
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'NOT_FOUND') {
        throw new CliError(`no document ${safeText(documentId ?? '')} in this data directory`, {
          exitCode: 1,
        });
      }
      throw error;
    } finally {
      await engine.close();
    }
  }
  if (flag(values, 'json')) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  io.stdout.write(renderStatus(result, styleFor(io.stdout, io.env)));
  return 0;
}

/** A private collection's document needs a key of its workspace: `$SAKSI_API_KEY` is sent when set. */
async function fetchStatus(
  server: string,
  documentId: string | undefined,
  apiKey: string | undefined,
): Promise<AnchorStatus> {
  let url: URL;
  try {
    url = new URL(
      `api/v1/anchors${documentId ? `/${encodeURIComponent(documentId)}` : ''}`,
      server.endsWith('/') ? server : `${server}/`,
    );
  } catch {
    throw new UsageError('--server must be a URL such as http://127.0.0.1:3000');
  }
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(15_000),
      ...(apiKey ? { headers: { authorization: `Bearer ${apiKey}` } } : {}),
    });
  } catch (error) {
    throw new CliError(
      `cannot reach ${safeText(url.origin)}: ${error instanceof Error ? error.message : String(error)}`,
      {
        exitCode: 1,
      },
    );
  }
  const body = (await response.json().catch(() => null)) as
    | (AnchorStatus & { error?: { code: string; message: string } })
    | null;
  if (!response.ok || !body || body.error) {
    throw new CliError(
      `${safeText(url.origin)} answered ${response.status}: ${safeText(body?.error?.message ?? 'no JSON body')}`,
      {
        exitCode: 1,
      },
    );
  }
  return body;
}

export function renderStatus(result: AnchorStatus, style: Style): string {
  const lines: string[] = [];
  const chain = result.chain;
  lines.push(
    `Anchoring: ${result.provider}${chain ? ` — chain ${chain.chain_id}, DocumentRegistry ${chain.contract}${chain.rpc_url ? ` (${chain.rpc_url})` : ''}` : ''}`,
  );
  const counts = ['ANCHORED', 'ANCHORING', 'PENDING_ANCHOR'].map(
    (state) => `${result.documents[state] ?? 0} ${state}`,
  );
  lines.push(`Documents: ${counts.join(', ')}`);
  const document = result.document;
  if (document) {
    const mark = document.anchor_state === 'ANCHORED' ? style.green('✓') : style.yellow('…');
    lines.push('', `${mark} ${safeText(document.title)} (${document.id})`);
    lines.push(`  state:        ${document.anchor_state}`);
    lines.push(`  root:         ${document.root ?? '(none)'}`);
    const anchor = document.anchor;
    if (anchor) {
      lines.push(`  chain:        ${anchor.chain_id}, contract ${anchor.contract}`);
      lines.push(`  transaction:  ${anchor.tx_hash} (block ${anchor.block_number})`);
      if (document.explorer_url) lines.push(`  explorer:     ${document.explorer_url}`);
      lines.push(`  batch root:   ${anchor.batch_root}`);
      lines.push(
        `  batch proof:  leaf ${anchor.batch_proof.leaf_index} of ${anchor.batch_proof.tree_size}, ${plural(anchor.batch_proof.path.length, 'hash', 'hashes')}`,
      );
    }
  }
  if (result.rounds.length > 0) {
    lines.push('', document ? 'Round:' : 'Rounds (newest first):');
    for (const round of result.rounds) lines.push(roundLine(round, style));
  } else if (!document) {
    lines.push('', 'No anchoring rounds yet.');
  }
  return `${lines.join('\n')}\n`;
}

function roundLine(round: AnchorRoundSummary, style: Style): string {
  const state =
    round.status === 'CONFIRMED'
      ? style.green(round.status)
      : round.status === 'SENT'
        ? style.yellow(round.status)
        : round.status;
  const where = round.tx_hash
    ? ` tx ${round.tx_hash}${round.block_number !== null ? ` block ${round.block_number}` : ''}`
    : '';
  const explorer = round.explorer_url ? `\n      ${round.explorer_url}` : '';
  const error = round.last_error ? `\n      last error: ${safeText(round.last_error)}` : '';
  return `  ${round.id} ${state} ${plural(round.size, 'root')}${round.log_size !== null ? ` (incl. log size ${round.log_size})` : ''}${where}${explorer}${error}`;
}

async function runNow(values: OptionValues, io: Io): Promise<number> {
  const config = configFrom(io);
  if (config.anchor.provider === 'none') {
    throw new CliError('anchoring is off (SAKSI_ANCHOR=none)', {
      hint: 'Set SAKSI_ANCHOR=local (default) or evm.',
    });
  }
  const engine = await openEngine(config);
  const json = flag(values, 'json');
  try {
    const rounds = (await engine.anchoring.runNow()) ?? [];
    if (json) io.stdout.write(`${JSON.stringify({ rounds }, null, 2)}\n`);
    else if (rounds.length === 0) io.stdout.write('Nothing waits to be anchored.\n');
    else {
      const style = styleFor(io.stdout, io.env);
      for (const round of rounds) {
        io.stdout.write(
          `${round.status === 'CONFIRMED' ? style.green('✓') : style.yellow('…')} round ${round.id}: ${plural(round.size, 'root')}, ${round.status}, tx ${round.tx_hash ?? '-'}${round.block_number !== null ? ` block ${round.block_number}` : ''}\n`,
        );
      }
    }
    return rounds.every((round) => round.status === 'CONFIRMED') ? 0 : 1;
  } finally {
    await engine.close();
  }
}

async function deploy(values: OptionValues, io: Io): Promise<number> {
  const chainText = stringOption(values, 'chain');
  const preset =
    chainText && chainText in CHAIN_PRESETS ? CHAIN_PRESETS[chainText as ChainPresetName] : undefined;
  if (chainText && !preset && !/^\d{1,12}$/.test(chainText)) {
    throw new UsageError(`--chain must be ${Object.keys(CHAIN_PRESETS).join(', ')} or a chain id`);
  }
  const rpcUrl = stringOption(values, 'rpc') ?? preset?.rpcUrl;
  if (!rpcUrl) throw new UsageError('--rpc <url> is required (or --chain with a preset)');
  const key = io.env['SAKSI_ANCHOR_PRIVATE_KEY'];
  if (key !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new CliError('SAKSI_ANCHOR_PRIVATE_KEY must be 0x followed by 64 hex digits');
  }
  const chainId = preset?.chainId ?? (chainText ? Number(chainText) : await remoteChainId(rpcUrl));
  if (!key && chainId !== 31337) {
    throw new CliError("set SAKSI_ANCHOR_PRIVATE_KEY to the deploying account's key", {
      hint: 'Only a local anvil chain (31337) falls back to its well-known development key.',
    });
  }
  const deployed = await deployDocumentRegistry({
    rpcUrl,
    chainId,
    privateKey: (key as `0x${string}` | undefined) ?? ANVIL_DEFAULT_PRIVATE_KEY,
  }).catch((error: unknown) => {
    throw new CliError(error instanceof Error ? error.message : String(error), { exitCode: 1 });
  });
  if (flag(values, 'json')) {
    io.stdout.write(`${JSON.stringify({ chain_id: chainId, ...deployed }, null, 2)}\n`);
    return 0;
  }
  io.stdout.write(
    `DocumentRegistry deployed on chain ${chainId} at ${deployed.address} (block ${deployed.blockNumber}).\n`,
  );
  const links = [
    explorerAddressUrl(chainId, deployed.address),
    explorerTxUrl(chainId, deployed.txHash),
  ].filter(Boolean);
  for (const link of links) io.stdout.write(`  ${link}\n`);
  io.stdout.write(`Configure: SAKSI_ANCHOR_CONTRACT=${deployed.address} SAKSI_ANCHOR_CHAIN_ID=${chainId}\n`);
  return 0;
}

async function remoteChainId(rpcUrl: string): Promise<number> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json()) as { result?: string };
    if (!body.result) throw new Error('no result');
    return Number(BigInt(body.result));
  } catch (error) {
    throw new CliError(
      `cannot read the chain id from the RPC endpoint: ${error instanceof Error ? error.message : String(error)}`,
      {
        exitCode: 1,
      },
    );
  }
}

async function requireAnchors(collection: string, required: boolean, io: Io): Promise<number> {
  const engine = await openEngine(configFrom(io));
  try {
    await engine.collections.setPolicy(collection, { require_anchor: required });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'NOT_FOUND') {
      throw new CliError(`no collection ${safeText(collection)}`, { exitCode: 1 });
    }
    throw error;
  } finally {
    await engine.close();
  }
  io.stdout.write(
    required
      ? `Collection "${safeText(collection)}" now requires anchors: claims whose evidence is not anchored on chain are blocked (ANCHOR_REQUIRED).\n`
      : `Collection "${safeText(collection)}" no longer requires anchors.\n`,
  );
  return 0;
}
