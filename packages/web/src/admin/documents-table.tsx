/** The documents table: filters, paging, archive / restore / delete (with a confirmation dialog). */
import { plainLabel } from '@saksi/proof';
import { useCallback, useEffect, useId, useState } from 'react';
import { errorText } from '../error-text.js';
import { formatNumber } from '../format.js';
import type { MessageKey } from '../i18n.js';
import { useT } from '../lang-context.js';
import { ShortHash } from '../short-hash.js';
import {
  AdminApiError,
  type AdminDocument,
  type AdminSession,
  DOCUMENT_STATUSES,
  type DocumentFilters,
  type DocumentPage,
  type DocumentStatus,
  deleteDocument,
  listDocuments,
  setArchived,
} from './admin-api.js';
import { AdminTable } from './admin-table.js';
import { useConfirmDialog } from './confirm-dialog.js';
import { DocumentTypeOptions, Field, YearInput } from './fields.js';
import { useToast } from './toasts.js';

export const PAGE_SIZE = 20;

/** A document status as the page's language says it (the filter and the table). */
const STATUS_KEYS: Record<DocumentStatus, MessageKey> = {
  READY: 'admin.status.READY',
  ARCHIVED: 'admin.status.ARCHIVED',
  PROCESSING: 'admin.status.PROCESSING',
  PENDING: 'admin.status.PENDING',
  FAILED: 'admin.status.FAILED',
};

function statusKey(status: string): MessageKey | undefined {
  return Object.hasOwn(STATUS_KEYS, status) ? STATUS_KEYS[status as DocumentStatus] : undefined;
}

const ANCHOR_KEYS: Record<string, MessageKey> = {
  PENDING_ANCHOR: 'admin.anchor.PENDING_ANCHOR',
  ANCHORING: 'admin.anchor.ANCHORING',
  ANCHORED: 'admin.anchor.ANCHORED',
};

