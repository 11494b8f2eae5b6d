/**
 * Figures of the code's shape, for comparing two states of the repository:
 *
 *   node --import tsx scripts/structure-figures.ts [DIR]
 *
 * Source files are the TypeScript under `packages/*\/src` and `contracts/src`, tests left out. It
 * prints the ten largest, how many are over 400 lines, the import cycles dependency-cruiser finds
 * (type-only imports included), and the names each package entry point exports (its `package.json`
 * `exports`, counted with the TypeScript compiler).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(process.argv[2] ?? '.');

function sourceFiles(directory: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(directory)) {
    const full = path.join(directory, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist' && name !== '__fixtures__')
        files.push(...sourceFiles(full));
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) {
      files.push(full);
    }
  }
  return files;
}

const packageFolders = [
  ...readdirSync(path.join(root, 'packages')).map((name) => path.join(root, 'packages', name)),
  path.join(root, 'contracts'),
].filter((folder) => statSync(path.join(folder, 'src'), { throwIfNoEntry: false })?.isDirectory());

const lines = packageFolders
  .flatMap((folder) => sourceFiles(path.join(folder, 'src')))
  .map((file) => ({ file: path.relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length }))
  .sort((a, b) => b.lines - a.lines);

console.log(`source files: ${lines.length}, ${lines.reduce((sum, entry) => sum + entry.lines, 0)} lines`);
console.log('largest:');
for (const entry of lines.slice(0, 10)) console.log(`  ${String(entry.lines).padStart(5)}  ${entry.file}`);
console.log(`over 400 lines: ${lines.filter((entry) => entry.lines > 400).length}`);

// Cycles: dependency-cruiser's no-circular rule alone, so the figure means the same in any state.
const cycles = execFileSync(
  path.join(root, 'node_modules/.bin/depcruise'),
  [
    '--no-config',
    '--ts-pre-compilation-deps',
    '--exclude',
    '(^|/)(dist|node_modules)/',
    '--output-type',
    'json',
    'packages',
  ],
  { cwd: root, maxBuffer: 1 << 28, encoding: 'utf8' },
);
const modules = (
  JSON.parse(cycles) as {
    modules: { source: string; dependencies: { resolved: string; circular: boolean }[] }[];
  }
).modules;
const inCycle = new Set<string>();
for (const module of modules) {
  for (const dependency of module.dependencies) {
    if (dependency.circular) inCycle.add(module.source);
  }
}
console.log(`modules in an import cycle: ${inCycle.size}`);

console.log('public names per entry point:');
const entries: { name: string; file: string }[] = [];
for (const folder of packageFolders) {
  const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
    name: string;
    exports?: Record<string, string | { source?: string; default?: string }>;
  };
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const file = typeof target === 'string' ? target : (target.source ?? target.default);
    if (file === undefined || !/\.tsx?$/.test(file)) continue;
    entries.push({
      name: `${manifest.name}${subpath === '.' ? '' : subpath.slice(1)}`,
      file: path.join(folder, file),
    });
  }
}
const program = ts.createProgram(
  entries.map((entry) => entry.file),
  {
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ['source'],
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  },
);
const checker = program.getTypeChecker();
for (const entry of entries) {
  const source = program.getSourceFile(entry.file);
  const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  const count = symbol === undefined ? 0 : checker.getExportsOfModule(symbol).length;
  console.log(`  ${String(count).padStart(4)}  ${entry.name}`);
}
