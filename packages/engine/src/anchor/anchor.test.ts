/**
 * Anchoring end to end on a real anvil: the default `local` provider (anvil in the data directory,
 * contract deployed once), rounds with one transaction each, certificates carrying anchors that
 * verify on chain, a restart that keeps them verifiable, and reconciliation of a round whose
 * transaction was sent but not mined when the service stopped.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ANVIL_DEFAULT_PRIVATE_KEY,
  type AnvilHandle,
  createRegistryLookup,
  deployDocumentRegistry,
  documentRegistryAbi,
  startAnvil,
} from '@saksi/contracts';
import { type Bundle, trustOptions, utf8Encode, verifyBundle } from '@saksi/proof';
import { signCertificate } from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { Engine } from '../engine.js';
import { createEvmAnchorProvider } from './provider.js';
import { type AnchorEvent, AnchorService } from './service.js';

const shared = path.resolve(import.meta.dirname, '../../../../../shared/data');
const uu22 = new Uint8Array(
  readFileSync(path.join(shared, 'corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md')),
);
const note = (text: string) =>
  utf8Encode(`# ${text}\n\nPasal 1\n\n${text} wajib dipatuhi oleh setiap orang.\n`);

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await response.json()) as { result: unknown }).result;
}

describe('local provider', () => {
  let test: TestEngine;
  const events: AnchorEvent[] = [];
  beforeAll(async () => {
    test = await openTestEngine({ env: { SAKSI_ANCHOR: 'local' } });
    await test.engine.ingest('lalu-lintas', { bytes: uu22, filename: 'uu-22-2009.md', title: 'UU 22/2009' });
    await test.engine.ingest('lalu-lintas', { bytes: note('Helm'), filename: 'helm.md' });
  });
  afterAll(async () => {
    await test?.engine.close();
    await test?.close();
  });

  it('anchors every waiting document in one round, one transaction', async () => {
    const listed = await test.engine.documents.list({ collection: 'lalu-lintas' });
    expect(listed.items.map((d) => d.anchor_state)).toEqual(['PENDING_ANCHOR', 'PENDING_ANCHOR']);
    const rounds = await test.engine.anchoring.runNow({ onEvent: (event) => events.push(event) });
    expect(rounds).toHaveLength(1);
    const round = rounds![0]!;
    expect(round.status).toBe('CONFIRMED');
    expect(round.size).toBe(2); // two documents; the log is still empty
    expect(round.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(events.map((e) => e.type)).toEqual(['round-built', 'round-sent', 'round-confirmed']);
    const after = await test.engine.documents.list({ collection: 'lalu-lintas' });
    expect(after.items.map((d) => d.anchor_state)).toEqual(['ANCHORED', 'ANCHORED']);
    // Nothing waits any more: no new round, no new transaction.
    expect(await test.engine.anchoring.runNow()).toEqual([]);
    const status = await test.engine.anchoring.status({ documentId: after.items[0]!.id });
    expect(status.document?.anchor?.batch_root).toBe(round.batch_root);
    expect(status.document?.anchor?.tx_hash).toBe(round.tx_hash);
    expect(status.chain?.chain_id).toBe(31337);
  });

  let bundle: Bundle;
  it('certificates carry the anchors, and they verify on chain', async () => {
    const result = await test.engine.ask('lalu-lintas', {
      question: 'Apakah pengendara wajib memakai helm?',
    });
    bundle = result.bundle;
    const evidence = bundle.certificate.claims.flatMap((claim) => claim.evidence);
    expect(evidence.length).toBeGreaterThan(0);
    for (const item of evidence) expect(item.anchor?.chain_id).toBe(31337);
    const verification = await test.engine.verify(bundle);
    expect(verification.codes).toEqual([]);
    expect(verification.checks.find((check) => check.id === 'anchor_onchain')?.status).toBe('pass');
    expect(verification.checks.find((check) => check.id === 'anchor_proofs')?.status).toBe('pass');
  });

  it('a re-signed certificate with tampered anchor fields fails with anchor codes', async () => {
    const lookup = test.engine.anchoring.lookup()!;
    const options = { ...trustOptions(test.engine.trustedKeys()), anchorLookup: lookup };
    const tamper = async (
      edit: (anchor: NonNullable<Bundle['certificate']['claims'][0]['evidence'][0]['anchor']>) => void,
    ) => {
      const copy = structuredClone(bundle);
      edit(copy.certificate.claims[0]!.evidence[0]!.anchor!);
      copy.signature = signCertificate(copy.certificate, test.engine.keys.issuerSecretKey);
      return (await verifyBundle(copy, { ...options, vocabulary: SAKSI_VOCABULARY })).codes;
    };
    expect(await tamper((a) => (a.tx_hash = `0x${'ab'.repeat(32)}`))).toContain('ANCHOR_MISMATCH');
    expect(await tamper((a) => (a.block_number += 1))).toContain('ANCHOR_MISMATCH');
    expect(await tamper((a) => (a.batch_root = 'cd'.repeat(32)))).toContain('ANCHOR_MISMATCH');
    // A contract or chain other than the pinned registry (saksi-keys.json lists it once anchoring runs)…
    expect(options.trustedRegistries).toEqual([
      { chain_id: 31337, contract: test.engine.anchoring.chain()!.contract },
    ]);
    expect(await tamper((a) => (a.contract = `0x${'12'.repeat(20)}`))).toContain('ANCHOR_MISMATCH');
    expect(await tamper((a) => (a.chain_id = 84532))).toContain('ANCHOR_MISMATCH');
    // …and, for a verifier that pins no registry, a root the named contract does not know.
    const { trustedRegistries: _pinned, ...unpinned } = options;
    const retarget = structuredClone(bundle);
    retarget.certificate.claims[0]!.evidence[0]!.anchor!.contract = `0x${'12'.repeat(20)}`;
    retarget.signature = signCertificate(retarget.certificate, test.engine.keys.issuerSecretKey);
    expect((await verifyBundle(retarget, { ...unpinned, vocabulary: SAKSI_VOCABULARY })).codes).toContain(
      'ANCHOR_NOT_FOUND',
    );
    // Unsigned edits are caught by the signature first.
    const unsigned = structuredClone(bundle);
    unsigned.certificate.claims[0]!.evidence[0]!.anchor!.block_number += 1;
    expect((await verifyBundle(unsigned, { ...options, vocabulary: SAKSI_VOCABULARY })).codes).toContain(
      'SIGNATURE_INVALID',
    );
  });

  it('a collection policy can require anchors: unanchored evidence is blocked, anchored evidence shown', async () => {
    await test.engine.ingest('wajib-jangkar', { bytes: note('Sabuk pengaman'), filename: 'sabuk.md' });
    await test.engine.collections.setPolicy('wajib-jangkar', { require_anchor: true });
    const question = { question: 'Apakah sabuk pengaman wajib dipatuhi?' };
    const before = await test.engine.ask('wajib-jangkar', question);
    expect(before.bundle.certificate.policy.require_anchor).toBe(true);
    expect(before.bundle.certificate.claims.length).toBeGreaterThan(0);
    expect(before.bundle.certificate.claims.map((claim) => claim.render.reason)).toEqual(
      before.bundle.certificate.claims.map(() => 'ANCHOR_REQUIRED'),
    );
    await test.engine.anchoring.runNow();
    const after = await test.engine.ask('wajib-jangkar', question);
    const verification = await test.engine.verify(after.bundle);
    expect(verification.codes).toEqual([]);
    expect(verification.claims.some((claim) => claim.rendered)).toBe(true);
    expect(verification.claims.every((claim) => claim.reason !== 'ANCHOR_REQUIRED')).toBe(true);
    // Without the on-chain lookup a verifier cannot confirm the anchor, so it blocks them too.
    const offline = await verifyBundle(after.bundle, {
      ...trustOptions(test.engine.trustedKeys()),
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(offline.claims.every((claim) => claim.reason === 'ANCHOR_REQUIRED' || !claim.rendered)).toBe(true);
  });

  it('anchors survive a restart: same contract, still verifiable on chain', async () => {
    const contract = test.engine.anchoring.chain()!.contract;
    await test.engine.close();
    const reopened = await Engine.open({
      config: loadConfig({ SAKSI_DATA_DIR: test.dataDir }, test.dataDir),
    });
    test.engine = reopened;
    await reopened.anchoring.start();
    expect(reopened.anchoring.chain()!.contract).toBe(contract);
    const verification = await reopened.verify(bundle);
    expect(verification.codes).toEqual([]);
    expect(verification.checks.find((check) => check.id === 'anchor_onchain')?.status).toBe('pass');
  });
});

describe('reconciliation', () => {
  let anvil: AnvilHandle;
  let test: TestEngine;
  let contract: `0x${string}`;
  beforeAll(async () => {
    anvil = await startAnvil();
    contract = (
      await deployDocumentRegistry({
        rpcUrl: anvil.rpcUrl,
        chainId: anvil.chainId,
        privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
      })
    ).address;
    test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
  });
  afterAll(async () => {
    await test?.close();
    await anvil?.stop();
  });

  const service = async (confirmTimeoutMs: number) =>
    new AnchorService(
      test.engine.db,
      await createEvmAnchorProvider({
        rpcUrl: anvil.rpcUrl,
        chainId: anvil.chainId,
        privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
        contract,
      }),
      { batchSize: 1000, intervalMs: 1000, logIntervalMs: 600_000, confirmTimeoutMs },
    );
  it('a round sent but not mined is confirmed after a restart, with no second transaction', async () => {
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    const accounts = (await rpc(anvil.rpcUrl, 'eth_accounts')) as string[];
    const before = Number(await rpc(anvil.rpcUrl, 'eth_getTransactionCount', [accounts[0], 'latest']));
    for (const name of ['Satu', 'Dua', 'Tiga']) {
      await test.engine.ingest('anchoring', { bytes: note(name), filename: `${name}.md` });
    }
    await rpc(anvil.rpcUrl, 'evm_setAutomine', [false]);
    const first = await service(300);
    const pending = await first.runOnce();
    expect(pending?.status).toBe('SENT'); // hash stored, receipt not seen
    expect(
      (await test.engine.documents.list({ collection: 'anchoring' })).items.map((d) => d.anchor_state),
    ).toEqual(['ANCHORING', 'ANCHORING', 'ANCHORING']);
    await first.stop();
    // "Restart": a new service; the transaction is mined meanwhile.
    await rpc(anvil.rpcUrl, 'evm_mine');
    await rpc(anvil.rpcUrl, 'evm_setAutomine', [true]);
    const second = await service(10_000);
    await second.reconcile();
    const rows = await test.engine.db.query<{ status: string; tx_hash: string }>(
      'SELECT status, tx_hash FROM anchor_rounds',
    );
    expect(rows.rows).toEqual([{ status: 'CONFIRMED', tx_hash: pending!.tx_hash }]);
    const after = Number(await rpc(anvil.rpcUrl, 'eth_getTransactionCount', [accounts[0], 'latest']));
    expect(after - before).toBe(1);
    const count = await client.readContract({
      address: contract,
      abi: documentRegistryAbi,
      functionName: 'getRootCount',
    });
    expect(count).toBe(1n);
    expect(
      (await test.engine.documents.list({ collection: 'anchoring' })).items.map((d) => d.anchor_state),
    ).toEqual(['ANCHORED', 'ANCHORED', 'ANCHORED']);
    // The confirmed round verifies through the on-chain lookup.
    const anchor = {
      chain_id: anvil.chainId,
      contract,
      tx_hash: pending!.tx_hash!,
      block_number: Number(
        rows.rows.length &&
          (await client.getTransactionReceipt({ hash: pending!.tx_hash as `0x${string}` })).blockNumber,
      ),
      batch_root: pending!.batch_root,
      batch_proof: { leaf_index: 0, tree_size: 3, path: [] },
    };
    const record = await createRegistryLookup({ rpcUrl: anvil.rpcUrl })(anchor);
    expect(record.exists).toBe(true);
    expect(record.problem).toBeUndefined();
  });

  it('a round whose transaction was lost is rebroadcast from the stored bytes (same hash)', async () => {
    await test.engine.ingest('anchoring', { bytes: note('Empat'), filename: 'empat.md' });
    await rpc(anvil.rpcUrl, 'evm_setAutomine', [false]);
    const first = await service(200);
    const pending = await first.runOnce();
    expect(pending?.status).toBe('SENT');
    await first.stop();
    // The node forgets the pending transaction (as after a node restart).
    await rpc(anvil.rpcUrl, 'anvil_dropTransaction', [pending!.tx_hash]);
    await rpc(anvil.rpcUrl, 'evm_setAutomine', [true]);
    const second = await service(10_000);
    await second.reconcile();
    const row = await test.engine.db.query<{ status: string; tx_hash: string }>(
      'SELECT status, tx_hash FROM anchor_rounds WHERE id = $1',
      [pending!.id],
    );
    expect(row.rows[0]).toEqual({ status: 'CONFIRMED', tx_hash: pending!.tx_hash });
  });
});
