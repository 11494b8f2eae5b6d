/** Upload form: a drop zone around a real file input, the budget metadata, and live ingest progress. */
import { plainLabel } from '@saksi/proof';
import { type DragEvent, type FormEvent, useId, useRef, useState } from 'react';
import { errorText } from '../error-text.js';
import { formatBytes } from '../format.js';
import type { MessageKey } from '../i18n.js';
import { useT } from '../lang-context.js';
import {
  AdminApiError,
  type AdminSession,
  DOCUMENT_TYPES,
  type DocumentType,
  type UploadResult,
  uploadDocument,
} from './admin-api.js';
import { DocumentTypeOptions, Field, YearInput } from './fields.js';
import { useToast } from './toasts.js';

type UploadState = 'idle' | 'running' | 'done' | 'error';

const STAGE_KEYS: Record<string, MessageKey> = {
  uploading: 'admin.stage.uploading',
  queued: 'admin.stage.queued',
  parsing: 'admin.stage.parsing',
  chunking: 'admin.stage.chunking',
  embedding: 'admin.stage.embedding',
  storing: 'admin.stage.storing',
  done: 'admin.stage.done',
  error: 'admin.stage.error',
};

export function UploadForm(props: {
  session: AdminSession;
  collections: readonly string[];
  /** The uploaded (or already present) document, as the upload's reply gives it. */
  onUploaded: (document: UploadResult['document']) => void;
  onUnauthorized: (error: AdminApiError) => void;
}) {
  const { t, lang } = useT();
  const toast = useToast();
  const ids = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | undefined>();
  const [dragging, setDragging] = useState(false);
  const [collection, setCollection] = useState('');
  const [type, setType] = useState<DocumentType>('APBN');
  const [year, setYear] = useState('');
  const [source, setSource] = useState('');
  const [state, setState] = useState<UploadState>('idle');
  const [stage, setStage] = useState('');
  const [progress, setProgress] = useState(0);

  const running = state === 'running';
  const canSubmit = file !== undefined && collection.trim() !== '' && !running;

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) setFile(dropped);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file || !canSubmit) return;
    setState('running');
    setStage('uploading');
    setProgress(0);
    try {
      const { document, deduplicated } = await uploadDocument(
        props.session,
        { file, collection: collection.trim(), document_type: type, fiscal_year: year, source },
        (update) => {
          if (update.stage !== '') setStage(update.stage);
          setProgress(update.progress);
        },
      );
      setState('done');
      setStage('done');
      setProgress(1);
      setFile(undefined);
      if (fileInput.current) fileInput.current.value = '';
      const title = plainLabel(document.title || document.filename);
      toast('success', t(deduplicated ? 'admin.upload.duplicate' : 'admin.upload.done', { title }));
      props.onUploaded(document);
    } catch (error) {
      setState('error');
      setStage('error');
      const failure =
        error instanceof AdminApiError ? error : new AdminApiError('UPLOAD_FAILED', 'The upload failed.');
      if (failure.status === 401) {
        props.onUnauthorized(failure);
        return;
      }
      toast('error', t('admin.upload.failed', { code: failure.code, message: errorText(failure, lang, t) }));
    }
  };

  const stageKey = STAGE_KEYS[stage];
  const stageLabel = stageKey ? t(stageKey) : stage;

  return (
    <section className="admin-card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('admin.upload.title')}</h2>
      <form className="admin-form upload-form" onSubmit={submit}>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; the file input inside is the keyboard path */}
        <div
          className={`dropzone${dragging ? ' dragging' : ''}`}
          data-testid="upload-dropzone"
          onDragEnter={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragOver={(event) => {
            event.preventDefault();
            event.dataTransfer.dropEffect = 'copy';
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <p className="dropzone-hint" aria-hidden="true">
            {t('admin.upload.drop')}
          </p>
          <Field id={`${ids}-file`} label={t('admin.upload.file')}>
            <input
              ref={fileInput}
              id={`${ids}-file`}
              className="visually-hidden file-input"
              data-testid="upload-file"
              type="file"
              accept=".pdf,.docx,.md,.markdown,.html,.htm,.txt,application/pdf,text/plain,text/markdown,text/html"
              disabled={running}
              onChange={(event) => setFile(event.target.files?.[0])}
            />
            <span className="button secondary file-button" aria-hidden="true">
              {t('admin.upload.choose')}
            </span>
          </Field>
          <p className="muted" aria-live="polite">
            {file
              ? t('admin.upload.selected', { name: file.name, size: formatBytes(file.size, lang) })
              : t('admin.upload.none')}
          </p>
        </div>
        <div className="upload-fields">
          <Field id={`${ids}-collection`} label={t('admin.upload.collection')}>
            <input
              id={`${ids}-collection`}
              data-testid="upload-collection"
              type="text"
              required
              autoComplete="off"
              list={`${ids}-collections`}
              value={collection}
              onChange={(event) => setCollection(event.target.value)}
            />
            <datalist id={`${ids}-collections`}>
              {props.collections.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </Field>
          <Field id={`${ids}-type`} label={t('admin.upload.type')}>
            <select
              id={`${ids}-type`}
              data-testid="upload-type"
              value={type}
              onChange={(event) => {
                const value = DOCUMENT_TYPES.find((candidate) => candidate === event.target.value);
                if (value) setType(value);
              }}
            >
              <DocumentTypeOptions />
            </select>
          </Field>
          <Field id={`${ids}-year`} label={t('admin.upload.year')}>
            <YearInput id={`${ids}-year`} testId="upload-year" value={year} onChange={setYear} />
          </Field>
          <Field id={`${ids}-source`} label={t('admin.upload.source')}>
            <input
              id={`${ids}-source`}
              data-testid="upload-source"
              type="text"
              autoComplete="off"
              value={source}
              onChange={(event) => setSource(event.target.value)}
            />
          </Field>
        </div>
        <div className="upload-actions">
          <button type="submit" className="button" data-testid="upload-submit" disabled={!canSubmit}>
            {running ? t('admin.upload.busy') : t('admin.upload.submit')}
          </button>
          {state !== 'idle' && (
            <label className="upload-progress" htmlFor={`${ids}-progress`}>
              <span>
                {t('admin.upload.progressText', { stage: stageLabel, percent: Math.round(progress * 100) })}
              </span>
              <progress
                id={`${ids}-progress`}
                data-testid="upload-progress"
                data-stage={stage}
                data-state={state}
                max={1}
                value={progress}
                aria-label={t('admin.upload.progress')}
              />
            </label>
          )}
        </div>
      </form>
    </section>
  );
}
