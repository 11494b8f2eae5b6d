/**
 * The local chain's RPC URL stays the same across restarts: the port anvil first picked is kept in
 * `<data>/anvil/rpc.json` and asked for again; a port another program holds is a clear
 * `PORT_IN_USE`, never a silent move to another URL.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AnvilError } from '@saksi/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalAnchorProvider } from './local.js';

let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'saksi-local-chain-'));
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function kept(): Promise<{ port: number; rpc_url: string }> {
  return JSON.parse(await readFile(path.join(dataDir, 'anvil', 'rpc.json'), 'utf8'));
}

async function listenOn(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1' }, resolve);
  });
  return server;
}

describe('the local chain across restarts', () => {
  it('keeps the RPC URL of its first start', async () => {
    const first = await startLocalAnchorProvider({ dataDir });
    const url = first.rpcUrl;
    const contract = first.contract;
    await first.close();
    expect(await kept()).toEqual({ port: Number(new URL(url).port), rpc_url: url });

    const second = await startLocalAnchorProvider({ dataDir });
    try {
      expect(second.rpcUrl).toBe(url);
      expect(second.contract).toBe(contract);
    } finally {
      await second.close();
    }
  });

  it('fails with PORT_IN_USE, naming the kept port, when another program holds it', async () => {
    const { port, rpc_url } = await kept();
    const squatter = await listenOn(port);
    try {
      const error = await startLocalAnchorProvider({ dataDir }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AnvilError);
      expect((error as AnvilError).code).toBe('PORT_IN_USE');
      expect((error as AnvilError).message).toContain(String(port));
      expect((error as AnvilError).message).toContain('rpc.json');
      // Nothing was moved: the kept URL is still the one a user saved.
      expect((await kept()).rpc_url).toBe(rpc_url);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it('SAKSI_ANVIL_PORT=0 (port 0) picks a new free port and keeps that one', async () => {
    const before = await kept();
    const squatter = await listenOn(before.port);
    let moved: string;
    try {
      const provider = await startLocalAnchorProvider({ dataDir, port: 0 });
      moved = provider.rpcUrl;
      await provider.close();
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    expect(moved).not.toBe(before.rpc_url);
    expect((await kept()).rpc_url).toBe(moved);
    const again = await startLocalAnchorProvider({ dataDir });
    try {
      expect(again.rpcUrl).toBe(moved);
    } finally {
      await again.close();
    }
  });
});
