export { REALMS, realmRowName } from './realm-table.ts';
export type { RealmReading, RealmRow } from './realm-table.ts';
export { INVALID_TU_VI, realmIndexOf, realmName, realmOf } from './realm.ts';
export type { InvalidRealm, Realm, RealmOptions } from './realm.ts';
export {
  AMOUNT_PLACEHOLDER,
  DEFAULT_CURRENCY,
  DEFAULT_LOCALE,
  amountFormatter,
  formatAmount,
} from './number-format.ts';
export type { AmountFormatterKind, AmountMode, AmountOptions } from './number-format.ts';
export { formatFileSize, formatLargeCount, formatTuVi } from './count-format.ts';
export { formatDurationVi, formatRelativeVi, formatReminderDue } from './relative-time.ts';
export {
  DAO_HIEU_CHARACTERS_MESSAGE,
  DAO_HIEU_LENGTH_MESSAGE,
  DAO_HIEU_MAX_LENGTH,
  DAO_HIEU_MIN_LENGTH,
  checkDaoHieu,
  parseDaoHieu,
} from './dao-hieu.ts';
export type { DaoHieuCheck, DaoHieuProblem } from './dao-hieu.ts';
export {
  AVATAR_MAX_LENGTH,
  AVATAR_MESSAGE,
  AVATAR_PATH_PREFIX,
  avatarInitials,
  avatarSource,
  checkAvatar,
  isAllowedAvatar,
} from './avatar.ts';
export type { AvatarCheck } from './avatar.ts';
export {
  isSectChannel,
  movedSectChannel,
  sectChannelFilter,
  sidebarChannelFilter,
} from './sect-channels.ts';
export type { ChannelFilter, ChannelRef } from './sect-channels.ts';
export {
  BAN_DURATIONS_MINUTES,
  MAX_BAN_MINUTES,
  MAX_BLOCKLIST_WORDS,
  MAX_BLOCKLIST_WORD_LENGTH,
  MAX_SLOW_MODE_SECONDS,
  MODERATION_ACTIONS,
} from './moderation.ts';
export type { ModerationAction } from './moderation.ts';
export { ROLES, isRole } from './roles.ts';
export type { Role } from './roles.ts';
export type {
  AdminUserPatch,
  ApiErrorBody,
  BanUserInput,
  BlocklistBehavior,
  ChannelTypeBlocklist,
  ChatChannelCustomData,
  ChatClientConfig,
  ChatToken,
  ChatUserCustomData,
  ModeratedMessage,
  ModerationActionInput,
  ModerationActionRecord,
  ModerationBan,
  ModerationBansPage,
  ModerationBlocklist,
  ModerationBlocklists,
  ModerationQueueItem,
  ModerationQueuePage,
  ModerationReport,
  OwnProfilePatch,
  Profile,
  PublicChannel,
  SlowModeChannel,
  SlowModeChannels,
  UserSearchHit,
  UserSearchResult,
  UserSettings,
  UsersPage,
} from './api.ts';
export { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT_MESSAGE } from './password.ts';
export { CAMPAIGN_PLACEHOLDERS, renderCampaignTemplate } from './campaign-template.ts';
export type { TemplateUser } from './campaign-template.ts';
export { MAX_CAMPAIGN_CHOSEN_USERS, MAX_CAMPAIGN_TEXT_LENGTH } from './campaigns-api.ts';
export type {
  CampaignAudience,
  CampaignAudienceCount,
  CampaignPreview,
  CampaignProgress,
  CampaignStatusName,
} from './campaigns-api.ts';
export { foldTranslation, foldVietnamese, foldedWords, searchText } from './vi-fold.ts';
export {
  LAST_CHANNEL_COOKIE,
  MAX_CID_LENGTH,
  lastChannelCookieValue,
  parseCid,
  readLastChannelCookie,
} from './last-channel.ts';
