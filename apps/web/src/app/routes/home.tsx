import { QueryError } from '@/components/query-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Landing } from '@/features/cultivation/components/landing';
import { useMe } from '@/lib/auth';
import { LazyDashboard } from './lazy-screens';

export function HomeRoute() {
  const me = useMe();
  if (me.isPending) {
    return (
      <div className="grid gap-4" aria-busy="true">
        <Skeleton className="h-10 w-72" />
        <div className="grid gap-4 lg:grid-cols-3">
          <Skeleton className="h-48 lg:col-span-2" />
          <Skeleton className="h-48" />
        </div>
      </div>
    );
  }
  if (me.isError) return <QueryError error={me.error} onRetry={() => void me.refetch()} />;
  return me.data ? <LazyDashboard profile={me.data} /> : <Landing />;
}
