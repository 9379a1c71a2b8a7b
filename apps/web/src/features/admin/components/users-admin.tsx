import { formatAmount } from '@daohuu/domain';
import { ChevronLeftIcon, ChevronRightIcon, SearchIcon } from 'lucide-react';
import * as React from 'react';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { USERS_PAGE_SIZE, useUsers } from '../api/users';
import { UserRow } from './user-row';
import { useT } from '@/i18n';

const SEARCH_DEBOUNCE_MS = 300;

export function UsersAdmin() {
  const t = useT();
  const [search, setSearch] = React.useState('');
  const [offset, setOffset] = React.useState(0);
  const query = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const users = useUsers({ query, offset });

  function handleSearch(value: string) {
    setSearch(value);
    setOffset(0);
  }

  const total = users.data?.total ?? 0;
  const firstShown = total === 0 ? 0 : offset + 1;
  const lastShown = Math.min(offset + USERS_PAGE_SIZE, total);

  return (
    <div className="grid gap-4">
      <div className="relative max-w-sm">
        <SearchIcon
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          type="search"
          aria-label={t('admin.users.searchLabel')}
          placeholder={t('admin.users.searchPlaceholder')}
          value={search}
          onChange={(event) => handleSearch(event.target.value)}
          className="pl-9"
        />
      </div>

      {users.isError && !users.data ? (
        <QueryError error={users.error} onRetry={() => void users.refetch()} />
      ) : (
        // Below md each row is a card (user-row.tsx): the wrapper and the header row step aside.
        <div className="rounded-xl border bg-card shadow-sm md:overflow-x-auto max-md:border-0 max-md:bg-transparent max-md:shadow-none">
          <table className="w-full text-sm max-md:block" aria-busy={users.isFetching || undefined}>
            <caption className="sr-only">{t('admin.users.caption')}</caption>
            <thead className="bg-muted/60 text-left text-xs tracking-wide text-muted-foreground uppercase max-md:hidden">
              <tr>
                <th scope="col" className="px-3 py-3 font-medium">
                  {t('admin.users.userColumn')}
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  {t('profile.role')}
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  {t('common.tuVi')}
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  {t('common.realm')}
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  {t('common.balance')}
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  <span className="sr-only">{t('admin.users.actionsColumn')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="max-md:grid max-md:gap-3">
              {users.isPending ? (
                Array.from({ length: 4 }, (_, index) => (
                  <tr key={index} className="border-t max-md:block max-md:border-0">
                    <td colSpan={6} className="px-4 py-3 max-md:block max-md:p-0">
                      <Skeleton className="h-8 w-full" />
                    </td>
                  </tr>
                ))
              ) : users.data.users.length === 0 ? (
                <tr className="max-md:block">
                  <td
                    colSpan={6}
                    className="px-4 py-10 text-center text-muted-foreground max-md:block"
                  >
                    {t('admin.users.none')}
                  </td>
                </tr>
              ) : (
                users.data.users.map((user) => (
                  // A new key when the saved values change resets the row's draft to them.
                  <UserRow
                    key={`${user.id}:${user.tuVi}:${user.balance}:${user.role}`}
                    user={user}
                  />
                ))
              )}
            </tbody>
          </table>
        </div>
      )}

      <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
        <span aria-live="polite">
          {total === 0
            ? t('admin.users.noResults')
            : t('admin.users.range', {
                first: formatAmount(firstShown, 1),
                last: formatAmount(lastShown, 1),
                total: formatAmount(total, 1),
              })}
        </span>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={offset === 0}
            onClick={() => setOffset((value) => Math.max(0, value - USERS_PAGE_SIZE))}
          >
            <ChevronLeftIcon aria-hidden="true" />
            {t('admin.users.previous')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={offset + USERS_PAGE_SIZE >= total}
            onClick={() => setOffset((value) => value + USERS_PAGE_SIZE)}
          >
            {t('admin.users.next')}
            <ChevronRightIcon aria-hidden="true" />
          </Button>
        </div>
      </div>
    </div>
  );
}
