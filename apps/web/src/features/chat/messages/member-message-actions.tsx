import * as React from 'react';
import {
  MessageActions,
  defaultMessageActionSet,
  useChannelStateContext,
  type MessageActionSetItem,
} from 'stream-chat-react';
import { withPersonMuteLabel } from '../moderation/mute-user-action';
import { ReportMessageAction } from '../moderation/report-action';

/**
 * The SDK's set with "Flag" replaced by our "Báo cáo", which asks for a reason first, and "Mute" naming the person
 * (muting a channel is labelled apart).
 */
const MEMBER_ACTION_SET: MessageActionSetItem[] = defaultMessageActionSet.map((action) => {
  if (!('type' in action) || action.placement !== 'dropdown') return action;
  if (action.type === 'flag') return { ...action, Component: ReportMessageAction };
  if (action.type === 'mute')
    return { ...action, Component: withPersonMuteLabel(action.Component) };
  return action;
});

/**
 * The SDK's message actions, minus "Pin" where the cultivator may not pin (the public sect channels, for anyone but
 * moderators): the SDK's own filter checks every other action against the channel's capabilities, but not pinning,
 * so the item would only lead to an error.
 */
export function MemberMessageActions() {
  const { channelCapabilities } = useChannelStateContext();
  const canPin = channelCapabilities['pin-message'] === true;
  const actionSet = React.useMemo(
    () =>
      canPin
        ? MEMBER_ACTION_SET
        : MEMBER_ACTION_SET.filter((action) => !('type' in action) || action.type !== 'pin'),
    [canPin],
  );
  return <MessageActions messageActionSet={actionSet} />;
}
