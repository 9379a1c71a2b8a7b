import type { ChatServerConfig } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Db, SqlDialectKind } from '../../db/schema.ts';
import type { WriteQueue } from '../../db/write-queue.ts';
import type { PubSub } from '../../pubsub/pubsub.ts';
import type { ConnectionRouter } from '../../realtime/connection-router.ts';
import type { Hub } from '../../realtime/hub.ts';
import type { PresenceStore } from '../../realtime/presence-store.ts';
import type { ChannelTypeStore } from './channel-types/store.ts';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Everything a feature service may use; built once by the composition root (`createChatRuntime`). */
export interface ChatDeps {
  config: ChatServerConfig;
  db: Db;
  dialect: SqlDialectKind;
  writes: WriteQueue;
  pubsub: PubSub;
  hub: Hub;
  /** The caller's own connection for a REST call naming it, on whichever node holds it. */
  connections: ConnectionRouter;
  /** Online users and watcher counts across every node (the hub only knows this node's sockets). */
  presence: PresenceStore;
  clock: Clock;
  log: Logger;
  /** Each app's live channel types (synchronous lookups; changes reach every node). */
  channelTypes: ChannelTypeStore;
}