/** Only http(s) explorer links are rendered as links. */
function safeUrl(value: string | null | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

export function DocumentsTable(props: {
  session: AdminSession;
  collections: readonly string[];
  /** Changes whenever the list must be fetched again (e.g. after an upload). */
  refreshKey: number;
  /** A document was archived, restored or deleted. */
  onChanged: () => void;
  onUnauthorized: (error: AdminApiError) => void;
}) {
  const { t, lang } = useT();
  const toast = useToast();
  const ids = useId();
  const { session, onChanged, onUnauthorized } = props;
  const [filters, setFilters] = useState<DocumentFilters>({});
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<DocumentPage | undefined>();
  const [loadError, setLoadError] = useState<AdminApiError | undefined>();
  const [busyId, setBusyId] = useState<string | undefined>();
  const [reload, setReload] = useState(0);
  const confirmation = useConfirmDialog<AdminDocument>();
  const pendingDelete = confirmation.pending;

  useEffect(() => {
    void props.refreshKey;
    void reload;
    let cancelled = false;
    listDocuments(filters, PAGE_SIZE, offset).then(
      (result) => {
        if (cancelled) return;
        setLoadError(undefined);
        // Deleting the last row of a page leaves an empty page: step back.
        if (result.items.length === 0 && offset > 0 && result.total > 0) {
          setOffset(Math.max(0, Math.floor((result.total - 1) / PAGE_SIZE) * PAGE_SIZE));
          return;
        }
        setPage(result);
      },
      (error: unknown) => {
        if (cancelled) return;
        const failure = error instanceof AdminApiError ? error : new AdminApiError('NETWORK', String(error));
        if (failure.status === 401) onUnauthorized(failure);
        else setLoadError(failure);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [filters, offset, props.refreshKey, reload, onUnauthorized]);

  const setFilter = (key: keyof DocumentFilters, value: string) => {
    setFilters((current) => {
      const next = { ...current };
      if (value === '') delete next[key];
      else next[key] = value;
      return next;
    });
    setOffset(0);
  };

  const act = useCallback(
    async (document: AdminDocument, action: 'archive' | 'restore' | 'delete') => {
      setBusyId(document.id);
      const title = plainLabel(document.title || document.filename);
      try {
        if (action === 'delete') {
          await deleteDocument(session, document.id);
          toast('success', t('admin.deleted', { title }));
        } else {
          await setArchived(session, document.id, action === 'archive');
          toast('success', t(action === 'archive' ? 'admin.archived' : 'admin.restored', { title }));
        }
        onChanged();
      } catch (error) {
        const failure = error instanceof AdminApiError ? error : new AdminApiError('NETWORK', String(error));
        if (failure.status === 401) {
          onUnauthorized(failure);
          return;
        }
        toast('error', t('admin.actionFailed', { code: failure.code, message: errorText(failure, lang, t) }));
      } finally {
        setBusyId(undefined);
        setReload((value) => value + 1);
      }
    },
    [session, toast, t, lang, onChanged, onUnauthorized],
  );

  const askDelete = (document: AdminDocument, trigger: HTMLElement) => confirmation.ask(document, trigger);
  const closeDialog = () => confirmation.cancel();
  // The row goes away with the document, so focus does not return to its button.
  const confirmDelete = () => {
    const document = confirmation.confirm(false);
    if (document) void act(document, 'delete');
  };

  const total = page?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const current = Math.floor(offset / PAGE_SIZE) + 1;

  return (
    <section className="admin-card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('admin.documents.title')}</h2>
      <fieldset className="filters document-filters">
        <legend>{t('admin.filter.title')}</legend>
        <Field id={`${ids}-collection`} label={t('admin.filter.collection')}>
          <select
            id={`${ids}-collection`}
            data-testid="filter-collection"
            value={filters.collection ?? ''}
            onChange={(event) => setFilter('collection', event.target.value)}
          >
            <option value="">{t('admin.filter.all')}</option>
            {props.collections.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${ids}-type`} label={t('admin.filter.type')}>
          <select
            id={`${ids}-type`}
            data-testid="filter-type"
            value={filters.document_type ?? ''}
            onChange={(event) => setFilter('document_type', event.target.value)}
          >
            <option value="">{t('admin.filter.all')}</option>
            <DocumentTypeOptions />
          </select>
        </Field>
        <Field id={`${ids}-year`} label={t('admin.filter.year')}>
          <YearInput
            id={`${ids}-year`}
            testId="filter-year"
            value={filters.fiscal_year ?? ''}
            onChange={(value) => {
              if (value === '' || /^\d{4}$/.test(value)) setFilter('fiscal_year', value);
            }}
          />
        </Field>
        <Field id={`${ids}-status`} label={t('admin.filter.status')}>
          <select
            id={`${ids}-status`}
            data-testid="filter-status"
            value={filters.status ?? ''}
            onChange={(event) => setFilter('status', event.target.value)}
          >
            <option value="">{t('admin.filter.all')}</option>
            {DOCUMENT_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(STATUS_KEYS[value])}
              </option>
            ))}
          </select>
        </Field>
      </fieldset>

      <AdminTable
        ids={ids}
        testId="documents-table"
        caption="admin.documents.caption"
        columns={[
          'admin.column.document',
          'admin.column.status',
          'admin.column.chunks',
          'admin.column.root',
          'admin.column.anchor',
          'admin.column.actions',
        ]}
        loadError={loadError}
        failedMessage="admin.documents.failed"
        loading={!page}
        loadingMessage="admin.documents.loading"
      >
        {page?.items.map((document) => (
          <DocumentRow
            key={document.id}
            document={document}
            busy={busyId === document.id}
            onArchive={() => void act(document, 'archive')}
            onRestore={() => void act(document, 'restore')}
            onDelete={(trigger) => askDelete(document, trigger)}
          />
        ))}
      </AdminTable>
      {page && page.items.length === 0 && <p className="muted">{t('admin.documents.empty')}</p>}

      <nav className="pager" aria-label={t('admin.page.label')}>
        <button
          type="button"
          className="button secondary"
          data-testid="page-prev"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
        >
          {t('admin.page.prev')}
        </button>
        <span data-testid="page-info" aria-live="polite">
          {t('admin.page.info', {
            page: formatNumber(current, lang),
            pages: formatNumber(pages, lang),
            total: formatNumber(total, lang),
          })}
        </span>
        <button
          type="button"
          className="button secondary"
          data-testid="page-next"
          disabled={offset + PAGE_SIZE >= total}
          onClick={() => setOffset(offset + PAGE_SIZE)}
        >
          {t('admin.page.next')}
        </button>
      </nav>

      <dialog
        ref={confirmation.dialog}
        className="confirm-dialog"
        aria-labelledby={`${ids}-confirm-title`}
        aria-describedby={`${ids}-confirm-body`}
        onClose={() => {
          if (pendingDelete) closeDialog();
        }}
      >
        <h3 id={`${ids}-confirm-title`}>{t('admin.confirm.title')}</h3>
        <p id={`${ids}-confirm-body`}>
          {t('admin.confirm.body', {
            title: plainLabel(pendingDelete?.title || pendingDelete?.filename || ''),
          })}
        </p>
        <div className="dialog-actions">
          <button
            ref={confirmation.cancelButton}
            type="button"
            className="button secondary"
            onClick={closeDialog}
          >
            {t('admin.confirm.cancel')}
          </button>
          <button
            type="button"
            className="button danger"
            data-testid="confirm-delete"
            onClick={confirmDelete}
          >
            {t('admin.confirm.delete')}
          </button>
        </div>
      </dialog>
    </section>
  );
}

function DocumentRow(props: {
  document: AdminDocument;
  busy: boolean;
  onArchive: () => void;
  onRestore: () => void;
  onDelete: (trigger: HTMLElement) => void;
}) {
  const { t, lang } = useT();
  const { document } = props;
  const title = plainLabel(document.title || document.filename);
  const status = statusKey(document.status);
  const anchorKey = ANCHOR_KEYS[document.anchor_state];
  const explorer = safeUrl(document.anchor?.explorer_url);
  const meta = [document.collection, document.document_type, document.fiscal_year]
    .filter((value) => value !== null && value !== '')
    .join(' · ');
  return (
    <tr
      data-testid="document-row"
      data-id={document.id}
      data-status={document.status}
      data-anchor-state={document.anchor_state}
    >
      <td data-label={t('admin.column.document')}>
        <div>
          <span className="document-title">{title}</span>
          <span className="document-meta muted">{meta}</span>
          {document.source && <span className="document-meta muted break">{document.source}</span>}
        </div>
      </td>
      <td data-label={t('admin.column.status')}>
        <span className={`status status-${document.status.toLowerCase()}`} data-testid="document-status">
          {status ? t(status) : document.status}
        </span>
      </td>
      <td className="number" data-label={t('admin.column.chunks')}>
        {formatNumber(document.chunk_count, lang)}
      </td>
      <td data-label={t('admin.column.root')}>
        {document.root ? (
          <ShortHash value={document.root} label={t('admin.rootLabel')} testId="document-root" />
        ) : (
          '—'
        )}
      </td>
      <td data-label={t('admin.column.anchor')}>
        <div>
          <span className={`anchor anchor-${document.anchor_state.toLowerCase()}`}>
            {anchorKey ? t(anchorKey) : document.anchor_state}
          </span>
          {document.anchor && (
            <span className="tx" title={t('admin.anchor.tx', { chain: document.anchor.chain_id })}>
              <ShortHash
                value={document.anchor.tx_hash}
                label={t('admin.txLabel')}
                href={explorer}
                testId="document-tx"
              />
            </span>
          )}
        </div>
      </td>
      <td data-label={t('admin.column.actions')}>
        <div className="row-actions">
          {document.status === 'ARCHIVED' ? (
            <button
              type="button"
              className="button secondary"
              data-testid="document-restore"
              disabled={props.busy}
              aria-label={t('admin.actionLabel', { action: t('admin.restore'), title })}
              onClick={props.onRestore}
            >
              {t('admin.restore')}
            </button>
          ) : (
            <button
              type="button"
              className="button secondary"
              data-testid="document-archive"
              disabled={props.busy || document.status !== 'READY'}
              aria-label={t('admin.actionLabel', { action: t('admin.archive'), title })}
              onClick={props.onArchive}
            >
              {t('admin.archive')}
            </button>
          )}
          <button
            type="button"
            className="button secondary danger-text"
            data-testid="document-delete"
            disabled={props.busy}
            aria-label={t('admin.actionLabel', { action: t('admin.delete'), title })}
            onClick={(event) => props.onDelete(event.currentTarget)}
          >
            {t('admin.delete')}
          </button>
        </div>
      </td>
    </tr>
  );
}
