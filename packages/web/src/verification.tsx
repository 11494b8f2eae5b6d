/**
 * The verification panel: runs `verifyBundle` from @saksi/proof in the browser with the keys pinned
 * in this browser (trust-state.ts) and shows, on top and in the page's language, a verdict a citizen
 * reads (verdict.ts): one sentence and one colour for each of the three results of
 * docs/certificate.md, "Three results" — the quotes are authentic, the answer follows from them,
 * they answer the question (for a v1.2 certificate, its calibrated answer check). A refusal is shown
 * as a refusal (what the collection covers, the related passages), never as verified; an answer the
 * answer check does not confirm is shown as related passages (amber, its quotes authentic), never as
 * verified. A failed bundle gets a red banner, the diff of what it says against
 * what its signed and hashed evidence supports (tamper-diff.ts) and the failing checks in plain
 * words; no download and no QR. Every check, claim and anchor stays available under "Details".
 */
import {
  type Bundle,
  type BundleVerification,
  type Citation,
  type ClaimDecision,
  fromBase64,
  issuerKeyId,
  type TrustedKeys,
  trustOptions,
  verifyBundle,
} from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { Fragment, type ReactNode, useEffect, useState } from 'react';
import {
  type CollectionSummary,
  fetchCertificate,
  fetchCollections,
  rememberCheckpoint,
  verifyOptions,
} from './api.js';
import { collectionDescription, collectionTitle } from './collection-presentation.js';
import { formatNumber, formatTimestamp } from './format.js';
import type { MessageKey } from './i18n.js';
import { shortFingerprint, type TrustDecision } from './key-pinning.js';
import { useT } from './lang-context.js';
import { encodeQr, qrPath } from './qr.js';
import { Link } from './router.js';
import { ShortHash } from './short-hash.js';
import { citationHref, explorerTxUrl, formatCitation } from './sources.js';
import {
  type Change,
  comparePublished,
  type DiffSegment,
  diffWords,
  excerpt,
  findChanges,
} from './tamper-diff.js';
import { useTrust } from './trust-state.js';
import {
  anchorChains,
  chainName,
  checkCounts,
  checkExplanation,
  checkName,
  decideVerdict,
  type Message,
  reasonText,
  type Verdict,
  type VerdictLine,
} from './verdict.js';
import { formatDuration } from './verify-format.js';

export interface VerificationState {
  status: 'running' | 'done';
  result?: BundleVerification;
  ms?: number;
  /** How the keys used relate to the server's (pinned, first use, changed, …). */
  trust?: TrustDecision;
  /** The server could not be asked: the pinned keys alone, no chain lookup, no log history. */
  offline?: boolean;
}

/** A passage the search found, for a refusal's "related passages" (the chat passes its results). */
export interface RelatedPassage {
  label: string;
  text: string;
  href?: string;
}

