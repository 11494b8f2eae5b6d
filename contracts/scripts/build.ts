/**
 * Compiles contracts/DocumentRegistry.sol with solc-js into the committed typed artifact
 * `src/document-registry.ts` (ABI `as const` for viem's types, creation bytecode, compiler and source
 * hash). `--check` compiles and fails when the committed artifact differs (CI runs it through a test).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ARTIFACT_FILE, buildArtifact, CONTRACT_SOURCE } from './compile.js';

const check = process.argv.includes('--check');
const artifact = buildArtifact();
const current = readFileSafe(ARTIFACT_FILE);
if (check) {
  if (current !== artifact) {
    process.stderr.write(
      `${path.relative(process.cwd(), ARTIFACT_FILE)} is stale: run \`npm run build:contract\` and commit it.\n`,
    );
    process.exit(1);
  }
  process.stdout.write('DocumentRegistry artifact is fresh.\n');
} else {
  writeFileSync(ARTIFACT_FILE, artifact);
  process.stdout.write(
    `Wrote ${path.relative(process.cwd(), ARTIFACT_FILE)} from ${path.basename(CONTRACT_SOURCE)}.\n`,
  );
}

function readFileSafe(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
