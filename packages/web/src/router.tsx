/** A tiny router over the History API: in-app links and the current path. */
import { type MouseEvent, type ReactNode, useEffect, useState } from 'react';

// Routing: `/`, `/verify`, `/verify/<id>`, `/admin`, `/admin/usage` with the History API.

const NAVIGATE = 'saksi:navigate';
/** `/admin` and its usage page, `/admin/usage`. */
export const ADMIN_PATH = /^\/admin(?:\/usage)?\/?$/;

export function navigate(path: string): void {
  if (location.pathname === path) return;
  history.pushState(null, '', path);
  dispatchEvent(new Event(NAVIGATE));
}

export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    addEventListener('popstate', update);
    addEventListener(NAVIGATE, update);
    return () => {
      removeEventListener('popstate', update);
      removeEventListener(NAVIGATE, update);
    };
  }, []);
  return path;
}

/** An in-app link: a real `<a href>` (works without JS, opens in a new tab) that navigates in place. */
export function Link(props: {
  to: string;
  children: ReactNode;
  className?: string;
  testId?: string;
  current?: boolean;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    ) {
      return;
    }
    event.preventDefault();
    navigate(props.to);
    scrollTo(0, 0);
  };
  return (
    <a
      href={props.to}
      onClick={onClick}
      className={props.className}
      data-testid={props.testId}
      aria-current={props.current ? 'page' : undefined}
    >
      {props.children}
    </a>
  );
}
