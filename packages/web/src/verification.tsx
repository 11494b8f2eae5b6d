/**
 * The verification panel: runs `verifyBundle` from @saksi/proof in the browser with the server's
 * published keys and shows its three results apart (docs/certificate.md, "Three results"):
 * *authentic* (the integrity checks), *supported* (each claim follows from its evidence: a verbatim
 * quote, composed from quotes, or judged entailed) and *relevant* (the evidence answers the
 * question, with the method that scored it). A refused or not relevant answer is "not answered" in
 * neutral styling, never under the green verified heading. Then every check and claim (fail-closed),
 * the anchors, and the proof to download.
 */
import {
  type Bundle,
  type BundleVerification,
  type ClaimDecision,
  fromBase64,
  issuerKeyId,
  type TrustedKeys,
  verifyBundle,
} from '@saksi/proof';
import { useEffect, useState } from 'react';
import { fetchKeys, KEYS_PATH, rememberCheckpoint, verifyOptions } from './api.js';
import { Link, useT } from './app.js';
import type { MessageKey } from './i18n.js';
import { encodeQr, qrPath } from './qr.js';
import { explorerTxUrl } from './sources.js';

export interface VerificationState {
  status: 'running' | 'done';
  result?: BundleVerification;
  ms?: number;
  keys?: TrustedKeys;
  keysError?: string;
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
 * Verifies `bundle` once per value; remembers its checkpoint when verified and newer.
 * `presentedQuestion` is the question as the user typed it (the certificate's `query.text`).
 */
export function useVerification(bundle: unknown, presentedQuestion?: string): VerificationState {
  const [state, setState] = useState<VerificationState>({ status: 'running' });
  useEffect(() => {
    let cancelled = false;
    setState({ status: 'running' });
    (async () => {
      let keys: TrustedKeys | undefined;
      let keysError: string | undefined;
      try {
        keys = await fetchKeys();
      } catch (error) {
        keysError = error instanceof Error ? error.message : String(error);
      }
      const origin = logOrigin(bundle);
      const options = await verifyOptions(keys ?? { issuers: [], logs: [] }, origin);
      if (presentedQuestion !== undefined) options.presentedQuestion = presentedQuestion;
      const started = performance.now();
      const result = await verifyBundle(bundle, options);
      const ms = performance.now() - started;
      if (result.verdict === 'verified' && result.checkpoint && origin !== undefined) {
        const note = asRecord(asRecord(bundle)?.['log'])?.['checkpoint'];
        if (typeof note === 'string') rememberCheckpoint(origin, note);
      }
      if (!cancelled) {
        const next: VerificationState = { status: 'done', result, ms };
        if (keys) next.keys = keys;
        if (keysError !== undefined) next.keysError = keysError;
        setState(next);
      }
    })().catch((error: unknown) => {
      if (!cancelled)
        setState({ status: 'done', keysError: error instanceof Error ? error.message : String(error) });
    });
    return () => {
      cancelled = true;
    };
  }, [bundle, presentedQuestion]);
  return state;
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
              {registry.chain_id} <code>{registry.contract}</code>
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

const STATUS_ICON = { pass: '✓', fail: '✗', skip: '–' } as const;

type Translate = ReturnType<typeof useT>['t'];

/** The verdict the heading shows: integrity first, then whether the answer is an answer at all. */
type PanelVerdict = 'running' | 'verified' | 'failed' | 'not-answered';

function panelVerdict(state: VerificationState): PanelVerdict {
  if (state.status === 'running') return 'running';
  const result = state.result;
  if (result?.verdict !== 'verified') return 'failed';
  return result.answer.answered ? 'verified' : 'not-answered';
}

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

/** The supported kinds of all claims, counted: `1 verbatim quote, 1 composed from quotes`. */
function supportSummary(claims: readonly ClaimDecision[], t: Translate): string {
  const counts = new Map<string, number>();
  for (const claim of claims) {
    const kind = claim.supported.kind;
    const label =
      kind === 'entailed'
        ? `${t('support.entailed')} (${claim.supported.method})`
        : kind === 'verbatim' || kind === 'composed'
          ? kind
          : t(`support.${kind}`);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts]
    .map(([label, n]) => {
      if (label === 'verbatim') return `${n} ${t(n === 1 ? 'support.verbatim' : 'support.verbatimPlural')}`;
      if (label === 'composed') return `${n} ${t('support.composed')}`;
      return `${n} ${label}`;
    })
    .join(', ');
}

/** One of the three results: a term, an icon and what was found. */
function ResultRow(props: {
  testId: string;
  status: string;
  tone: 'pass' | 'fail' | 'neutral';
  term: string;
  children: string;
}) {
  const icon = props.tone === 'pass' ? '✓' : props.tone === 'fail' ? '✗' : '○';
  return (
    <div className={`result ${props.tone}`} data-testid={props.testId} data-status={props.status}>
      <dt>{props.term}</dt>
      <dd>
        <span className="result-icon" aria-hidden="true">
          {icon}
        </span>{' '}
        <span className="result-text">{props.children}</span>
      </dd>
    </div>
  );
}

/** Authentic, supported, relevant — three results, each on its own line — and the answer's outcome. */
export function ThreeResults(props: { result: BundleVerification }) {
  const { t } = useT();
  const { result } = props;
  const total = result.checks.length;
  const passed = result.checks.filter((check) => check.status === 'pass').length;
  const skipped = result.checks.filter((check) => check.status === 'skip').length;
  const answer = result.answer;
  const claims = result.claims;
  const supportedCount = claims.filter((claim) =>
    ['verbatim', 'composed', 'entailed'].includes(claim.supported.kind),
  ).length;
  const relevant = answer.relevant;
  return (
    <dl className="results" data-testid="verify-results">
      {result.authentic ? (
        <ResultRow testId="result-authentic" status="pass" tone="pass" term={t('verify.authentic')}>
          {t('verify.authenticYes', { passed, total }) +
            (skipped > 0 ? t('verify.authenticSkipped', { skipped }) : '')}
        </ResultRow>
      ) : (
        <ResultRow testId="result-authentic" status="fail" tone="fail" term={t('verify.authentic')}>
          {t('verify.authenticNo', { codes: result.codes.join(', ') })}
        </ResultRow>
      )}
      {!result.authentic ? (
        <ResultRow testId="result-supported" status="unknown" tone="neutral" term={t('verify.supported')}>
          {t('verify.notJudged')}
        </ResultRow>
      ) : answer.outcome === 'refused' ? null : claims.length === 0 ? (
        <ResultRow testId="result-supported" status="none" tone="neutral" term={t('verify.supported')}>
          {t('verify.supportedNone')}
        </ResultRow>
      ) : (
        <ResultRow
          testId="result-supported"
          status={supportedCount === claims.length ? 'pass' : supportedCount === 0 ? 'fail' : 'partial'}
          tone={supportedCount === claims.length ? 'pass' : 'neutral'}
          term={t('verify.supported')}
        >
          {`${supportedCount}/${claims.length}: ${supportSummary(claims, t)}`}
        </ResultRow>
      )}
      {!result.authentic ? (
        <ResultRow testId="result-relevant" status="unknown" tone="neutral" term={t('verify.relevant')}>
          {t('verify.notJudged')}
        </ResultRow>
      ) : answer.outcome === 'refused' ? null : relevant.status === 'unknown' ? (
        <ResultRow testId="result-relevant" status="unknown" tone="neutral" term={t('verify.relevant')}>
          {t('verify.relevantUnknown')}
        </ResultRow>
      ) : (
        <ResultRow
          testId="result-relevant"
          status={relevant.status}
          tone={relevant.status === 'relevant' ? 'pass' : 'neutral'}
          term={t('verify.relevant')}
        >
          {`${score(relevant.score)} (${relevant.method?.id ?? '?'})` +
            (relevant.status === 'relevant'
              ? ''
              : ` — ${t('verify.relevantBelow', { threshold: score(relevant.threshold) })}`)}
        </ResultRow>
      )}
      {result.authentic && !answer.answered && (
        <ResultRow
          testId="result-answer"
          status={answer.outcome === 'refused' ? 'refused' : 'not_answered'}
          tone="neutral"
          term={t('verify.answer')}
        >
          {`${t('verify.notAnswered')} — ${
            answer.outcome === 'refused'
              ? t('verify.refused', {
                  reason:
                    answer.refusal === undefined
                      ? '?'
                      : `${t(`refusal.${answer.refusal}`)} (${answer.refusal})`,
                })
              : relevant.status === 'not_relevant'
                ? t('verify.notAnsweredBelow')
                : t('verify.notAnsweredNoClaim')
          }`}
        </ResultRow>
      )}
    </dl>
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
}) {
  const { t } = useT();
  const state = useVerification(props.bundle, props.presentedQuestion);
  const result = state.result;
  const shown = panelVerdict(state);
  // `data-verdict` stays the integrity verdict (the contract's two values); the heading also says
  // when an authentic answer is not an answer.
  const verdict = shown === 'not-answered' ? 'verified' : shown;
  // The verify page's result element appears only once there is a verdict (the contract's two values).
  const testId = props.testId === 'verify-result' && verdict === 'running' ? undefined : props.testId;
  const certificateId = result?.certificate_id ?? null;
  const inconsistent = result?.checks.find(
    (check) => check.id === 'checkpoint_consistency' && check.status === 'fail',
  );
  const validBundle =
    result !== undefined && result.checks[0]?.status === 'pass' ? (props.bundle as Bundle) : undefined;

  return (
    <section
      className={`verify-panel verdict-${shown}`}
      data-testid={testId}
      data-verdict={verdict}
      data-answered={result ? String(result.answer.answered) : undefined}
      aria-busy={verdict === 'running'}
    >
      <h2 className="verify-heading">
        <span className="verdict-icon" aria-hidden="true">
          {shown === 'verified' ? '✓' : shown === 'failed' ? '✗' : shown === 'not-answered' ? '○' : '…'}
        </span>{' '}
        {shown === 'running'
          ? t('verify.running')
          : shown === 'verified'
            ? t('verify.verified')
            : shown === 'not-answered'
              ? t('verify.notAnswered')
              : t('verify.failed')}
        {state.ms !== undefined && (
          <span className="muted"> {t('verify.took', { ms: state.ms.toFixed(1) })}</span>
        )}
      </h2>
      {state.keys ? (
        <div className="keys-source">
          <p className="muted">{t('verify.keysFrom', { url: `${location.origin}${KEYS_PATH}` })}</p>
          {props.showKeys !== false && <KeyList keys={state.keys} />}
        </div>
      ) : (
        state.keysError !== undefined && (
          <p className="muted">{t('verify.keysNone', { message: state.keysError })}</p>
        )
      )}
      {inconsistent && (
        <div className="warning" role="alert" data-testid="checkpoint-warning">
          {t('verify.checkpointWarning', { message: inconsistent.message })}
        </div>
      )}
      {result && (
        <>
          {result.codes.length > 0 && (
            <p className="codes">{t('verify.codes', { codes: result.codes.join(', ') })}</p>
          )}
          <h3>{t('verify.results')}</h3>
          <ThreeResults result={result} />
          <p data-testid="verify-summary" className="summary">
            {t('verify.summaryLabel')}
            {t('verify.summary', result.summary)}
          </p>
          {result.claims.length > 0 && <h3>{t('verify.claims')}</h3>}
          <ul className="claims">
            {result.claims.map((claim) => {
              // A claim of an answer that is not an answer is never shown in the verified green.
              const tone = !claim.rendered ? 'blocked' : result.answer.answered ? 'ok' : 'neutral';
              return (
                <li
                  key={claim.claim_id}
                  data-testid="claim-item"
                  data-rendered={String(claim.rendered)}
                  className={`claim ${tone}`}
                >
                  <span className="claim-status">
                    {tone === 'ok'
                      ? `✓ ${t('verify.claimVerified')}`
                      : tone === 'neutral'
                        ? `○ ${t('verify.claimNotAnswer')}`
                        : `✗ ${t('verify.claimBlocked')}`}{' '}
                    <code>{claim.reason}</code>
                  </span>
                  {result.authentic && (
                    <span className="claim-results">
                      <span data-testid="claim-supported" data-kind={claim.supported.kind}>
                        {t('verify.supported')}: {supportText(claim, t)}
                      </span>
                      {claim.relevant.status !== 'unknown' && (
                        <span data-testid="claim-relevant" data-status={claim.relevant.status}>
                          {t('verify.relevant')}: {t(`relevance.${claim.relevant.status}`)}{' '}
                          {score(claim.relevant.score)} ({claim.relevant.method?.id ?? '?'})
                        </span>
                      )}
                    </span>
                  )}
                  <span className="claim-text">{claim.text}</span>
                </li>
              );
            })}
          </ul>
          <h3>{t('verify.checks')}</h3>
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
                  {t(`check.${check.id}` as MessageKey)}{' '}
                  <span className="sr-status">({t(`check.${check.status}`)})</span>
                </span>
                <span className="check-message">
                  {check.problems.length > 0
                    ? check.problems.slice(0, 5).map((problem, index) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: problems have no identity
                        <span key={index} className="problem">
                          <code>{problem.code}</code> {problem.message}
                        </span>
                      ))
                    : check.message}
                </span>
              </li>
            ))}
          </ul>
          {validBundle && (
            <>
              <h3>{t('verify.anchors')}</h3>
              <ul className="anchors">
                {anchorRows(validBundle).map((row) => (
                  <li key={row.document_id}>
                    <strong>{row.title}</strong>:{' '}
                    {row.anchor ? (
                      <AnchorTx anchor={row.anchor} />
                    ) : (
                      <span className="muted">{t('verify.anchorNone')}</span>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
          <div className="actions">
            <button
              type="button"
              className="button secondary"
              data-testid="download-proof"
              onClick={() => download(props.bundle, certificateId)}
            >
              ⤓ {t('verify.download')}
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
    </section>
  );
}

/** One anchor: chain, block and the transaction, linked to the explorer for the Base presets. */
function AnchorTx(props: { anchor: { chain_id: number; tx_hash: string; block_number: number } }) {
  const { t } = useT();
  const { anchor } = props;
  const url = explorerTxUrl(anchor.chain_id, anchor.tx_hash);
  return (
    <span className="anchor-tx" data-testid="anchor-tx">
      <code className="break">
        {t('verify.anchorRow', { chain: anchor.chain_id, block: anchor.block_number, tx: '' }).trim()}
      </code>{' '}
      {url !== undefined ? (
        <a href={url} target="_blank" rel="noopener noreferrer" className="break">
          <code>{anchor.tx_hash}</code>
        </a>
      ) : (
        <>
          <code className="break">{anchor.tx_hash}</code>{' '}
          <span className="muted">({t('verify.localChain')})</span>
        </>
      )}
    </span>
  );
}
