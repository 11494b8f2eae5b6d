/** What the admin pages say about failures: pure functions, tested without a browser. */
import type { MessageKey } from '../i18n.js';
import { AdminApiError } from './admin-api.js';

/** A sign-in problem as the form shows it: the message key and its values. */
export interface LoginNotice {
  key: MessageKey;
  values?: Record<string, string | number>;
}

/** The wording for a failed sign-in or session check: rate limited, expired, server error, or generic. */
export function loginNotice(error: unknown): LoginNotice {
  if (error instanceof AdminApiError) {
    if (error.code === 'RATE_LIMITED' || error.status === 429) {
      return error.retryAfter !== undefined
        ? { key: 'admin.login.rateLimited', values: { seconds: error.retryAfter } }
        : { key: 'admin.login.rateLimitedLater' };
    }
    if (error.code === 'SESSION_EXPIRED') return { key: 'admin.login.expired' };
    if (error.status >= 400 && error.status < 500) return { key: 'admin.login.failed' };
  }
  return { key: 'admin.login.serverError' };
}
