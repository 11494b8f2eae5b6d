/**
 * Feedback on an answer (`POST /api/v1/feedback`, docs/api.md "Feedback"), as a free function over the
 * transport so a small bundle (the widget) can send it without the whole {@link SaksiClient}.
 */
import { type SaksiClientOptions, Transport } from './transport.js';
import type { FeedbackInput, FeedbackResult } from './types.js';

/**
 * A thumbs up or down, with an optional comment, on an answer: one per certificate and caller, a
 * later one replaces it (`replaced: true`). {@link SaksiClient.giveFeedback} is the same call.
 */
export function giveFeedback(client: SaksiClientOptions, input: FeedbackInput): Promise<FeedbackResult> {
  return sendFeedback(new Transport(client), input);
}

/** {@link giveFeedback} over an existing transport. */
export function sendFeedback(transport: Transport, input: FeedbackInput): Promise<FeedbackResult> {
  return transport.request('POST', '/feedback', { json: input });
}
