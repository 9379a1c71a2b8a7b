import { z } from 'zod';
import {
  cursor,
  filter,
  jsonObject,
  loose,
  optionalBoolean,
  pageNumber,
  sort,
} from '../../../http/schemas.ts';

/*
 * The request shapes of stream-chat's segment and campaign calls (client.ts createSegment … queryCampaigns). Ids
 * follow Stream's alphabet; lists are capped so one call cannot ask the server for unbounded work.
 */

export const MAX_TARGETS_PER_CALL = 10_000;
export const MAX_CAMPAIGN_USER_IDS = 10_000;
export const MAX_SEGMENTS_PER_CAMPAIGN = 20;

const entityId = z
  .string()
  .regex(/^[\w:.!@-]{1,255}$/, { error: 'must be 1 to 255 letters, digits or _ - : . ! @' });
const userId = z.string().min(1).max(255);
/** A campaign's listed user: never a `type:id` cid, which its delivery row would read as a channel target. */
const targetUserId = userId.regex(/^[^:]*$/, {
  error: 'must be a user id; a channel cid goes in a channel segment',
});
const text = (max: number) => z.string().max(max).nullish();

export const segmentType = z.enum(['user', 'channel']);

export const createSegmentBody = loose({
  id: entityId.nullish(),
  type: segmentType,
  name: text(255),
  description: text(2000),
  filter,
  all_users: optionalBoolean,
  all_sender_channels: optionalBoolean,
});

export const updateSegmentBody = loose({
  name: text(255),
  description: text(2000),
  filter,
  all_users: optionalBoolean,
  all_sender_channels: optionalBoolean,
});

export const segmentTargetsBody = loose({
  target_ids: z.array(z.string().min(1).max(255)).min(1).max(MAX_TARGETS_PER_CALL),
});

export const queryBody = loose({
  filter,
  sort,
  limit: pageNumber,
  next: cursor,
  prev: cursor,
  user_limit: pageNumber,
});

const messageTemplate = loose({
  text: z.string().min(1).max(5000),
  attachments: z.array(jsonObject).max(30).nullish(),
  custom: jsonObject.nullish(),
  poll_id: z.string().min(1).max(255).nullish(),
});

const channelTemplate = loose({
  type: z.string().min(1).max(64),
  id: z.string().min(1).max(255).nullish(),
  custom: jsonObject.nullish(),
  members: z.array(userId).max(100).nullish(),
  members_template: z
    .array(
      loose({
        user_id: userId,
        channel_role: z.enum(['channel_member', 'channel_moderator', 'owner']).nullish(),
        custom: jsonObject.nullish(),
      }),
    )
    .max(100)
    .nullish(),
  team: z.string().nullish(),
});

/** The CampaignData fields; create requires what Stream requires (sender_id, message_template). */
const campaignFields = {
  name: text(255),
  description: text(2000),
  message_template: messageTemplate,
  segment_ids: z.array(entityId).max(MAX_SEGMENTS_PER_CAMPAIGN).nullish(),
  user_ids: z.array(targetUserId).max(MAX_CAMPAIGN_USER_IDS).nullish(),
  sender_id: userId,
  sender_mode: z.enum(['include', 'exclude']).nullish(),
  sender_visibility: z.enum(['hidden', 'archived']).nullish(),
  channel_template: channelTemplate.nullish(),
  create_channels: optionalBoolean,
  show_channels: optionalBoolean,
  skip_push: optionalBoolean,
  skip_webhook: optionalBoolean,
};

export const createCampaignBody = loose({ id: entityId.nullish(), ...campaignFields });
export const updateCampaignBody = loose({
  ...campaignFields,
  message_template: messageTemplate.optional(),
  sender_id: userId.optional(),
});

export const startCampaignBody = loose({
  scheduled_for: z.iso.datetime({ offset: true }).nullish(),
  stop_at: z.iso.datetime({ offset: true }).nullish(),
});

export const getCampaignQuery = loose({
  limit: z
    .string()
    .regex(/^\d{1,4}$/, { error: 'must be a number' })
    .optional(),
  next: z.string().optional(),
  prev: z.string().optional(),
});

export type CreateSegmentInput = z.output<typeof createSegmentBody>;
export type UpdateSegmentInput = z.output<typeof updateSegmentBody>;
export type QueryInput = z.output<typeof queryBody>;
export type CreateCampaignInput = z.output<typeof createCampaignBody>;
export type UpdateCampaignInput = z.output<typeof updateCampaignBody>;
export type StartCampaignInput = z.output<typeof startCampaignBody>;
