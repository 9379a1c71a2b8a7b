import * as React from 'react';
import { MessageActions, defaultMessageActionSet, useChannelStateContext } from 'stream-chat-react';

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
        ? defaultMessageActionSet
        : defaultMessageActionSet.filter((action) => !('type' in action) || action.type !== 'pin'),
    [canPin],
  );
  return <MessageActions messageActionSet={actionSet} />;
}
