import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { importWhenOnline, optionalPart } from './lazy-component';

let online = true;
beforeEach(() => {
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const lostNetwork = () => new TypeError('Failed to fetch dynamically imported module');

describe('importWhenOnline', () => {
  it('waits for the browser to be back online, then tries the import again', async () => {
    online = false;
    const load = vi.fn().mockRejectedValueOnce(lostNetwork()).mockResolvedValueOnce('module');
    const loading = importWhenOnline(load)();
    await Promise.resolve();
    await Promise.resolve();
    expect(load).toHaveBeenCalledTimes(1);
    online = true;
    window.dispatchEvent(new Event('online'));
    await expect(loading).resolves.toBe('module');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('gives up after three tries when the import keeps failing while online', async () => {
    vi.useFakeTimers();
    const load = vi.fn().mockRejectedValue(lostNetwork());
    const loading = importWhenOnline(load)();
    const outcome = expect(loading).rejects.toThrow('dynamically imported module');
    await vi.advanceTimersByTimeAsync(10_000);
    await outcome;
    expect(load).toHaveBeenCalledTimes(3);
  });
});

describe('optionalPart', () => {
  it('leaves out a part whose code cannot load, and the rest of the page stays', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Bell = optionalPart<object>(() => Promise.reject(lostNetwork()));
    render(
      <main>
        <p>kênh Luận Đạo</p>
        <Bell />
      </main>,
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(screen.getByText('kênh Luận Đạo')).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveTextContent(/^kênh Luận Đạo$/);
  });

  it('shows its stand-in while the code loads, and keeps it in the part’s place when the code cannot load', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Preview = optionalPart<object>(
      () => Promise.reject(lostNetwork()),
      <p>Đang kết nối trò chuyện…</p>,
    );
    render(<Preview />);
    expect(screen.getByText('Đang kết nối trò chuyện…')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(screen.getByText('Đang kết nối trò chuyện…')).toBeInTheDocument();
  });

  it('shows the part once its code has loaded', async () => {
    const Bell = optionalPart<object>(async () => () => <button>chuông</button>);
    render(<Bell />);
    expect(await screen.findByRole('button', { name: 'chuông' })).toBeInTheDocument();
  });
});
