/**
 * The confirmation dialog of the admin lists (delete a document, revoke a key): a modal `<dialog>`
 * opened for one pending item, focus on its Cancel button, and focus back on the button that asked.
 */
import { useEffect, useRef, useState } from 'react';

export function useConfirmDialog<T>() {
  const [pending, setPending] = useState<T | undefined>();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (pending !== undefined && !element.open) {
      element.showModal();
      cancelButton.current?.focus();
    } else if (pending === undefined && element.open) element.close();
  }, [pending]);

  /** Closes the dialog; returns the item it asked about and the button that asked. */
  const close = (): { item: T | undefined; trigger: HTMLElement | null } => {
    const item = pending;
    setPending(undefined);
    const trigger = returnFocus.current;
    returnFocus.current = null;
    return { item, trigger };
  };

  return {
    pending,
    dialog,
    cancelButton,
    /** Opens the dialog for `item`; `trigger` gets focus back when it closes. */
    ask(item: T, trigger: HTMLElement) {
      returnFocus.current = trigger;
      setPending(item);
    },
    /** Closes without acting; focus returns to the button that asked. */
    cancel() {
      const { trigger } = close();
      if (trigger?.isConnected) trigger.focus();
    },
    /** Closes and returns the item to act on; with `refocus`, focus returns to the button that asked. */
    confirm(refocus: boolean): T | undefined {
      const { item, trigger } = close();
      if (refocus && trigger?.isConnected) trigger.focus();
      return item;
    },
  };
}
