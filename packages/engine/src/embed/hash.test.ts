import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { embedMany } from './embed-many.js';
import { createHashEmbeddingModel, hashEmbed, hashingWords, normalizeForHashing } from './hash.js';

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot; // vectors are unit length
}

function norm(vector: number[]): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

describe('hash embedding model', () => {
  it('is a v1 model named hash/saksi-hash-v1 with 384 dimensions by default', async () => {
    const model = createHashEmbeddingModel();
    expect(model.specificationVersion).toBe('v1');
    expect(model.provider).toBe('hash');
    expect(model.modelId).toBe('saksi-hash-v1');
    expect(model.dimensions).toBe(384);
    expect(model.maxEmbeddingsPerCall).toBeGreaterThanOrEqual(1024);
    const { embeddings } = await model.doEmbed({ values: ['lampu merah', 'helm'] });
    expect(embeddings).toHaveLength(2);
    for (const vector of embeddings) {
      expect(vector).toHaveLength(384);
      expect(norm(vector)).toBeCloseTo(1, 10);
    }
    expect(createHashEmbeddingModel({ dimensions: 64 }).dimensions).toBe(64);
    expect(
      (await createHashEmbeddingModel({ dimensions: 64 }).doEmbed({ values: ['x'] })).embeddings[0],
    ).toHaveLength(64);
    expect(() => createHashEmbeddingModel({ dimensions: 0 })).toThrow(RangeError);
  });

  it('is deterministic, including across model instances', async () => {
    const text = 'Setiap orang yang mengemudikan Kendaraan Bermotor wajib memiliki SIM.';
    const a = await createHashEmbeddingModel().doEmbed({ values: [text] });
    const b = await createHashEmbeddingModel().doEmbed({ values: [text] });
    expect(a.embeddings).toEqual(b.embeddings);
    // A pinned fingerprint: changing the features or the hash changes stored vectors, which needs a
    // new modelId and a re-embed.
    const bytes = new Uint8Array(new Float64Array(hashEmbed(text, 384)).buffer);
    expect(createHash('sha256').update(bytes).digest('hex')).toMatchInlineSnapshot(
      `"439b43f96cd0f7ff170d03d191984244f639ae7ad3e0cb36411667cddef2b0df"`,
    );
  });

  it('normalizes case, diacritics and compatibility forms', () => {
    expect(normalizeForHashing('Café ＡＢＣ')).toBe('cafe abc');
    expect(hashingWords('Rp1.500.000, Kendaraan-Bermotor!')).toEqual([
      'rp1',
      '500',
      '000',
      'kendaraan',
      'bermotor',
    ]);
    expect(hashEmbed('CAFÉ Résumé', 128)).toEqual(hashEmbed('cafe resume', 128));
    expect(hashEmbed('cafe\u0301', 128)).toEqual(hashEmbed('café', 128));
    expect(hashEmbed('jalan raya', 128)).not.toEqual(hashEmbed('raya jalan', 128)); // word pairs count
  });

  it('puts similar texts closer than unrelated ones', () => {
    const query = hashEmbed('denda menerobos lampu merah', 384);
    const related = hashEmbed(
      'Setiap orang yang mengemudikan kendaraan dan melanggar lampu merah dipidana dengan denda paling banyak Rp500.000,00.',
      384,
    );
    const unrelated = hashEmbed(
      'Anggaran pendapatan negara tahun 2020 terdiri atas penerimaan perpajakan.',
      384,
    );
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.1);
    // Affixed forms share character n-grams.
    const morphology = cosine(hashEmbed('pengemudi', 384), hashEmbed('mengemudikan', 384));
    expect(morphology).toBeGreaterThan(cosine(hashEmbed('pengemudi', 384), hashEmbed('anggaran', 384)));
    expect(morphology).toBeGreaterThan(0.2);
  });

  it('never produces NaN: empty and symbol-only texts are zero vectors', () => {
    for (const text of ['', '   ', '!!! ---', '\u0301']) {
      const vector = hashEmbed(text, 32);
      expect(vector).toEqual(new Array(32).fill(0));
    }
    const long = hashEmbed('x'.repeat(100_000), 32);
    expect(long.every(Number.isFinite)).toBe(true);
    expect(hashEmbed('😀 ok 漢字', 32).every(Number.isFinite)).toBe(true);
  });

  it('embeds a batch of chunk-sized texts quickly (informal, not asserted)', async () => {
    const words = ['kendaraan', 'bermotor', 'wajib', 'jalan', 'pengemudi', 'denda', 'pidana', 'ayat'];
    const texts = Array.from({ length: 500 }, (_, i) =>
      Array.from({ length: 250 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' '),
    );
    const vectors = await embedMany(createHashEmbeddingModel(), texts);
    expect(vectors).toHaveLength(500);
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      createHashEmbeddingModel().doEmbed({ values: ['x'], abortSignal: controller.signal }),
    ).rejects.toThrow('stop');
  });
});
