import { WifiOffIcon } from 'lucide-react';
import * as React from 'react';
import { useChatContext } from 'stream-chat-react';
import { useT } from '@/i18n';

/** A small banner while the chat connection is down; the client reconnects by itself (docs/product-rules.md §8). */
export function ConnectionBanner() {
  const { client } = useChatContext();
  const t = useT();
  const [online, setOnline] = React.useState(true);
  React.useEffect(() => {
    const changed = client.on('connection.changed', (event) => setOnline(event.online !== false));
    const recovered = client.on('connection.recovered', () => setOnline(true));
    return () => {
      changed.unsubscribe();
      recovered.unsubscribe();
    };
  }, [client]);
  if (online) return null;
  return (
    <div role="status" className="dh-connection-banner">
      <WifiOffIcon className="size-4" aria-hidden="true" />
      {t('chat.channel.connectionLost')}
    </div>
  );
}
