/**
 * The frame every admin list shares: its load error or loading line, then a keyboard-reachable
 * scrolling table with a hidden caption and column headers. The rows are the caller's.
 */
import type { ReactNode } from 'react';
import { errorText, type Failure } from '../error-text.js';
import type { MessageKey } from '../i18n.js';
import { useT } from '../lang-context.js';

export interface AdminTableProps {
  /** The `useId()` of the caller: the caption's id is derived from it. */
  ids: string;
  testId: string;
  caption: MessageKey;
  columns: readonly MessageKey[];
  /** What failed while loading, with the message saying so ({code} and, translated, {message}). */
  loadError: Failure | undefined;
  failedMessage: MessageKey;
  /** True while the first page is still loading (nothing to show yet). */
  loading: boolean;
  loadingMessage: MessageKey;
  children: ReactNode;
}

export function AdminTable(props: AdminTableProps) {
  const { t, lang } = useT();
  return (
    <>
      {props.loadError && (
        <p className="error" role="alert">
          {t(props.failedMessage, {
            code: props.loadError.code,
            message: errorText(props.loadError, lang, t),
          })}
        </p>
      )}
      {props.loading && !props.loadError && <p className="muted">{t(props.loadingMessage)}</p>}

      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section className="table-scroll" tabIndex={0} aria-labelledby={`${props.ids}-caption`}>
        <table className="documents" data-testid={props.testId}>
          <caption id={`${props.ids}-caption`} className="visually-hidden">
            {t(props.caption)}
          </caption>
          <thead>
            <tr>
              {props.columns.map((column) => (
                <th key={column} scope="col">
                  {t(column)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{props.children}</tbody>
        </table>
      </section>
    </>
  );
}
