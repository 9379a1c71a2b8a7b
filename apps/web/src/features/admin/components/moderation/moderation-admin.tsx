import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { BansPanel } from './bans-panel';
import { BlocklistsPanel } from './blocklists-panel';
import { QueuePanel } from './queue-panel';
import { SlowModePanel } from './slow-mode-panel';
import { useT } from '@/i18n';

/** The moderation screen: review queue, bans, blocklists and slow mode, one tab each. */
export function ModerationAdmin() {
  const t = useT();
  return (
    <Tabs defaultValue="queue" className="gap-4">
      <TabsList className="h-auto w-full flex-wrap justify-start sm:w-fit">
        <TabsTrigger value="queue">{t('admin.moderation.queueTab')}</TabsTrigger>
        <TabsTrigger value="bans">{t('admin.moderation.bansTab')}</TabsTrigger>
        <TabsTrigger value="blocklists">{t('admin.moderation.blocklistsTab')}</TabsTrigger>
        <TabsTrigger value="slow-mode">{t('admin.moderation.slowModeTab')}</TabsTrigger>
      </TabsList>
      <TabsContent value="queue">
        <QueuePanel />
      </TabsContent>
      <TabsContent value="bans">
        <BansPanel />
      </TabsContent>
      <TabsContent value="blocklists">
        <BlocklistsPanel />
      </TabsContent>
      <TabsContent value="slow-mode">
        <SlowModePanel />
      </TabsContent>
    </Tabs>
  );
}
