/**
 * The calibration panel of the admin portal (docs/evaluation.md, "Calibrating a collection"): whether a
 * collection's answer check is calibrated on its own labelled questions and what that releases, with a
 * form to load a question file and calibrate, or remove the calibration.
 */
import type { CalibrationQuestion, CollectionCalibrationInfo } from '@saksi/client';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { saksi } from '../api.js';
import { errorText } from '../error-text.js';
import { formatNumber, formatTimestamp } from '../format.js';
import { useT } from '../lang-context.js';
import { type AdminApiError, type AdminSession, adminError } from './admin-api.js';
import { calibrationQuestions } from './calibration-text.js';
import { CollectionSelect, Field } from './fields.js';
import { useToast } from './toasts.js';

/** The largest question file the form reads. */
const MAX_FILE_BYTES = 1024 * 1024;

export function CalibrationSection(props: {
  session: AdminSession;
  collections: string[];
  onUnauthorized: (error: AdminApiError) => void;
}) {
  const { t, lang } = useT();
  const toast = useToast();
  const ids = useId();
  const [collection, setCollection] = useState('');
  const [info, setInfo] = useState<CollectionCalibrationInfo | undefined>();
  const [questions, setQuestions] = useState<CalibrationQuestion[] | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const selected = collection || props.collections[0] || '';

  useEffect(() => {
    if (!selected) return;
    let cancelled = false;
    setProblem(undefined);
    setInfo(undefined);
    saksi.getCollectionCalibration(selected).then(
      (reply) => {
        if (!cancelled) setInfo(reply);
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
    // The server names the bad question (`questions[3]: …`): shown beside the form, in both languages.
    const detail = failure.code === 'INVALID_INPUT' ? ` ${failure.message}` : '';
    setProblem(`${errorText(failure, lang, t)}${detail}`);
  };

  const load = async (file: File | undefined) => {
    setQuestions(undefined);
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setProblem(t('admin.calibration.tooLarge'));
      return;
    }
    const read = calibrationQuestions(await file.text());
    if ('badLine' in read) {
      setProblem(t('admin.calibration.badLine', { line: read.badLine }));
      return;
    }
    setProblem(undefined);
    setQuestions(read.questions);
  };

  const calibrate = async (event: FormEvent) => {
    event.preventDefault();
    if (!questions) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const reply = await saksi
        .with({ csrfToken: props.session.csrfToken })
        .putCollectionCalibration(selected, questions);
      setInfo(reply);
      toast('success', t('admin.calibration.done', { collection: selected, count: questions.length }));
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
      await saksi.with({ csrfToken: props.session.csrfToken }).deleteCollectionCalibration(selected);
      setInfo({ collection: selected, calibration: null });
      toast('success', t('admin.calibration.removed', { collection: selected }));
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const calibration = info?.calibration;
  const figures = calibration && {
    questions: formatNumber(calibration.questions, lang),
    answerable: formatNumber(calibration.answerable, lang),
    when: formatTimestamp(calibration.calibrated_at, lang),
    alpha: `${formatNumber(calibration.alpha * 100, lang)} %`,
    threshold: formatNumber(calibration.threshold, lang, 3),
    released: formatNumber(calibration.released, lang),
    wrong: formatNumber(calibration.released_wrong, lang),
  };
  return (
    <section className="admin-card" aria-labelledby={`${ids}-title`} data-testid="calibration-section">
      <h2 id={`${ids}-title`}>{t('admin.calibration.title')}</h2>
      <p className="muted">{t('admin.calibration.intro')}</p>
      {props.collections.length === 0 ? (
        <p className="muted">{t('admin.glossary.noCollections')}</p>
      ) : (
        <form className="admin-form" onSubmit={calibrate}>
          <CollectionSelect
            id={`${ids}-collection`}
            label={t('admin.calibration.collection')}
            testId="calibration-collection"
            collections={props.collections}
            value={selected}
            disabled={busy}
            onChange={setCollection}
          />
          <p data-testid="calibration-summary" aria-live="polite">
            {figures
              ? t(
                  calibration.released > 0 ? 'admin.calibration.summary' : 'admin.calibration.nothing',
                  figures,
                )
              : info
                ? t('admin.calibration.none')
                : ''}
          </p>
          {calibration && (
            <p className="muted">
              {t('admin.calibration.sha256')}{' '}
              <code data-testid="calibration-sha256">{calibration.sha256}</code>
            </p>
          )}
          <Field id={`${ids}-file`} label={t('admin.calibration.file')}>
            <input
              id={`${ids}-file`}
              data-testid="calibration-file"
              type="file"
              accept=".jsonl,.ndjson,application/x-ndjson,application/jsonl,text/plain"
              disabled={busy}
              onChange={(event) => void load(event.target.files?.[0])}
            />
          </Field>
          {questions && !busy && (
            <p className="muted" data-testid="calibration-loaded">
              {t('admin.calibration.loaded', { count: formatNumber(questions.length, lang) })}
            </p>
          )}
          {busy && questions && (
            <p role="status" data-testid="calibration-running">
              {t('admin.calibration.running', { count: formatNumber(questions.length, lang) })}
            </p>
          )}
          {problem && (
            <p className="error" role="alert" data-testid="calibration-problem">
              {problem}
            </p>
          )}
          <div className="upload-actions">
            <button
              type="submit"
              className="button"
              data-testid="calibration-run"
              disabled={busy || !selected || !questions}
            >
              {t('admin.calibration.run')}
            </button>
            <button
              type="button"
              className="button secondary"
              data-testid="calibration-remove"
              disabled={busy || !calibration}
              onClick={() => void remove()}
            >
              {t('admin.calibration.remove')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
