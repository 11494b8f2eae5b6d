/**
 * Vitest global setup: compile every package once (`tsc -b`, as `npm install` does) before any test
 * spawns the compiled CLI, so parallel test files never write `dist/` at the same time.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '..');
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/typescript/bin/tsc'),
      '-b',
      'packages/proof',
      'packages/conformance',
      'contracts',
      'packages/engine',
      'packages/attack',
      'packages/server',
      'packages/client',
      'packages/cli',
    ],
    { cwd: root, stdio: 'inherit' },
  );
}
