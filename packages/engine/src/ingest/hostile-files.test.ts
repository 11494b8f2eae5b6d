import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  diskName,
  HOSTILE_CI_SUBSET,
  type HostileCase,
  type HostileOutcome,
  hostileBytes,
  hostileCorpus,
  writeHostileCorpus,
} from '@saksi/test-support/hostile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listZipEntries } from './detect.js';
import type { IngestErrorCode } from './errors.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const sharedFiles = path.resolve(repoRoot, '../shared/data/files');
const hasShared = existsSync(sharedFiles);
const corpus = hostileCorpus(hasShared ? { sharedFiles } : {});
const byId = (id: string) => {
  const found = corpus.find((hostile) => hostile.id === id);
  if (!found) throw new Error(`no hostile case ${id}`);
  return found;
};
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const OUTCOMES: readonly HostileOutcome[] = [
  'ingested',
  'QUOTA_EXCEEDED',
  ...([
    'UNSUPPORTED_TYPE',
    'EMPTY_FILE',
    'MALFORMED_FILE',
    'ENCRYPTED_FILE',
    'FILE_TOO_LARGE',
    'NO_TEXT',
  ] satisfies IngestErrorCode[]),
];

describe('the hostile corpus', () => {
  it('has at least 250 cases with or without the shared files, unique ids and known outcomes', () => {
    expect(hostileCorpus().length).toBeGreaterThanOrEqual(250);
    expect(corpus.length).toBeGreaterThanOrEqual(250);
    expect(new Set(corpus.map((hostile) => hostile.id)).size).toBe(corpus.length);
    for (const hostile of corpus) {
      expect(hostile.id).toMatch(/^[a-z0-9][\w.-]*$/i);
      expect(hostile.expect.length, hostile.id).toBeGreaterThan(0);
      for (const outcome of hostile.expect) expect(OUTCOMES, hostile.id).toContain(outcome);
    }
    // The cases of the audit, each present.
    for (const id of [
      'md-headings-20000',
      'md-headings-100000',
      'md-50mb',
      'pdf-pages-5000',
      'pdf-encrypted-rc4',
      'docx-bomb-1gb',
      'docx-xxe-file',
      'html-nested-div-10000',
      'md-list-10000',
      'enc-nul-single-md',
      'enc-utf16le-bom-md',
      'wrong-png-as-pdf',
      'filename-dot-dot-slash',
    ]) {
      expect(byId(id).id).toBe(id);
    }
    expect(corpus.filter((hostile) => hostile.watchHealth).map((hostile) => hostile.id)).toEqual(
      expect.arrayContaining(['md-headings-20000', 'md-50mb']),
    );
    if (hasShared) {
      expect(corpus.filter((hostile) => hostile.family === 'pdf-shared').length).toBeGreaterThanOrEqual(20);
      expect(corpus.filter((hostile) => hostile.family === 'pdf-fuzzed').length).toBeGreaterThanOrEqual(25);
    }
  });

  it('has a CI subset of small, light files from many families', () => {
    const subset = corpus.filter((hostile) => hostile.ci);
    const expected = [...HOSTILE_CI_SUBSET].filter((id) => hasShared || !id.includes('-shared-'));
    expect(subset.map((hostile) => hostile.id).sort()).toEqual(expected.sort());
    expect(subset.length).toBeGreaterThanOrEqual(25);
    expect(new Set(subset.map((hostile) => hostile.family)).size).toBeGreaterThanOrEqual(12);
    for (const hostile of subset) {
      expect(hostile.heavy, hostile.id).toBeUndefined();
      expect(hostileBytes(hostile).length, hostile.id).toBeLessThan(4 * 1024 * 1024);
    }
  });

  it('is deterministic: the same seed gives the same bytes, another seed other bytes', () => {
    const again = hostileCorpus(hasShared ? { sharedFiles } : {});
    const other = hostileCorpus({ ...(hasShared ? { sharedFiles } : {}), seed: 16 });
    const find = (cases: HostileCase[], id: string) => cases.find((hostile) => hostile.id === id)!;
    for (const hostile of corpus.filter((candidate) => candidate.ci)) {
      expect(sha(hostileBytes(find(again, hostile.id))), hostile.id).toBe(sha(hostileBytes(hostile)));
    }
    for (const id of ['txt-plain-small', 'pdf-text-small', 'pdf-fuzzed-generated-16', 'binary-elf']) {
      expect(sha(hostileBytes(find(other, id))), id).not.toBe(sha(hostileBytes(byId(id))));
    }
  });

  it('streams a large file to its exact size in pieces of at most 1 MiB', () => {
    let size = 0;
    let largest = 0;
    for (const piece of byId('md-line-10mb').content()) {
      size += piece.length;
      largest = Math.max(largest, piece.length);
    }
    expect(size).toBe(10_000_000);
    expect(largest).toBeLessThanOrEqual(1 << 20);
  });

  it('builds what the descriptions say: a bomb declared at 1 GB, an audit-sized heading bomb', () => {
    const bomb = hostileBytes(byId('docx-bomb-1gb'));
    const document = listZipEntries(bomb)!.find((entry) => entry.name === 'word/document.xml')!;
    expect(document.uncompressedSize).toBeGreaterThanOrEqual(1_000_000_000);
    expect(bomb.length).toBeLessThan(8 * 1024 * 1024);
    const lying = hostileBytes(byId('docx-bomb-1gb-lying'));
    expect(listZipEntries(lying)!.find((entry) => entry.name === 'word/document.xml')!.uncompressedSize).toBe(
      10_000,
    );
    const headings = new TextDecoder().decode(hostileBytes(byId('md-headings-20000')));
    expect(headings.split('\n').filter((line) => line.startsWith('# ')).length).toBe(20_000);
    expect(headings.length).toBe(168_890);
  });
});

describe('writing the corpus', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'saksi-hostile-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('puts each case in its own folder under its own name where the file system allows it', async () => {
    const chosen = corpus.filter((hostile) => hostile.ci || hostile.family === 'filename');
    const written = await writeHostileCorpus(directory, chosen);
    expect(written.map((file) => file.case.id)).toEqual(chosen.map((hostile) => hostile.id));
    const hashes = new Set<string>();
    for (const file of written) {
      const bytes = new Uint8Array(readFileSync(file.path));
      expect(bytes.length, file.case.id).toBe(file.bytes);
      expect(sha(bytes), file.case.id).toBe(file.sha256);
      expect(path.basename(file.path)).toBe(diskName(file.case));
      expect(path.dirname(path.dirname(file.path))).toBe(directory);
      // Distinct bytes: the same bytes twice would be deduplicated instead of ingested.
      if (file.bytes > 0) {
        expect(hashes.has(file.sha256), file.case.id).toBe(false);
        hashes.add(file.sha256);
      }
    }
    expect(diskName(byId('filename-dot-dot-slash'))).toBe('filename-dot-dot-slash.md');
    expect(diskName(byId('filename-nul'))).toBe('filename-nul.md');
    expect(diskName(byId('filename-unicode'))).toBe(byId('filename-unicode').filename);
    expect(diskName(byId('filename-leading-dash'))).toBe('-rf --collection other.md');
  });
});
