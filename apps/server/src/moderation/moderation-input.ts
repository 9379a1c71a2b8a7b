import {
  MAX_BAN_MINUTES,
  MAX_BLOCKLIST_WORDS,
  MAX_BLOCKLIST_WORD_LENGTH,
  MAX_SLOW_MODE_SECONDS,
  MODERATION_ACTIONS,
} from '@daohuu/domain';
import type {
  BanUserInput,
  BlocklistBehavior,
  ModerationActionInput,
  ModerationAction,
} from '@daohuu/domain';
import { z } from 'zod';
import { appError } from '../errors.ts';
import { MAX_BANS_OFFSET } from './settings.ts';

/** Chat ids (users, channels, items, blocklists): what the chat server accepts, kept short and free of separators. */
const chatId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w@.-]+$/u);
const reason = z.string().trim().max(500).optional();
const duration = z.number().int().min(1).max(MAX_BAN_MINUTES).nullable().optional();

const actionBody = z.strictObject({
  itemId: chatId,
  action: z.enum(MODERATION_ACTIONS),
  reason,
  durationMinutes: duration,
});

const banBody = z.strictObject({
  userId: chatId,
  reason,
  durationMinutes: duration,
  shadow: z.boolean().optional(),
});

const queueQuery = z.strictObject({
  status: z.enum(['pending', 'reviewed']).default('pending'),
  next: z.string().max(512).optional(),
});

/** The ban list's cursor: an offset the chat server accepts (queryBannedUsers takes at most MAX_BANS_OFFSET). */
const bansQuery = z.strictObject({
  next: z
    .string()
    .regex(/^\d{1,4}$/)
    .refine((value) => Number(value) <= MAX_BANS_OFFSET)
    .optional(),
});

const unbanQuery = z.strictObject({ shadow: z.enum(['true', 'false']).optional() });

const word = z.string().trim().min(1).max(MAX_BLOCKLIST_WORD_LENGTH);
const blocklistBody = z.strictObject({ words: z.array(word).max(MAX_BLOCKLIST_WORDS) });

const channelTypeBody = z.strictObject({
  blocklist: chatId.nullable(),
  behavior: z.enum(['flag', 'block']),
});

const cid = z
  .string()
  .max(130)
  .regex(/^[\w-]+:[\w@.-]+$/u);
const slowModeBody = z.strictObject({
  cid,
  cooldown: z.number().int().min(0).max(MAX_SLOW_MODE_SECONDS),
});
const slowModeQuery = z.strictObject({ cid: cid.optional() });

/** The first failing field, so a 400 says which one is wrong. */
function parse<T>(schema: z.ZodType<T>, input: unknown, where: 'body' | 'query'): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const field = result.error.issues[0]?.path.join('.') || where;
  throw where === 'body' ? appError.invalidField(field) : appError.invalidQueryField(field);
}

export function parseModerationAction(body: unknown): ModerationActionInput & {
  action: ModerationAction;
} {
  return parse(actionBody, body, 'body');
}

export function parseBan(body: unknown): BanUserInput {
  return parse(banBody, body, 'body');
}

export function parseQueueQuery(query: unknown): { status: 'pending' | 'reviewed'; next?: string } {
  return parse(queueQuery, query, 'query');
}

export function parseBansQuery(query: unknown): { offset: number } {
  const { next } = parse(bansQuery, query, 'query');
  return { offset: next ? Number(next) : 0 };
}

export function parseUnbanQuery(query: unknown): { shadow: boolean } {
  return { shadow: parse(unbanQuery, query, 'query').shadow === 'true' };
}

export function parseChatId(value: unknown, field: string): string {
  const result = chatId.safeParse(value);
  if (!result.success) throw appError.invalidField(field);
  return result.data;
}

/** Words are deduplicated case-insensitively: the chat server matches them that way. */
export function parseBlocklist(body: unknown): { words: string[] } {
  const { words } = parse(blocklistBody, body, 'body');
  const seen = new Set<string>();
  const unique = words.filter((entry) => {
    const key = entry.toLocaleLowerCase('vi');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { words: unique };
}

export function parseChannelTypeBlocklist(body: unknown): {
  blocklist: string | null;
  behavior: BlocklistBehavior;
} {
  return parse(channelTypeBody, body, 'body');
}

export function parseSlowMode(body: unknown): { cid: string; cooldown: number } {
  return parse(slowModeBody, body, 'body');
}

export function parseSlowModeQuery(query: unknown): { cid?: string } {
  return parse(slowModeQuery, query, 'query');
}
