/**
 * Witness routes (docs/transparency-log.md, "Witnesses"): `POST /log/cosignatures` takes a witness's C2SP
 * tlog-cosignature on a stored checkpoint. It needs no credentials — the cosignature itself is the
 * credential: it is stored only when it verifies with a witness key in this server's trusted keys
 * (`/.well-known/saksi-keys.json`, `saksi keys add-witness`).
 */
import type { Engine } from '@saksi/engine';
import type { Mount } from '../api-spec/mount.js';

export function registerWitnessRoutes(mount: Mount, engine: Engine): void {
  mount('addCosignature', async (c, { body }) => {
    const witnesses = (engine.trustedKeys().witnesses ?? []).map((witness) => witness.vkey);
    const stored = await engine.logStorage.addCosignature(
      { origin: engine.log.origin, witnesses },
      { size: body.size, cosignature: body.cosignature },
    );
    return c.json(stored);
  });
}
