/**
 * Chats per second with one and with two `saksi serve` processes on a PostgreSQL primary and a
 * streaming replica serving reads (docs/scaling.md; bench/README.md, "Scale-out"). Starts its own
 * clusters (as the postgres user; run as root, as CI does), uploads a corpus through a `saksi worker`,
 * then drives closed-loop chats for a fixed time against one server and against both, and prints the
 * ratio. Nothing asserts a time: it fails only on a broken setup (a process that does not start, a
 * chat that is not 200, a replica that does not serve).
 *
 *   npm run bench:scale              # the UU 22/2009 corpus, 20 s per phase, 8 clients
 *   npm run bench:scale -- --smoke   # three small documents, 4 s per phase, 4 clients (seconds)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createApiKey, DEFAULT_WORKSPACE, Engine, loadConfig } from '@saksi/engine';
import {
  hasPostgres,
  type ReplicatedClusters,
  type SaksiProcess,
  startReplicatedClusters,
  startSaksi,
} from '../packages/cli/test/replication.js';
import { fixed, gitRevision, writeResults } from './engine-harness.js';

const smoke = process.argv.includes('--smoke');
const PORTS = { primary: 54348, replica: 54349 };
const seconds = smoke ? 4 : 20;
const clients = smoke ? 4 : 8;
const repoRoot = path.resolve(import.meta.dirname, '..');

const QUESTIONS = smoke
  ? ['Berapa tarif parkir di zona 1?', 'Siapa yang parkir tanpa biaya?', 'Tarif parkir zona 3 hari kerja']
  : [
      'Apakah menerobos lampu merah melanggar aturan?',
      'Berapa denda tidak memakai helm?',
      'Apa sanksi mengemudi tanpa SIM?',
      'Berapa batas kecepatan di jalan tol?',
      'Apa kewajiban pengemudi saat terjadi kecelakaan?',
      'Berapa denda tidak membawa STNK?',
    ];

function corpus(): { name: string; text: string }[] {
  if (smoke) {
    return [1, 2, 3].map((zone) => ({
      name: `zona-${zone}.md`,
      text: `# Aturan parkir zona ${zone}\n\n## Tarif\n\nParkir di zona ${zone} dikenakan tarif ${zone * 1000} rupiah per jam pada hari kerja.\n\n## Pengecualian\n\nPenduduk dengan izin parkir tanpa biaya.\n`,
    }));
  }
  const name = 'uu-22-2009-llaj.fulltext.md';
  return [{ name, text: readFileSync(path.join(repoRoot, 'corpora/uu-22-2009-llaj', name), 'utf8') }];
}

async function upload(url: string, key: string, document: { name: string; text: string }): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([document.text], { type: 'text/markdown' }), document.name);
  form.append('collection', 'bench');
  form.append('language', 'id');
  const response = await fetch(`${url}/api/v1/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const body = (await response.json()) as { document?: { id: string } };
  if (response.status !== 202 || !body.document) throw new Error(`upload answered ${response.status}`);
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const poll = await fetch(`${url}/api/v1/documents/${body.document.id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const status = ((await poll.json()) as { status: string }).status;
    if (status === 'READY') return body.document.id;
    if (status === 'FAILED' || Date.now() > deadline) throw new Error(`${document.name}: ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Closed loop: `clients` concurrent chats, round-robin over `urls`, for `seconds`; chats per second. */
