import * as React from 'react';
import type { Channel, StreamChat } from 'stream-chat';
import { banChangeFromEvent, banFromUser, hasLapsed, type OwnBan } from './own-ban';

/** setTimeout's longest delay; a ban ending later is re-checked when this fires. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The ban that keeps the signed-in user from writing in `channel`: the app-wide one (from `me`, kept current by
 * health.check and notification events, and by `user.banned` without a channel) or this channel's. Live: it appears
 * when the ban event arrives and disappears when the ban is lifted or lapses.
 */
export function useOwnBan(client: StreamChat, channel: Channel | undefined): OwnBan | null {
  const cid = channel?.cid ?? null;
  const [appBan, setAppBan] = React.useState(() => banFromUser(client.user) ?? null);
  const [channelBan, setChannelBan] = React.useState(
    () => banFromUser(channel?.state.membership as Record<string, unknown> | undefined) ?? null,
  );
  const [, setTick] = React.useState(0);

  React.useEffect(() => {
    const subscription = client.on((event) => {
      const fromMe = event.me ? banFromUser(event.me) : undefined;
      if (fromMe !== undefined) setAppBan(fromMe);
      const change = banChangeFromEvent(event, client.userID);
      if (!change) return;
      if (change.ban === null) {
        // An unban names no scope we can trust across servers: lift what this channel shows.
        if (change.cid === null || change.cid === cid) {
          setAppBan(null);
          setChannelBan(null);
        }
        return;
      }
      if (change.cid === null) setAppBan(change.ban);
      else if (change.cid === cid) setChannelBan(change.ban);
    });
    return () => subscription.unsubscribe();
  }, [client, cid]);

  const ban = [appBan, channelBan].find((entry) => entry && !hasLapsed(entry)) ?? null;

  React.useEffect(() => {
    if (!ban?.expires) return undefined;
    const delay = Math.min(Math.max(0, Date.parse(ban.expires) - Date.now()), MAX_TIMER_MS);
    // Re-render when the ban ends so the composer comes back without a reload.
    const timer = setTimeout(() => setTick((tick) => tick + 1), delay + 250);
    return () => clearTimeout(timer);
  }, [ban?.expires]);

  return ban;
}
