/**
 * The verify page's keys section: which keys this browser trusts for this server, their fingerprint
 * and where they were pinned from; a loud warning when the server now serves other keys; and the
 * reader's own choices — trust the server's new keys, pin keys from a file or an address, unpin.
 */

import type { TrustedKeys } from '@saksi/proof';
import { type FormEvent, useState } from 'react';
import { CopyButton } from './copy-button.js';
import { formatBytes, formatTimestamp } from './format.js';
import { keysFingerprint, shortFingerprint } from './key-pinning.js';
import { useT } from './lang-context.js';
import {
  PinError,
  pinKeysFromFile,
  pinKeysFromUrl,
  pinServedKeys,
  unpinKeys,
  useTrust,
} from './trust-state.js';
import { KeyList } from './verification.js';

type Notice = { tone: 'ok' | 'error'; text: string } | undefined;

export function KeysPanel() {
  const { t, lang } = useT();
  const trust = useTrust();
  const [url, setUrl] = useState('');
  const [notice, setNotice] = useState<Notice>();
  const decision = trust.decision;
  const pin = decision.pin;

  const failed = (error: unknown, address?: string) => {
    const code = error instanceof PinError ? error.code : 'NOT_KEYS';
    setNotice({
      tone: 'error',
      text: t(`pin.error.${code}`, {
        url: address ?? '',
        size: error instanceof PinError && error.size !== undefined ? formatBytes(error.size, lang) : '',
      }),
    });
  };
  const pinned = (keys: TrustedKeys | undefined) => {
    setNotice(
      keys
        ? { tone: 'ok', text: t('pin.done', { fingerprint: shortFingerprint(keysFingerprint(keys)) }) }
        : undefined,
    );
  };
  /** Pins the keys this server serves now (first use, or accepting a changed key). */
  const pinServed = () => {
    try {
      pinned(pinServedKeys());
    } catch (error) {
      failed(error);
    }
  };
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      pinned(await pinKeysFromFile(file));
    } catch (error) {
      failed(error);
    }
  };
  const onUrl = async (event: FormEvent) => {
    event.preventDefault();
    try {
      pinned(await pinKeysFromUrl(url));
    } catch (error) {
      failed(error, url.trim());
    }
  };
  const source = pin
    ? t(`pin.source.${pin.source}`, { date: formatTimestamp(pin.pinned_at, lang), url: pin.url ?? '' })
    : undefined;

  return (
    <section className="trusted-keys" data-testid="trusted-keys" data-trust={decision.status} id="keys">
      <h2>{t('pin.title')}</h2>
      <p className="muted">{t('pin.intro')}</p>
      {trust.loading && <p role="status">{t('pin.loading')}</p>}
      {decision.status === 'changed' && (
        <div className="banner" role="alert" data-testid="key-warning">
          <p className="banner-title">{t('verdict.banner.key-changed')}</p>
          <p className="banner-hint">{t('pin.changed')}</p>
          {decision.servedFingerprint !== undefined && (
            <p className="banner-hint">
              {t('pin.servedFingerprint')}:{' '}
              <code data-testid="served-fingerprint">{shortFingerprint(decision.servedFingerprint)}</code>
            </p>
          )}
          <p className="banner-hint">{t('verdict.hint.keyChanged')}</p>
          <button type="button" className="button secondary" data-testid="pin-served" onClick={pinServed}>
            {t('pin.acceptServed')}
          </button>
        </div>
      )}
      {decision.status === 'unpinned' && <p data-testid="pin-status">{t('pin.unpinned')}</p>}
      {decision.status === 'none' && !trust.loading && (
        <p className="error" data-testid="pin-status">
          {t('pin.none')}
        </p>
      )}
      {decision.status === 'pinned-offline' && <p data-testid="pin-status">{t('pin.offline')}</p>}
      {pin && (
        <div className="pin-current">
          <p>
            <strong>{t('pin.pinnedFingerprint')}:</strong>{' '}
            <code className="fingerprint" data-testid="pinned-fingerprint">
              {shortFingerprint(pin.fingerprint)}
            </code>{' '}
            <CopyButton value={pin.fingerprint} label={t('pin.pinnedFingerprint')} />
          </p>
          <p className="muted" data-testid="pin-source">
            {source}
          </p>
          <button
            type="button"
            className="button secondary"
            data-testid="unpin"
            onClick={() => {
              unpinKeys();
              setNotice({ tone: 'ok', text: t('pin.removed') });
            }}
          >
            {t('pin.unpin')}
          </button>
        </div>
      )}
      {decision.keys && (
        <details className="key-details">
          <summary>{t('pin.details')}</summary>
          <KeyList keys={decision.keys} />
        </details>
      )}
      {notice && (
        <p className={notice.tone === 'error' ? 'error' : 'muted'} role="alert" data-testid="pin-notice">
          {notice.text}
        </p>
      )}
      <h3>{t('pin.other')}</h3>
      <div className="pin-options">
        {decision.status === 'unpinned' && (
          <button type="button" className="button secondary" data-testid="pin-served" onClick={pinServed}>
            {t('pin.pinServed')}
          </button>
        )}
        <label className="field file">
          <span>{t('pin.fromFile')}</span>
          <input
            type="file"
            data-testid="pin-file"
            accept="application/json,.json"
            onChange={(event) => {
              void onFile(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </label>
        <form className="pin-url" onSubmit={(event) => void onUrl(event)}>
          <label className="field">
            <span>{t('pin.urlLabel')}</span>
            <input
              type="text"
              inputMode="url"
              data-testid="pin-url"
              value={url}
              placeholder="https://…/saksi-keys.json"
              onChange={(event) => setUrl(event.target.value)}
            />
          </label>
          <button
            type="submit"
            className="button secondary"
            data-testid="pin-url-run"
            disabled={url.trim() === ''}
          >
            {t('pin.urlButton')}
          </button>
        </form>
      </div>
    </section>
  );
}
