import { ContextMenu, type ContextMenuProps } from 'stream-chat-react';

const CHANNEL_LIST_ITEM_MENU = 'str-chat__channel-list-item__action-buttons-context-menu';

/**
 * The SDK's context menu, except that a channel's "…" menu in the channel list opens towards the list: from the
 * button's start it ran past the list pane's right edge, which cut its labels off ("Rời kêr").
 */
export function ChatContextMenu(props: ContextMenuProps) {
  const inChannelList = props.className?.split(/\s+/).includes(CHANNEL_LIST_ITEM_MENU) ?? false;
  return <ContextMenu {...props} placement={inChannelList ? 'bottom-end' : props.placement} />;
}
