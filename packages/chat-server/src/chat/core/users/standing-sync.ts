import type { PubSub, Unsubscribe } from '../../../pubsub/pubsub.ts';
import type { Logger } from '../deps.ts';

/**
 * Every node caches each user's standing (role, app-wide ban) for a few seconds (users/service.ts). A ban or a role
 * changed on one node must hold on every node from its very next request, so the change is announced on the bus and
 * each node drops its cached copy when the announcement arrives. The route answers only after the announcement was
 * published, so a request that follows the answer finds the other node's cache already emptied.
 */
export interface StandingSync {
  /** Listens for changes of the given apps' users (and forgets everything after a lost bus subscription). */
  start(appIds: readonly string[]): Promise<void>;
  /** Forgets the user's standing here and tells every other node to do the same. */
  changed(appId: string, userId: string): Promise<void>;
  stop(): Promise<void>;
}

export interface StandingSyncDeps {
  pubsub: PubSub;
  users: {
    forgetStanding(appId: string, userId: string): void;
    forgetAllStandings(): void;
  };
  log: Logger;
}

const topicOf = (appId: string) => `standing:${appId}`;

export function createStandingSync({ pubsub, users, log }: StandingSyncDeps): StandingSync {
  const unsubscribes: Unsubscribe[] = [];
  return {
    async start(appIds) {
      for (const appId of appIds)
        unsubscribes.push(
          await pubsub.subscribe(topicOf(appId), ({ frame }) => users.forgetStanding(appId, frame)),
        );
      // Announcements published while this node was cut off never arrive: nothing cached can be trusted.
      pubsub.onReceivingChange((receiving) => {
        if (receiving) users.forgetAllStandings();
      });
    },
    async changed(appId, userId) {
      users.forgetStanding(appId, userId);
      try {
        await pubsub.publish(topicOf(appId), { frame: userId });
      } catch (error) {
        // The change is stored; the other nodes then apply it when their cached copy expires.
        log.error({ err: error, appId, userId }, 'announcing a changed standing failed');
      }
    },
    async stop() {
      for (const unsubscribe of unsubscribes.splice(0)) await unsubscribe();
    },
  };
}
