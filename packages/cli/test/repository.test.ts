/**
 * What a newcomer meets in a fresh clone (README, "Quick start" and "A 60-second tour"): a lock file
 * `npm ci` installs from on any platform, a command table that lists every command, a README and a
 * `saksi verify --help` that name the same default keys, and a tour whose files git ignores.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/main.js';
import { machineTrustFile, verifyCommand } from '../src/verify.js';

const root = path.resolve(import.meta.dirname, '../../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

type Dependencies = Record<string, string>;
interface LockEntry {
  dependencies?: Dependencies;
  devDependencies?: Dependencies;
  optionalDependencies?: Dependencies;
  peerDependencies?: Dependencies;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
interface Lock {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
}

const DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
] as const;

/**
 * Why `npm ci` would refuse `lock`, or install a different tree on another platform: a manifest
 * (root or workspace, by folder) whose dependencies differ from its lock entry, or a dependency —
 * including every platform's optional package — that resolves to no entry of the lock.
 */
export function lockProblems(lock: Lock, manifests: Record<string, LockEntry>): string[] {
  const problems: string[] = [];
  if (lock.lockfileVersion < 2) problems.push(`lockfileVersion ${lock.lockfileVersion} has no packages map`);
  for (const [folder, manifest] of Object.entries(manifests)) {
    const entry = lock.packages[folder];
    if (entry === undefined) {
      problems.push(`${folder || 'the root'}: not in the lock`);
      continue;
    }
    for (const field of DEPENDENCY_FIELDS) {
      const want = JSON.stringify(Object.entries(manifest[field] ?? {}).sort());
      const have = JSON.stringify(Object.entries(entry[field] ?? {}).sort());
      if (want !== have)
        problems.push(`${folder || 'the root'}: ${field} in package.json differ from the lock`);
    }
  }
  for (const [location, entry] of Object.entries(lock.packages)) {
    const installed = location.includes('node_modules/');
    for (const field of DEPENDENCY_FIELDS) {
      if (field === 'devDependencies' && installed) continue; // only the root's and workspaces' are installed
      for (const name of Object.keys(entry[field] ?? {})) {
        if (field === 'peerDependencies' && entry.peerDependenciesMeta?.[name]?.optional) continue;
        if (!resolves(lock, location, name)) problems.push(`${name} (${field} of ${location || 'the root'})`);
      }
    }
  }
  return problems;
}

/** Node's lookup through the lock's folders: <location>/node_modules/<name>, then each parent's. */
function resolves(lock: Lock, location: string, name: string): boolean {
  let folder = location;
  for (;;) {
    if (lock.packages[`${folder ? `${folder}/` : ''}node_modules/${name}`] !== undefined) return true;
    if (folder === '') return false;
    const parent = folder.lastIndexOf('/node_modules/');
    folder = parent === -1 ? '' : folder.slice(0, parent);
  }
}

function manifests(): Record<string, LockEntry> {
  const read = (folder: string) =>
    JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8')) as LockEntry & {
      workspaces?: string[];
    };
  const rootManifest = read('');
  const result: Record<string, LockEntry> = { '': rootManifest };
  for (const folder of rootManifest.workspaces ?? []) result[folder] = read(folder);
  return result;
}

describe('package-lock.json', () => {
  it('matches every package.json and lists every dependency, each platform’s optional packages included', () => {
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as Lock;
    expect(lockProblems(lock, manifests())).toEqual([]);
  });

  it('the check finds what npm ci refuses: a platform package missing, a manifest out of step', () => {
    const lock: Lock = {
      lockfileVersion: 3,
      packages: {
        '': { devDependencies: { tool: '1.0.0' } },
        'node_modules/tool': {
          optionalDependencies: { 'tool-linux-x64': '1.0.0', 'tool-darwin-arm64': '1.0.0' },
        },
        'node_modules/tool-linux-x64': {},
      },
    };
    expect(lockProblems(lock, { '': { devDependencies: { tool: '1.0.0' } } })).toEqual([
      'tool-darwin-arm64 (optionalDependencies of node_modules/tool)',
    ]);
    expect(lockProblems(lock, { '': { devDependencies: { tool: '1.0.1' } } })).toContain(
      'the root: devDependencies in package.json differ from the lock',
    );
  });
});

