import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { BansPanel } from './bans-panel';
import { BlocklistsPanel } from './blocklists-panel';
import { QueuePanel } from './queue-panel';
import { SlowModePanel } from './slow-mode-panel';

/** The moderation screen: review queue, bans, blocklists and slow mode, one tab each. */
export function ModerationAdmin() {
  return (
    <Tabs defaultValue="queue" className="gap-4">
      <TabsList className="h-auto w-full flex-wrap justify-start sm:w-fit">
        <TabsTrigger value="queue">Báo cáo</TabsTrigger>
        <TabsTrigger value="bans">Danh sách cấm</TabsTrigger>
        <TabsTrigger value="blocklists">Từ cấm</TabsTrigger>
        <TabsTrigger value="slow-mode">Chế độ chậm</TabsTrigger>
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
