import { act, render, screen } from '@testing-library/react';
import * as React from 'react';
import { Link, MemoryRouter, Outlet, useParams, useRoutes, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './route-error';

/** A screen that counts how often it is mounted, as the chat screen's stream-chat-react Chat would be. */
function countingScreen(mounts: { count: number }) {
  return function Screen() {
    const { id = 'none' } = useParams();
    React.useEffect(() => {
      mounts.count += 1;
    }, []);
    return <p>Kênh {id}</p>;
  };
}

function Broken(): React.ReactNode {
  throw new Error('the screen failed');
}

/** The app's shape (app/routes.tsx): a shell with links, and the screens inside the boundary. */
function renderAt(path: string, screens: RouteObject[]) {
  function Routes() {
    return useRoutes([
      {
        element: (
          <>
            <Link to="/chat/b">Sang kênh b</Link>
            <RouteErrorBoundary>
              <Outlet />
            </RouteErrorBoundary>
          </>
        ),
        children: screens,
      },
    ]);
  }
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes />
    </MemoryRouter>,
  );
}

const goToB = async () => {
  await act(async () => screen.getByRole('link', { name: 'Sang kênh b' }).click());
};

describe('RouteErrorBoundary', () => {
  it('keeps a screen mounted when the address changes within it', async () => {
    const mounts = { count: 0 };
    const Screen = countingScreen(mounts);
    renderAt('/chat/a', [{ path: '/chat/:id?', element: <Screen /> }]);
    expect(await screen.findByText('Kênh a')).toBeInTheDocument();

    await goToB();

    expect(await screen.findByText('Kênh b')).toBeInTheDocument();
    expect(mounts.count).toBe(1);
  });

  it('shows the error panel for a screen that throws, and the next screen after navigating', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const mounts = { count: 0 };
    const Screen = countingScreen(mounts);
    renderAt('/broken', [
      { path: '/broken', element: <Broken /> },
      { path: '/chat/:id?', element: <Screen /> },
    ]);
    expect(await screen.findByRole('heading', { name: 'Đã có lỗi xảy ra' })).toBeInTheDocument();

    await goToB();

    expect(await screen.findByText('Kênh b')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Đã có lỗi xảy ra' })).not.toBeInTheDocument();
  });
});