/** The chat's retrieval results as related passages: citation, snippet, and the link when it has one. */
export function relatedPassages(
  results: readonly { citation: Citation; snippet: string }[],
  pageWord: string,
): RelatedPassage[] {
  return results.map((result) => {
    const passage: RelatedPassage = {
      label: formatCitation(result.citation, pageWord),
      text: result.snippet,
    };
    const href = citationHref(result.citation);
    if (href !== undefined) passage.href = href;
    return passage;
  });
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function logOrigin(bundle: unknown): string | undefined {
  const origin = asRecord(asRecord(bundle)?.['log'])?.['origin'];
  return typeof origin === 'string' ? origin : undefined;
}

/**
 * Verifies `bundle` with the trusted keys of this page, again whenever they change; remembers its
 * checkpoint when verified and newer. `presentedQuestion` is the question as the user typed it.
 */
export function useVerification(bundle: unknown, presentedQuestion?: string): VerificationState {
  const trust = useTrust();
  const [state, setState] = useState<VerificationState>({ status: 'running' });
  useEffect(() => {
    if (trust.loading) return;
    let cancelled = false;
    setState({ status: 'running' });
    (async () => {
      const decision = trust.decision;
      const origin = logOrigin(bundle);
      // Offline, the log's history cannot be fetched: comparing with the remembered checkpoint would
      // fail every older bundle, so it is left out (the panel says the history was not consulted).
      const options = await verifyOptions(
        decision.keys ?? { issuers: [], logs: [] },
        trust.offline ? undefined : origin,
      );
      if (presentedQuestion !== undefined) options.presentedQuestion = presentedQuestion;
      const started = performance.now();
      const result = await verifyBundle(bundle, options);
      const ms = performance.now() - started;
      if (result.verdict === 'verified' && decision.status !== 'changed' && result.checkpoint && origin) {
        const note = asRecord(asRecord(bundle)?.['log'])?.['checkpoint'];
        if (typeof note === 'string') rememberCheckpoint(origin, note);
      }
      if (!cancelled) setState({ status: 'done', result, ms, trust: decision, offline: trust.offline });
    })().catch(() => {
      if (!cancelled) setState({ status: 'done', trust: trust.decision, offline: trust.offline });
    });
    return () => {
      cancelled = true;
    };
  }, [bundle, presentedQuestion, trust]);
  return state;
}

/**
 * The changes of a tampered bundle: against the certificate this server's log holds under the same
 * id when it verifies with the same keys, else what the bundle itself shows (tamper-diff.ts).
 */
function useChanges(bundle: unknown, result: BundleVerification | undefined, verdict: Verdict | undefined) {
  const [changes, setChanges] = useState<Change[] | undefined>();
  const tampered = verdict?.kind === 'tampered';
  const trust = useTrust();
  useEffect(() => {
    if (!tampered || !result) {
      setChanges(undefined);
      return;
    }
    let cancelled = false;
    const problems = result.checks.flatMap((check) => check.problems);
    const own = findChanges(bundle, problems);
    setChanges(own);
    const id = result.certificate_id;
    const keys = trust.decision.keys;
    if (id === null || !keys || trust.offline) return;
    (async () => {
      const published = await fetchCertificate(id);
      const check = await verifyBundle(published, { ...trustOptions(keys), vocabulary: SAKSI_VOCABULARY });
      if (!check.authentic || check.certificate_id !== id) return;
      const compared = comparePublished(bundle, published as Bundle);
      if (!cancelled && compared.length > 0) setChanges(compared);
    })().catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [bundle, result, tampered, trust]);
  return changes;
}

/** Key id of a C2SP verifier key `name+keyid+base64`. */
function vkeyId(vkey: string): string {
  const parts = vkey.split('+');
  return parts.length >= 3 ? (parts[parts.length - 2] ?? '') : '';
}

function issuerId(issuer: TrustedKeys['issuers'][number]): string {
  if (issuer.key_id !== undefined) return issuer.key_id;
  try {
    return issuerKeyId(fromBase64(issuer.public_key, 32));
  } catch {
    return '?';
  }
}

/** One line per key: the issuers, logs and witnesses with their key ids. */
export function KeyList(props: { keys: TrustedKeys }) {
  const { t } = useT();
  const { keys } = props;
  return (
    <dl className="keys">
      <dt>{t('page.issuers')}</dt>
      {keys.issuers.map((issuer) => (
        <dd key={issuer.public_key}>
          {issuer.name} <code>{issuerId(issuer)}</code>
        </dd>
      ))}
      <dt>{t('page.logs')}</dt>
      {keys.logs.map((log) => (
        <dd key={log.vkey}>
          {log.origin} <code>{vkeyId(log.vkey)}</code>
        </dd>
      ))}
      {keys.witnesses && keys.witnesses.length > 0 && (
        <>
          <dt>{t('page.witnesses')}</dt>
          {keys.witnesses.map((witness) => (
            <dd key={witness.vkey}>
              {witness.name} <code>{vkeyId(witness.vkey)}</code>
            </dd>
          ))}
          <dd>{t('page.required', { n: keys.required_cosignatures ?? 0 })}</dd>
        </>
      )}
      {keys.registries && keys.registries.length > 0 && (
        <>
          <dt>{t('page.registries')}</dt>
          {keys.registries.map((registry) => (
            <dd key={`${registry.chain_id}/${registry.contract}`}>
              {registry.chain_id} <ShortHash value={registry.contract} label={t('page.registries')} />
            </dd>
          ))}
        </>
      )}
    </dl>
  );
}

function download(bundle: unknown, certificateId: string | null): void {
  const blob = new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = `saksi-${(certificateId ?? 'bundle').replace(/[^A-Za-z0-9_-]/g, '_')}.json`;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

interface AnchorRow {
  document_id: string;
  title: string;
  anchor?: { chain_id: number; tx_hash: string; block_number: number };
}

function anchorRows(bundle: Bundle): AnchorRow[] {
  const rows = new Map<string, AnchorRow>();
  for (const claim of bundle.certificate.claims) {
    for (const evidence of claim.evidence) {
      if (rows.has(evidence.document_id)) continue;
      const row: AnchorRow = { document_id: evidence.document_id, title: evidence.citation.document_title };
      if (evidence.anchor) row.anchor = evidence.anchor;
      rows.set(evidence.document_id, row);
    }
  }
  return [...rows.values()];
}

type Translate = ReturnType<typeof useT>['t'];

const say = (t: Translate, message: Message) => t(message.key, message.values);

const TONE_ICON = { good: '✓', warn: '!', bad: '✗', neutral: '○' } as const;
const STATUS_ICON = { pass: '✓', fail: '✗', skip: '–' } as const;

function score(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '?' : value.toFixed(2);
}

/** How one claim is supported, in words: `verbatim quote`, `judged entailed (lexical-entailment 0.92)`. */
function supportText(claim: ClaimDecision, t: Translate): string {
  const supported = claim.supported;
  switch (supported.kind) {
    case 'verbatim':
      return t('support.verbatim');
    case 'composed':
      return t('support.composed');
    case 'entailed':
      return `${t('support.entailed')} (${supported.method} ${score(supported.score)})`;
    default:
      return `${t(`support.${supported.kind}`)} (${supported.method})`;
  }
}

const TERMS: Record<VerdictLine['id'], MessageKey> = {
  authentic: 'verify.authentic',
  supported: 'verify.supported',
  relevant: 'verify.relevant',
  answer: 'verify.answer',
};

/** The three results (and a refusal or non-answer), each one sentence in one colour. */
function VerdictLines(props: { verdict: Verdict; result: BundleVerification }) {
  const { t } = useT();
  const { result, verdict } = props;
  const check = verdict.check;
  // The one minimum a reader sees: the answer check's (v1.2), else the answer's relevance (v1.1).
  const scored =
    check !== undefined
      ? { score: check.score, threshold: check.threshold, method: check.method.id, alpha: check.alpha }
      : result.answer.relevant.score !== undefined
        ? {
            score: result.answer.relevant.score,
            threshold: result.answer.relevant.threshold,
            method: result.answer.relevant.method?.id ?? '',
          }
        : undefined;
  const counts = {
    passed: result.checks.filter((check) => check.status === 'pass').length,
    total: result.checks.length,
  };
  return (
    <dl className="results" data-testid="verify-results">
      {verdict.lines.map((line) => (
        <div
          key={line.id}
          className={`result tone-${line.tone}`}
          data-testid={`result-${line.id}`}
          data-status={line.status}
          {...(line.id === 'authentic' ? { 'data-passed': counts.passed, 'data-total': counts.total } : {})}
          {...(line.id === 'relevant' && scored !== undefined
            ? {
                'data-score': score(scored.score),
                'data-threshold': score(scored.threshold),
                'data-method': scored.method,
                ...(scored.alpha !== undefined ? { 'data-alpha': String(scored.alpha) } : {}),
              }
            : {})}
          {...(line.id === 'answer' && result.answer.refusal !== undefined
            ? { 'data-reason': result.answer.refusal }
            : {})}
        >
          <dt>{t(line.term ?? TERMS[line.id])}</dt>
          <dd>
            <span className="result-icon" aria-hidden="true">
              {TONE_ICON[line.tone]}
            </span>{' '}
            <span className="result-text">{say(t, line.message)}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Segments(props: { segments: readonly DiffSegment[]; mark: 'was' | 'now' }) {
  return (
    <>
      {excerpt(props.segments).map((segment, index) =>
        segment.changed ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional
          <mark key={index} className={`diff-${props.mark}`}>
            {segment.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional
          <Fragment key={index}>{segment.text}</Fragment>
        ),
      )}
    </>
  );
}

const MAX_CHANGES_SHOWN = 12;

function changePlace(change: Change, t: Translate): string {
  switch (change.where) {
    case 'claim':
      return t('verdict.diff.where.claim', { n: change.claim ?? '?' });
    case 'answer':
      return change.claim !== undefined
        ? t('verdict.diff.where.answer', { n: change.claim })
        : t('verdict.diff.where.answerWhole');
    case 'passage':
      return t('verdict.diff.where.passage', { label: change.label ?? '' });
    case 'field':
      return t('verdict.diff.where.field', { label: change.label ?? '' });
    default:
      return t(`verdict.diff.where.${change.where}`);
  }
}

/** What the bundle says against what its signed and hashed evidence supports, side by side. */
function TamperDiff(props: { changes: readonly Change[] }) {
  const { t } = useT();
  return (
    <section className="tamper-diff" data-testid="tamper-diff">
      <h3>{t('verdict.diff.title')}</h3>
      {props.changes.length === 0 ? (
        <p data-testid="diff-none">{t('verdict.diff.none')}</p>
      ) : (
        <>
          <p className="muted">{t('verdict.diff.intro')}</p>
          <ol className="changes">
            {props.changes.slice(0, MAX_CHANGES_SHOWN).map((change, index) => {
              const diff =
                change.original !== undefined ? diffWords(change.original, change.shown) : undefined;
              const isCode = change.where === 'field' || change.where === 'signature';
              return (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: changes are positional
                  key={index}
                  className="change"
                  data-testid="diff-row"
                  data-where={change.where}
                  data-basis={change.basis}
                >
                  <h4>{changePlace(change, t)}</h4>
                  <div className="diff-sides">
                    <div className="diff-side original" data-testid="diff-original">
                      <p className="diff-label">{t('verdict.diff.original')}</p>
                      {diff ? (
                        <p className={`diff-text${isCode ? ' code' : ''}`} data-certified>
                          <Segments segments={diff.original} mark="was" />
                        </p>
                      ) : (
                        <p className="diff-text muted">{t('verdict.diff.unknown')}</p>
                      )}
                      {diff && change.basis !== 'none' && (
                        <p className="diff-basis muted">{t(`verdict.diff.basis.${change.basis}`)}</p>
                      )}
                    </div>
                    <div className="diff-side shown" data-testid="diff-shown">
                      <p className="diff-label">{t('verdict.diff.shown')}</p>
                      <p className={`diff-text${isCode ? ' code' : ''}`} data-certified>
                        <Segments
                          segments={diff ? diff.shown : [{ text: change.shown, changed: false }]}
                          mark="now"
                        />
                      </p>
                    </div>
                  </div>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}

/** The failing checks, each by its plain name and what its failure means. */
function FailingChecks(props: { verdict: Verdict }) {
  const { t } = useT();
  if (props.verdict.failing.length === 0) return null;
  return (
    <section className="failing" data-testid="failing-checks">
      <h3>{t('verdict.failing.title')}</h3>
      <ul>
        {props.verdict.failing.map((check) => (
          <li key={check.id} data-testid="failing-check" data-check={check.id}>
            <span className="failing-icon" aria-hidden="true">
              ✗
            </span>{' '}
            <strong>{t(checkName(check.id))}</strong>:{' '}
            {t(checkExplanation(check), { chain: props.verdict.chain })}
          </li>
        ))}
      </ul>
    </section>
  );
}

let collectionsPromise: Promise<CollectionSummary[]> | undefined;

/** Related passages shown for a refusal, and how much of each. */
const MAX_RELATED = 3;
const RELATED_CHARS = 240;

/** `text` cut to about `limit` code points at a word boundary, with an ellipsis. */
function clip(text: string, limit: number): string {
  const points = Array.from(text);
  if (points.length <= limit) return text;
  const head = points.slice(0, limit).join('');
  const cut = head.search(/\s\S*$/);
  return `${cut > limit / 2 ? head.slice(0, cut) : head}…`;
}

/** The collection a refused answer searched, as the server describes it (undefined offline). */
function useCollection(name: string | undefined): CollectionSummary | undefined {
  const [collection, setCollection] = useState<CollectionSummary | undefined>();
  useEffect(() => {
    if (name === undefined) return;
    let cancelled = false;
    collectionsPromise ??= fetchCollections();
    collectionsPromise.then(
      (items) => {
        if (!cancelled) setCollection(items.find((item) => item.name === name));
      },
      () => {
        collectionsPromise = undefined;
      },
    );
    return () => {
      cancelled = true;
    };
  }, [name]);
  return collection;
}

/** A refusal: what the collection covers, the related passages, and Saksi's signed reply. */
function Refusal(props: { bundle: Bundle; related?: readonly RelatedPassage[]; coverage: boolean }) {
  const { t, lang } = useT();
  const certificate = props.bundle.certificate;
  const name = certificate.retrieval.collection;
  const collection = useCollection(name);
  const documents = collection?.documents;
  const description = collection ? collectionDescription(collection, lang) : undefined;
  const searched = certificate.retrieval.results.length;
  const related = props.related ?? [];
  return (
    <section className="refusal" data-testid="refusal">
      {props.coverage && (
        <h3>
          {collection
            ? t('verdict.refusal.covers', { name: collectionTitle(collection, lang) })
            : t('verdict.refusal.coversNone', { name })}
        </h3>
      )}
      {props.coverage && description !== undefined && <p>{description}</p>}
      {props.coverage && typeof documents === 'number' && (
        <p data-testid="refusal-collection">
          {t(documents === 1 ? 'verdict.collection.documents.one' : 'verdict.collection.documents.other', {
            n: formatNumber(documents, lang),
          })}
        </p>
      )}
      <h3>{t('verdict.refusal.related')}</h3>
      {related.length > 0 ? (
        <ol className="related" data-testid="refusal-related">
          {related.slice(0, MAX_RELATED).map((passage, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: passages are positional
            <li key={index} data-certified>
              <strong>
                {passage.href !== undefined ? (
                  <a href={passage.href} target="_blank" rel="noopener noreferrer">
                    {passage.label}
                  </a>
                ) : (
                  passage.label
                )}
              </strong>
              <blockquote className="snippet">{clip(passage.text, RELATED_CHARS)}</blockquote>
            </li>
          ))}
        </ol>
      ) : (
        <p>
          {t(searched === 1 ? 'verdict.refusal.searched.one' : 'verdict.refusal.searched.other', {
            n: formatNumber(searched, lang),
          })}
        </p>
      )}
      {related.length === 0 && (
        <>
          {/* The chat shows the signed reply as the message itself; the verify page shows it here. */}
          <p className="muted">{t('verdict.refusal.signed')}</p>
          <blockquote className="snippet" data-testid="refusal-signed" data-certified>
            {certificate.answer.text}
          </blockquote>
        </>
      )}
    </section>
  );
}

/** The quoted passages of related passages: each cited passage once, its citation and its quote. */
function RelatedQuotes(props: { bundle: Bundle }) {
  const { t } = useT();
  const pageWord = t('sources.page', { page: '' }).trim();
  const passages = new Map<string, RelatedPassage>();
  for (const claim of props.bundle.certificate.claims)
    for (const evidence of claim.evidence) {
      const key = `${evidence.chunk_id}:${evidence.span.start}`;
      if (passages.has(key)) continue;
      const passage: RelatedPassage = {
        label: formatCitation(evidence.citation, pageWord),
        text: evidence.span.text,
      };
      const href = citationHref(evidence.citation);
      if (href !== undefined) passage.href = href;
      passages.set(key, passage);
    }
  if (passages.size === 0) return null;
  return (
    <section className="refusal related-quotes" data-testid="related-quotes">
      <h3>{t('verdict.related.passages')}</h3>
      <ol className="related">
        {[...passages.values()].slice(0, MAX_RELATED).map((passage, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: passages are positional
          <li key={index} data-certified>
            <strong>
              {passage.href !== undefined ? (
                <a href={passage.href} target="_blank" rel="noopener noreferrer">
                  {passage.label}
                </a>
              ) : (
                passage.label
              )}
            </strong>
            <blockquote className="snippet">{clip(passage.text, RELATED_CHARS)}</blockquote>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The keys a verification used, in one line: pinned when, fingerprint. */
function KeysUsed(props: { trust: TrustDecision | undefined }) {
  const { t, lang } = useT();
  const trust = props.trust;
  if (!trust?.keys) return <span>{t('verdict.keys.none')}</span>;
  const date = trust.pin ? formatTimestamp(trust.pin.pinned_at, lang) : '';
  const text =
    trust.status === 'first-use'
      ? t('verdict.keys.firstUse')
      : trust.status === 'pinned'
        ? t('verdict.keys.pinned', { date })
        : trust.status === 'pinned-offline'
          ? t('verdict.keys.offline', { date })
          : trust.status === 'changed'
            ? t('verdict.keys.changed')
            : t('verdict.keys.unpinned');
  const fingerprint = trust.pin?.fingerprint ?? trust.servedFingerprint;
  return (
    <span data-testid="keys-used" data-trust={trust.status}>
      {text}
      {fingerprint !== undefined && (
        <>
          {' — '}
          {t('pin.fingerprint')} <code data-testid="keys-fingerprint">{shortFingerprint(fingerprint)}</code>
        </>
      )}
    </span>
  );
}

/** Everything that was checked, for whoever wants it: checks, certificate, claims, anchors. */
function Details(props: {
  bundle: unknown;
  state: VerificationState;
  result: BundleVerification;
  verdict: Verdict;
}) {
  const { t, lang } = useT();
  const { result, state, verdict } = props;
  const validBundle = result.checks[0]?.status === 'pass' ? (props.bundle as Bundle) : undefined;
  const certificate = validBundle?.certificate;
  return (
    <details className="verify-details" data-testid="verify-details">
      <summary>{t('verdict.details.summary')}</summary>
      <p>{t('verdict.details.counts', checkCounts(result, lang))}</p>
      <dl className="facts">
        {certificate && (
          <>
            <dt>{t('verdict.details.number')}</dt>
            <dd>
              <ShortHash value={certificate.certificate_id} label={t('verdict.details.number')} />
            </dd>
            <dt>{t('verdict.details.issued')}</dt>
            <dd>
              <time dateTime={certificate.issued_at}>{formatTimestamp(certificate.issued_at, lang)}</time>
            </dd>
            <dt>{t('verdict.details.issuer')}</dt>
            <dd>
              {certificate.issuer.name} <code>{certificate.issuer.key_id}</code>
            </dd>
          </>
        )}
        <dt>{t('verdict.details.keys')}</dt>
        <dd>
          <KeysUsed trust={state.trust} />
        </dd>
      </dl>
      <h3>{t('verdict.details.checks')}</h3>
      <ul className="checks">
        {result.checks.map((check) => (
          <li
            key={check.id}
            data-testid={`check-${check.id}`}
            data-status={check.status}
            className={`check ${check.status}`}
          >
            <span className="check-icon" aria-hidden="true">
              {STATUS_ICON[check.status]}
            </span>
            <span className="check-name">
              {t(checkName(check.id))}{' '}
              <span className="sr-status">({t(`verdict.status.${check.status}`)})</span>
            </span>
            <span className="check-message">
              {t(checkExplanation(check), { chain: verdict.chain })}
              {check.problems.slice(0, 5).map((problem, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: problems have no identity
                <code key={index} className="problem">
                  {problem.field !== undefined
                    ? t('verdict.details.problem', { code: problem.code, field: problem.field })
                    : problem.code}
                </code>
              ))}
            </span>
          </li>
        ))}
      </ul>
      {result.claims.length > 0 && (
        <>
          <h3>{t('verdict.details.claims')}</h3>
          <p data-testid="verify-summary" className="summary">
            {t('verify.summaryLabel')}
            {t('verify.summary', result.summary)}
          </p>
          <ul className="claims">
            {result.claims.map((claim) => {
              // A claim of an answer that is not an answer is never shown in the verified green.
              const tone = !claim.rendered ? 'blocked' : verdict.verified ? 'ok' : 'neutral';
              return (
                <li
                  key={claim.claim_id}
                  data-testid="claim-item"
                  data-rendered={String(claim.rendered)}
                  data-reason={claim.reason}
                  className={`claim ${tone}`}
                >
                  <span className="claim-status">
                    {tone === 'ok'
                      ? `✓ ${t('verdict.claim.shown')}`
                      : tone === 'neutral'
                        ? `○ ${t('verify.claimNotAnswer')}`
                        : `✗ ${t('verdict.claim.blocked', { reason: t(reasonText(claim.reason)) })}`}
                  </span>
                  {result.authentic && (
                    <span className="claim-results">
                      <span data-testid="claim-supported" data-kind={claim.supported.kind}>
                        {t('verdict.claim.support', { how: supportText(claim, t) })}
                      </span>
                    </span>
                  )}
                  <span className="claim-text" data-certified>
                    {claim.text}
                  </span>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {validBundle && result.authentic && anchorRows(validBundle).length > 0 && (
        <>
          <h3>{t('verdict.details.anchors')}</h3>
          <ul className="anchors">
            {anchorRows(validBundle).map((row) => (
              <li key={row.document_id}>
                <strong>{row.title}</strong>:{' '}
                {row.anchor ? (
                  <AnchorTx anchor={row.anchor} />
                ) : (
                  <span className="muted">{t('verdict.anchorNone')}</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {result.codes.length > 0 && (
        <p className="codes muted">{t('verdict.details.codes', { codes: result.codes.join(', ') })}</p>
      )}
    </details>
  );
}

/** The QR code of `url` as SVG elements (no markup strings), with a 4-module quiet zone. */
export function QrCodeImage(props: { url: string; label: string }) {
  let code: ReturnType<typeof encodeQr>;
  try {
    code = encodeQr(props.url, { errorCorrection: 'M' });
  } catch {
    return null;
  }
  const side = code.size + 8;
  return (
    <svg
      className="qr"
      data-testid="verify-qr"
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${side} ${side}`}
      width={side * 3}
      height={side * 3}
      shapeRendering="crispEdges"
    >
      <rect width={side} height={side} fill="#fff" />
      <path d={qrPath(code, 4)} fill="#000" />
    </svg>
  );
}

/** The panel for one bundle. `testId` is `verify-panel` in the chat and `verify-result` on the verify page. */
export function VerificationPanel(props: {
  bundle: unknown;
  testId: 'verify-panel' | 'verify-result';
  showKeys?: boolean;
  /** The question as the user asked it, checked against the certificate's query hash. */
  presentedQuestion?: string;
  /** For a refusal: the passages the search found, to show as related (not as an answer). */
  related?: readonly RelatedPassage[];
  /** For a refusal: say what the collection covers (default); off where the page says it already. */
  coverage?: boolean;
  /** For related passages: list the quotes (default); off where the page shows them already. */
  relatedQuotes?: boolean;
  /** Told the verdict once the verification is done (undefined while it runs). */
  onVerdict?: (verdict: Verdict | undefined) => void;
}) {
  const { t, lang } = useT();
  const state = useVerification(props.bundle, props.presentedQuestion);
  const result = state.result;
  const issuer = asRecord(asRecord(asRecord(props.bundle)?.['certificate'])?.['issuer']);
  const verdict: Verdict | undefined =
    result &&
    decideVerdict(result, {
      trust: state.trust?.status ?? 'none',
      lang,
      chains: anchorChains(props.bundle),
      ...(typeof issuer?.['name'] === 'string' && typeof issuer['key_id'] === 'string'
        ? { issuer: { name: issuer['name'], key_id: issuer['key_id'] } }
        : {}),
    });
  const onVerdict = props.onVerdict;
  const verdictKind = verdict?.kind;
  // biome-ignore lint/correctness/useExhaustiveDependencies: told again only when the kind or the language changes
  useEffect(() => {
    onVerdict?.(verdict);
  }, [onVerdict, verdictKind, lang]);
  const changes = useChanges(props.bundle, result, verdict);
  const running = state.status === 'running';
  // `data-verdict` is the integrity verdict (the contract's two values): a refusal is authentic, yet
  // not an answer (`data-answered`); keys that changed are never "verified".
  const dataVerdict = running
    ? 'running'
    : result?.authentic && verdict?.kind !== 'key-changed'
      ? 'verified'
      : 'failed';
  // The verify page's result element appears only once there is a verdict.
  const testId = props.testId === 'verify-result' && running ? undefined : props.testId;
  const certificateId = result?.certificate_id ?? null;
  const inconsistent = result?.checks.some(
    (check) => check.id === 'checkpoint_consistency' && check.status === 'fail',
  );
  const kind = running ? 'running' : (verdict?.kind ?? 'failed');
  const showActions = result?.authentic === true && verdict?.kind !== 'key-changed';
  const validBundle = result?.checks[0]?.status === 'pass' ? (props.bundle as Bundle) : undefined;

  let heading: ReactNode;
  if (running) heading = t('verify.running');
  else if (verdict) heading = say(t, verdict.heading);
  else heading = t('verify.failed');
  const icon = running ? '…' : verdict?.verified ? '✓' : verdict?.alarm || !verdict ? '✗' : '○';
  const headingElement = (
    <h2 className="verify-heading" data-testid="verify-heading">
      <span className="verdict-icon" aria-hidden="true">
        {icon}
      </span>{' '}
      {heading}
      {state.ms !== undefined && !verdict?.alarm && (
        <span className="muted took"> · {t('verdict.took', { time: formatDuration(state.ms, lang) })}</span>
      )}
    </h2>
  );

  return (
    <section
      className={`verify-panel verdict-${kind}`}
      data-testid={testId}
      data-verdict={dataVerdict}
      data-kind={kind}
      data-trust={state.trust?.status}
      data-answered={verdict ? String(verdict.verified) : undefined}
      aria-busy={running}
    >
      {verdict?.alarm ? (
        <div className="banner" role="alert" data-testid="verdict-banner">
          {headingElement}
          {verdict.hint && <p className="banner-hint">{say(t, verdict.hint)}</p>}
          {verdict.kind === 'key-changed' && props.testId === 'verify-panel' && (
            <p className="banner-hint">
              <Link to="/verify">{t('verdict.keys.manage')}</Link>
            </p>
          )}
        </div>
      ) : (
        headingElement
      )}
      {state.offline && !running && (
        <p className="muted" data-testid="offline-note">
          {t('verdict.offline')}
        </p>
      )}
      {inconsistent && (
        <div className="warning" role="alert" data-testid="checkpoint-warning">
          {t('verdict.checkpointWarning')}
        </div>
      )}
      {result && verdict && (
        <>
          {/* A failure: the banner first, then what changed and what failed; else the verdict on top. */}
          {!verdict.alarm && <VerdictLines verdict={verdict} result={result} />}
          {verdict.kind === 'tampered' && changes !== undefined && <TamperDiff changes={changes} />}
          {verdict.alarm && <FailingChecks verdict={verdict} />}
          {verdict.alarm && <VerdictLines verdict={verdict} result={result} />}
          {verdict.kind === 'refused' && validBundle && (
            <Refusal
              bundle={validBundle}
              coverage={props.coverage !== false}
              {...(props.related ? { related: props.related } : {})}
            />
          )}
          {props.showKeys !== false && state.trust?.keys && <KeyList keys={state.trust.keys} />}
          {verdict.kind === 'related' && validBundle && props.relatedQuotes !== false && (
            <RelatedQuotes bundle={validBundle} />
          )}
          <Details bundle={props.bundle} state={state} result={result} verdict={verdict} />
          {showActions && (
            <>
              <div className="actions">
                <button
                  type="button"
                  className="button secondary"
                  data-testid="download-proof"
                  onClick={() => download(props.bundle, certificateId)}
                >
                  ⤓ {t(verdict.verified ? 'verify.download' : 'verify.downloadBundle')}
                </button>
                {certificateId !== null && props.testId === 'verify-panel' && (
                  <Link to={`/verify/${encodeURIComponent(certificateId)}`} testId="verify-link">
                    {t('verify.link')}
                  </Link>
                )}
              </div>
              {certificateId !== null && (
                <figure className="qr-figure">
                  <QrCodeImage
                    url={`${location.origin}/verify/${encodeURIComponent(certificateId)}`}
                    label={t('verify.qr')}
                  />
                  <figcaption className="muted">{t('verify.qr')}</figcaption>
                </figure>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}

/** One anchor: block and chain, and the transaction shortened, linked to the explorer for Base. */
function AnchorTx(props: { anchor: { chain_id: number; tx_hash: string; block_number: number } }) {
  const { t, lang } = useT();
  const { anchor } = props;
  const url = explorerTxUrl(anchor.chain_id, anchor.tx_hash);
  return (
    <span className="anchor-tx" data-testid="anchor-tx" data-value={anchor.tx_hash}>
      {t('verdict.anchorRow', {
        chain: chainName(anchor.chain_id, lang),
        block: formatNumber(anchor.block_number, lang),
      })}
      , {t('verdict.anchorTx')} <ShortHash value={anchor.tx_hash} label={t('verdict.anchorTx')} href={url} />
    </span>
  );
}
