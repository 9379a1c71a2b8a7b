import { Link, matchRoutes, useLocation, type RouteObject } from 'react-router';
import { LogoMark } from '@/components/logo-mark';
import { ThemeMenuButton } from '@/components/theme-menu-button';
import { Separator } from '@/components/ui/separator';
import { SidebarTrigger, useSidebar } from '@/components/ui/sidebar';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { paths } from '@/config/paths';
import { formatUnreadCount, useChatSession } from '@/features/chat';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useT, type MessageKey } from '@/i18n';
import { deferredControl } from '@/lib/deferred-control';
import { useAfterFirstContent } from '@/lib/idle';
import { optionalPart } from '@/lib/lazy-component';

export interface RouteHandle {
  title: MessageKey;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'title' in handle;
}

const SHORTCUT =
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘B' : 'Ctrl+B';

function TriggerWithHint() {
  const t = useT();
  const { isMobile, open } = useSidebar();
  const hint = t(isMobile ? 'nav.openSidebar' : open ? 'nav.collapseSidebar' : 'nav.expandSidebar');
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <SidebarTrigger className="-ml-1" />
      </TooltipTrigger>
      <TooltipContent side="bottom">
        {hint}{' '}
        <kbd className="ml-1 rounded bg-paper/15 px-1 font-sans text-[0.7rem]">{SHORTCUT}</kbd>
      </TooltipContent>
    </Tooltip>
  );
}

const ThemeMenu = deferredControl(
  async () => (await import('@/components/theme-menu')).ThemeMenu,
  ThemeMenuButton,
);

// Only a signed-in cultivator's chat connection shows the bell. Its menu code loads after the first content: on most
// screens the connection itself starts then (features/chat/session/chat-session.tsx); on the chat, which connects at
// once, the bell waits for the first messages.
const NotificationBell = optionalPart(
  async () => (await import('@/features/chat/notifications/notification-bell')).NotificationBell,
);

function DeferredNotificationBell() {
  const { client } = useChatSession();
  const signedIn = client !== null && !client.anonymous;
  const ready = useAfterFirstContent(signedIn);
  return signedIn && ready ? <NotificationBell /> : null;
}

/** The deepest matching route's title (its `handle`, app/routes.tsx). */
function useRouteTitle(routes: RouteObject[]): string | null {
  const t = useT();
  const location = useLocation();
  const matches = matchRoutes(routes, location) ?? [];
  const handle = matches.map((match) => match.route.handle as unknown).findLast(isRouteHandle);
  return handle ? t(handle.title) : null;
}

export function AppHeader({ routes }: { routes: RouteObject[] }) {
  const t = useT();
  const title = useRouteTitle(routes);
  const { unreadCount } = useChatSession();
  useDocumentTitle(title, formatUnreadCount(unreadCount));

  return (
    <header className="sticky top-0 z-10 flex h-14 shrink-0 items-center gap-2 border-b bg-background/85 px-4 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <TriggerWithHint />
      <Link
        to={paths.home.getHref()}
        className="flex items-center gap-2 font-display font-semibold desktop:hidden"
      >
        <LogoMark className="size-6" />
        <span>{t('nav.brand')}</span>
      </Link>
      {title ? (
        <>
          <Separator orientation="vertical" className="mx-1 h-4! max-desktop:hidden" />
          <span className="truncate text-sm font-medium text-muted-foreground max-desktop:hidden">
            {title}
          </span>
        </>
      ) : null}
      <div className="ml-auto flex items-center gap-1">
        <DeferredNotificationBell />
        <ThemeMenu />
      </div>
    </header>
  );
}
