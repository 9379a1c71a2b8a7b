import type { JsonObject } from '../../core/json.ts';

/** Stream's CampaignData as stored in `campaigns.data` (the fields a campaign was created or updated with). */
export interface CampaignData {
  name?: string | null;
  description?: string | null;
  message_template: {
    text: string;
    attachments?: JsonObject[] | null;
    custom?: JsonObject | null;
    poll_id?: string | null;
  };
  segment_ids?: string[] | null;
  user_ids?: string[] | null;
  sender_id: string;
  sender_mode?: 'include' | 'exclude' | null;
  sender_visibility?: 'hidden' | 'archived' | null;
  channel_template?: {
    type: string;
    id?: string | null;
    custom?: JsonObject | null;
    members?: string[] | null;
    members_template?:
      | {
          user_id: string;
          channel_role?: string | null;
          custom?: JsonObject | null;
        }[]
      | null;
    team?: string | null;
  } | null;
  create_channels?: boolean | null;
  show_channels?: boolean | null;
  skip_push?: boolean | null;
  skip_webhook?: boolean | null;
}
