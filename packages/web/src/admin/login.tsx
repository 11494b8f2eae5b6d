/** The admin sign-in form: one generic message for a wrong email or password (no account probing). */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useT } from '../lang-context.js';
import type { AdminSession } from './admin-api.js';
import { login } from './admin-api.js';
import type { LoginNotice } from './notices.js';
import { loginNotice } from './notices.js';

export function LoginForm(props: {
  notice?: LoginNotice | undefined;
  onSignedIn: (session: AdminSession) => void;
}) {
  const { t } = useT();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<LoginNotice | undefined>(props.notice);
  const emailRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    emailRef.current?.focus();
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setNotice(undefined);
    try {
      const session = await login(email.trim(), password);
      setPassword('');
      props.onSignedIn(session);
    } catch (error) {
      setNotice(loginNotice(error));
      setBusy(false);
    }
  };

  return (
    <section className="admin-login" aria-labelledby="admin-login-title">
      <h1 id="admin-login-title">{t('admin.login.title')}</h1>
      <p className="muted">{t('admin.login.intro')}</p>
      <form className="admin-form" onSubmit={submit}>
        <label className="field" htmlFor="admin-login-email">
          {t('admin.login.email')}
          <input
            ref={emailRef}
            id="admin-login-email"
            data-testid="admin-login-email"
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </label>
        <label className="field" htmlFor="admin-login-password">
          {t('admin.login.password')}
          <input
            id="admin-login-password"
            data-testid="admin-login-password"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        {notice && (
          <p className="error" role="alert" data-testid="admin-login-error">
            {t(notice.key, notice.values)}
          </p>
        )}
        <button type="submit" className="button" data-testid="admin-login-submit" disabled={busy}>
          {busy ? t('admin.login.busy') : t('admin.login.submit')}
        </button>
      </form>
    </section>
  );
}
