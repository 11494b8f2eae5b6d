/**
 * Beyond one machine (docs/scaling.md): a real PostgreSQL primary and streaming replica, two
 * `saksi serve` and two `saksi worker` processes. Rate limits hold across the servers, every upload's
 * job runs once, retrieval reads come from the replica, chat sessions continue on either server, and
 * stopping the replica sends reads to the primary with health saying so. Skipped unless PostgreSQL 15
 * with pgvector is installed and this runs as root (as CI does).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiKey, DEFAULT_WORKSPACE, Engine, loadConfig } from '@saksi/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasPostgres,
  type ReplicatedClusters,
  type SaksiProcess,
  startReplicatedClusters,
  startSaksi,
} from './replication.js';

const PORTS = { primary: 54346, replica: 54347 };
/** Anonymous requests per minute per client address, across both servers. */
const ADDRESS_LIMIT = 6;

interface Json {
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  [key: string]: any;
}

let work: string;
let pgDirectory: string;
let clusters: ReplicatedClusters | undefined;
const processes: SaksiProcess[] = [];
let servers: SaksiProcess[] = [];
let key: string;

async function replicaQuery<T>(sql: string): Promise<T[]> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: clusters!.replicaUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

async function primaryQuery<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: clusters!.primaryUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

function markdown(index: number): string {
  return `# Aturan parkir ${index}

## Tarif

Parkir di zona ${index} dikenakan tarif ${index * 1000} rupiah per jam pada hari kerja.

## Pengecualian

Penduduk dengan izin zona ${index} parkir tanpa biaya.
`;
}