async function chatsPerSecond(urls: string[], key: string): Promise<{ chats: number; perSecond: number }> {
  const end = performance.now() + seconds * 1000;
  let chats = 0;
  let next = 0;
  const client = async () => {
    while (performance.now() < end) {
      const turn = next++;
      const response = await fetch(`${urls[turn % urls.length]}/api/v1/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ collection: 'bench', question: QUESTIONS[turn % QUESTIONS.length] }),
      });
      if (response.status !== 200)
        throw new Error(`chat answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      chats += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  return { chats, perSecond: chats / ((performance.now() - started) / 1000) };
}

async function main(): Promise<number> {
  if (!hasPostgres()) {
    console.error(
      'bench:scale needs PostgreSQL 15 with pgvector (../shared/scripts/postgres-pgvector.sh install) and root.',
    );
    return 1;
  }
  const work = mkdtempSync(path.join(tmpdir(), 'saksi-bench-scale-'));
  const pgDirectory = mkdtempSync(path.join(tmpdir(), 'saksi-bench-scale-pg-'));
  const processes: SaksiProcess[] = [];
  let clusters: ReplicatedClusters | undefined;
  try {
    clusters = await startReplicatedClusters(pgDirectory, PORTS);
    const env = (name: string): Record<string, string> => ({
      DATABASE_URL: clusters!.primaryUrl,
      DATABASE_READ_URL: clusters!.replicaUrl,
      SAKSI_DATA_DIR: path.join(work, name),
      SAKSI_KEYS_DIR: path.join(work, 'keys'),
      SAKSI_ANCHOR: 'none',
      SAKSI_WORKER: 'off',
      SAKSI_RATE_LIMIT_KEY: '0',
    });
    const first = await startSaksi('serve', env('a'), { cwd: work });
    processes.push(first);
    const [second, worker] = await Promise.all([
      startSaksi('serve', env('b'), { cwd: work }),
      startSaksi('worker', env('w'), { cwd: work }),
    ]);
    processes.push(second!, worker!);
    const engine = await Engine.open({
      config: loadConfig(
        { DATABASE_URL: clusters.primaryUrl, SAKSI_KEYS_DIR: path.join(work, 'keys'), SAKSI_ANCHOR: 'none' },
        work,
      ),
    });
    const key = (
      await createApiKey(engine.db, {
        workspaceId: DEFAULT_WORKSPACE,
        name: 'bench',
        scopes: ['read', 'ingest'],
      })
    ).key;
    await engine.close();
    const loadStarted = performance.now();
    for (const document of corpus()) await upload(first.url, key, document);
    console.log(`corpus uploaded and ingested in ${fixed((performance.now() - loadStarted) / 1000, 1)} s`);
    // The worker is done; it would only compete with the servers for the cores.
    await worker!.stop();
    // The replica serves reads before anything is timed.
    for (const url of [first.url, second!.url]) {
      const health = (await (await fetch(`${url}/api/v1/health`)).json()) as {
        database: { replica: { serving_reads: boolean; state: string } | null };
      };
      if (!health.database.replica?.serving_reads)
        throw new Error(`the replica does not serve reads: ${JSON.stringify(health.database.replica)}`);
    }
    await chatsPerSecond([first.url, second!.url], key); // warm-up: both servers' caches and JIT
    const loadBefore = loadavg()[0]!;
    const one = await chatsPerSecond([first.url], key);
    const two = await chatsPerSecond([first.url, second!.url], key);
    // Other work on the machine takes cores from the second server: say how busy it was.
    const load = { before: loadBefore, after: loadavg()[0]! };
    const ratio = two.perSecond / one.perSecond;
    console.log(`mode ${smoke ? 'smoke' : 'full'}: ${clients} clients, ${seconds} s per phase`);
    console.log(`one server:  ${fixed(one.perSecond, 1)} chats/s (${one.chats} chats)`);
    console.log(`two servers: ${fixed(two.perSecond, 1)} chats/s (${two.chats} chats)`);
    console.log(`ratio two/one: ${fixed(ratio, 2)} (target ≥ 1.7 on 2 quiet cores — reported, not asserted)`);
    console.log(
      `load average ${fixed(load.before, 1)} → ${fixed(load.after, 1)} on ${availableParallelism()} cores (this run's own processes included)`,
    );
    writeResults(smoke ? 'scale-smoke' : 'scale', gitRevision(), {
      mode: smoke ? 'smoke' : 'full',
      clients,
      seconds,
      one_server: one,
      two_servers: two,
      ratio,
      load_average: load,
    });
    return 0;
  } finally {
    await Promise.all(processes.map((process) => process.stop()));
    await clusters?.stop();
    rmSync(work, { recursive: true, force: true });
    rmSync(pgDirectory, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
