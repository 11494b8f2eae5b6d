/**
 * The session reference (docs/certificate.md, "The session reference"): what a certificate records,
 * as `query.session_id`, of the chat session its question was asked in. Certificates are shared and
 * logged publicly, so the reference must not let anyone group them into conversations; the session id
 * is the secret that reads a conversation, so its holder — and only its holder — can show which
 * answers belong to it.
 *
 * `sesmac_` and the 64 hex digits of HMAC-SHA256 (RFC 2104, FIPS 198-1) keyed by the session id (its
 * UTF-8 bytes) over `saksi.session-reference/v2\n` and the certificate id: a different value for every
 * certificate, which without the session id says nothing of the others of its session. Certificates
 * issued before it carry the unkeyed form, `sesref_` and the first 32 hex digits of
 * SHA-256(`saksi session reference\n` ‖ session id), the same for every answer of a session; both are
 * checked here.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hexDigestEqual, toHex, utf8Encode } from './bytes.js';
import { ProofError } from './errors.js';

/** The prefix of a keyed reference, one per certificate (the form issuers write). */
export const SESSION_REFERENCE_PREFIX = 'sesmac_';
/** The prefix of the unkeyed reference of certificates issued before, the same for a whole session. */
export const UNKEYED_SESSION_REFERENCE_PREFIX = 'sesref_';
/** The longest session id accepted (Saksi's are `ses_` and 32 hex digits). */
export const MAX_SESSION_ID_LENGTH = 1_000;

/** Domain separation: the HMAC input is this line, then the certificate id. */
const KEYED_CONTEXT = 'saksi.session-reference/v2\n';
const UNKEYED_CONTEXT = 'saksi session reference\n';

/**
 * The reference a certificate `certificateId` records of session `sessionId`: `sesmac_` and
 * HMAC-SHA256(key = session id, `saksi.session-reference/v2\n` ‖ certificate id) in lowercase hex.
 *
 * `buildCertificate` of `@saksi/proof/issue` records it when given the session:
 *
 * @example
 * ```ts
 * buildCertificate({ …, query: { text: question, session: sessionId } }); // query.session_id = sessionReference(sessionId, certificate_id)
 * sessionReference('ses_01a2…', '01a2002d-d388-7935-85c8-7c86b835e811'); // 'sesmac_…' (64 hex digits)
 * ```
 */
export function sessionReference(sessionId: string, certificateId: string): string {
  checkSessionId(sessionId);
  if (typeof certificateId !== 'string' || certificateId.length === 0 || certificateId.length > 1_000)
    throw new ProofError(
      'INVALID_LENGTH',
      'A session reference needs the certificate id (1–1,000 characters).',
    );
  const mac = hmac(sha256, utf8Encode(sessionId), utf8Encode(`${KEYED_CONTEXT}${certificateId}`));
  return `${SESSION_REFERENCE_PREFIX}${toHex(mac)}`;
}

/**
 * The unkeyed reference certificates issued before the keyed one carried: `sesref_` and the first 32
 * hex digits of SHA-256(`saksi session reference\n` ‖ session id). Issuers no longer write it: it is
 * the same for every answer of a session, so anyone could group those answers by it.
 */
export function unkeyedSessionReference(sessionId: string): string {
  checkSessionId(sessionId);
  return `${UNKEYED_SESSION_REFERENCE_PREFIX}${toHex(sha256(utf8Encode(`${UNKEYED_CONTEXT}${sessionId}`))).slice(0, 32)}`;
}

/**
 * Whether a certificate was asked in a session, as its holder can tell: `belongs` when its reference
 * is the session's (`form` says which: `keyed`, or `unkeyed` for a certificate issued before),
 * `other` when it names another session (or a reference of no known form), `none` when it names no
 * session. The certificate is read as given: verify its bundle first (`verifyBundle`), or the
 * reference is no one's word.
 *
 * @example
 * ```ts
 * const result = await verifyBundle(bundle, options);
 * if (result.authentic && matchSessionReference(bundle.certificate, sessionId).status === 'belongs') …
 * ```
 */
export function matchSessionReference(certificate: unknown, sessionId: string): SessionReferenceMatch {
  checkSessionId(sessionId);
  const query = (certificate as { query?: unknown } | null)?.query;
  const reference = (query as { session_id?: unknown } | null | undefined)?.session_id;
  const certificateId = (certificate as { certificate_id?: unknown } | null)?.certificate_id;
  if (reference === undefined) return { status: 'none' };
  if (typeof reference !== 'string') return { status: 'other', form: 'unknown' };
  if (reference.startsWith(SESSION_REFERENCE_PREFIX)) {
    const expected =
      typeof certificateId === 'string' && certificateId.length > 0 && certificateId.length <= 1_000
        ? sessionReference(sessionId, certificateId)
        : '';
    return { status: hexDigestEqual(reference, expected) ? 'belongs' : 'other', form: 'keyed' };
  }
  if (reference.startsWith(UNKEYED_SESSION_REFERENCE_PREFIX))
    return {
      status: hexDigestEqual(reference, unkeyedSessionReference(sessionId)) ? 'belongs' : 'other',
      form: 'unkeyed',
    };
  return { status: 'other', form: 'unknown' };
}

/** What {@link matchSessionReference} found. */
export type SessionReferenceMatch =
  | { status: 'belongs'; form: 'keyed' | 'unkeyed' }
  | { status: 'other'; form: 'keyed' | 'unkeyed' | 'unknown' }
  | { status: 'none' };

function checkSessionId(sessionId: string): void {
  if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > MAX_SESSION_ID_LENGTH)
    throw new ProofError(
      'INVALID_LENGTH',
      `A session id is 1 to ${MAX_SESSION_ID_LENGTH} characters (Saksi's are ses_ and 32 hex digits).`,
    );
}
