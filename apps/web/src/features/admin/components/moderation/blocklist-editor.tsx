import type { ModerationBlocklist } from '@daohuu/domain';
import * as React from 'react';
import { toast } from '@/lib/toast';
import { FormAlert } from '@/components/form-alert';
import { SubmitButton } from '@/components/submit-button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useSaveBlocklist } from '../../api/moderation';
import { parseBlocklistWords } from '../../utils/moderation-format';
import { errorMessage } from './action-form';
import { Textarea } from './fields';
import { useT } from '@/i18n';

const NAME_PATTERN = /^[\w-]{1,64}$/u;

/** One blocklist's words, one per line; `list` absent means a new list, named here. */
export function BlocklistEditor({ list }: { list?: ModerationBlocklist }) {
  const t = useT();
  const id = React.useId();
  const save = useSaveBlocklist();
  const [name, setName] = React.useState(list?.name ?? '');
  const [text, setText] = React.useState((list?.words ?? []).join('\n'));
  const [error, setError] = React.useState<string | null>(null);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const listName = list?.name ?? name.trim();
    if (!NAME_PATTERN.test(listName)) {
      setError(t('admin.moderation.blocklistNameRule'));
      return;
    }
    const words = parseBlocklistWords(text);
    try {
      const saved = await save.mutateAsync({ name: listName, words });
      setText(saved.words.join('\n'));
      if (!list) setName('');
      toast.success(
        t('admin.moderation.blocklistSaved', { name: listName, count: saved.words.length }),
      );
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  const title = list
    ? t('admin.moderation.blocklistTitle', { name: list.name })
    : t('admin.moderation.newBlocklist');
  const saveLabel = list
    ? t('admin.moderation.saveBlocklist', { name: list.name })
    : t('admin.moderation.saveNewBlocklist');
  return (
    <form
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm"
      onSubmit={handleSubmit}
      aria-label={title}
      noValidate
    >
      {list ? (
        <h3 className="font-medium">{list.name}</h3>
      ) : (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-name`}>{t('admin.moderation.newBlocklistName')}</Label>
          <Input id={`${id}-name`} value={name} onChange={(event) => setName(event.target.value)} />
        </div>
      )}
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-words`}>{t('admin.moderation.words')}</Label>
        <Textarea
          id={`${id}-words`}
          className="min-h-32 font-mono"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <FormAlert message={error} />
      <div>
        <SubmitButton pending={save.isPending} aria-label={saveLabel}>
          {t('common.save')}
        </SubmitButton>
      </div>
    </form>
  );
}
