/**
 * Witness routes (docs/transparency-log.md, "Witnesses"): `POST /log/cosignatures` takes a witness's C2SP
 * tlog-cosignature on a stored checkpoint. It needs no credentials — the cosignature itself is the
 * credential: it is stored only when it verifies with a witness key in this server's trusted keys
 * (`/.well-known/saksi-keys.json`, `saksi keys add-witness`).
 */
import type { Engine } from '@saksi/engine';
import type { Hono } from 'hono';
import { z } from 'zod';
import { readJsonBody, validate } from '../body.js';
import { text } from '../schemas.js';

/** A cosignature request is two short fields; anything larger is not one. */
const COSIGNATURE_BODY_LIMIT = 16 * 1024;

/** `POST /api/v1/log/cosignatures` */
export const cosignatureRequestSchema = z.object({
  size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  cosignature: text(1_000).refine((value) => !value.includes('\n'), 'must be one line without its newline'),
});

export function registerWitnessRoutes(api: Hono, engine: Engine): void {
  api.post('/log/cosignatures', async (c) => {
    const body = validate(
      cosignatureRequestSchema,
      await readJsonBody(c.req.raw, COSIGNATURE_BODY_LIMIT),
      'cosignature request',
    );
    const witnesses = (engine.trustedKeys().witnesses ?? []).map((witness) => witness.vkey);
    const stored = await engine.logStorage.addCosignature(
      { origin: engine.log.origin, witnesses },
      { size: body.size, cosignature: body.cosignature },
    );
    return c.json(stored);
  });
}
