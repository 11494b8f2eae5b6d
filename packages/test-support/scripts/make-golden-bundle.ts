/**
 * Regenerates `packages/proof/__fixtures__/golden-*` (the v1 regression bundle and the v1.1 bundle) — only on purpose: `npm run golden`.
 * Tests fail when the committed files differ from what `buildGoldenFixture()` produces.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildGoldenFixture } from '../src/golden.js';

const directory = path.resolve(import.meta.dirname, '../../proof/__fixtures__');
const fixture = buildGoldenFixture();
const v11 = buildGoldenFixture({ version: 'v1.1' });
const write = (name: string, content: string) => {
  writeFileSync(path.join(directory, name), content);
  console.log(`wrote ${path.relative(process.cwd(), path.join(directory, name))}`);
};
write('golden-bundle.json', `${JSON.stringify(fixture.bundle, null, 2)}\n`);
write('golden-keys.json', `${JSON.stringify(fixture.keys, null, 2)}\n`);
write('golden-later-checkpoint.txt', fixture.laterCheckpoint);
write('golden-consistency.json', `${JSON.stringify(fixture.consistencyProof, null, 2)}\n`);
write('golden-v1.1-bundle.json', `${JSON.stringify(v11.bundle, null, 2)}\n`);
