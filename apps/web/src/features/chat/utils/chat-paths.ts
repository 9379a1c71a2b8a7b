import { movedSectChannel } from '@daohuu/domain';
import { paths } from '@/config/paths';

/** The chat list (`/chat`); a channel is `/chat/:type/:id` (docs/product-rules.md §5). */
export const CHAT_PATH = paths.chat.getHref();

/** The URL of one channel; ids of distinct DMs may contain "!" and ":", so both parts are encoded. */
export const chatChannelHref = paths.chat.channelHref;

/** A channel named by its type and id, with its cid. */
export type ChannelTarget = { type: string; id: string; cid: string };

/** The channel a URL names, or null when it names none (react-router has already decoded the params). */
export function channelFromParams(params: {
  type?: string | undefined;
  id?: string | undefined;
}): ChannelTarget | null {
  const { type, id } = params;
  if (!type || !id) return null;
  return { type, id, cid: `${type}:${id}` };
}

/** Where an old link to a public sect channel now points (`movedSectChannel` in packages/domain), or null. */
export function movedSectChannelHref(
  target: { type: string; id: string } | null,
  sects: readonly { type: string; id: string }[],
): string | null {
  const sect = movedSectChannel(target, sects);
  return sect ? chatChannelHref(sect.type, sect.id) : null;
}
