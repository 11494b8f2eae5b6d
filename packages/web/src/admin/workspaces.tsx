/**
 * Workspaces and API keys (docs/api.md, "Admin routes"): list and create workspaces; for the selected one,
 * its keys (prefix, scopes, dates, status), a form that creates a key and shows its secret once, and revoking
 * a key after a confirmation dialog.
 */
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { errorText } from '../error-text.js';
import { formatNumber, formatTimestamp } from '../format.js';
import { useT } from '../lang-context.js';
import {
  AdminApiError,
  type AdminSession,
  type AdminWorkspace,
  API_KEY_SCOPES,
  type ApiKeyRecord,
  type ApiKeyScope,
  type CreatedApiKey,
  createApiKey,
  createWorkspace,
  listApiKeys,
  listWorkspaces,
  revokeApiKey,
} from './admin-api.js';
import { AdminTable } from './admin-table.js';
import { useConfirmDialog } from './confirm-dialog.js';
import { Field } from './fields.js';
import { useToast } from './toasts.js';

function asAdminError(error: unknown): AdminApiError {
  return error instanceof AdminApiError ? error : new AdminApiError('NETWORK', String(error));
}

export function WorkspacesSection(props: {
  session: AdminSession;
  /** Changes whenever the counts may have changed elsewhere on the page (an upload, a document changed). */
  refreshKey: number;
  onUnauthorized: (error: AdminApiError) => void;
}) {
  const { t, lang } = useT();
  const toast = useToast();
  const ids = useId();
  const { session, refreshKey, onUnauthorized } = props;
  const [workspaces, setWorkspaces] = useState<AdminWorkspace[] | undefined>();
  const [loadError, setLoadError] = useState<AdminApiError | undefined>();
  const [reload, setReload] = useState(0);
  const [selectedId, setSelectedId] = useState<string | undefined>();
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    void refreshKey;
    void reload;
    let cancelled = false;
    listWorkspaces().then(
      (items) => {
        if (cancelled) return;
        setLoadError(undefined);
        setWorkspaces(items);
      },
      (error: unknown) => {
        if (cancelled) return;
        const failure = asAdminError(error);
        if (failure.status === 401) onUnauthorized(failure);
        else setLoadError(failure);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [refreshKey, reload, onUnauthorized]);

  const refresh = useCallback(() => setReload((value) => value + 1), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (creating || name.trim() === '') return;
    setCreating(true);
    try {
      const workspace = await createWorkspace(session, name.trim());
      toast('success', t('admin.workspaces.created', { name: workspace.name }));
      setName('');
      setSelectedId(workspace.id);
      refresh();
    } catch (error) {
      const failure = asAdminError(error);
      if (failure.status === 401) onUnauthorized(failure);
      else
        toast('error', t('admin.actionFailed', { code: failure.code, message: errorText(failure, lang, t) }));
    } finally {
      setCreating(false);
    }
  };

  const selected = workspaces?.find((workspace) => workspace.id === selectedId);

  return (
    <section className="admin-card" aria-labelledby={`${ids}-title`} data-testid="workspaces-section">
      <h2 id={`${ids}-title`}>{t('admin.workspaces.title')}</h2>
      <p className="muted">{t('admin.workspaces.intro')}</p>

      <form className="upload-actions" onSubmit={(event) => void submit(event)}>
        <Field id={`${ids}-name`} label={t('admin.workspaces.name')}>
          <input
            id={`${ids}-name`}
            data-testid="workspace-name"
            type="text"
            autoComplete="off"
            maxLength={80}
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </Field>
        <button
          type="submit"
          className="button"
          data-testid="workspace-create"
          disabled={creating || name.trim() === ''}
        >
          {creating ? t('admin.workspaces.creating') : t('admin.workspaces.create')}
        </button>
      </form>

      <AdminTable
        ids={ids}
        testId="workspaces-table"
        caption="admin.workspaces.caption"
        columns={[
          'admin.workspaces.column.name',
          'admin.workspaces.column.documents',
          'admin.workspaces.column.keys',
          'admin.workspaces.column.created',
          'admin.column.actions',
        ]}
        loadError={loadError}
        failedMessage="admin.workspaces.failed"
        loading={!workspaces}
        loadingMessage="admin.workspaces.loading"
      >
        {workspaces?.map((workspace) => (
          <tr key={workspace.id} data-testid="workspace-row" data-id={workspace.id}>
            <td data-label={t('admin.workspaces.column.name')}>
              <span className="document-title">{workspace.name}</span>
              <code className="document-meta muted break">{workspace.id}</code>
            </td>
            <td className="number" data-label={t('admin.workspaces.column.documents')}>
              {formatNumber(workspace.documents, lang)}
            </td>
            <td className="number" data-label={t('admin.workspaces.column.keys')}>
              {formatNumber(workspace.keys, lang)}
            </td>
            <td data-label={t('admin.workspaces.column.created')}>
              {formatTimestamp(workspace.created_at, lang)}
            </td>
            <td data-label={t('admin.column.actions')}>
              <button
                type="button"
                className="button secondary"
                data-testid="workspace-select"
                aria-pressed={workspace.id === selectedId}
                aria-label={t('admin.workspaces.manageLabel', { name: workspace.name })}
                onClick={() => setSelectedId(workspace.id)}
              >
                {t('admin.workspaces.manage')}
              </button>
            </td>
          </tr>
        ))}
      </AdminTable>
      {workspaces && workspaces.length === 0 && <p className="muted">{t('admin.workspaces.empty')}</p>}

      {selected && (
        <KeysPanel
          key={selected.id}
          session={session}
          workspace={selected}
          onChanged={refresh}
          onUnauthorized={onUnauthorized}
        />
      )}
    </section>
  );
}

function KeysPanel(props: {
  session: AdminSession;
  workspace: AdminWorkspace;
  /** A key was created or revoked: the workspace counts change. */
  onChanged: () => void;
  onUnauthorized: (error: AdminApiError) => void;
}) {
  const { t, lang } = useT();
  const toast = useToast();
  const ids = useId();
  const { session, workspace, onChanged, onUnauthorized } = props;
  const [keys, setKeys] = useState<ApiKeyRecord[] | undefined>();
  const [loadError, setLoadError] = useState<AdminApiError | undefined>();
  const [reload, setReload] = useState(0);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<ApiKeyScope>>(new Set(['read']));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | undefined>();
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [busyId, setBusyId] = useState<string | undefined>();
  const confirmation = useConfirmDialog<ApiKeyRecord>();
  const pendingRevoke = confirmation.pending;
  const secretInput = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    void reload;
    let cancelled = false;
    listApiKeys(workspace.id).then(
      (items) => {
        if (cancelled) return;
        setLoadError(undefined);
        setKeys(items);
      },
      (error: unknown) => {
        if (cancelled) return;
        const failure = asAdminError(error);
        if (failure.status === 401) onUnauthorized(failure);
        else setLoadError(failure);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [workspace.id, reload, onUnauthorized]);

  const fail = (error: unknown) => {
    const failure = asAdminError(error);
    if (failure.status === 401) onUnauthorized(failure);
    else
      toast('error', t('admin.actionFailed', { code: failure.code, message: errorText(failure, lang, t) }));
  };

  const toggleScope = (scope: ApiKeyScope, checked: boolean) => {
    setScopes((current) => {
      const next = new Set(current);
      if (checked) next.add(scope);
      else next.delete(scope);
      return next;
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (creating || name.trim() === '' || scopes.size === 0) return;
    setCreating(true);
    try {
      const result = await createApiKey(session, workspace.id, {
        name: name.trim(),
        scopes: API_KEY_SCOPES.filter((scope) => scopes.has(scope)),
      });
      setCreated(result);
      setCopyState('idle');
      setName('');
      toast('success', t('admin.keys.created', { name: result.record.name }));
      setReload((value) => value + 1);
      onChanged();
    } catch (error) {
      fail(error);
    } finally {
      setCreating(false);
    }
  };

  useEffect(() => {
    if (created) secretInput.current?.select();
  }, [created]);

  const copy = async () => {
    if (!created) return;
    secretInput.current?.select();
    try {
      await navigator.clipboard.writeText(created.key);
      setCopyState('copied');
    } catch {
      setCopyState('failed');
    }
  };

  const revoke = async (record: ApiKeyRecord) => {
    setBusyId(record.id);
    try {
      await revokeApiKey(session, workspace.id, record.id);
      toast('success', t('admin.keys.revoked', { name: record.name }));
      onChanged();
      // The row's revoke button goes away with the key: keep the keyboard focus in the panel.
      heading.current?.focus();
    } catch (error) {
      fail(error);
    } finally {
      setBusyId(undefined);
      setReload((value) => value + 1);
    }
  };

  const closeDialog = () => confirmation.cancel();
  const confirmRevoke = () => {
    const record = confirmation.confirm(true);
    if (record) void revoke(record);
  };

  const scopesMissing = scopes.size === 0;

  return (
    <section aria-labelledby={`${ids}-title`} data-testid="keys-panel" data-workspace={workspace.id}>
      <h3 id={`${ids}-title`} ref={heading} tabIndex={-1}>
        {t('admin.keys.title', { name: workspace.name })}
      </h3>

      <form className="admin-form" onSubmit={(event) => void submit(event)}>
        <h4>{t('admin.keys.create.title')}</h4>
        <Field id={`${ids}-name`} label={t('admin.keys.name')}>
          <input
            id={`${ids}-name`}
            data-testid="key-name"
            type="text"
            autoComplete="off"
            maxLength={100}
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </Field>
        <fieldset className="filters" aria-describedby={scopesMissing ? `${ids}-scopes-hint` : undefined}>
          <legend>{t('admin.keys.scopes')}</legend>
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope} htmlFor={`${ids}-scope-${scope}`}>
              <input
                id={`${ids}-scope-${scope}`}
                type="checkbox"
                data-testid={`key-scope-${scope}`}
                checked={scopes.has(scope)}
                onChange={(event) => toggleScope(scope, event.target.checked)}
              />{' '}
              {t(`admin.keys.scope.${scope}`)}
            </label>
          ))}
        </fieldset>
        {scopesMissing && (
          <p id={`${ids}-scopes-hint`} className="muted">
            {t('admin.keys.scopesNeeded')}
          </p>
        )}
        <div className="upload-actions">
          <button
            type="submit"
            className="button"
            data-testid="key-create"
            disabled={creating || name.trim() === '' || scopesMissing}
          >
            {creating ? t('admin.keys.creating') : t('admin.keys.create')}
          </button>
        </div>
      </form>

      <div aria-live="polite" data-testid="new-key-region">
        {created && (
          <section className="admin-card" aria-labelledby={`${ids}-new-title`} data-testid="new-key">
            <h4 id={`${ids}-new-title`}>{t('admin.keys.new.title')}</h4>
            <p className="warning" data-testid="new-key-warning">
              {t('admin.keys.new.warning')}
            </p>
            <div className="admin-form">
              <Field id={`${ids}-secret`} label={t('admin.keys.new.label', { name: created.record.name })}>
                <input
                  ref={secretInput}
                  id={`${ids}-secret`}
                  data-testid="new-key-value"
                  type="text"
                  readOnly
                  spellCheck={false}
                  autoComplete="off"
                  className="break"
                  value={created.key}
                  onFocus={(event) => event.currentTarget.select()}
                />
              </Field>
              <div className="upload-actions">
                <button
                  type="button"
                  className="button"
                  data-testid="new-key-copy"
                  onClick={() => void copy()}
                >
                  {t('admin.keys.new.copy')}
                </button>
                <button
                  type="button"
                  className="button secondary"
                  data-testid="new-key-done"
                  onClick={() => setCreated(undefined)}
                >
                  {t('admin.keys.new.done')}
                </button>
                {copyState !== 'idle' && (
                  <span className="muted" data-testid="new-key-copy-state">
                    {t(copyState === 'copied' ? 'admin.keys.new.copied' : 'admin.keys.new.copyFailed')}
                  </span>
                )}
              </div>
            </div>
          </section>
        )}
      </div>

      <AdminTable
        ids={ids}
        testId="keys-table"
        caption="admin.keys.caption"
        columns={[
          'admin.keys.column.name',
          'admin.keys.column.prefix',
          'admin.keys.column.scopes',
          'admin.keys.column.created',
          'admin.keys.column.lastUsed',
          'admin.keys.column.status',
          'admin.keys.column.actions',
        ]}
        loadError={loadError}
        failedMessage="admin.keys.failed"
        loading={!keys}
        loadingMessage="admin.keys.loading"
      >
        {keys?.map((record) => {
          const revoked = record.revoked_at !== null;
          return (
            <tr
              key={record.id}
              data-testid="key-row"
              data-id={record.id}
              data-status={revoked ? 'revoked' : 'active'}
            >
              <td data-label={t('admin.keys.column.name')}>
                <span className="document-title">{record.name}</span>
              </td>
              <td data-label={t('admin.keys.column.prefix')}>
                <code data-testid="key-prefix">{record.prefix}…</code>
              </td>
              <td data-label={t('admin.keys.column.scopes')}>{record.scopes.join(', ')}</td>
              <td data-label={t('admin.keys.column.created')}>{formatTimestamp(record.created_at, lang)}</td>
              <td data-label={t('admin.keys.column.lastUsed')}>
                {record.last_used_at ? formatTimestamp(record.last_used_at, lang) : t('admin.keys.never')}
              </td>
              <td data-label={t('admin.keys.column.status')}>
                <span
                  className={`status ${revoked ? 'status-failed' : 'status-ready'}`}
                  data-testid="key-status"
                  title={revoked && record.revoked_at ? formatTimestamp(record.revoked_at, lang) : undefined}
                >
                  {t(revoked ? 'admin.keys.status.revoked' : 'admin.keys.status.active')}
                </span>
              </td>
              <td data-label={t('admin.keys.column.actions')}>
                {!revoked && (
                  <button
                    type="button"
                    className="button secondary danger-text"
                    data-testid="key-revoke"
                    disabled={busyId === record.id}
                    aria-label={t('admin.actionLabel', {
                      action: t('admin.keys.revoke'),
                      title: record.name,
                    })}
                    onClick={(event) => confirmation.ask(record, event.currentTarget)}
                  >
                    {t('admin.keys.revoke')}
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </AdminTable>
      {keys && keys.length === 0 && <p className="muted">{t('admin.keys.empty')}</p>}

      <dialog
        ref={confirmation.dialog}
        className="confirm-dialog"
        aria-labelledby={`${ids}-confirm-title`}
        aria-describedby={`${ids}-confirm-body`}
        onClose={() => {
          if (pendingRevoke) closeDialog();
        }}
      >
        <h3 id={`${ids}-confirm-title`}>{t('admin.keys.confirm.title')}</h3>
        <p id={`${ids}-confirm-body`}>
          {t('admin.keys.confirm.body', {
            name: pendingRevoke?.name ?? '',
            prefix: pendingRevoke?.prefix ?? '',
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
            data-testid="confirm-revoke"
            onClick={confirmRevoke}
          >
            {t('admin.keys.confirm.revoke')}
          </button>
        </div>
      </dialog>
    </section>
  );
}
