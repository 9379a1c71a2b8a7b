import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import { isPlainObject, type JsonObject } from '../json.ts';
import { parseMessagePage } from '../messages/pagination.ts';
import type { ChannelUseCaseContext } from './context.ts';
import { intOption } from './ids.ts';
import { compileChannelFilter, compileChannelSort } from './query.ts';
import type { ChannelsService } from './service.ts';
import type { StateOptions } from './state.ts';
import { followPresence, watch } from './watchers.ts';

/** The state one channel query asks for: its message page, member and watcher pages. */
export function stateOptions(body: JsonObject): StateOptions {
  const messages = isPlainObject(body.messages) ? body.messages : undefined;
  const members = isPlainObject(body.members) ? body.members : {};
  // Like Stream, watchers come only when asked for (`watchers: {limit, offset}`); `watcher_count` always does.
  const watchers = isPlainObject(body.watchers) ? body.watchers : { limit: 0 };
  const page = parseMessagePage(messages, { limit: 100, max: 300 });
  return {
    state: body.state !== false,
    messageLimit: page.limit,
    messagePage: page,
    memberLimit: intOption(members.limit, 100, 300, 'members.limit'),
    memberOffset: intOption(members.offset, 0, 10_000, 'members.offset'),
    watcherLimit: intOption(watchers.limit, 100, 300, 'watchers.limit'),
    watcherOffset: intOption(watchers.offset, 0, 10_000, 'watchers.offset'),
  };
}

export function createQueryChannels(
  ctx: ChannelUseCaseContext,
): Pick<ChannelsService, 'queryChannels' | 'queryChannelsAnswer'> {
  const { deps, repo } = ctx;
  const useCases: Pick<ChannelsService, 'queryChannels' | 'queryChannelsAnswer'> = {
    async queryChannels(actor, body) {
      const limit = intOption(body.limit, 10, 30, 'limit');
      const offset = intOption(body.offset, 0, 1000, 'offset');
      const messageLimit = intOption(body.message_limit, 25, 300, 'message_limit');
      const memberLimit = intOption(body.member_limit, 100, 100, 'member_limit');
      const filter = body.filter_conditions ?? {};
      if (!isPlainObject(filter)) throw chatError.input('filter_conditions must be an object');
      const where = compileChannelFilter(
        deps.dialect,
        actor,
        filter,
        deps.channelTypes,
        ctx.hiddenConditions,
      );
      const order = compileChannelSort(deps.dialect, body.sort);
      // Server-side calls without user_id see every channel, with no per-user state.
      const rows = await repo.query(actor.appId, actor.userId ?? '', where, order, limit, offset);
      // Watching before the states are read, as get-or-create does: a message sent meanwhile is then in the
      // state or arrives as message.new, never only as a notification to a connection that watches.
      if (body.watch === true) await watch(ctx, actor, rows);
      const states = await ctx.buildStates(actor, rows, {
        state: body.state !== false,
        messageLimit,
        memberLimit,
        memberOffset: 0,
        // queryChannels has no watchers page: Stream's answer carries `watcher_count` only.
        watcherLimit: 0,
        watcherOffset: 0,
      });
      if (body.presence === true)
        await followPresence(
          ctx,
          actor,
          states.flatMap((s) => s.members.map((m) => m.user_id)),
        );
      return states;
    },
    async queryChannelsAnswer(actor, body) {
      const resolved = await resolveQuery(ctx, actor, body);
      return { ...resolved.answer, channels: await useCases.queryChannels(actor, resolved.body) };
    },
  };
  return useCases;
}

/** A request naming a predefined filter, expanded by the first resolver that knows it (extension-points.ts). */
async function resolveQuery(ctx: ChannelUseCaseContext, actor: Actor, body: JsonObject) {
  if (body.predefined_filter === undefined || body.predefined_filter === null)
    return { body, answer: {} };
  for (const resolve of ctx.queryResolvers ?? []) {
    const resolved = await resolve(actor, body);
    if (resolved) return resolved;
  }
  throw chatError.input('predefined_filter is not supported');
}
