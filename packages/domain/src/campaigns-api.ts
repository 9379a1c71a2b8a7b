/** Who an admin's campaign reaches (/quan-tri/chien-dich): every cultivator, a realm and above, or chosen ones. */
export type CampaignAudience =
  { kind: 'all' } | { kind: 'realm'; minRealm: number } | { kind: 'users'; userIds: string[] };

export const MAX_CAMPAIGN_CHOSEN_USERS = 500;
export const MAX_CAMPAIGN_TEXT_LENGTH = 2000;

export interface CampaignAudienceCount {
  count: number;
}

/** The message as one receiver will read it. */
export interface CampaignPreview {
  userId: string;
  name: string;
  text: string;
}

export type CampaignStatusName = 'draft' | 'scheduled' | 'in_progress' | 'completed' | 'stopped';

export interface CampaignProgress {
  id: string;
  status: CampaignStatusName;
  targets: number;
  sent: number;
  failed: number;
  channelsCreated: number;
}
