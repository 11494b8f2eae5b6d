/**
 * Benchmarks of `@saksi/proof` (`npm run bench`). Not a test: it prints a table, checks the
 * 10-claim `verifyBundle` target and writes `bench/results/proof.json`. See bench/README.md.
 */
import { createPrivateKey, createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  canonicalizeToBytes,
  hashLeaf,
  sha256,
  toBase64Url,
  trustOptions,
  utf8Encode,
  type VerifyBundleOptions,
  verify,
  verifyBundle,
  verifyConsistencyProof,
  verifyInclusionProof,
} from '@saksi/proof';
import { consistencyProof, getPublicKey, inclusionProof, rootFromLeafHashes, sign } from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { buildGoldenFixture, GOLDEN_QUESTION } from '@saksi/test-support/golden';
import { type BenchResult, bench, timeOnce } from './harness.js';

const TREE_SIZE = 1_000_000;
const CERTIFICATE_TARGET_BYTES = 5 * 1024;
const BUNDLE_CLAIMS = 10;
const TARGET_BUNDLE_MS = 5;

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`benchmark setup is wrong: ${what}`);
}

/** node:crypto key objects for the same raw Ed25519 key pair noble uses (RFC 8037 JWK). */
function nodeKeys(secretKey: Uint8Array): { privateKey: KeyObject; publicKey: KeyObject } {
  const x = toBase64Url(getPublicKey(secretKey));
  return {
    privateKey: createPrivateKey({
      key: { kty: 'OKP', crv: 'Ed25519', d: toBase64Url(secretKey), x },
      format: 'jwk',
    }),
    publicKey: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' }),
  };
}

const results: BenchResult[] = [];
async function run(name: string, fn: () => unknown): Promise<BenchResult> {
  const result = await bench(name, fn);
  results.push(result);
  process.stdout.write(`  measured ${name}\n`);
  return result;
}

process.stdout.write(
  `@saksi/proof benchmarks — Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}\n\n`,
);

// (1) Baseline and a 64-byte message for noble, with the same key and signature.
const secretKey = sha256(utf8Encode('saksi bench key'));
const publicKey = getPublicKey(secretKey);
const { publicKey: publicKeyObject } = nodeKeys(secretKey);
const message64 = new Uint8Array(64).map((_, i) => (i * 7) & 0xff);
const signature64 = sign(message64, secretKey);
check(cryptoVerify(null, message64, publicKeyObject, signature64), 'node:crypto rejects the noble signature');
check(verify(signature64, message64, publicKey), 'noble rejects its own signature');

const baseline = await run('node:crypto Ed25519 verify, 64 B (baseline)', () =>
  cryptoVerify(null, message64, publicKeyObject, signature64),
);
await run('proof verify (noble), 64 B', () => verify(signature64, message64, publicKey));

// (2) A ~5 KB certificate: the golden certificate with the claim count whose canonical form is
// closest to 5 KiB.
const candidates = [1, 2, 3, 4, 5, 6].map((claimCount) => {
  const certificate = buildGoldenFixture({ claimCount }).bundle.certificate;
  return { claimCount, certificate, bytes: canonicalizeToBytes(certificate).length };
});
const chosen = candidates.reduce((best, next) =>
  Math.abs(next.bytes - CERTIFICATE_TARGET_BYTES) < Math.abs(best.bytes - CERTIFICATE_TARGET_BYTES)
    ? next
    : best,
);
const certificate = chosen.certificate;
const canonical = canonicalizeToBytes(certificate);
const certificateSignature = sign(canonical, secretKey);
process.stdout.write(
  `  certificate: ${chosen.claimCount} claims, canonical JSON ${canonical.length} bytes (target ≈ ${CERTIFICATE_TARGET_BYTES})\n`,
);

await run(`canonicalize certificate (${canonical.length} B)`, () => canonicalizeToBytes(certificate));
await run(`sign canonical certificate (${canonical.length} B)`, () => sign(canonical, secretKey));
await run(`verify canonical certificate (${canonical.length} B)`, () =>
  verify(certificateSignature, canonical, publicKey),
);
await run(`canonicalize + sign + verify (${canonical.length} B)`, () => {
  const bytes = canonicalizeToBytes(certificate);
  const signature = sign(bytes, secretKey);
  if (!verify(signature, bytes, publicKey)) throw new Error('round trip failed');
});

// (3) Merkle proofs in a tree of 10^6 leaves.
const leafBuild = await timeOnce(() =>
  Array.from({ length: TREE_SIZE }, (_, i) => hashLeaf(utf8Encode(`leaf ${i}`))),
);
const leaves = leafBuild.value;
const rootBuild = await timeOnce(() => rootFromLeafHashes(leaves));
const root = rootBuild.value;
const leafIndex = 765_432;
const smallerSize = 654_321;
const proofBuild = await timeOnce(() => ({
  inclusion: inclusionProof(leaves, leafIndex),
  consistency: consistencyProof(leaves, smallerSize, TREE_SIZE),
  smallerRoot: rootFromLeafHashes(leaves.slice(0, smallerSize)),
}));
const { inclusion, consistency, smallerRoot } = proofBuild.value;
const leafHash = leaves[leafIndex]!;
check(
  verifyInclusionProof(leafIndex, TREE_SIZE, leafHash, inclusion, root),
  'inclusion proof does not verify',
);
check(
  verifyConsistencyProof(smallerSize, TREE_SIZE, consistency, smallerRoot, root),
  'consistency proof does not verify',
);
process.stdout.write(
  `  tree of ${TREE_SIZE} leaves: leaf hashes ${leafBuild.ms.toFixed(0)} ms, root ${rootBuild.ms.toFixed(0)} ms, ` +
    `proofs (+ root of ${smallerSize}) ${proofBuild.ms.toFixed(0)} ms; ` +
    `inclusion proof ${inclusion.length} hashes, consistency proof ${consistency.length} hashes\n`,
);

