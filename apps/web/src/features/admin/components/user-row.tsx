import { ROLES, formatAmount, type Profile, type Role } from '@daohuu/domain';
import * as React from 'react';
import { toast } from '@/lib/toast';
import { Cultivation } from '@/components/cultivation/cultivation';
import { SubmitButton } from '@/components/submit-button';
import { Input } from '@/components/ui/input';
import { UserAvatar } from '@/components/user-avatar';
import { ApiError } from '@/lib/api-client';
import { useMe } from '@/lib/auth';
import { cn } from '@/lib/utils';
import { useUpdateUser, type UpdateUserInput } from '../api/users';
import { balanceRangeMessage, parseWholeAmount, tuViRangeMessage } from '../utils/parse-amount';
import { NativeSelect } from './moderation/fields';
import { useT } from '@/i18n';

function AmountInput({
  label,
  value,
  onChange,
  error,
  errorId,
  form,
}: {
  form: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  errorId: string;
}) {
  return (
    <Input
      form={form}
      aria-label={label}
      inputMode="numeric"
      autoComplete="off"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
      className="h-8 w-32 text-right tabular-nums max-md:w-full"
    />
  );
}

/**
 * A cell of the table; below md the row is a card and each cell shows its column's name above it (data-label), so
 * nothing needs a sideways scroll on a phone.
 */
const CELL =
  'px-3 py-3 max-md:block max-md:p-0 max-md:before:mb-1 max-md:before:block max-md:before:text-xs max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]';

/** One user, with tu vi and balance editable in place; the form is the whole row. */
export function UserRow({ user }: { user: Profile }) {
  const t = useT();
  const [tuVi, setTuVi] = React.useState(String(user.tuVi));
  const [balance, setBalance] = React.useState(String(user.balance));
  const [role, setRole] = React.useState<Role>(user.role);
  // An admin cannot demote themselves (the server refuses it too): their own role is shown, not offered.
  const isMe = useMe().data?.id === user.id;
  const [errors, setErrors] = React.useState<{ tuVi: string | null; balance: string | null }>({
    tuVi: null,
    balance: null,
  });
  const [serverError, setServerError] = React.useState<string | null>(null);
  const updateUser = useUpdateUser();
  const formId = React.useId();
  const changed =
    tuVi !== String(user.tuVi) || balance !== String(user.balance) || role !== user.role;

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const nextTuVi = parseWholeAmount(tuVi);
    const nextBalance = parseWholeAmount(balance);
    const nextErrors = {
      tuVi: nextTuVi === null ? tuViRangeMessage() : null,
      balance: nextBalance === null ? balanceRangeMessage() : null,
    };
    setErrors(nextErrors);
    setServerError(null);
    if (nextTuVi === null || nextBalance === null) return;

    const changes: UpdateUserInput = { id: user.id };
    if (nextTuVi !== user.tuVi) changes.tuVi = nextTuVi;
    if (nextBalance !== user.balance) changes.balance = nextBalance;
    if (role !== user.role) changes.role = role;
    if (Object.keys(changes).length === 1) {
      setTuVi(String(user.tuVi));
      setBalance(String(user.balance));
      return;
    }
    try {
      const updated = await updateUser.mutateAsync(changes);
      setTuVi(String(updated.tuVi));
      setBalance(String(updated.balance));
      setRole(updated.role);
      toast.success(t('admin.users.saved', { name: updated.daoHieu }));
    } catch (failure) {
      setServerError(failure instanceof ApiError ? failure.message : t('common.genericError'));
    }
  }

  const messages = [errors.tuVi, errors.balance, serverError].filter((message): message is string =>
    Boolean(message),
  );

  return (
    <>
      <tr
        className="border-t align-top max-md:grid max-md:grid-cols-2 max-md:gap-3 max-md:rounded-xl max-md:border max-md:bg-card max-md:p-4 max-md:shadow-sm"
        data-user-id={user.id}
        aria-label={user.daoHieu}
      >
        <td className={cn(CELL, 'max-md:col-span-2')}>
          <div className="flex min-w-0 items-center gap-3 md:min-w-44">
            <UserAvatar name={user.daoHieu} image={user.image} />
            <div className="grid min-w-0">
              <span className="truncate font-medium">{user.daoHieu}</span>
              <span className="truncate text-xs text-muted-foreground">{user.email}</span>
            </div>
          </div>
        </td>
        <td className={cn(CELL, 'max-md:col-span-2')} data-label={t('profile.role')}>
          <NativeSelect
            form={formId}
            aria-label={t('admin.users.roleOf', { name: user.daoHieu })}
            className="h-8 w-36 max-md:w-full"
            value={role}
            disabled={isMe}
            onChange={(event) => setRole(event.target.value as Role)}
          >
            {ROLES.map((value) => (
              <option key={value} value={value}>
                {t(`role.${value}`)}
              </option>
            ))}
          </NativeSelect>
        </td>
        <td className={CELL} data-label={t('common.tuVi')}>
          <form
            id={formId}
            noValidate
            onSubmit={handleSubmit}
            aria-label={t('admin.users.edit', { name: user.daoHieu })}
          >
            <AmountInput
              form={formId}
              label={t('admin.users.tuViOf', { name: user.daoHieu })}
              value={tuVi}
              onChange={setTuVi}
              error={errors.tuVi}
              errorId={`${formId}-messages`}
            />
          </form>
          <p className="mt-1 text-right text-xs text-muted-foreground tabular-nums">
            {formatAmount(user.tuVi, 1)}
          </p>
        </td>
        <td
          className={cn(CELL, 'max-md:col-span-2')}
          data-label={t('common.realm')}
          data-slot="user-realm"
        >
          <Cultivation tuVi={user.tuVi} />
        </td>
        <td className={CELL} data-label={t('common.balance')}>
          <AmountInput
            form={formId}
            label={t('admin.users.balanceOf', { name: user.daoHieu })}
            value={balance}
            onChange={setBalance}
            error={errors.balance}
            errorId={`${formId}-messages`}
          />
          <p className="mt-1 text-right text-xs text-muted-foreground tabular-nums">
            {formatAmount(user.balance, 'currency')}
          </p>
        </td>
        <td className={cn(CELL, 'max-md:col-span-2')}>
          <SubmitButton
            form={formId}
            size="sm"
            pending={updateUser.isPending}
            disabled={!changed}
            aria-label={t('admin.users.saveFor', { name: user.daoHieu })}
            className="max-md:w-full"
          >
            {t('common.save')}
          </SubmitButton>
        </td>
      </tr>
      {messages.length > 0 ? (
        <tr data-slot="user-row-messages" className="max-md:block">
          <td colSpan={6} className="px-3 pb-3 max-md:block max-md:px-1">
            <div id={`${formId}-messages`} className="grid gap-1">
              {messages.map((message) => (
                <p key={message} role="alert" className="text-sm text-destructive">
                  {message}
                </p>
              ))}
            </div>
          </td>
        </tr>
      ) : null}
    </>
  );
}
