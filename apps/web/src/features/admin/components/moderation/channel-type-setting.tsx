import type { BlocklistBehavior, ChannelTypeBlocklist } from '@daohuu/domain';
import * as React from 'react';
import { toast } from '@/lib/toast';
import { FormAlert } from '@/components/form-alert';
import { SubmitButton } from '@/components/submit-button';
import { Label } from '@/components/ui/label';
import { useSetChannelTypeBlocklist } from '../../api/moderation';
import { errorMessage } from './action-form';
import { NativeSelect } from './fields';
import { type MessageKey, useT } from '@/i18n';

export const CHANNEL_TYPE_LABELS: Record<string, MessageKey> = {
  messaging: 'admin.moderation.channelType.messaging',
  sect: 'admin.moderation.channelType.sect',
  team: 'admin.moderation.channelType.team',
};

export const BEHAVIOR_LABELS: Record<BlocklistBehavior, MessageKey> = {
  flag: 'admin.moderation.behavior.flag',
  block: 'admin.moderation.behavior.block',
};

/** Which blocklist a channel type uses and what happens to a message that contains one of its words. */
export function ChannelTypeSetting({
  setting,
  blocklistNames,
}: {
  setting: ChannelTypeBlocklist;
  blocklistNames: string[];
}) {
  const t = useT();
  const id = React.useId();
  const update = useSetChannelTypeBlocklist();
  const [blocklist, setBlocklist] = React.useState(setting.blocklist ?? '');
  const [behavior, setBehavior] = React.useState<BlocklistBehavior>(setting.behavior ?? 'flag');
  const [error, setError] = React.useState<string | null>(null);
  const labelKey = CHANNEL_TYPE_LABELS[setting.type];
  const label = labelKey ? t(labelKey) : setting.type;

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    try {
      await update.mutateAsync({ type: setting.type, blocklist: blocklist || null, behavior });
      toast.success(t('admin.moderation.typeSaved', { label }));
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <form
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm"
      onSubmit={handleSubmit}
      aria-label={t('admin.moderation.typeForm', { label })}
      data-channel-type={setting.type}
    >
      <h3 className="font-medium">{label}</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-list`}>{t('admin.moderation.blocklists')}</Label>
          <NativeSelect
            id={`${id}-list`}
            value={blocklist}
            onChange={(event) => setBlocklist(event.target.value)}
          >
            <option value="">{t('admin.moderation.noBlocklist')}</option>
            {blocklistNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-behavior`}>{t('admin.moderation.whenContains')}</Label>
          <NativeSelect
            id={`${id}-behavior`}
            value={behavior}
            onChange={(event) => setBehavior(event.target.value as BlocklistBehavior)}
          >
            {(Object.keys(BEHAVIOR_LABELS) as BlocklistBehavior[]).map((value) => (
              <option key={value} value={value}>
                {t(BEHAVIOR_LABELS[value])}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      <FormAlert message={error} />
      <div>
        <SubmitButton
          pending={update.isPending}
          aria-label={t('admin.moderation.saveType', { label })}
        >
          {t('common.save')}
        </SubmitButton>
      </div>
    </form>
  );
}
