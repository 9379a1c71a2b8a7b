import { act, render, screen } from '@testing-library/react';
import * as React from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The module keeps the page's first-content state: each test starts from a freshly loaded page.
async function freshIdle() {
  vi.resetModules();
  return import('./idle');
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function Shell({ useAfter }: { useAfter: (settled: boolean) => boolean }) {
  const ready = useAfter(true);
  return <output>{ready ? 'menus loaded' : 'menus deferred'}</output>;
}

async function settle() {
  // requestIdleCallback's timeout and the promise chain behind it.
  await act(async () => {
    await vi.advanceTimersByTimeAsync(1600);
  });
}

describe('useAfterFirstContent', () => {
  it('lets the deferred parts load once the shell has its content and the browser had a free moment', async () => {
    const idle = await freshIdle();
    render(<Shell useAfter={idle.useAfterFirstContent} />);
    expect(screen.getByRole('status')).toHaveTextContent('menus deferred');
    await settle();
    expect(screen.getByRole('status')).toHaveTextContent('menus loaded');
  });

  it('holds them back on a page opened on a screen that deferred them, until that screen shows its content', async () => {
    const idle = await freshIdle();
    idle.deferUntilScreenContent();
    function Screen() {
      idle.useScreenContentShown();
      return <p>first messages</p>;
    }
    function Page() {
      const [shown, setShown] = React.useState(false);
      return (
        <>
          <Shell useAfter={idle.useAfterFirstContent} />
          {shown ? <Screen /> : <button onClick={() => setShown(true)}>show</button>}
        </>
      );
    }
    render(<Page />);
    await settle();
    expect(screen.getByRole('status')).toHaveTextContent('menus deferred');
    act(() => screen.getByRole('button', { name: 'show' }).click());
    await settle();
    expect(screen.getByRole('status')).toHaveTextContent('menus loaded');
  });

  it('stops holding them back after five seconds when the screen never shows its content', async () => {
    const idle = await freshIdle();
    idle.deferUntilScreenContent();
    render(<Shell useAfter={idle.useAfterFirstContent} />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4000);
    });
    expect(screen.getByRole('status')).toHaveTextContent('menus deferred');
    await settle();
    expect(screen.getByRole('status')).toHaveTextContent('menus loaded');
  });

  it('waits for the page’s load event, so they never compete with the first screen’s images and scripts', async () => {
    const idle = await freshIdle();
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    try {
      render(<Shell useAfter={idle.useAfterFirstContent} />);
      await settle();
      expect(screen.getByRole('status')).toHaveTextContent('menus deferred');
      readyState.mockReturnValue('complete');
      act(() => {
        window.dispatchEvent(new Event('load'));
      });
      await settle();
      expect(screen.getByRole('status')).toHaveTextContent('menus loaded');
    } finally {
      readyState.mockRestore();
    }
  });

  it('ignores a screen deferring them after the page’s first content has passed', async () => {
    const idle = await freshIdle();
    const { unmount } = render(<Shell useAfter={idle.useAfterFirstContent} />);
    await settle();
    unmount();
    idle.deferUntilScreenContent();
    render(<Shell useAfter={idle.useAfterFirstContent} />);
    await settle();
    expect(screen.getByRole('status')).toHaveTextContent('menus loaded');
  });
});
