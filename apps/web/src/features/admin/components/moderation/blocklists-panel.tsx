import { QueryError } from '@/components/query-error';
import { useBlocklists } from '../../api/moderation';
import { BlocklistEditor } from './blocklist-editor';
import { ChannelTypeSetting } from './channel-type-setting';
import { LoadingCards } from './queue-panel';
import { useT } from '@/i18n';

/** Blocklists (danh sách từ cấm) and, per channel type, which one applies and how. */
export function BlocklistsPanel() {
  const t = useT();
  const blocklists = useBlocklists();
  if (blocklists.isPending) return <LoadingCards />;
  if (blocklists.isError) {
    return <QueryError error={blocklists.error} onRetry={() => void blocklists.refetch()} />;
  }
  const names = blocklists.data.blocklists.map((list) => list.name);
  return (
    <div className="grid gap-6">
      <section className="grid gap-3" aria-labelledby="blocklists-heading">
        <h2 id="blocklists-heading" className="font-display text-lg font-semibold">
          {t('admin.moderation.blocklists')}
        </h2>
        {blocklists.data.blocklists.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('admin.moderation.noBlocklists')}</p>
        ) : null}
        {blocklists.data.blocklists.map((list) => (
          // Keyed by content so a refetch with other words resets the draft to them.
          <BlocklistEditor key={`${list.name}:${list.words.join('\n')}`} list={list} />
        ))}
        <BlocklistEditor key={`new:${names.join(',')}`} />
      </section>
      <section className="grid gap-3" aria-labelledby="channel-types-heading">
        <h2 id="channel-types-heading" className="font-display text-lg font-semibold">
          {t('admin.moderation.perChannelType')}
        </h2>
        {blocklists.data.channelTypes.map((setting) => (
          <ChannelTypeSetting
            key={`${setting.type}:${setting.blocklist}:${setting.behavior}:${names.join(',')}`}
            setting={setting}
            blocklistNames={names}
          />
        ))}
      </section>
    </div>
  );
}
