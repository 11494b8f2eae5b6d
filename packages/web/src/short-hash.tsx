/**
 * A long digest or transaction hash as its first 10 and last 6 characters (the whole value in the
 * title and for screen readers), optionally a link, with a button that copies the whole value.
 */
import { useEffect, useState } from 'react';
import { useT } from './app.js';
import { shortHash } from './format.js';

/** How long "Copied" shows before the button reads "Copy" again, in milliseconds. */
const COPIED_MS = 2000;

export function ShortHash(props: {
  value: string;
  /** What the value is ("Merkle root", "transaction on chain 31337"): the copy button's label names it. */
  label: string;
  href?: string | undefined;
  testId?: string;
}) {
  const { t } = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  const shown = (
    <>
      <span aria-hidden="true">{shortHash(props.value)}</span>
      <span className="visually-hidden">{props.value}</span>
    </>
  );
  return (
    <span className="short-hash" data-testid={props.testId} data-value={props.value}>
      {props.href !== undefined ? (
        <a
          href={props.href}
          target="_blank"
          rel="noopener noreferrer"
          title={`${props.label}: ${props.value}`}
        >
          <code>{shown}</code>
        </a>
      ) : (
        <code title={`${props.label}: ${props.value}`}>{shown}</code>
      )}
      <button type="button" className="copy-button" data-testid="copy-hash" onClick={() => void copy()}>
        {state === 'copied' ? t('hash.copied') : state === 'failed' ? t('hash.copyFailed') : t('hash.copy')}
        <span className="visually-hidden">: {props.label}</span>
      </button>
      <span className="visually-hidden" aria-live="polite">
        {state === 'copied' ? t('hash.copied') : ''}
      </span>
    </span>
  );
}
