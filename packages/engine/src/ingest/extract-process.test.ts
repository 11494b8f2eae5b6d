import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isIngestError } from './errors.js';
import { extractDocument } from './extract.js';
import {
  EXTRACTION_NICENESS,
  extractInProcess,
  INLINE_INPUT_BYTES,
  stopExtractionProcess,
} from './extract-process.js';

afterAll(() => {
  stopExtractionProcess();
});

/** A Markdown guide of `sections` sections of two paragraphs each. */
function guide(sections: number): Uint8Array {
  const parts: string[] = ['# Panduan', ''];
  for (let section = 1; section <= sections; section++) {
    parts.push(`## Bagian ${section}`, '');
    for (let paragraph = 1; paragraph <= 2; paragraph++) {
      parts.push(
        Array.from(
          { length: 8 },
          (_, sentence) =>
            `Kalimat ${section}-${paragraph}-${sentence} tentang kewajiban pengemudi di jalan.`,
        ).join(' '),
        '',
      );
    }
  }
  return new TextEncoder().encode(parts.join('\n'));
}

/** This process's children running the extraction entry (from /proc). */
function extractionChildren(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return (
          parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('extract-entry')
        );
      } catch {
        return false; // exited meanwhile
      }
    });
}

const unbounded = { maxBytes: 100_000_000, maxChunks: 1_000_000, maxTextChars: 100_000_000 };

describe('extraction process', () => {
  it('gives what extraction in place gives, and hears the chunking stage', async () => {
    const input = { bytes: guide(300), filename: 'guide.md' };
    const stages: string[] = [];
    const separate = await extractInProcess(input, unbounded, 512, (stage) => stages.push(stage));
    const inline = await extractDocument(input, unbounded);
    expect(separate.chunks.length).toBeGreaterThan(200);
    expect(separate).toEqual(inline);
    expect(stages).toEqual(['chunking']);
  });

  it('passes a large file through a private temporary file, removed afterwards whatever the outcome', async () => {
    const previous = process.env['TMPDIR'];
    const scratch = mkdtempSync(path.join(tmpdir(), 'extract-test-'));
    process.env['TMPDIR'] = scratch;
    // A child started meanwhile may put its own caches there (tsx does, from the sources).
    const inputs = () => readdirSync(scratch).filter((name) => name.startsWith('saksi-extract-'));
    try {
      const large = { bytes: guide(400), filename: 'large.md' };
      expect(large.bytes.length).toBeGreaterThan(INLINE_INPUT_BYTES);
      let whileRunning: string[] = [];
      const separate = await extractInProcess(large, unbounded, 512, () => {
        whileRunning = inputs();
      });
      expect(whileRunning).toHaveLength(1);
      expect(separate).toEqual(await extractDocument(large, unbounded));
      expect(inputs()).toEqual([]);
      // The process dies on this one (its memory is too small): the file goes all the same.
      const error = await extractInProcess(
        { bytes: guide(20_000), filename: 'huge.md' },
        unbounded,
        64,
      ).catch((caught: unknown) => caught);
      expect(isIngestError(error, 'QUOTA_EXCEEDED')).toBe(true);
      expect(inputs()).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = previous;
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it.runIf(existsSync('/proc/self/stat'))('runs below the server in priority', async () => {
    await extractInProcess({ bytes: guide(3), filename: 'guide.md' }, unbounded, 512);
    const children = extractionChildren();
    expect(children).toHaveLength(1);
    expect(getPriority(children[0])).toBe(Math.min(19, getPriority() + EXTRACTION_NICENESS));
  });

  it('brings typed errors back across the process boundary', async () => {
    const error = await extractInProcess(
      { bytes: guide(300), filename: 'guide.md' },
      { ...unbounded, maxChunks: 10 },
      512,
    ).catch((caught: unknown) => caught);
    expect(isIngestError(error, 'QUOTA_EXCEEDED') && error.limit).toEqual({
      name: 'SAKSI_MAX_CHUNKS',
      value: 10,
    });
    const broken = await extractInProcess(
      { bytes: new TextEncoder().encode('%PDF-1.7\n%broken'), filename: 'x.pdf' },
      unbounded,
      512,
    ).catch((caught: unknown) => caught);
    expect(isIngestError(broken, 'MALFORMED_FILE')).toBe(true);
  });

  it('fails a file that needs more than its memory with QUOTA_EXCEEDED, then serves the next one', async () => {
    const error = await extractInProcess({ bytes: guide(20_000), filename: 'huge.md' }, unbounded, 64).catch(
      (caught: unknown) => caught,
    );
    expect(isIngestError(error, 'QUOTA_EXCEEDED') && error.limit).toEqual({
      name: 'SAKSI_INGEST_MEMORY_MB',
      value: 64,
    });
    const next = await extractInProcess({ bytes: guide(100), filename: 'next.md' }, unbounded, 512);
    expect(next.chunks.length).toBeGreaterThan(50);
  });
});
