/**
 * `/admin`: the sign-in form, or the portal for a signed-in admin: documents (upload, list), the
 * collections' glossaries, workspaces and keys at `/admin`, the usage figures at `/admin/usage`.
 */
import { useCallback, useEffect, useState } from 'react';
import { fetchCollections } from '../api.js';
import { useT } from '../lang-context.js';
import { Link } from '../router.js';
import { AdminApiError, type AdminSession, logout, me } from './admin-api.js';
import { CalibrationSection } from './calibration.js';
import { DocumentsTable } from './documents-table.js';
import { GlossarySection } from './glossary.js';
import { LoginForm } from './login.js';
import { type LoginNotice, loginNotice } from './notices.js';
import { ToastProvider } from './toasts.js';
import { UploadForm } from './upload.js';
import { UsageSection } from './usage.js';
import { WorkspacesSection } from './workspaces.js';
import './admin.css';

type Auth =
  | { state: 'checking' }
  | { state: 'signed-out'; notice?: LoginNotice | undefined }
  | { state: 'signed-in'; session: AdminSession };

/** Which part of the portal a signed-in admin sees. */
export type AdminView = 'documents' | 'usage';

export function AdminPage(props: { view?: AdminView }) {
  const { t } = useT();
  const [auth, setAuth] = useState<Auth>({ state: 'checking' });

  useEffect(() => {
    let cancelled = false;
    me().then(
      (session) => {
        if (!cancelled) setAuth({ state: 'signed-in', session });
      },
      (error: unknown) => {
        if (cancelled) return;
        // No session is the normal first visit: show the form without a message.
        const quiet = error instanceof AdminApiError && error.code === 'UNAUTHENTICATED';
        setAuth({ state: 'signed-out', notice: quiet ? undefined : loginNotice(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, []);

  /** A 401 from any admin call: the session is gone (expired or revoked); back to the form. */
  const onUnauthorized = useCallback((error: AdminApiError) => {
    setAuth({
      state: 'signed-out',
      notice: error.code === 'SESSION_EXPIRED' ? { key: 'admin.login.expired' } : undefined,
    });
  }, []);

  const signOut = async (session: AdminSession) => {
    try {
      await logout(session);
    } catch {
      // The session is forgotten here either way; the server expires it.
    }
    setAuth({ state: 'signed-out' });
  };

  if (auth.state === 'checking') {
    return (
      <div className="admin">
        <p className="muted" role="status">
          {t('admin.loading')}
        </p>
      </div>
    );
  }
  if (auth.state === 'signed-out') {
    return (
      <div className="admin">
        <LoginForm
          key={auth.notice?.key ?? 'none'}
          notice={auth.notice}
          onSignedIn={(session) => setAuth({ state: 'signed-in', session })}
        />
      </div>
    );
  }
  return (
    <ToastProvider>
      <Portal
        session={auth.session}
        view={props.view ?? 'documents'}
        onUnauthorized={onUnauthorized}
        onSignOut={signOut}
      />
    </ToastProvider>
  );
}

function Portal(props: {
  session: AdminSession;
  view: AdminView;
  onUnauthorized: (error: AdminApiError) => void;
  onSignOut: (session: AdminSession) => Promise<void>;
}) {
  const { t } = useT();
  /** Bumped after an upload: the documents and the collections are fetched again. */
  const [refreshKey, setRefreshKey] = useState(0);
  /** Bumped after an upload or a change to a document: the workspaces (their counts) are fetched again. */
  const [workspacesKey, setWorkspacesKey] = useState(0);
  const [collections, setCollections] = useState<string[]>([]);
  const documentsChanged = useCallback(() => setWorkspacesKey((value) => value + 1), []);

  useEffect(() => {
    void refreshKey;
    let cancelled = false;
    fetchCollections().then(
      (items) => {
        if (!cancelled) setCollections(items.map((item) => item.name));
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [refreshKey]);

  return (
    <div className="admin">
      <div className="admin-header">
        <h1>{t('admin.title')}</h1>
        <div className="admin-user">
          <span className="muted">{t('admin.signedInAs', { email: props.session.email })}</span>
          <button
            type="button"
            className="button secondary"
            data-testid="admin-logout"
            onClick={() => void props.onSignOut(props.session)}
          >
            {t('admin.logout')}
          </button>
        </div>
      </div>
      <nav className="admin-nav" aria-label={t('admin.nav.label')}>
        <Link to="/admin" current={props.view === 'documents'} testId="admin-nav-documents">
          {t('admin.nav.documents')}
        </Link>
        <Link to="/admin/usage" current={props.view === 'usage'} testId="admin-nav-usage">
          {t('admin.nav.usage')}
        </Link>
      </nav>
      {props.view === 'usage' ? (
        <UsageSection onUnauthorized={props.onUnauthorized} />
      ) : (
        <>
          <UploadForm
            session={props.session}
            collections={collections}
            onUploaded={() => {
              setRefreshKey((value) => value + 1);
              documentsChanged();
            }}
            onUnauthorized={props.onUnauthorized}
          />
          <DocumentsTable
            session={props.session}
            collections={collections}
            refreshKey={refreshKey}
            onChanged={documentsChanged}
            onUnauthorized={props.onUnauthorized}
          />
          <GlossarySection
            session={props.session}
            collections={collections}
            onUnauthorized={props.onUnauthorized}
          />
          <CalibrationSection
            session={props.session}
            collections={collections}
            onUnauthorized={props.onUnauthorized}
          />
          <WorkspacesSection
            session={props.session}
            refreshKey={workspacesKey}
            onUnauthorized={props.onUnauthorized}
          />
        </>
      )}
    </div>
  );
}
