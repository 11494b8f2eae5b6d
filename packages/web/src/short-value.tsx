/** A long identifier (hash, transaction, certificate number) shown by its two ends, with a copy button. */
import { useEffect, useState } from 'react';
import { useT } from './app.js';
import type { MessageKey } from './i18n.js';
import { shortHash } from './verify-format.js';

/** A button that copies `value` to the clipboard and says so for two seconds. */
export function CopyButton(props: { value: string; what: MessageKey }) {
  const { t } = useT();
  const [copied, setCopied] = useState<'copied' | 'failed' | undefined>();
  useEffect(() => {
    if (copied === undefined) return;
    const timer = setTimeout(() => setCopied(undefined), 2_000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <button
      type="button"
      className="copy-button"
      aria-label={t('verdict.copyLabel', { what: t(props.what) })}
      onClick={() => void copy()}
    >
      {copied === 'copied'
        ? t('verdict.copied')
        : copied === 'failed'
          ? t('verdict.copyFailed')
          : t('verdict.copy')}
    </button>
  );
}

export function ShortValue(props: {
  value: string;
  /** What the value is, for the copy button's label: `verdict.what.tx`, … */
  what: MessageKey;
  /** A link for the shortened text (an explorer page). */
  href?: string;
  testId?: string;
}) {
  const short = shortHash(props.value);
  const text = <code title={props.value}>{short}</code>;
  return (
    <span className="short-value" data-testid={props.testId} data-value={props.value}>
      {props.href !== undefined ? (
        <a href={props.href} target="_blank" rel="noopener noreferrer">
          {text}
        </a>
      ) : (
        text
      )}
      {short !== props.value && <CopyButton value={props.value} what={props.what} />}
    </span>
  );
}
