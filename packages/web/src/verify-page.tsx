/** `/verify` and `/verify/<certificate_id>`: check a pasted, uploaded or stored bundle in the browser. */
import type { TrustedKeys } from '@saksi/proof';
import { useEffect, useState } from 'react';
import { ApiError, fetchCertificate, fetchKeys, KEYS_PATH } from './api.js';
import { useT } from './app.js';
import { KeyList, VerificationPanel } from './verification.js';

/** The pasted text as JSON; text that is not JSON is verified as-is (and fails as `MALFORMED`). */
function parseInput(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function VerifyPage(props: { certificateId: string | undefined }) {
  const { t } = useT();
  const [text, setText] = useState('');
  const [bundle, setBundle] = useState<{ value: unknown } | undefined>();
  const [keys, setKeys] = useState<TrustedKeys | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [loading, setLoading] = useState(props.certificateId !== undefined);

  useEffect(() => {
    fetchKeys().then(setKeys, (error: unknown) =>
      setProblem(error instanceof Error ? error.message : String(error)),
    );
  }, []);

  useEffect(() => {
    const id = props.certificateId;
    if (id === undefined) return;
    let cancelled = false;
    fetchCertificate(id).then(
      (value) => {
        if (cancelled) return;
        setText(JSON.stringify(value, null, 2));
        setBundle({ value });
        setLoading(false);
      },
      (error: unknown) => {
        if (cancelled) return;
        setLoading(false);
        setProblem(
          error instanceof ApiError && error.status === 404
            ? t('error.notFound', { message: error.message })
            : error instanceof ApiError && error.code === 'NETWORK'
              ? t('error.network')
              : String(error instanceof Error ? error.message : error),
        );
      },
    );
    return () => {
      cancelled = true;
    };
  }, [props.certificateId, t]);

  const run = () => {
    setProblem(undefined);
    setBundle({ value: parseInput(text) });
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      const content = await file.text();
      setText(content);
      setProblem(undefined);
      setBundle({ value: parseInput(content) });
    } catch {
      setProblem(t('error.file'));
    }
  };

  return (
    <div className="verify-page">
      <h1>{t('page.verifyTitle')}</h1>
      <p className="muted">{t('page.verifyIntro')}</p>
      {loading && props.certificateId !== undefined && (
        <p role="status">{t('page.loading', { id: props.certificateId })}</p>
      )}
      <div className="verify-form">
        <label className="field">
          <span>{t('page.input')}</span>
          <textarea
            data-testid="verify-input"
            rows={8}
            value={text}
            spellCheck={false}
            onChange={(event) => setText(event.target.value)}
          />
        </label>
        <div className="verify-buttons">
          <label className="field file">
            <span>{t('page.file')}</span>
            <input
              type="file"
              data-testid="verify-file"
              accept="application/json,.json"
              onChange={(event) => void onFile(event.target.files?.[0])}
            />
          </label>
          <button
            type="button"
            className="button"
            data-testid="verify-run"
            disabled={text.trim() === ''}
            onClick={run}
          >
            {t('page.run')}
          </button>
        </div>
      </div>
      {problem !== undefined && (
        <div className="error" role="alert" data-testid="verify-error">
          {problem}
        </div>
      )}
      {bundle && (
        <VerificationPanel
          key={bundleKey(bundle)}
          bundle={bundle.value}
          testId="verify-result"
          showKeys={false}
        />
      )}
      <section className="trusted-keys" data-testid="trusted-keys">
        <h2>{t('page.keys')}</h2>
        <p className="muted">{t('page.keysSource', { url: `${location.origin}${KEYS_PATH}` })}</p>
        {keys && <KeyList keys={keys} />}
      </section>
    </div>
  );
}

const keys = new WeakMap<object, number>();
let nextKey = 1;
/** A fresh React key per run, so pressing Verify again re-runs the check. */
function bundleKey(holder: object): number {
  let key = keys.get(holder);
  if (key === undefined) {
    key = nextKey++;
    keys.set(holder, key);
  }
  return key;
}
