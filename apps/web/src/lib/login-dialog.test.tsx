import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { loginTrigger, usePrefetchOnLoginIntent } from './login-dialog';

function Page({ prefetch }: { prefetch: () => Promise<unknown> }) {
  usePrefetchOnLoginIntent(prefetch);
  return (
    <>
      <button type="button">Tu vi</button>
      <button type="button" {...loginTrigger}>
        <span>Đăng nhập</span>
      </button>
    </>
  );
}

describe('usePrefetchOnLoginIntent', () => {
  it('fetches nothing while the visitor reaches only for other buttons', () => {
    const prefetch = vi.fn(() => Promise.resolve());
    render(<Page prefetch={prefetch} />);
    fireEvent.pointerOver(screen.getByText('Tu vi'));
    fireEvent.focusIn(screen.getByText('Tu vi'));
    expect(prefetch).not.toHaveBeenCalled();
  });

  it('fetches once when a pointer first reaches a sign-in button, even through its label', () => {
    const prefetch = vi.fn(() => Promise.resolve());
    render(<Page prefetch={prefetch} />);
    fireEvent.pointerOver(screen.getByText('Đăng nhập'));
    fireEvent.pointerOver(screen.getByText('Đăng nhập'));
    fireEvent.focusIn(screen.getByRole('button', { name: 'Đăng nhập' }));
    expect(prefetch).toHaveBeenCalledTimes(1);
  });

  it('fetches when the keyboard focus or a finger reaches a sign-in button, and a failed fetch raises nothing', async () => {
    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    const { unmount } = render(<Page prefetch={failing} />);
    fireEvent.focusIn(screen.getByRole('button', { name: 'Đăng nhập' }));
    expect(failing).toHaveBeenCalledTimes(1);
    unmount();
    const touched = vi.fn(() => Promise.resolve());
    render(<Page prefetch={touched} />);
    fireEvent.touchStart(screen.getByText('Đăng nhập'));
    expect(touched).toHaveBeenCalledTimes(1);
    // The rejected prefetch must have been handled: let it settle before the test ends.
    await Promise.resolve();
  });
});
