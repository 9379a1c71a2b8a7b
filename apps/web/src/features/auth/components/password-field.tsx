import { EyeIcon, EyeOffIcon } from 'lucide-react';
import * as React from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { useT } from '@/i18n';

type PasswordFieldProps = Omit<React.ComponentProps<typeof Input>, 'type'> & {
  label: string;
  error?: string | null | undefined;
};

/**
 * A labelled password input with a "Hiện mật khẩu" toggle: on a phone keyboard a typo is easy and invisible. The
 * error is announced and tied to the input like FormField's.
 */
export function PasswordField({
  label,
  error,
  className,
  id: idProp,
  ref,
  ...inputProps
}: PasswordFieldProps) {
  const generatedId = React.useId();
  const id = idProp ?? generatedId;
  const errorId = `${id}-error`;
  const t = useT();
  const [visible, setVisible] = React.useState(false);
  const Icon = visible ? EyeOffIcon : EyeIcon;
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <Input
          ref={ref}
          id={id}
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="pr-10"
          {...inputProps}
        />
        <button
          type="button"
          aria-controls={id}
          onClick={() => setVisible((value) => !value)}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        >
          <Icon className="size-4" aria-hidden="true" />
          {/* Named by its text, not aria-label, so the field's own label stays the only label of it. */}
          <span className="sr-only">
            {visible ? t('auth.hidePassword') : t('auth.showPassword')}
          </span>
        </button>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
