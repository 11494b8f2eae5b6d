#!/usr/bin/env node
/**
 * Counts the lines of the verifier's path: the files of packages/proof/src reachable from
 * `src/index.ts` (the `@saksi/proof` entry point) by relative imports and re-exports, type-only
 * ones included. Non-blank lines are counted, comments included (docs/architecture.md, "The proof
 * package"). Tests are never imported, so they never count.
 *
 *   node scripts/verifier-lines.mjs            # prints the total
 *   node scripts/verifier-lines.mjs --files    # and each file with its count
 *   node scripts/verifier-lines.mjs --root DIR # another checkout's packages/proof/src/index.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const rootIndex = args.indexOf('--root');
const root =
  rootIndex >= 0 ? path.resolve(args[rootIndex + 1] ?? '.') : path.resolve(import.meta.dirname, '..');
const entry = path.join(root, 'packages/proof/src/index.ts');

/** `from './x.js'` and `import './x.js'`, static only (the package has no dynamic imports). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function resolve(from, specifier) {
  const target = path.resolve(path.dirname(from), specifier);
  for (const candidate of [
    target.replace(/\.js$/, '.ts'),
    target,
    `${target}.ts`,
    path.join(target, 'index.ts'),
  ]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`${path.relative(root, from)} imports ${specifier}, which is not a file.`);
}

const seen = new Map();
const pending = [entry];
while (pending.length > 0) {
  const file = pending.pop();
  if (seen.has(file)) continue;
  const text = readFileSync(file, 'utf8');
  seen.set(file, text.split('\n').filter((line) => line.trim() !== '').length);
  for (const match of text.matchAll(SPECIFIER)) pending.push(resolve(file, match[1]));
}

const total = [...seen.values()].reduce((sum, lines) => sum + lines, 0);
if (args.includes('--files')) {
  for (const [file, lines] of [...seen].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`${String(lines).padStart(6)}  ${path.relative(root, file)}`);
  console.log(`${String(total).padStart(6)}  total, ${seen.size} files`);
} else {
  console.log(total);
}
