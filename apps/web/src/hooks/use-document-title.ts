import { useEffect } from 'react';

const APP_NAME = 'Đạo Hữu';

/**
 * The browser tab's title: the screen's title and the app name, led by the unread count ("(3) Đạo Hữu") so a
 * cultivator sees new messages from another tab; the plain title again once nothing is unread.
 */
export function documentTitle(title: string | null, unread: string | null = null): string {
  const base = title ? `${title} · ${APP_NAME}` : APP_NAME;
  return unread ? `(${unread}) ${base}` : base;
}

/** The one place that sets `document.title` (the app header calls it with the route's title and the unread badge). */
export function useDocumentTitle(title: string | null, unread: string | null = null): void {
  useEffect(() => {
    document.title = documentTitle(title, unread);
  }, [title, unread]);
}
