import {
  MAX_CAMPAIGN_CHOSEN_USERS,
  MAX_CAMPAIGN_TEXT_LENGTH,
  REALMS,
  type CampaignAudience,
} from '@daohuu/domain';
import { z } from 'zod';
import { appError } from '../errors.ts';

const chatId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w@.-]+$/u);

const audience = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('all') }),
  z.strictObject({
    kind: z.literal('realm'),
    minRealm: z
      .number()
      .int()
      .min(0)
      .max(REALMS.length - 1),
  }),
  z.strictObject({
    kind: z.literal('users'),
    userIds: z.array(chatId).min(1).max(MAX_CAMPAIGN_CHOSEN_USERS),
  }),
]);

const text = z.string().trim().min(1).max(MAX_CAMPAIGN_TEXT_LENGTH);

const audienceBody = z.strictObject({ audience });
const previewBody = z.strictObject({ audience, text, userId: chatId.optional() });
const startBody = z.strictObject({ audience, text });

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw appError.invalidField(result.error.issues[0]?.path.join('.') || 'body');
}

export function parseAudienceBody(body: unknown): { audience: CampaignAudience } {
  return parse(audienceBody, body);
}

export function parsePreviewBody(body: unknown): {
  audience: CampaignAudience;
  text: string;
  userId?: string;
} {
  return parse(previewBody, body);
}

export function parseStartBody(body: unknown): { audience: CampaignAudience; text: string } {
  return parse(startBody, body);
}

export function parseCampaignId(value: unknown): string {
  const result = chatId.safeParse(value);
  if (!result.success) throw appError.invalidField('id');
  return result.data;
}

/** "This realm or above" is tu vi above this bound (the previous realm's upper one); null for the first realm. */
export function realmLowerBound(minRealm: number): number | null {
  return minRealm > 0 ? (REALMS[minRealm - 1]?.upper ?? null) : null;
}

/** The chat users filter of "this realm or above": tu vi above the previous realm's upper bound. */
export function realmFilter(minRealm: number): Record<string, unknown> {
  const bound = realmLowerBound(minRealm);
  return { tu_vi: bound !== null ? { $gt: bound } : { $gte: 0 } };
}
