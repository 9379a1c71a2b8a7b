import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HouseIcon } from 'lucide-react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { setViewportWidth } from '@/testing/match-media';
import {
  Sidebar,
  SidebarContent,
  SidebarInset,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarProvider,
  SidebarRail,
  SidebarTrigger,
} from './sidebar';

const COOKIE_EXPANDED = 'sidebar_state=true; path=/; max-age=604800';
const COOKIE_COLLAPSED = 'sidebar_state=false; path=/; max-age=604800';

function TestSidebar() {
  return (
    <SidebarProvider>
      <Sidebar collapsible="icon">
        <SidebarContent>
          <SidebarMenu>
            <SidebarMenuItem>
              <SidebarMenuButton tooltip="Tổng quan">
                <HouseIcon />
                <span>Tổng quan</span>
              </SidebarMenuButton>
            </SidebarMenuItem>
          </SidebarMenu>
        </SidebarContent>
        <SidebarRail />
      </Sidebar>
      <SidebarInset>
        <SidebarTrigger />
      </SidebarInset>
    </SidebarProvider>
  );
}

function desktopSidebar(): HTMLElement {
  const element = document.querySelector<HTMLElement>('[data-slot="sidebar"]:not([data-mobile])');
  if (!element) throw new Error('The desktop sidebar is not rendered.');
  return element;
}

function trigger(): HTMLElement {
  const element = document.querySelector<HTMLElement>('[data-slot="sidebar-trigger"]');
  if (!element) throw new Error('The sidebar trigger is not rendered.');
  return element;
}

/** Records every string assigned to document.cookie, exactly as the browser would receive it. */
function recordCookieWrites(): string[] {
  const writes: string[] = [];
  const native = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  if (!native?.set || !native.get) throw new Error('document.cookie has no accessor.');
  const { get, set } = native;
  // An own property on this document shadows the prototype's accessor until the test ends.
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => get.call(document) as string,
    set: (value: string) => {
      writes.push(value);
      set.call(document, value);
    },
  });
  onTestFinished(() => {
    Reflect.deleteProperty(document, 'cookie');
  });
  return writes;
}

