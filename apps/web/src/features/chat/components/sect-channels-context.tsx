import type { ChannelRef } from '@daohuu/domain';
import * as React from 'react';

const NO_SECTS: readonly ChannelRef[] = [];

const SectChannelsContext = React.createContext<readonly ChannelRef[]>(NO_SECTS);

/** The official sect channels of GET /api/chat/config, for the list's filter and the sect emblems. */
export function SectChannelsProvider({
  sects,
  children,
}: {
  sects: readonly ChannelRef[];
  children: React.ReactNode;
}) {
  return <SectChannelsContext.Provider value={sects}>{children}</SectChannelsContext.Provider>;
}

export function useSectChannels(): readonly ChannelRef[] {
  return React.useContext(SectChannelsContext);
}
