import { sql, type RawBuilder } from 'kysely';
import { jsonArrayHasKeyIn, lowerText } from '../../../db/dialect.ts';
import type { SqlDialectKind } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { compileChannelFilter } from '../../core/channels/query.ts';
import type { ChatDeps } from '../../core/deps.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessageResponse } from '../../core/messages/serialize.ts';
import {
  compileFilter,
  FILTER_LIMITS,
  likePrefix,
  type FieldSpec,
  type Operator,
} from '../../core/query/filter.ts';
import { compileSort, parseSort } from '../../core/query/sort.ts';
import { createSearchRepo, type SearchRepo } from './repo.ts';

const MAX_CHANNELS = 500;
const MAX_LIMIT = 100;

export interface SearchService {
  /** GET /search: messages matching a text query or message filter, in channels matching a channel filter. */
  search(
    actor: Actor,
    payload: JsonObject,
  ): Promise<{ results: { message: MessageResponse }[]; next?: string }>;
}

function textMatch(dialect: SqlDialectKind, op: Operator, value: unknown): RawBuilder<boolean> {
  const text = lowerText(dialect, sql`m.text`);
  if (typeof value !== 'string' || !value.trim())
    throw chatError.input('text filters need a non-empty string');
  // The search `query` reaches here without the filter's own checks; SQLite caps LIKE patterns at 50 000 bytes.
  if (value.length > FILTER_LIMITS.maxStringLength)
    throw chatError.input(
      `the search text is longer than ${FILTER_LIMITS.maxStringLength} characters`,
    );
  const needle = likePrefix(value.trim().toLocaleLowerCase());
  switch (op) {
    // A plain value (what stream-chat-react's message search sends) and $q are substring matches.
    case '$eq':
    case '$q':
      return sql<boolean>`${text} like ${`%${needle}%`} escape '\\'`;
    case '$autocomplete':
      return sql<boolean>`(${text} like ${`${needle}%`} escape '\\' or ${text} like ${`% ${needle}%`} escape '\\')`;
    default:
      throw chatError.input(`operator ${op} is not supported on text`);
  }
}

function cursorOffset(next: unknown): number {
  if (next === undefined || next === null || next === '') return 0;
  const offset = Number(Buffer.from(String(next), 'base64url').toString('utf8'));
  if (!Number.isInteger(offset) || offset < 0) throw chatError.input('next is not a valid cursor');
  return offset;
}

/** What the search service is built from (`repo` defaults to the one on `deps.db`). */
export interface SearchContext {
  deps: ChatDeps;
  assembler: MessageAssembler;
  repo?: SearchRepo;
}

export function createSearchService(context: SearchContext): SearchService {
  const { deps, assembler } = context;
  const repo = context.repo ?? createSearchRepo(deps.db);
  function messageFields(): Record<string, FieldSpec> {
    return {
      id: { kind: 'column', ref: 'm.id', type: 'text' },
      type: { kind: 'column', ref: 'm.type', type: 'text' },
      cid: { kind: 'column', ref: 'm.cid', type: 'text' },
      parent_id: { kind: 'column', ref: 'm.parent_id', type: 'text' },
      user_id: { kind: 'column', ref: 'm.user_id', type: 'text' },
      'user.id': { kind: 'column', ref: 'm.user_id', type: 'text' },
      created_at: { kind: 'column', ref: 'm.created_at', type: 'date' },
      updated_at: { kind: 'column', ref: 'm.updated_at', type: 'date' },
      reply_count: { kind: 'column', ref: 'm.reply_count', type: 'number' },
      pinned: { kind: 'column', ref: 'm.pinned', type: 'boolean' },
      silent: { kind: 'column', ref: 'm.silent', type: 'boolean' },
      text: { kind: 'custom', build: (op, value) => textMatch(deps.dialect, op, value) },
      'attachments.type': {
        kind: 'custom',
        build(op, value) {
          const list =
            op === '$in' && Array.isArray(value) ? value : op === '$eq' ? [value] : undefined;
          if (!list || !list.every((v) => typeof v === 'string'))
            throw chatError.input('attachments.type supports $eq and $in with strings');
          return jsonArrayHasKeyIn(deps.dialect, 'm.attachments', 'type', list as string[]);
        },
      },
    };
  }

  return {
    async search(actor, payload) {
      if (!actor.userId && !actor.isServer)
        throw chatError.notAllowed('anonymous users cannot search');
      const channelFilter = payload.filter_conditions;
      if (!isPlainObject(channelFilter) || Object.keys(channelFilter).length === 0) {
        throw chatError.input('filter_conditions is required and must select channels');
      }
      const hasQuery = typeof payload.query === 'string' && payload.query.trim().length > 0;
      const messageFilter = payload.message_filter_conditions;
      if (!hasQuery && !isPlainObject(messageFilter))
        throw chatError.input('either query or message_filter_conditions is required');
      if (hasQuery && messageFilter !== undefined)
        throw chatError.input('query and message_filter_conditions cannot be used together');
      if (payload.offset !== undefined && payload.next !== undefined)
        throw chatError.input('offset and next cannot be used together');
      const limit = payload.limit === undefined ? MAX_LIMIT : payload.limit;
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
        throw chatError.input(`limit must be between 1 and ${MAX_LIMIT}`);
      }
      const offset =
        payload.offset !== undefined ? Number(payload.offset) : cursorOffset(payload.next);
      if (!Number.isInteger(offset) || offset < 0 || offset > 1000)
        throw chatError.input('offset must be between 0 and 1000');

      const channelWhere = compileChannelFilter(deps.dialect, actor, channelFilter);
      const cids = await repo.readableChannels(
        actor.appId,
        actor.userId ?? '',
        channelWhere,
        MAX_CHANNELS,
      );
      if (cids.length === 0) return { results: [] };

      const messageWhere = hasQuery
        ? textMatch(deps.dialect, '$q', payload.query)
        : compileFilter(messageFilter, {
            dialect: deps.dialect,
            entity: 'messages',
            customColumn: 'm.custom',
            fields: messageFields(),
          });
      const sortItems = parseSort(payload.sort).map((item) =>
        item.field === 'relevance' ? { ...item, field: 'created_at' } : item,
      );
      const order = compileSort(
        sortItems.length > 0 ? sortItems : [{ field: 'created_at', direction: -1 }],
        {
          dialect: deps.dialect,
          entity: 'messages',
          customColumn: 'm.custom',
          fields: {
            created_at: sql`m.created_at`,
            updated_at: sql`m.updated_at`,
            id: sql`m.id`,
            reply_count: sql`m.reply_count`,
          },
        },
      );
      const rows = await repo.messages(
        actor.appId,
        actor.userId,
        cids,
        messageWhere,
        order,
        limit + 1,
        offset,
      );
      const page = rows.slice(0, limit);
      const messages = await assembler.assemble(actor.appId, page, actor.userId);
      const result: { results: { message: MessageResponse }[]; next?: string } = {
        results: messages.map((message) => ({ message })),
      };
      if (rows.length > limit)
        result.next = Buffer.from(String(offset + limit)).toString('base64url');
      return result;
    },
  };
}
