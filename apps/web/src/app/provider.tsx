import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import * as React from 'react';
import { useApplyTheme } from '@/hooks/use-theme';
import { ApiError } from '@/lib/api-client';
import { useMe } from '@/lib/auth';
import { useAfterFirstContent } from '@/lib/idle';
import { optionalPart } from '@/lib/lazy-component';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will not change by asking again; network blips and 5xx get two more tries.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) &&
          failureCount < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}

// sonner replays the toasts shown before its Toaster subscribed, so the Toaster can arrive after first paint.
const Toaster = optionalPart(async () => (await import('@/components/ui/sonner')).Toaster);

function DeferredToaster() {
  const { isPending } = useMe();
  const ready = useAfterFirstContent(!isPending);
  return ready ? <Toaster /> : null;
}

function ThemeSync() {
  useApplyTheme();
  return null;
}

export function AppProvider({
  children,
  queryClient,
}: {
  children: React.ReactNode;
  queryClient?: QueryClient;
}) {
  const [client] = React.useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ThemeSync />
      {children}
      <DeferredToaster />
    </QueryClientProvider>
  );
}
