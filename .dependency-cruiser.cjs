/**
 * The import rules of the layers in docs/architecture.md, checked by `npm run deps` (part of
 * `npm test`). A package's public entry points are what its package.json `exports` names, read here so
 * the rule and the manifest cannot drift apart.
 */
const { readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `^packages/engine/src/index\.ts$`, … : every file a workspace package exports. */
function entryPoints() {
  const folders = [...readdirSync('packages').map((name) => path.join('packages', name)), 'contracts'];
  const patterns = [];
  for (const folder of folders) {
    const manifest = path.join(folder, 'package.json');
    let exports;
    try {
      exports = JSON.parse(readFileSync(manifest, 'utf8')).exports ?? {};
    } catch {
      continue;
    }
    for (const target of Object.values(exports)) {
      const file = typeof target === 'string' ? target : (target.source ?? target.default);
      if (typeof file === 'string') patterns.push(`^${escapeRegExp(path.posix.join(folder, file))}$`);
    }
  }
  return patterns;
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'proof-stands-alone',
      severity: 'error',
      comment: 'What a stranger must trust imports nothing else of ours (docs/architecture.md, Layers).',
      from: { path: '^packages/proof/src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(packages/(?!proof/)|contracts/)' },
    },
    {
      name: 'client-over-proof-only',
      severity: 'error',
      comment: 'The HTTP client is for strangers too: it may use the proof package and nothing else of ours.',
      from: { path: '^packages/client/src/' },
      to: { path: '^(packages/(?!client/|proof/)|contracts/)' },
    },
    {
      name: 'engine-below-its-interfaces',
      severity: 'error',
      comment:
        'The engine serves the server, the CLI and the web app; it never imports them, nor the attack harness that measures it.',
      from: { path: '^(packages/(engine|conformance)|contracts)/' },
      to: { path: '^packages/(server|web|cli|client|attack)/' },
    },
    {
      name: 'server-below-cli-and-web',
      severity: 'error',
      comment:
        'The server is an interface over the engine; the CLI runs it, the web app talks to it over HTTP.',
      from: { path: '^packages/server/' },
      to: { path: '^packages/(cli|web|attack)/' },
    },
    {
      name: 'attack-over-engine-and-proof',
      severity: 'error',
      comment:
        'The attack harness (a research tool that `saksi attack` runs) uses the engine, the proof package and the anvil launcher of contracts as their users do, through their entry points; nothing else of ours.',
      from: { path: '^packages/attack/src/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^(packages/|contracts/)',
        pathNot: [
          '^packages/attack/',
          ...entryPoints().filter((pattern) => /^\^(packages\/(engine|proof)|contracts)\//.test(pattern)),
        ],
      },
    },
    {
      name: 'web-over-proof-and-client',
      severity: 'error',
      comment:
        'The browser app holds no engine or server code: it verifies with the proof package and talks HTTP through the client.',
      from: { path: '^packages/web/src/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^(packages/(?!web/|proof/|client/)|contracts/)' },
    },
    {
      name: 'other-packages-through-entry-points',
      severity: 'error',
      comment:
        "Code and tests reach another package only through what its package.json exports, so a package's inside can change without breaking its neighbours.",
      from: { path: '^packages/([^/]+)/' },
      to: {
        path: '^(packages/[^/]+|contracts)/',
        pathNot: ['^packages/$1/', ...entryPoints()],
      },
    },
    {
      name: 'tools-through-entry-points',
      severity: 'error',
      comment:
        'Scripts and the serverless function use the packages as their users do. (Benchmarks in bench/ measure the engine from inside, so they may reach its modules.)',
      from: { path: '^(scripts|api)/' },
      to: { path: '^(packages/[^/]+|contracts)/', pathNot: entryPoints() },
    },
    {
      name: 'answer-stages-run-no-sql',
      severity: 'error',
      comment:
        'The answer stages hand the database to storage functions (answer-storage.ts, retrieve/, the document packs in packs/) and run no SQL themselves: of db/ they may import types only. The calls are kept out by the Biome plugin lint/answer-runs-no-sql.grit.',
      from: { path: '^packages/engine/src/answer/', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/engine/src/db/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'packs-through-the-registry',
      severity: 'error',
      comment:
        'General engine code reaches a document pack only through packs/registry.ts (docs/engine.md, "Document-type packs"); the interface packs/pack.ts and the rewrite groups\' names (packs/rewrite-groups.ts) it may import.',
      from: { path: '^packages/engine/src/(?!packs/)' },
      to: { path: '^packages/engine/src/packs/(?!registry\\.ts$|pack\\.ts$|rewrite-groups\\.ts$)' },
    },
    {
      name: 'packs-stand-apart',
      severity: 'error',
      comment:
        'A document pack never imports another pack (nor the registry, outside its tests): it may use general engine code and packs/pack.ts.',
      from: { path: '^packages/engine/src/packs/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^packages/engine/src/packs/',
        pathNot: ['^packages/engine/src/packs/$1/', '^packages/engine/src/packs/pack\\.ts$'],
      },
    },
    {
      name: 'packs-tests-through-the-registry',
      severity: 'error',
      comment:
        "A pack's tests may use the registry, and through it what another pack exports; never another pack's files.",
      from: { path: '^packages/engine/src/packs/([^/]+)/.*\\.test\\.ts$' },
      to: {
        path: '^packages/engine/src/packs/[^/]+/',
        pathNot: '^packages/engine/src/packs/$1/',
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes two modules one; cut it (docs/architecture.md, Layers).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'default'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    combinedDependencies: false,
    preserveSymlinks: false,
  },
};
