import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type * as React from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { Toaster } from '@/components/ui/sonner';
import { LoginDialogProvider } from '@/lib/login-dialog';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
}

/** Prints the router's current URL so tests can assert on navigation. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/** Renders inside the app's real providers (query client, router, login dialog state, toaster). */
export function renderWithProviders(
  ui: React.ReactElement,
  {
    url = '/',
    queryClient = createTestQueryClient(),
  }: { url?: string; queryClient?: QueryClient } = {},
): RenderResult & { queryClient: QueryClient } {
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <LoginDialogProvider>
          {ui}
          <LocationProbe />
        </LoginDialogProvider>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}
