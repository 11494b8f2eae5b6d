/**
 * Writes the wire types of `@saksi/client` (packages/client/src/wire.ts) from the server's route list:
 * `npm run wire-types`. With `--check` it writes nothing and exits 1 when the file is out of date.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_WIRE_TYPES_PATH, clientWireTypes } from '@saksi/server/openapi';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, CLIENT_WIRE_TYPES_PATH);

const formatted = execFileSync(
  path.join(root, 'node_modules', '.bin', 'biome'),
  ['format', `--stdin-file-path=${CLIENT_WIRE_TYPES_PATH}`],
  { cwd: root, input: clientWireTypes(), encoding: 'utf8' },
);

if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== formatted) {
    console.error(`${CLIENT_WIRE_TYPES_PATH} differs from the server's routes; run npm run wire-types.`);
    process.exit(1);
  }
  console.log(`${CLIENT_WIRE_TYPES_PATH} is up to date.`);
} else {
  writeFileSync(target, formatted);
  console.log(`Wrote ${CLIENT_WIRE_TYPES_PATH}.`);
}
