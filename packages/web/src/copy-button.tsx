/**
 * A button that copies a value the page shows in part (a key fingerprint, a short hash), and says so
 * for a moment, to screen readers too.
 */
import { useEffect, useState } from 'react';
import { useT } from './lang-context.js';

/** How long "Copied" shows before the button reads "Copy" again, in milliseconds. */
const COPIED_MS = 2000;

export function CopyButton(props: {
  value: string;
  /** What the value is; screen readers hear it after the button's word. */
  label: string;
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
  return (
    <>
      <button type="button" className="copy-button" data-testid={props.testId} onClick={() => void copy()}>
        {state === 'copied' ? t('hash.copied') : state === 'failed' ? t('hash.copyFailed') : t('hash.copy')}
        <span className="visually-hidden">: {props.label}</span>
      </button>
      <span className="visually-hidden" aria-live="polite">
        {state === 'copied' ? t('hash.copied') : ''}
      </span>
    </>
  );
}
