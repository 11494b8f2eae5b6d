/**
 * The glossary panel of the admin portal (docs/glossary.md): a collection's vocabulary — its dictionary,
 * translations and pattern groups — and its SHA-256 as certificates record it, with a form to edit the
 * JSON in place or load a file, save it, or remove it.
 */
import type { CollectionGlossaryInfo } from '@saksi/client';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { saksi } from '../api.js';
import { errorText } from '../error-text.js';
import { useT } from '../lang-context.js';
import { type AdminApiError, type AdminSession, adminError } from './admin-api.js';
import { CollectionSelect, Field } from './fields.js';
import { glossarySummary, glossaryText } from './glossary-text.js';
import { useToast } from './toasts.js';

/** The largest glossary file the form reads (the server takes 1 MiB). */
const MAX_FILE_BYTES = 1024 * 1024;

export function GlossarySection(props: {
  session: AdminSession;
  collections: string[];
  onUnauthorized: (error: AdminApiError) => void;
}) {
  const { t, lang } = useT();
  const toast = useToast();
  const ids = useId();
  const [collection, setCollection] = useState('');
  const [info, setInfo] = useState<CollectionGlossaryInfo | undefined>();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const selected = collection || props.collections[0] || '';

  useEffect(() => {
    if (!selected) return;
    let cancelled = false;
    setProblem(undefined);
    // Nothing of the previous collection's glossary stays on screen while this one loads.
    setInfo(undefined);
    setText('');
    saksi.getCollectionGlossary(selected).then(
      (reply) => {
        if (cancelled) return;
        setInfo(reply);
        setText(glossaryText(reply));
      },
      (error: unknown) => {
        if (cancelled) return;
        const failure = adminError(error);
        if (failure.status === 401) props.onUnauthorized(failure);
        else setProblem(errorText(failure, lang, t));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [selected, lang, t, props.onUnauthorized]);

  const fail = (error: unknown) => {
    const failure = adminError(error);
    if (failure.status === 401) return props.onUnauthorized(failure);
    // The server's message names the bad entry (`dictionary[3].terms[1] …`): shown in both languages.
    const detail = failure.code === 'INVALID_GLOSSARY' ? ` ${failure.message}` : '';
    // Said beside the form (role="alert"), where the JSON to fix is.
    setProblem(`${errorText(failure, lang, t)}${detail}`);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    let glossary: unknown;
    try {
      glossary = JSON.parse(text);
    } catch {
      setProblem(t('admin.glossary.notJson'));
      return;
    }
    setBusy(true);
    setProblem(undefined);
    try {
      const reply = await saksi
        .with({ csrfToken: props.session.csrfToken })
        // The server checks every field and names the bad entry (INVALID_GLOSSARY).
        .putCollectionGlossary(selected, glossary as Parameters<typeof saksi.putCollectionGlossary>[1]);
      setInfo(reply);
      setText(glossaryText(reply));
      toast('success', t('admin.glossary.saved', { collection: selected }));
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      await saksi.with({ csrfToken: props.session.csrfToken }).deleteCollectionGlossary(selected);
      // The text stays in the form: saving it again restores the glossary.
      setInfo({ collection: selected, glossary: null, sha256: null });
      toast('success', t('admin.glossary.removed', { collection: selected }));
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const load = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setProblem(t('admin.glossary.tooLarge'));
      return;
    }
    setText(await file.text());
    setProblem(undefined);
  };

  const glossary = info?.glossary;
  return (
    <section className="admin-card" aria-labelledby={`${ids}-title`} data-testid="glossary-section">
      <h2 id={`${ids}-title`}>{t('admin.glossary.title')}</h2>
      <p className="muted">{t('admin.glossary.intro')}</p>
      {props.collections.length === 0 ? (
        <p className="muted">{t('admin.glossary.noCollections')}</p>
      ) : (
        <form className="admin-form" onSubmit={save}>
          <CollectionSelect
            id={`${ids}-collection`}
            label={t('admin.glossary.collection')}
            testId="glossary-collection"
            collections={props.collections}
            value={selected}
            onChange={setCollection}
          />
          <p data-testid="glossary-summary" aria-live="polite">
            {glossary ? t('admin.glossary.summary', glossarySummary(glossary)) : t('admin.glossary.none')}
          </p>
          {info?.sha256 && (
            <p className="muted">
              {t('admin.glossary.sha256')} <code data-testid="glossary-sha256">{info.sha256}</code>
            </p>
          )}
          <Field id={`${ids}-json`} label={t('admin.glossary.json')}>
            <textarea
              id={`${ids}-json`}
              data-testid="glossary-json"
              className="glossary-json"
              rows={16}
              spellCheck={false}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </Field>
          <Field id={`${ids}-file`} label={t('admin.glossary.file')}>
            <input
              id={`${ids}-file`}
              data-testid="glossary-file"
              type="file"
              accept=".json,application/json"
              disabled={busy}
              onChange={(event) => void load(event.target.files?.[0])}
            />
          </Field>
          {problem && (
            <p className="error" role="alert" data-testid="glossary-problem">
              {problem}
            </p>
          )}
          <div className="upload-actions">
            <button type="submit" className="button" data-testid="glossary-save" disabled={busy || !selected}>
              {t('admin.glossary.save')}
            </button>
            <button
              type="button"
              className="button secondary"
              data-testid="glossary-remove"
              disabled={busy || !glossary}
              onClick={() => void remove()}
            >
              {t('admin.glossary.remove')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
