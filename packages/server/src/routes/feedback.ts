/**
 * Feedback on answers (docs/api.md, "Feedback"): `POST /feedback {certificate_id, rating, comment?}`.
 * Whoever may read a certificate may rate it: anyone for a certificate of a public collection, a key
 * (or admin session) of its workspace otherwise; everyone else gets the 404 of an unknown id. Without
 * a key, the client address is charged an hourly feedback budget of its own (as many as the public
 * chat's answers, `SAKSI_PUBLIC_CHAT_LIMIT`) besides the per-address limit of every anonymous request.
 *
 * One feedback per certificate and submitter: a later one replaces it. The submitter is the API key,
 * the admin, or — without either — the client address, stored as an HMAC under the server's secret so
 * the address itself is never kept.
 */
import { createHmac } from 'node:crypto';
import type { Engine } from '@saksi/engine';
import type { Context } from 'hono';
import type { Access } from '../access.js';
import type { Mount } from '../api-spec/mount.js';

export function registerFeedbackRoutes(mount: Mount, engine: Engine, access: Access): void {
  const secret = () => engine.authSecret();

  const submitter = async (c: Context): Promise<string> => {
    const principal = await access.principal(c);
    if (principal?.kind === 'api_key') return `key:${principal.key_id}`;
    if (principal?.kind === 'admin') return `admin:${principal.email}`;
    const digest = createHmac('sha256', await secret())
      .update(`saksi feedback submitter\n${access.clientAddress(c)}`)
      .digest('hex');
    return `address:${digest}`;
  };

  mount('giveFeedback', async (c, { principal, body }) => {
    if (principal === null) await access.chargeFeedback(c);
    await access.requireRecord(c, 'certificate', body.certificate_id);
    const feedback = await engine.feedback.submit({
      certificateId: body.certificate_id,
      submitter: await submitter(c),
      rating: body.rating,
      ...(body.comment != null ? { comment: body.comment } : {}),
    });
    const { replaced, ...record } = feedback;
    return c.json({ feedback: record, replaced }, replaced ? 200 : 201);
  });
}
