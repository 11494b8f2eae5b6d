/** Short notices for the admin portal: role=status, dismissed by hand or after a few seconds. */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { useT } from '../lang-context.js';

export type ToastKind = 'success' | 'error';

interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

/** How long a toast stays, in milliseconds; errors stay longer so they can be read. */
export const TOAST_MS: Record<ToastKind, number> = { success: 6000, error: 12000 };

type ShowToast = (kind: ToastKind, text: string) => void;

const ToastContext = createContext<ShowToast>(() => {});

export function useToast(): ShowToast {
  return useContext(ToastContext);
}

export function ToastProvider(props: { children: ReactNode }) {
  const { t } = useT();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.current.delete(id);
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback<ShowToast>(
    (kind, text) => {
      const id = nextId.current++;
      setToasts((current) => [...current.slice(-4), { id, kind, text }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), TOAST_MS[kind]),
      );
    },
    [dismiss],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  return (
    <ToastContext.Provider value={show}>
      {props.children}
      <section className="toasts" aria-label={t('admin.toasts')}>
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`toast ${toast.kind}`}
            role="status"
            data-testid="toast"
            data-kind={toast.kind}
          >
            <span className="toast-text">{toast.text}</span>
            <button
              type="button"
              className="toast-close"
              aria-label={t('admin.toast.close')}
              onClick={() => dismiss(toast.id)}
            >
              ×
            </button>
          </div>
        ))}
      </section>
    </ToastContext.Provider>
  );
}
