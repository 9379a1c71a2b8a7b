import * as React from 'react';
import { emojiToUnicode, unicodeToEmoji, type ReactionOptions } from 'stream-chat-react';

type ReactionOption = { Component: React.ComponentType; name?: string; unicode?: string };
type ReactionOptionMap = Record<string, ReactionOption>;

/** "U+1F64F" or "U+1F44D-U+1F3FD": the reaction type stream-chat-react gives an emoji-mart emoji. */
const UNICODE_TYPE = /^U\+[0-9A-F]{4,6}(?:-U\+[0-9A-F]{4,6}){0,9}$/;

export function isEmojiReactionType(type: string): boolean {
  return UNICODE_TYPE.test(type);
}

/**
 * The reaction type for an emoji picked from the full picker. One of the six quick emoji keeps its quick type
 * ("like" for 👍), so the same emoji is never counted as two different reactions; any other emoji is typed by its
 * code points, as stream-chat-react's `mapEmojiMartData` names emoji-mart's emoji.
 */
export function reactionTypeForEmoji(native: string, quick: ReactionOptionMap): string {
  const unicode = emojiToUnicode(native);
  const quickType = Object.entries(quick).find(([, option]) => option.unicode === unicode)?.[0];
  return quickType ?? unicode;
}

function emojiOption(type: string): ReactionOption {
  const native = unicodeToEmoji(type);
  function EmojiReaction() {
    return React.createElement(React.Fragment, null, native);
  }
  return { Component: EmojiReaction, name: native, unicode: type };
}

/**
 * Every emoji as an extended reaction, without emoji-mart's data: a reaction typed by code points draws itself, so
 * what someone picked in the full picker shows for everyone, even before (or without) their own picker loading.
 * stream-chat-react only looks types up in `extended` and counts its keys (to offer the "more" button); the one real
 * key is 🙏, the rest are answered on demand.
 */
export function everyEmojiReaction(): ReactionOptionMap {
  const known = new Map<string, ReactionOption>();
  const lookup = (type: string): ReactionOption | undefined => {
    if (!isEmojiReactionType(type)) return undefined;
    let option = known.get(type);
    if (!option) {
      option = emojiOption(type);
      known.set(type, option);
    }
    return option;
  };
  const pray = 'U+1F64F';
  const target: ReactionOptionMap = { [pray]: emojiOption(pray) };
  return new Proxy(target, {
    get: (object, key) =>
      typeof key === 'string' ? (object[key] ?? lookup(key)) : Reflect.get(object, key),
    has: (object, key) =>
      typeof key === 'string' ? key in object || lookup(key) !== undefined : key in object,
  });
}

/** The quick reactions plus the full picker's emoji. */
export function withEveryEmoji(options: ReactionOptions): ReactionOptions {
  if (Array.isArray(options)) return options;
  return { ...options, extended: everyEmojiReaction() };
}