describe.skipIf(!hasPostgres())('two servers and two workers on a primary and a replica', () => {
  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'saksi-scale-'));
    // The clusters' directory must be the postgres user's to reach: not inside the 0700 `work`.
    pgDirectory = mkdtempSync(path.join(tmpdir(), 'saksi-scale-pg-'));
    clusters = await startReplicatedClusters(pgDirectory, PORTS);
    const env = (name: string): Record<string, string> => ({
      DATABASE_URL: clusters!.primaryUrl,
      DATABASE_READ_URL: clusters!.replicaUrl,
      SAKSI_DATA_DIR: path.join(work, name),
      // Every process signs with the same keys: one issuer, one log.
      SAKSI_KEYS_DIR: path.join(work, 'keys'),
      SAKSI_ANCHOR: 'none',
      SAKSI_WORKER: 'off',
      SAKSI_RATE_LIMIT_IP: String(ADDRESS_LIMIT),
      SAKSI_RATE_LIMIT_KEY: '0',
      // The test client is on loopback and names the client it stands for.
      SAKSI_TRUST_PROXY: 'loopback',
    });
    // The first server migrates and makes the keys; the others start on them.
    servers.push(await startSaksi('serve', env('a'), { cwd: work }));
    processes.push(servers[0]!);
    const rest = await Promise.all([
      startSaksi('serve', env('b'), { cwd: work }),
      startSaksi('worker', env('w1'), { cwd: work }),
      startSaksi('worker', env('w2'), { cwd: work }),
    ]);
    processes.push(...rest);
    servers = [servers[0]!, rest[0]!];
    const engine = await Engine.open({
      config: loadConfig(
        { DATABASE_URL: clusters.primaryUrl, SAKSI_KEYS_DIR: path.join(work, 'keys'), SAKSI_ANCHOR: 'none' },
        work,
      ),
    });
    try {
      key = (
        await createApiKey(engine.db, {
          workspaceId: DEFAULT_WORKSPACE,
          name: 'scale-out test',
          scopes: ['read', 'ingest'],
        })
      ).key;
    } finally {
      await engine.close();
    }
  }, 150_000);

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await clusters?.stop();
    for (const directory of [work, pgDirectory])
      if (directory) rmSync(directory, { recursive: true, force: true });
  }, 60_000);

  const headers = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

  it('holds an address limit across both servers, per client address the trusted proxy names', async () => {
    const answers: number[] = [];
    for (let index = 0; index < 2 * ADDRESS_LIMIT; index += 1) {
      const response = await fetch(`${servers[index % 2]!.url}/api/v1/collections`, {
        headers: { 'x-forwarded-for': '198.51.100.7' },
      });
      answers.push(response.status);
      if (response.status === 429) {
        expect(((await response.json()) as Json)['error']['code']).toBe('RATE_LIMITED');
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      } else await response.arrayBuffer();
    }
    expect(answers.filter((status) => status === 200)).toHaveLength(ADDRESS_LIMIT);
    expect(answers.filter((status) => status === 429)).toHaveLength(ADDRESS_LIMIT);
    // Another client behind the same proxy has its own budget; a forged hop left of it changes nothing.
    const other = await fetch(`${servers[1]!.url}/api/v1/collections`, {
      headers: { 'x-forwarded-for': '198.51.100.7, 203.0.113.5' },
    });
    expect(other.status).toBe(200);
  });

  it('runs every upload job once across two workers, and reads retrieval from the replica', async () => {
    const uploads = await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        const form = new FormData();
        form.append(
          'file',
          new Blob([markdown(index + 1)], { type: 'text/markdown' }),
          `zona-${index + 1}.md`,
        );
        form.append('collection', 'parkir');
        form.append('language', 'id');
        const response = await fetch(`${servers[index % 2]!.url}/api/v1/documents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
          body: form,
        });
        expect(response.status).toBe(202);
        return (await response.json()) as Json;
      }),
    );
    const ids = uploads.map((upload) => upload['document']['id'] as string);
    const deadline = Date.now() + 60_000;
    for (const id of ids) {
      for (;;) {
        const response = await fetch(`${servers[1]!.url}/api/v1/documents/${id}`, { headers: headers() });
        const status = ((await response.json()) as Json)['status'];
        if (status === 'READY') break;
        expect(status).not.toBe('FAILED');
        if (Date.now() > deadline) throw new Error(`document ${id} is still ${status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const jobs = await primaryQuery<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM jobs WHERE kind = 'ingest'`,
    );
    expect(jobs).toHaveLength(6);
    for (const job of jobs) {
      expect(job.status).toBe('SUCCEEDED');
      expect(job.attempts).toBe(1);
    }
    // Each document's chunks were written once.
    const chunks = await primaryQuery<{ documents: number; duplicated: number }>(
      `SELECT count(DISTINCT document_id)::integer AS documents,
              (count(*) - count(DISTINCT (document_id, position)))::integer AS duplicated FROM chunks`,
    );
    expect(chunks[0]).toEqual({ documents: 6, duplicated: 0 });

    // Wait until the replica has replayed the uploads, then count the transactions it serves.
    for (;;) {
      const rows = await replicaQuery<{ n: number }>('SELECT count(*)::integer AS n FROM chunks');
      if (rows[0]!.n >= 6) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const served = async () =>
      Number(
        (
          await replicaQuery<{ n: string }>(
            `SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()`,
          )
        )[0]!.n,
      );
    const before = await served();
    for (let index = 0; index < 8; index += 1) {
      const response = await fetch(`${servers[index % 2]!.url}/api/v1/query`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ collection: 'parkir', question: `tarif parkir zona ${(index % 6) + 1}` }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as Json;
      expect(body['results'].length).toBeGreaterThan(0);
    }
    // A backend reports its transactions to pg_stat_database at most once a second while busy, and
    // when idle only after PostgreSQL's idle interval (10 s): wait for the count, up to a deadline.
    const statsDeadline = Date.now() + 20_000;
    let replicaTransactions = (await served()) - before;
    while (replicaTransactions < 8 && Date.now() < statsDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      replicaTransactions = (await served()) - before;
    }
    expect(replicaTransactions).toBeGreaterThanOrEqual(8);
    const readers = await replicaQuery<{ application_name: string }>(
      `SELECT DISTINCT application_name FROM pg_stat_activity WHERE application_name LIKE 'saksi%'`,
    );
    expect(readers.map((row) => row.application_name)).toContain('saksi-serve-read');
    for (const server of servers) {
      const health = (await (await fetch(`${server.url}/api/v1/health`)).json()) as Json;
      expect(health['status']).toBe('ok');
      expect(health['database']['replica']).toMatchObject({ state: 'ok', serving_reads: true });
    }
  });

  it('continues a chat session on the other server, and logs both turns in one log', async () => {
    const first = await fetch(`${servers[0]!.url}/api/v1/chat`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ collection: 'parkir', question: 'Berapa tarif parkir di zona 3?' }),
    });
    expect(first.status).toBe(200);
    const turn = (await first.json()) as Json;
    const second = await fetch(`${servers[1]!.url}/api/v1/chat`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({
        collection: 'parkir',
        question: 'Bagaimana dengan zona 4?',
        session_id: turn['session_id'],
      }),
    });
    expect(second.status).toBe(200);
    const followUp = (await second.json()) as Json;
    expect(followUp['session_id']).toBe(turn['session_id']);
    const session = (await (
      await fetch(`${servers[0]!.url}/api/v1/sessions/${turn['session_id']}`, { headers: headers() })
    ).json()) as Json;
    expect(session['messages']).toHaveLength(4);
    const entries = await primaryQuery<{ n: number }>('SELECT count(*)::integer AS n FROM log_entries');
    expect(entries[0]!.n).toBe(2);
  });

  it('sends reads to the primary when the replica stops, and health says so', async () => {
    await clusters!.stopReplica();
    for (let index = 0; index < 4; index += 1) {
      const response = await fetch(`${servers[index % 2]!.url}/api/v1/query`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ collection: 'parkir', question: 'tarif parkir zona 2' }),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as Json)['results'].length).toBeGreaterThan(0);
    }
    for (const server of servers) {
      const health = (await (await fetch(`${server.url}/api/v1/health`)).json()) as Json;
      expect(health['status']).toBe('degraded');
      expect(health['database']['ok']).toBe(true);
      expect(health['database']['replica']).toMatchObject({ state: 'unreachable', serving_reads: false });
    }
    const chat = await fetch(`${servers[1]!.url}/api/v1/chat`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ collection: 'parkir', question: 'Siapa yang parkir tanpa biaya di zona 5?' }),
    });
    expect(chat.status).toBe(200);
  });
});