describe('README', () => {
  it('lists every command and sub-command of saksi in its command table', () => {
    const table = readme.slice(readme.indexOf('## The `saksi` command'), readme.indexOf('## Layout'));
    // The first cell of each row, e.g. "`saksi log checkpoint \| inclusion <i> \| …`".
    const cells = table
      .split('\n')
      .map((row) => row.split(/(?<!\\)\|/)[1]?.trim() ?? '')
      .filter((cell) => cell.startsWith('`saksi '));
    const missing: string[] = [];
    for (const command of COMMANDS) {
      const rows = cells.filter((cell) => new RegExp(`^\`saksi ${command.name}[\\s\`]`).test(cell));
      for (const line of command.usage.split('\n')) {
        const sub = line.trim().split(/\s+/)[2];
        const isSub = sub !== undefined && /^[a-z][a-z-]*$/.test(sub);
        const listed = isSub
          ? rows.some((cell) => new RegExp(`[\\s\`|]${sub}\\b`).test(cell))
          : rows.length > 0;
        if (!listed) missing.push(isSub ? `saksi ${command.name} ${sub}` : `saksi ${command.name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('and saksi verify --help name the same default keys, and the same rule for ./saksi-keys.json', () => {
    const keys = machineTrustFile({});
    expect(verifyCommand.help).toContain(keys);
    expect(readme).toContain(keys);
    expect(verifyCommand.help).toMatch(/a \.\/saksi-keys\.json is\s+used only when you pass it/);
    expect(readme).toMatch(/a\s+`\.\/saksi-keys\.json` is\s+used only when you pass it/);
  });

  it('the tour writes only files that git ignores', () => {
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
    const written = new Set<string>();
    for (const block of blocks) {
      for (const line of block.split('\n')) {
        const code = line.replace(/^\s*#.*$/, '');
        for (const match of code.matchAll(/(?:>\s*|--out\s+|writeFileSync\(")([\w./-]+)/g))
          written.add(match[1]!);
        for (const match of code.matchAll(/--key\s+([\w./-]+)/g)) written.add(`${match[1]!}.state.json`);
      }
    }
    expect(written.size).toBeGreaterThan(3);
    const notIgnored = [...written].filter((file) => {
      try {
        execFileSync('git', ['check-ignore', '-q', '--no-index', file], { cwd: root, stdio: 'ignore' });
        return false;
      } catch {
        return true;
      }
    });
    expect(notIgnored).toEqual([]);
  });
});

/** The lines of tracked files matching `pattern` (extended regular expression) under `pathspecs`. */
function gitGrep(pattern: string, pathspecs: readonly string[]): string[] {
  try {
    return execFileSync('git', ['grep', '-n', '-I', '-E', pattern, '--', ...pathspecs], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((line) => line !== '');
  } catch {
    return []; // git grep exits 1 when nothing matches
  }
}

describe('the repository', () => {
  it('cites its own docs: no design file from outside it, no tracker issue numbers', () => {
    const cited = (pattern: string) =>
      gitGrep(pattern, ['.', ':!corpora', ':!eval/reports', ':!packages/cli/test/repository.test.ts']);
    expect(cited('DESIGN\\.md')).toEqual([]);
    expect(cited('[Ii]ssues? #?[0-9]+')).toEqual([]);
  });

  it('states the verifier path’s current line count wherever the docs give it', () => {
    const count = Number(
      execFileSync('node', ['scripts/verifier-lines.mjs'], { cwd: root, encoding: 'utf8' }).trim(),
    );
    expect(count).toBeGreaterThan(1000);
    const stated = [
      'README.md',
      'packages/proof/README.md',
      'docs/architecture.md',
      'docs/verification.md',
    ].map((file) => {
      const text = readFileSync(path.join(root, file), 'utf8').replace(/\s+/g, ' ');
      const figure = /is ([\d,]+) non-blank lines/.exec(text)?.[1];
      return { file, lines: figure === undefined ? null : Number(figure.replace(/,/g, '')) };
    });
    expect(stated).toEqual(stated.map(({ file }) => ({ file, lines: count })));
  });

  it('keeps the database handle inside the engine: the server, the CLI, the attack harness and the web app use its repositories', () => {
    const outside = [
      'packages/server/src',
      'packages/cli/src',
      'packages/attack/src',
      'packages/web/src',
      ':!*.test.ts',
    ];
    expect(gitGrep('\\bengine\\.db\\b', outside)).toEqual([]);
    // The check sees what it looks for: the engine itself reaches its handle.
    expect(gitGrep('\\bthis\\.db\\b', ['packages/engine/src/engine.ts']).length).toBeGreaterThan(0);
  });

  it('refuses, in npm run deps, a general file that imports a document pack and a pack that imports another', () => {
    // Two probe files, written where such code would live and removed afterwards.
    const general = path.join(root, `packages/engine/src/deps-probe-${process.pid}.ts`);
    const pack = path.join(root, `packages/engine/src/packs/budget/deps-probe-${process.pid}.ts`);
    writeFileSync(general, "export { legislationPack } from './packs/legislation/index.js';\n");
    writeFileSync(pack, "export { softwareDocsPack } from '../software-docs/index.js';\n");
    let output = '';
    try {
      execFileSync(
        path.join(root, 'node_modules/.bin/depcruise'),
        [
          '--config',
          '.dependency-cruiser.cjs',
          '--output-type',
          'err',
          path.relative(root, general),
          path.relative(root, pack),
        ],
        { cwd: root, encoding: 'utf8', stdio: 'pipe' },
      );
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? '');
    } finally {
      rmSync(general, { force: true });
      rmSync(pack, { force: true });
    }
    expect(output).toMatch(
      new RegExp(`packs-through-the-registry: packages/engine/src/deps-probe-${process.pid}\\.ts`),
    );
    expect(output).toMatch(
      new RegExp(`packs-stand-apart: packages/engine/src/packs/budget/deps-probe-${process.pid}\\.ts`),
    );
  });
});
