import { CAMPAIGN_PLACEHOLDERS, MAX_CAMPAIGN_TEXT_LENGTH } from '@daohuu/domain';
import * as React from 'react';
import { FormAlert } from '@/components/form-alert';
import { SubmitButton } from '@/components/submit-button';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useAudienceCount, usePreviewCampaign, useStartCampaign } from '../../api/campaigns';
import { errorMessage } from '../moderation/action-form';
import { Textarea } from '../moderation/fields';
import { AudiencePicker, EMPTY_AUDIENCE, audienceOf, type AudienceDraft } from './audience-picker';
import { CampaignProgressCard } from './campaign-progress';
import { t, useT } from '@/i18n';

/** The suggested message in the admin's language, with the template's placeholders (packages/domain). */
function defaultText(): string {
  return t('admin.campaigns.defaultText', {
    name: '{{ receiver.name }}',
    realm: '{{ receiver.realm }}',
  });
}

function countText(count: number | undefined, pending: boolean, ready: boolean): string {
  if (!ready) return t('admin.campaigns.needIds');
  if (count === undefined) return pending ? t('admin.campaigns.counting') : '';
  // A count of people keeps the product's vi-VN grouping in both languages, as amounts do.
  return t('admin.campaigns.willReach', { count: count.toLocaleString('vi-VN') });
}

/** /quan-tri/chien-dich: choose who, write the message, preview it for one cultivator, start, watch, stop. */
export function CampaignsAdmin() {
  const translate = useT();
  const [draft, setDraft] = React.useState<AudienceDraft>(EMPTY_AUDIENCE);
  const [text, setText] = React.useState(defaultText);
  const [previewUser, setPreviewUser] = React.useState('');
  const [campaignId, setCampaignId] = React.useState<string | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  const audience = useDebouncedValue(audienceOf(draft), 300);
  const count = useAudienceCount(audience);
  const preview = usePreviewCampaign();
  const start = useStartCampaign();
  const trimmed = text.trim();

  async function handlePreview() {
    setError(null);
    const chosen = audienceOf(draft);
    if (!chosen || !trimmed) return setError(translate('admin.campaigns.needAudience'));
    try {
      await preview.mutateAsync({
        audience: chosen,
        text: trimmed,
        ...(previewUser.trim() ? { userId: previewUser.trim() } : {}),
      });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  async function handleStart(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const chosen = audienceOf(draft);
    if (!chosen || !trimmed) return setError(translate('admin.campaigns.needAudience'));
    try {
      setCampaignId((await start.mutateAsync({ audience: chosen, text: trimmed })).id);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <div className="grid gap-6">
      <form
        className="grid gap-4 rounded-xl border bg-card p-4 shadow-sm"
        onSubmit={handleStart}
        aria-label={translate('admin.campaigns.newCampaign')}
        noValidate
      >
        <AudiencePicker
          draft={draft}
          onChange={setDraft}
          disabled={start.isPending}
          count={countText(count.data?.count, count.isFetching, audienceOf(draft) !== null)}
        />
        <div className="grid gap-1.5">
          <Label htmlFor="campaign-text">{translate('admin.campaigns.text')}</Label>
          <Textarea
            id="campaign-text"
            value={text}
            maxLength={MAX_CAMPAIGN_TEXT_LENGTH}
            onChange={(event) => setText(event.target.value)}
          />
          <p className="text-xs text-muted-foreground">
            {translate('admin.campaigns.placeholdersHint', {
              placeholders: CAMPAIGN_PLACEHOLDERS.join(translate('admin.campaigns.or')),
            })}
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1.5">
            <Label htmlFor="campaign-preview-user">{translate('admin.campaigns.previewFor')}</Label>
            <Input
              id="campaign-preview-user"
              className="w-64"
              value={previewUser}
              onChange={(event) => setPreviewUser(event.target.value)}
            />
          </div>
          <Button type="button" variant="outline" onClick={() => void handlePreview()}>
            {translate('admin.campaigns.preview')}
          </Button>
          <SubmitButton pending={start.isPending}>
            {translate('admin.campaigns.start')}
          </SubmitButton>
        </div>
        {preview.data ? (
          <blockquote
            className="rounded-md border-l-4 bg-muted/40 p-3 text-sm"
            data-testid="campaign-preview"
          >
            <p className="mb-1 text-xs text-muted-foreground">
              {translate('admin.campaigns.willReceive', { name: preview.data.name })}
            </p>
            {preview.data.text}
          </blockquote>
        ) : null}
        <FormAlert message={error} />
      </form>
      {campaignId ? <CampaignProgressCard key={campaignId} id={campaignId} /> : null}
    </div>
  );
}
