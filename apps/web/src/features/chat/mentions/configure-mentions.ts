import { foldVietnamese, isSectChannel, type ChannelRef } from '@daohuu/domain';
import {
  MentionsSearchSource,
  createMentionsMiddleware,
  type Channel,
  type MentionSuggestion,
  type MessageComposer,
} from 'stream-chat';

/**
 * The SDK's mention source, folded the Vietnamese way: its own `removeDiacritics` knows a dozen French and Spanish
 * accents only, so "bach" never matched "Bạch Vân". In a public sect channel most readers are not members, so once
 * the cultivator has typed a letter the whole app is searched (the server folds `$autocomplete` the same way); a
 * bare "@" still lists the members and watchers loaded with the channel.
 */
export class CultivatorMentionsSource extends MentionsSearchSource {
  constructor(channel: Channel, wholeApp: boolean) {
    super(channel, { transliterate: foldVietnamese, trigger: '@' });
    const pageOf = this.getUserSuggestionsPage;
    this.getUserSuggestionsPage = (query, offset, options) => {
      this.config.mentionAllAppUsers = wholeApp && query.trim().length > 0;
      return pageOf(query, offset, options);
    };
  }

  /** Nobody mentions themselves; the app-wide query would otherwise offer the writer too. */
  override filterQueryResults(items: MentionSuggestion[]): MentionSuggestion[] {
    const me = this.client.userID;
    return super
      .filterQueryResults(items)
      .filter((item) => item.mentionType !== 'user' || item.id !== me);
  }
}

/** Replaces the composer's mention middleware with one fed by `CultivatorMentionsSource`. */
export function configureMentions(composer: MessageComposer, sects: readonly ChannelRef[]): void {
  const { channel } = composer;
  const searchSource = new CultivatorMentionsSource(channel, isSectChannel(channel, sects));
  const executor = composer.textComposer.middlewareExecutor;
  // The executor is typed for every kind of suggestion; the SDK casts its own mention middleware the same way.
  const mentions = createMentionsMiddleware(channel, { searchSource }) as unknown as Parameters<
    typeof executor.replace
  >[0][number];
  executor.replace([mentions]);
}
