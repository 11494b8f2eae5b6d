/** The app shell: header (name, navigation, language and theme), a tiny router, and the pages. */
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { AdminPage } from './admin/admin-page.js';
import { readStorage, writeStorage } from './api.js';
import { ChatPage } from './chat.js';
import { initialLang, isLang, type Lang, translate } from './i18n.js';
import { LangContext, type Translate } from './lang-context.js';
import { ADMIN_PATH, Link, usePath } from './router.js';
import { VerifyPage } from './verify-page.js';

type Theme = 'light' | 'dark';

function initialTheme(): Theme {
  const stored = readStorage('saksi.theme');
  if (stored === 'light' || stored === 'dark') return stored;
  return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function App() {
  const [lang, setLang] = useState<Lang>(() =>
    initialLang(readStorage('saksi.lang'), navigator.languages ?? [navigator.language]),
  );
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const path = usePath();

  useEffect(() => {
    document.documentElement.lang = lang;
    writeStorage('saksi.lang', lang);
  }, [lang]);
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme;
  }, [theme]);

  const t = useCallback<Translate>((key, values) => translate(lang, key, values), [lang]);
  const toggleTheme = () => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    writeStorage('saksi.theme', next);
    setTheme(next);
  };

  const verifyMatch = /^\/verify(?:\/([^/]+))?\/?$/.exec(path);
  let page: ReactNode;
  if (verifyMatch) {
    const id = verifyMatch[1] !== undefined ? decodeURIComponent(verifyMatch[1]) : undefined;
    page = <VerifyPage key={id ?? ''} certificateId={id} />;
  } else if (ADMIN_PATH.test(path))
    page = <AdminPage view={/^\/admin\/usage\/?$/.test(path) ? 'usage' : 'documents'} />;
  else page = <ChatPage />;
  const inVerify = verifyMatch !== null;
  const inAdmin = ADMIN_PATH.test(path);

  return (
    <LangContext.Provider value={{ lang, t }}>
      <header className="header">
        <div className="brand">
          <Link to="/" className="brand-name">
            Saksi
          </Link>
          <span className="tagline">{t('app.tagline')}</span>
        </div>
        <nav aria-label={t('nav.label')} className="nav">
          <Link to="/" current={!inVerify && !inAdmin}>
            {t('nav.chat')}
          </Link>
          <Link to="/verify" current={inVerify}>
            {t('nav.verify')}
          </Link>
          <Link to="/admin" current={inAdmin}>
            {t('nav.admin')}
          </Link>
        </nav>
        <div className="controls">
          <label className="control">
            <span>{t('lang.label')}</span>
            <select
              data-testid="lang-switch"
              value={lang}
              onChange={(event) => {
                if (isLang(event.target.value)) setLang(event.target.value);
              }}
            >
              <option value="id">Bahasa Indonesia</option>
              <option value="en">English</option>
            </select>
          </label>
          <button
            type="button"
            className="button secondary"
            data-testid="theme-switch"
            aria-label={`${t('theme.label')}: ${theme === 'dark' ? t('theme.dark') : t('theme.light')}`}
            aria-pressed={theme === 'dark'}
            onClick={toggleTheme}
          >
            {theme === 'dark' ? '☾ ' + t('theme.dark') : '☀ ' + t('theme.light')}
          </button>
        </div>
      </header>
      <main className="main">{page}</main>
    </LangContext.Provider>
  );
}