await run(`verifyInclusionProof, n = 10^6 (${inclusion.length} hashes)`, () =>
  verifyInclusionProof(leafIndex, TREE_SIZE, leafHash, inclusion, root),
);
await run(`verifyConsistencyProof, ${smallerSize} → 10^6 (${consistency.length} hashes)`, () =>
  verifyConsistencyProof(smallerSize, TREE_SIZE, consistency, smallerRoot, root),
);
leaves.length = 0; // let the tree go before the last case

// (4) verifyBundle on a 10-claim bundle with every option given.
const fixture = buildGoldenFixture({ claimCount: BUNDLE_CLAIMS });
const bundleOptions: VerifyBundleOptions = {
  ...trustOptions(fixture.keys),
  presentedQuestion: GOLDEN_QUESTION,
  lastCheckpoint: fixture.laterCheckpoint,
  consistencyProof: fixture.consistencyProof,
  anchorLookup: () => Promise.resolve({ exists: true, timestamp: 1_795_000_000 }),
  vocabulary: SAKSI_VOCABULARY,
};
const probe = await verifyBundle(fixture.bundle, bundleOptions);
check(probe.verdict === 'verified', `the 10-claim bundle does not verify (${probe.codes.join(', ')})`);
check(probe.summary.total === BUNDLE_CLAIMS, 'the bundle does not have 10 claims');
check(
  probe.checks.every((item) => item.status === 'pass'),
  'some verifyBundle check was skipped',
);
const bundleBytes = JSON.stringify(fixture.bundle).length;
const bundleResult = await run(
  `verifyBundle, ${BUNDLE_CLAIMS} claims, all options (${bundleBytes} B JSON)`,
  () => verifyBundle(fixture.bundle, bundleOptions),
);

// Report.
const rows = results.map((result) => ({
  name: result.name,
  medianUs: result.medianNs / 1e3,
  opsPerSecond: result.opsPerSecond,
  /** case median time ÷ baseline median time: how many baseline verifies fit in one call. */
  timeRatio: result.medianNs / baseline.medianNs,
  /** case ops/s ÷ baseline ops/s (= 1 / timeRatio). */
  throughputRatio: result.opsPerSecond / baseline.opsPerSecond,
}));
const format = (value: number, digits: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const header = ['case', 'median µs', 'ops/s', 'time × baseline', 'ops/s ÷ baseline'];
const table = rows.map((row) => [
  row.name,
  format(row.medianUs, 1),
  format(row.opsPerSecond, 0),
  format(row.timeRatio, 2),
  format(row.throughputRatio, 3),
]);
const widths = header.map((title, column) =>
  Math.max(title.length, ...table.map((cells) => cells[column]!.length)),
);
const line = (cells: string[]) =>
  cells
    .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
    .join('  ');
process.stdout.write(`\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}\n`);
for (const cells of table) process.stdout.write(`${line(cells)}\n`);
process.stdout.write(
  '\ntime × baseline = case median ÷ node:crypto verify median (higher is slower);\n' +
    'ops/s ÷ baseline = case ops/s ÷ node:crypto verify ops/s (lower is slower).\n',
);

const bundleMs = bundleResult.medianNs / 1e6;
const met = bundleMs <= TARGET_BUNDLE_MS;
process.stdout.write(
  `\ntarget: ${BUNDLE_CLAIMS}-claim verifyBundle median ≤ ${TARGET_BUNDLE_MS} ms — ${met ? 'met' : 'MISSED'} (${bundleMs.toFixed(2)} ms)\n`,
);

const output = path.resolve(import.meta.dirname, 'results/proof.json');
mkdirSync(path.dirname(output), { recursive: true });
writeFileSync(
  output,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
      cpu: os.cpus()[0]?.model ?? null,
      cpus: os.cpus().length,
      setup: {
        certificateClaims: chosen.claimCount,
        certificateCanonicalBytes: canonical.length,
        treeSize: TREE_SIZE,
        leafHashesMs: leafBuild.ms,
        rootMs: rootBuild.ms,
        proofsMs: proofBuild.ms,
        inclusionProofLength: inclusion.length,
        consistencyProofLength: consistency.length,
        bundleClaims: BUNDLE_CLAIMS,
        bundleJsonBytes: bundleBytes,
      },
      ratios: {
        timeRatio: 'case median time ÷ node:crypto Ed25519 verify median time',
        throughputRatio: 'case ops/s ÷ node:crypto Ed25519 verify ops/s',
      },
      cases: results.map((result, i) => ({ ...result, ...rows[i] })),
      target: {
        name: `${BUNDLE_CLAIMS}-claim verifyBundle median`,
        limitMs: TARGET_BUNDLE_MS,
        medianMs: bundleMs,
        met,
      },
    },
    null,
    2,
  )}\n`,
);
process.stdout.write(`results written to ${path.relative(process.cwd(), output)}\n`);
