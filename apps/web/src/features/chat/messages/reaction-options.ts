import { defaultReactionOptions, type ReactionOptions } from 'stream-chat-react';

/** Vietnamese names of the default reactions; screen readers announce "Chọn biểu cảm: Thích". */
const VI_REACTION_NAMES: Record<string, string> = {
  haha: 'Cười',
  like: 'Thích',
  love: 'Yêu thích',
  sad: 'Buồn',
  wow: 'Ngạc nhiên',
  fire: 'Tuyệt vời',
};

/** The SDK's default reactions (same types and emoji, so reactions from any client match), named in Vietnamese. */
export function vietnameseReactionOptions(): ReactionOptions {
  if (Array.isArray(defaultReactionOptions)) return defaultReactionOptions;
  const quick = Object.fromEntries(
    Object.entries(defaultReactionOptions.quick).map(([type, option]) => [
      type,
      { ...option, name: VI_REACTION_NAMES[type] ?? option.name },
    ]),
  );
  return { ...defaultReactionOptions, quick };
}
