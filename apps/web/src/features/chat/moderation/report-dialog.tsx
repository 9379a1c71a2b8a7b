import * as React from 'react';
import type { LocalMessage, StreamChat } from 'stream-chat';
import { lazyDialog } from '@/lib/lazy-component';

export type ReportTarget = Pick<LocalMessage, 'id'> & { authorName?: string };

const ReportContext = React.createContext<((target: ReportTarget) => void) | null>(null);

/** Opens the report dialog for a message; the dialog lives above the message menu, which closes first. */
export function useReportMessage(): (target: ReportTarget) => void {
  const open = React.useContext(ReportContext);
  if (!open) throw new Error('useReportMessage must be used inside ReportDialogProvider');
  return open;
}

const ReportMessageDialog = lazyDialog(
  async () => (await import('./report-message-dialog')).ReportMessageDialog,
);

/** Holds the one report dialog of the chat; message menus open it through `useReportMessage`. */
export function ReportDialogProvider({
  client,
  children,
}: {
  client: StreamChat;
  children: React.ReactNode;
}) {
  const [target, setTarget] = React.useState<ReportTarget | null>(null);
  // The last target stays while the dialog animates out, so its text does not change as it closes.
  const [shown, setShown] = React.useState<ReportTarget | null>(null);
  if (target !== null && target !== shown) setShown(target);
  const close = React.useCallback(() => setTarget(null), []);
  return (
    <ReportContext.Provider value={setTarget}>
      {children}
      <ReportMessageDialog client={client} target={shown} open={target !== null} onClose={close} />
    </ReportContext.Provider>
  );
}
