/**
 * The default `local` anchor provider: the anvil binary from `@foundry-rs/anvil`, on loopback, its
 * chain persisted in `<data>/anvil/state.json`; DocumentRegistry deployed on first use and its address
 * kept in `<data>/anvil/deployment.json`, so anchors still verify after a restart.
 *
 * The RPC URL stays the same across restarts: the first start lets anvil pick a free port and keeps
 * it in `<data>/anvil/rpc.json`; later starts ask for that port again, and fail with a clear error
 * (anchoring disabled, the server still up) when another program holds it. `SAKSI_ANVIL_PORT` chooses
 * the port (0: a new free one); the port it ends up on is kept the same way.
 *
 * A server killed with SIGKILL leaves its anvil running; the pid file lets the next start stop it
 * cleanly (SIGTERM makes anvil dump its state) before starting a fresh one on the same state.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ANVIL_DEFAULT_CHAIN_ID,
  ANVIL_DEFAULT_PRIVATE_KEY,
  AnvilError,
  type AnvilHandle,
  deployDocumentRegistry,
  startAnvil,
} from '@saksi/contracts';
import type { Address, Hex } from 'viem';
import { type AnchorProvider, createEvmAnchorProvider } from './provider.js';

interface Deployment {
  chain_id: number;
  contract: Address;
  tx_hash: Hex;
  block_number: number;
  deployed_at: string;
}

export async function startLocalAnchorProvider(options: {
  dataDir: string;
  /** Start anvil with automine off (tests of pending transactions). */
  noMining?: boolean;
  /** The port to listen on (0: a free one); default: the one kept in `<data>/anvil/rpc.json`, else a free one. */
  port?: number;
  onWarning?: (message: string) => void;
}): Promise<AnchorProvider> {
  const directory = path.join(options.dataDir, 'anvil');
  await mkdir(directory, { recursive: true });
  const pidFile = path.join(directory, 'anvil.pid');
  await stopStaleAnvil(pidFile);
  const rpcFile = path.join(directory, 'rpc.json');
  const kept = await readKeptPort(rpcFile);
  const port = options.port ?? kept ?? 0;
  let anvil: AnvilHandle;
  try {
    anvil = await startAnvil({
      stateFile: path.join(directory, 'state.json'),
      chainId: ANVIL_DEFAULT_CHAIN_ID,
      port,
      ...(options.noMining ? { noMining: true } : {}),
    });
  } catch (error) {
    if (error instanceof AnvilError && error.code === 'PORT_IN_USE') {
      const why =
        options.port === undefined
          ? `the port this data directory's chain listens on (kept in ${rpcFile}, so its URL stays the same across restarts)`
          : 'the port SAKSI_ANVIL_PORT asks for';
      throw new AnvilError(
        'PORT_IN_USE',
        `The local chain cannot start: 127.0.0.1:${port}, ${why}, is in use by another program. Stop that program, or set SAKSI_ANVIL_PORT to another port (0 picks a free one, which is then kept).`,
        { cause: error },
      );
    }
    throw error;
  }
  await writeFile(pidFile, `${anvil.pid}\n`);
  if (anvil.port !== kept) {
    await writeFile(rpcFile, `${JSON.stringify({ port: anvil.port, rpc_url: anvil.rpcUrl }, null, 2)}\n`);
  }
  const stop = async () => {
    await anvil.stop();
    await rm(pidFile, { force: true });
  };
  try {
    const deploymentFile = path.join(directory, 'deployment.json');
    let deployment = await readDeployment(deploymentFile);
    const hasCode = deployment ? await contractExists(anvil.rpcUrl, deployment.contract) : false;
    if (!deployment || !hasCode) {
      if (deployment) {
        options.onWarning?.(
          `The local chain no longer has DocumentRegistry at ${deployment.contract} (its state was lost); deploying a new one. Anchors made on the old one cannot be checked on chain any more.`,
        );
      }
      const deployed = await deployDocumentRegistry({
        rpcUrl: anvil.rpcUrl,
        chainId: anvil.chainId,
        privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
      });
      deployment = {
        chain_id: anvil.chainId,
        contract: deployed.address,
        tx_hash: deployed.txHash,
        block_number: deployed.blockNumber,
        deployed_at: new Date().toISOString(),
      };
      await writeFile(deploymentFile, `${JSON.stringify(deployment, null, 2)}\n`);
    }
    return await createEvmAnchorProvider({
      kind: 'local',
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
      contract: deployment.contract,
      fromBlock: deployment.block_number,
      onClose: stop,
    });
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The port kept by an earlier start; null when there is none or the file is unreadable. */
async function readKeptPort(file: string): Promise<number | null> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { port?: unknown };
    const port = parsed.port;
    return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65_536 ? port : null;
  } catch {
    return null;
  }
}

async function readDeployment(file: string): Promise<Deployment | null> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Deployment;
    return /^0x[0-9a-fA-F]{40}$/.test(parsed.contract) ? parsed : null;
  } catch {
    return null;
  }
}

async function contractExists(rpcUrl: string, address: Address): Promise<boolean> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getCode', params: [address, 'latest'] }),
  });
  const body = (await response.json()) as { result?: string };
  return typeof body.result === 'string' && body.result !== '0x';
}

/** Stops an anvil left running by a killed server (only if the pid really is an anvil). */
async function stopStaleAnvil(pidFile: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!Number.isSafeInteger(pid) || pid <= 1) return;
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return; // not running (or no /proc): nothing to stop
  }
  if (!command.includes('anvil')) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (!existsSync(`/proc/${pid}`)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
