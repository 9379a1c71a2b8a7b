import {
  defaultReactionOptions,
  getHasExtendedReactions,
  type ReactionOptions,
} from 'stream-chat-react';
import { describe, expect, it } from 'vitest';
import {
  everyEmojiReaction,
  isEmojiReactionType,
  reactionTypeForEmoji,
  withEveryEmoji,
} from './emoji-reactions';

const quick = Array.isArray(defaultReactionOptions) ? {} : defaultReactionOptions.quick;

describe('reaction types for emoji from the full picker', () => {
  it('keeps the quick type when the picked emoji is one of the six quick reactions', () => {
    expect(reactionTypeForEmoji('👍', quick)).toBe('like');
    expect(reactionTypeForEmoji('🔥', quick)).toBe('fire');
  });

  it('types any other emoji by its code points, skin tone included', () => {
    expect(reactionTypeForEmoji('🙏', quick)).toBe('U+1F64F');
    expect(reactionTypeForEmoji('👍🏽', quick)).toBe('U+1F44D-U+1F3FD');
  });

  it('recognises code-point types and nothing else', () => {
    expect(isEmojiReactionType('U+1F64F')).toBe(true);
    expect(isEmojiReactionType('U+1F44D-U+1F3FD')).toBe(true);
    expect(isEmojiReactionType('like')).toBe(false);
    expect(isEmojiReactionType('U+1F64F<script>')).toBe(false);
    expect(isEmojiReactionType('')).toBe(false);
  });
});

describe('every emoji as an extended reaction', () => {
  it('answers any code-point type with an option that draws the emoji', () => {
    const extended = everyEmojiReaction();
    const option = extended['U+1F602'];
    expect(option?.name).toBe('😂');
    expect('U+1F602' in extended).toBe(true);
  });

  it('has no option for a type that is not an emoji', () => {
    const extended = everyEmojiReaction();
    expect(extended['smile']).toBeUndefined();
    expect('smile' in extended).toBe(false);
  });

  it('makes stream-chat-react offer the "more" button and keeps the six quick reactions', () => {
    const options = withEveryEmoji(defaultReactionOptions) as Exclude<ReactionOptions, unknown[]>;
    expect(getHasExtendedReactions(options)).toBe(true);
    expect(Object.keys(options.quick)).toEqual(['haha', 'like', 'love', 'sad', 'wow', 'fire']);
  });
});
