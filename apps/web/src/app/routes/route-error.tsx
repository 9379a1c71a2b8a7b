import { TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { useLocation } from 'react-router';
import { StatusPanel } from '@/components/status-panel';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';

/** Last line of defence when a screen throws while rendering. */
export function RouteError() {
  const t = useT();
  return (
    <StatusPanel
      icon={TriangleAlertIcon}
      tone="warning"
      title={t('status.crashTitle')}
      description={t('status.crashDescription')}
    >
      <Button variant="outline" onClick={() => window.location.reload()}>
        {t('status.reload')}
      </Button>
    </StatusPanel>
  );
}

interface BoundaryProps {
  children: React.ReactNode;
  /** The screen's address: a failed screen is retried once it changes. */
  resetKey: string;
}

class ErrorBoundary extends React.Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override componentDidUpdate(previous: BoundaryProps): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) {
      this.setState({ failed: false });
    }
  }

  override render(): React.ReactNode {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

/**
 * A screen that throws shows RouteError inside the shell (sidebar and header stay usable); navigating elsewhere
 * retries. The boundary is never keyed by the address: a key would remount every screen on each navigation, and
 * /chat/:type/:id would tear down and rebuild stream-chat-react's Chat on every channel switch. Its modal dialog
 * manager does not survive a remount in one commit (the new Chat's children keep the old manager the old Chat
 * unregisters), so the poll, location and delete dialogs stopped opening (route-error.test.tsx).
 */
export function RouteErrorBoundary({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary resetKey={pathname}>{children}</ErrorBoundary>;
}
