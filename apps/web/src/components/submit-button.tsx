import { Loader2Icon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';

/** A submit button that is disabled and spins while its request is pending. */
export function SubmitButton({
  pending,
  children,
  disabled,
  ...props
}: React.ComponentProps<typeof Button> & { pending: boolean }) {
  return (
    <Button
      type="submit"
      disabled={pending || disabled}
      aria-busy={pending || undefined}
      {...props}
    >
      {pending ? (
        <Loader2Icon className="animate-spin" aria-hidden="true" data-testid="spinner" />
      ) : null}
      {children}
    </Button>
  );
}
