import { TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { useLocation } from 'react-router';
import { StatusPanel } from '@/components/status-panel';
import { Button } from '@/components/ui/button';

/** Last line of defence when a screen throws while rendering. */
export function RouteError() {
  return (
    <StatusPanel
      icon={TriangleAlertIcon}
      tone="warning"
      title="Đã có lỗi xảy ra"
      description="Trang này gặp sự cố ngoài ý muốn. Vui lòng tải lại trang."
    >
      <Button variant="outline" onClick={() => window.location.reload()}>
        Tải lại trang
      </Button>
    </StatusPanel>
  );
}

class ErrorBoundary extends React.Component<{ children: React.ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override render(): React.ReactNode {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

/**
 * A screen that throws shows RouteError inside the shell (sidebar and header stay usable); navigating elsewhere
 * gives the next screen a fresh boundary.
 */
export function RouteErrorBoundary({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary key={pathname}>{children}</ErrorBoundary>;
}
