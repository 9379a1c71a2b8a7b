import type { Profile } from '@daohuu/domain';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestQueryClient } from '@/testing/render';
import { meQueryKey, meQueryOptions, refreshMe, useMe } from './auth';

const lamPhong: Profile = {
  id: 'u1',
  daoHieu: 'Lam Phong',
  email: 'lam.phong@daohuu.vn',
  role: 'user',
  tuVi: 1200,
  balance: 0,
  image: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};

/** `/api/me` as the server answers it (the browser suite covers the real one): who is signed in, or a 401. */
function stubMe(answers: (Profile | null)[]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    if (url.pathname !== '/api/me') throw new Error(`Unexpected request: ${url.pathname}`);
    const me = answers.length > 1 ? answers.shift() : answers[0];
    return me
      ? Response.json(me)
      : Response.json(
          { error: { code: 'UNAUTHORIZED', message: 'Chưa đăng nhập' } },
          { status: 401 },
        );
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function Reader() {
  const me = useMe();
  if (me.isPending) return <output>đang tải</output>;
  if (me.isError) return <output>lỗi</output>;
  return <output>{me.data ? me.data.daoHieu : 'khách'}</output>;
}

afterEach(() => vi.unstubAllGlobals());

describe('useMe', () => {
  it('is pending until the server answers, then shows who is signed in', async () => {
    stubMe([lamPhong]);
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <Reader />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('đang tải');
    expect(await screen.findByText('Lam Phong')).toBeInTheDocument();
  });

  it('reads a signed-out answer as null, not as an error', async () => {
    stubMe([null]);
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <Reader />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('khách')).toBeInTheDocument();
  });

  it('follows setQueryData on the cached answer, as a sign-out or a profile edit leaves it', async () => {
    const fetchMock = stubMe([lamPhong]);
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(meQueryKey, lamPhong);
    render(
      <QueryClientProvider client={queryClient}>
        <Reader />
      </QueryClientProvider>,
    );
    expect(screen.getByText('Lam Phong')).toBeInTheDocument();
    act(() => queryClient.setQueryData(meQueryKey, { ...lamPhong, daoHieu: 'Bạch Vân' }));
    expect(screen.getByText('Bạch Vân')).toBeInTheDocument();
    act(() => queryClient.setQueryData(meQueryKey, null));
    expect(screen.getByText('khách')).toBeInTheDocument();
    // A fresh cached answer (staleTime) is not asked again on mount.
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks the server again when the answer is invalidated while a screen shows it', async () => {
    const fetchMock = stubMe([null, lamPhong]);
    const queryClient = createTestQueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <Reader />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('khách')).toBeInTheDocument();
    await act(() => queryClient.invalidateQueries({ queryKey: meQueryKey }));
    expect(await screen.findByText('Lam Phong')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('refreshMe waits for the new answer when a screen shows who is signed in, and only marks it stale when none does', async () => {
    const fetchMock = stubMe([null, lamPhong]);
    const queryClient = createTestQueryClient();
    const { unmount } = render(
      <QueryClientProvider client={queryClient}>
        <Reader />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('khách')).toBeInTheDocument();
    await expect(refreshMe(queryClient)).resolves.toEqual(lamPhong);
    expect(fetchMock).toHaveBeenCalledTimes(2);

    unmount();
    await expect(refreshMe(queryClient)).resolves.toEqual(lamPhong);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(queryClient.getQueryState(meQueryKey)?.isInvalidated).toBe(true);
  });

  it('refreshMe still fetches when a disabled useQuery reader (the login dialog’s) watches the same entry', async () => {
    const fetchMock = stubMe([null, lamPhong]);
    const queryClient = createTestQueryClient();
    function DialogReader() {
      useQuery({ ...meQueryOptions(), enabled: false });
      return null;
    }
    render(
      <QueryClientProvider client={queryClient}>
        <Reader />
        <DialogReader />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('khách')).toBeInTheDocument();
    await expect(refreshMe(queryClient)).resolves.toEqual(lamPhong);
    expect(await screen.findByText('Lam Phong')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('keeps the answer in the cache after its readers unmount, for the next screen', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      stubMe([lamPhong]);
      const queryClient = createTestQueryClient();
      const { unmount } = render(
        <QueryClientProvider client={queryClient}>
          <Reader />
        </QueryClientProvider>,
      );
      await waitFor(() => expect(screen.getByText('Lam Phong')).toBeInTheDocument());
      unmount();
      vi.advanceTimersByTime(60 * 60 * 1000);
      expect(queryClient.getQueryData(meQueryKey)).toEqual(lamPhong);
    } finally {
      vi.useRealTimers();
    }
  });
});