describe('Sidebar on desktop (992px and wider)', () => {
  it('starts expanded when nothing was saved', () => {
    render(<TestSidebar />);
    expect(desktopSidebar()).toHaveAttribute('data-state', 'expanded');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('writes the sidebar_state cookie with path / and a seven-day max-age on every toggle', async () => {
    const user = userEvent.setup();
    const writes = recordCookieWrites();
    render(<TestSidebar />);

    await user.click(trigger());
    expect(desktopSidebar()).toHaveAttribute('data-state', 'collapsed');
    expect(desktopSidebar()).toHaveAttribute('data-collapsible', 'icon');
    await user.click(trigger());
    expect(desktopSidebar()).toHaveAttribute('data-state', 'expanded');

    expect(writes).toEqual([COOKIE_COLLAPSED, COOKIE_EXPANDED]);
    expect(document.cookie).toContain('sidebar_state=true');
  });

  it('mirrors its state on <html> for the pre-React script and restores it from there', () => {
    document.documentElement.setAttribute('data-sidebar-state', 'collapsed');
    render(<TestSidebar />);
    expect(desktopSidebar()).toHaveAttribute('data-state', 'collapsed');

    fireEvent.click(trigger());
    expect(document.documentElement).toHaveAttribute('data-sidebar-state', 'expanded');
  });

  it('restores the collapsed state from the cookie when <html> carries no state', () => {
    document.cookie = COOKIE_COLLAPSED;
    render(<TestSidebar />);
    expect(desktopSidebar()).toHaveAttribute('data-state', 'collapsed');
  });

  it('toggles on Ctrl+B and Cmd+B and prevents the browser shortcut', () => {
    render(<TestSidebar />);

    const ctrlNotPrevented = fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(ctrlNotPrevented).toBe(false);
    expect(desktopSidebar()).toHaveAttribute('data-state', 'collapsed');

    const metaNotPrevented = fireEvent.keyDown(document.body, { key: 'B', metaKey: true });
    expect(metaNotPrevented).toBe(false);
    expect(desktopSidebar()).toHaveAttribute('data-state', 'expanded');
  });

  it('ignores B without a modifier and Ctrl+Shift+B', () => {
    render(<TestSidebar />);
    expect(fireEvent.keyDown(window, { key: 'b' })).toBe(true);
    expect(fireEvent.keyDown(window, { key: 'B', ctrlKey: true, shiftKey: true })).toBe(true);
    expect(desktopSidebar()).toHaveAttribute('data-state', 'expanded');
  });

  it('toggles from the rail along its edge', async () => {
    const user = userEvent.setup();
    render(<TestSidebar />);
    const rail = document.querySelector<HTMLElement>('[data-slot="sidebar-rail"]');
    expect(rail).toHaveAccessibleName('Toggle Sidebar');

    await user.click(rail as HTMLElement);
    expect(desktopSidebar()).toHaveAttribute('data-state', 'collapsed');
  });

  it('names the trigger button "Toggle Sidebar"', () => {
    render(<TestSidebar />);
    expect(trigger()).toHaveAccessibleName('Toggle Sidebar');
  });

  it('shows no tooltip on a menu item while expanded', async () => {
    const user = userEvent.setup();
    render(<TestSidebar />);
    await user.hover(screen.getByRole('button', { name: 'Tổng quan' }));
    act(() => screen.getByRole('button', { name: 'Tổng quan' }).focus());
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('shows the menu item label as a tooltip once collapsed', async () => {
    const user = userEvent.setup();
    render(<TestSidebar />);
    await user.click(trigger());

    await user.hover(screen.getByRole('button', { name: 'Tổng quan' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Tổng quan');
  });
});

describe('Sidebar under 992px', () => {
  it('is a closed sheet until toggled, then a dialog named "Sidebar" with its description', async () => {
    setViewportWidth(900);
    const user = userEvent.setup();
    render(<TestSidebar />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.querySelector('[data-slot="sidebar"]')).not.toBeInTheDocument();

    await user.click(trigger());
    // The sheet's code loads on first use (apps/web/src/components/ui/sidebar.tsx).
    const sheet = await screen.findByRole('dialog', { name: 'Sidebar' });
    expect(sheet).toHaveAccessibleDescription('Displays the mobile sidebar.');
    expect(sheet).toHaveAttribute('data-mobile', 'true');
    expect(sheet.style.getPropertyValue('--sidebar-width')).toBe('18rem');
  });

  it('opens and closes the sheet with Ctrl+B without touching the desktop cookie', async () => {
    setViewportWidth(375);
    const writes = recordCookieWrites();
    render(<TestSidebar />);

    expect(fireEvent.keyDown(window, { key: 'b', ctrlKey: true })).toBe(false);
    expect(await screen.findByRole('dialog', { name: 'Sidebar' })).toBeInTheDocument();
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(writes).toEqual([]);
  });

  it('never shows tooltips in the sheet, even when the desktop state is collapsed', async () => {
    document.documentElement.setAttribute('data-sidebar-state', 'collapsed');
    setViewportWidth(900);
    const user = userEvent.setup();
    render(<TestSidebar />);
    await user.click(trigger());
    await screen.findByRole('dialog', { name: 'Sidebar' });

    const item = screen.getByRole('button', { name: 'Tổng quan' });
    await user.hover(item);
    act(() => item.focus());
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('closes the sheet when the viewport grows to desktop, and it stays closed on shrinking back', async () => {
    setViewportWidth(900);
    const user = userEvent.setup();
    render(<TestSidebar />);
    await user.click(trigger());
    expect(await screen.findByRole('dialog', { name: 'Sidebar' })).toBeInTheDocument();

    act(() => setViewportWidth(1280));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(desktopSidebar()).toHaveAttribute('data-state', 'expanded');

    act(() => setViewportWidth(900));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('useSidebar', () => {
  it('refuses to work outside a SidebarProvider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<SidebarTrigger />)).toThrow(
      'useSidebar must be used within a SidebarProvider.',
    );
  });
});
