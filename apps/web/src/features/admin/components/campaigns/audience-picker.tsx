import { REALMS, realmRowName, type CampaignAudience } from '@daohuu/domain';
import * as React from 'react';
import { Label } from '@/components/ui/label';
import { NativeSelect, Textarea } from '../moderation/fields';
import { type MessageKey, useT } from '@/i18n';

export type AudienceKind = CampaignAudience['kind'];

export interface AudienceDraft {
  kind: AudienceKind;
  minRealm: number;
  /** Chosen ids as typed: separated by commas, spaces or new lines. */
  userIds: string;
}

export const EMPTY_AUDIENCE: AudienceDraft = { kind: 'all', minRealm: 0, userIds: '' };

/** The audience to send to, or null while "chosen cultivators" lists nobody yet. */
export function audienceOf(draft: AudienceDraft): CampaignAudience | null {
  if (draft.kind === 'all') return { kind: 'all' };
  if (draft.kind === 'realm') return { kind: 'realm', minRealm: draft.minRealm };
  const userIds = [...new Set(draft.userIds.split(/[\s,]+/u).filter(Boolean))];
  return userIds.length > 0 ? { kind: 'users', userIds } : null;
}

const KINDS: Array<{ kind: AudienceKind; label: MessageKey }> = [
  { kind: 'all', label: 'admin.campaigns.kindAll' },
  { kind: 'realm', label: 'admin.campaigns.kindRealm' },
  { kind: 'users', label: 'admin.campaigns.kindUsers' },
];

/** Who the campaign reaches (the segment), with how many that is right now. */
export function AudiencePicker({
  draft,
  onChange,
  count,
  disabled,
}: {
  draft: AudienceDraft;
  onChange: (draft: AudienceDraft) => void;
  count: React.ReactNode;
  disabled: boolean;
}) {
  const t = useT();
  const id = React.useId();
  return (
    <fieldset className="grid gap-3" disabled={disabled}>
      <legend className="mb-2 font-medium">{t('admin.campaigns.audience')}</legend>
      <div className="flex flex-wrap gap-4">
        {KINDS.map(({ kind, label }) => (
          <label key={kind} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-kind`}
              checked={draft.kind === kind}
              onChange={() => onChange({ ...draft, kind })}
            />
            {t(label)}
          </label>
        ))}
      </div>
      {draft.kind === 'realm' ? (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-realm`}>{t('admin.campaigns.minRealm')}</Label>
          <NativeSelect
            id={`${id}-realm`}
            value={draft.minRealm}
            onChange={(event) => onChange({ ...draft, minRealm: Number(event.target.value) })}
          >
            {REALMS.map((row, index) => (
              <option key={index} value={index}>
                {realmRowName(row)}
              </option>
            ))}
          </NativeSelect>
        </div>
      ) : null}
      {draft.kind === 'users' ? (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-users`}>{t('admin.campaigns.userIds')}</Label>
          <Textarea
            id={`${id}-users`}
            value={draft.userIds}
            onChange={(event) => onChange({ ...draft, userIds: event.target.value })}
          />
        </div>
      ) : null}
      <p className="text-sm" aria-live="polite" data-testid="audience-count">
        {count}
      </p>
    </fieldset>
  );
}
