/**
 * `/verify` and `/verify/<certificate_id>`: check a pasted, uploaded or stored bundle in the browser
 * with the keys pinned in this browser. Pasted and uploaded input is hostile: a file's size is checked
 * before it is read, and text is parsed with size and depth limits (bundle-input.ts), so a 50 MB file
 * or a deeply nested value is a readable error, never a frozen page or a verdict.
 */
import { useEffect, useState } from 'react';
import { ApiError, fetchCertificate } from './api.js';
import {
  BUNDLE_MAX_BYTES,
  BUNDLE_MAX_DEPTH,
  BUNDLE_SHOWN_MAX_CHARS,
  BundleInputError,
  checkBundleSize,
  readBundleText,
} from './bundle-input.js';
import { errorText } from './error-text.js';
import { formatBytes } from './format.js';
import { KeysPanel } from './keys-panel.js';
import { useT } from './lang-context.js';
import { VerificationPanel } from './verification.js';

/** A loaded file too large for the text box: verified from memory, named in its place. */
interface LoadedFile {
  name: string;
  size: number;
  text: string;
}

export function VerifyPage(props: { certificateId: string | undefined }) {
  const { t, lang } = useT();
  const [text, setText] = useState('');
  const [file, setFile] = useState<LoadedFile | undefined>();
  const [bundle, setBundle] = useState<{ value: unknown } | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [inputError, setInputError] = useState<BundleInputError | undefined>();
  const [loading, setLoading] = useState(props.certificateId !== undefined);

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
        // The server's message is English: the page says the failure in its own language.
        setProblem(
          error instanceof ApiError
            ? errorText({ code: error.code, message: error.message, status: error.status }, lang, t)
            : t('errors.SERVER'),
        );
      },
    );
    return () => {
      cancelled = true;
    };
  }, [props.certificateId, t, lang]);

  /** Parses `content` within the limits; a failure is shown and nothing is verified. */
  const verify = (content: string) => {
    setProblem(undefined);
    setInputError(undefined);
    try {
      setBundle({ value: readBundleText(content) });
    } catch (error) {
      setBundle(undefined);
      if (error instanceof BundleInputError) setInputError(error);
      else setProblem(t('error.file'));
    }
  };

  const onFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    setBundle(undefined);
    setProblem(undefined);
    setInputError(undefined);
    try {
      checkBundleSize(chosen.size);
    } catch (error) {
      setFile(undefined);
      if (error instanceof BundleInputError) setInputError(error);
      return;
    }
    let content: string;
    try {
      content = await chosen.text();
    } catch {
      setProblem(t('error.file'));
      return;
    }
    if (content.length > BUNDLE_SHOWN_MAX_CHARS) {
      setText('');
      setFile({ name: chosen.name, size: chosen.size, text: content });
    } else {
      setFile(undefined);
      setText(content);
    }
    verify(content);
  };

  const inputMessage = inputError
    ? t(`input.error.${inputError.code}`, {
        size: formatBytes(inputError.size?.found ?? 0, lang),
        limit: inputError.code === 'TOO_DEEP' ? BUNDLE_MAX_DEPTH : formatBytes(BUNDLE_MAX_BYTES, lang),
      })
    : undefined;

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
            onChange={(event) => {
              setFile(undefined);
              setText(event.target.value);
            }}
          />
        </label>
        {file && (
          <p className="muted" data-testid="verify-file-loaded">
            {t('input.fileLoaded', { name: file.name, size: formatBytes(file.size, lang) })}
          </p>
        )}
        <div className="verify-buttons">
          <label className="field file">
            <span>{t('page.file')}</span>
            <input
              type="file"
              data-testid="verify-file"
              accept="application/json,.json"
              onChange={(event) => {
                void onFile(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
          </label>
          <button
            type="button"
            className="button"
            data-testid="verify-run"
            disabled={text.trim() === '' && !file}
            onClick={() => verify(file ? file.text : text)}
          >
            {t('page.run')}
          </button>
        </div>
      </div>
      {(problem !== undefined || inputMessage !== undefined) && (
        <div
          className="error"
          role="alert"
          data-testid="verify-error"
          {...(inputError ? { 'data-code': inputError.code } : {})}
        >
          {inputMessage ?? problem}
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
      <KeysPanel />
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
