/**
 * Starts the `anvil` binary shipped in `@foundry-rs/anvil` (its platform package) on loopback: the
 * local chain of the default `local` anchor provider and of the contract tests. Node only.
 *
 * With `stateFile`, anvil loads the chain from it on start and dumps it every `stateInterval` seconds
 * and on a clean exit (SIGTERM), so anchors survive a restart; a SIGKILL loses at most the last interval.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';

/** anvil's first default account (mnemonic "test test … junk"): a well-known key for local chains only. */
export const ANVIL_DEFAULT_PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const ANVIL_DEFAULT_CHAIN_ID = 31337;

export interface AnvilOptions {
  /** Persist the chain here (`--state`); omitted: an ephemeral chain. */
  stateFile?: string;
  /** Seconds between state dumps (default 1). */
  stateInterval?: number;
  chainId?: number;
  /** 0 (default) lets anvil pick a free port; another port that is taken fails with `PORT_IN_USE`. */
  port?: number;
  /** Start with automine off (`--no-mining`): transactions wait for `evm_mine` (tests). */
  noMining?: boolean;
  /** Binary to run; default: `SAKSI_ANVIL_BIN`, then the `@foundry-rs/anvil` platform package, then `anvil` on PATH. */
  binary?: string;
  /** Milliseconds to wait for "Listening on" (default 30 000). */
  startTimeoutMs?: number;
}

export interface AnvilHandle {
  rpcUrl: string;
  port: number;
  pid: number;
  chainId: number;
  /** SIGTERM (anvil dumps its state), then SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/** Why anvil could not be started: its port is taken, or it failed or timed out on start. */
export type AnvilErrorCode = 'PORT_IN_USE' | 'START_FAILED';

export class AnvilError extends Error {
  override readonly name = 'AnvilError';
  readonly code: AnvilErrorCode;

  constructor(code: AnvilErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Path of the anvil binary for this platform. */
export function anvilBinary(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env['SAKSI_ANVIL_BIN']) return env['SAKSI_ANVIL_BIN'];
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const require = createRequire(import.meta.url);
  try {
    const manifest = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
    const binary = path.join(
      path.dirname(manifest),
      'bin',
      process.platform === 'win32' ? 'anvil.exe' : 'anvil',
    );
    if (existsSync(binary)) return binary;
  } catch {
    // fall through to PATH
  }
  return 'anvil';
}

export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilHandle> {
  const chainId = options.chainId ?? ANVIL_DEFAULT_CHAIN_ID;
  const port = options.port ?? 0;
  if (port !== 0) await assertPortFree(port);
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId)];
  if (options.stateFile) {
    args.push('--state', options.stateFile, '--state-interval', String(options.stateInterval ?? 1));
  }
  if (options.noMining) args.push('--no-mining');
  const binary = options.binary ?? anvilBinary();
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const listening = await waitForListening(child, port, options.startTimeoutMs ?? 30_000);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    rpcUrl: `http://127.0.0.1:${listening}`,
    port: listening,
    pid: child.pid!,
    chainId,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Fails with `PORT_IN_USE` when something already listens on 127.0.0.1:`port`. */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? portInUse(port, error)
          : new AnvilError(
              'START_FAILED',
              `anvil cannot use port ${port} (${error.code ?? error.message}).`,
              {
                cause: error,
              },
            ),
      );
    });
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve()));
  });
}

function portInUse(port: number, cause?: unknown): AnvilError {
  return new AnvilError('PORT_IN_USE', `Port ${port} on 127.0.0.1 is already in use by another program.`, {
    cause,
  });
}

function waitForListening(child: ChildProcess, port: number, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const fail = (message: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      // Taken between the probe and anvil's own bind.
      if (port !== 0 && /address already in use/i.test(output)) reject(portInUse(port));
      else reject(new AnvilError('START_FAILED', `${message}${output ? `\n${output.slice(-2_000)}` : ''}`));
    };
    const timer = setTimeout(() => fail(`anvil did not start within ${timeoutMs} ms.`), timeoutMs);
    const onData = (data: Buffer) => {
      output += data.toString('utf8');
      const match = /Listening on [\d.]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        // Keep draining so a full pipe never blocks anvil.
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (data: Buffer) => {
      output += data.toString('utf8');
    });
    child.once('error', (error) => fail(`anvil could not be started (${error.message}).`));
    child.once('exit', (code, signal) => fail(`anvil exited during start-up (${signal ?? `code ${code}`}).`));
  });
}
