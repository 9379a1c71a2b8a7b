import { useTranslationContext } from 'stream-chat-react';

/** A poll field's validation message (docs/product-rules.md §6), right under the field it is about. */
export function PollFieldError({ id, error }: { id: string; error: string | undefined }) {
  const { t } = useTranslationContext();
  if (!error) return null;
  return (
    <p id={id} role="alert" className="text-destructive mt-1 text-sm" data-testid={id}>
      {t(error)}
    </p>
  );
}
