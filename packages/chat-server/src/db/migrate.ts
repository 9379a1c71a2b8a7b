import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db, SqlDialectKind } from './schema.ts';
import * as m0001 from './migrations/0001-initial.ts';
import * as m0002 from './migrations/0002-members-hidden-index.ts';
import * as m0003PollsDrafts from './migrations/0003-polls-drafts.ts';
import * as m0004RemindersLocations from './migrations/0004-reminders-locations.ts';
import * as m0005MessageTextUpdatedAt from './migrations/0005-message-text-updated-at.ts';
import * as m0006BlocksFlags from './migrations/0006-blocks-flags.ts';
import * as m0011ChannelTypes from './migrations/0011-channel-types.ts';
import * as m0008Bans from './migrations/0008-bans.ts';
import * as m0010PrivacySettings from './migrations/0010-privacy-settings.ts';
import * as m0012Tasks from './migrations/0012-tasks.ts';
import * as m0016SearchPrefixIndex from './migrations/0016-search-prefix-index.ts';
import * as m0017MessagesDeletedForMe from './migrations/0017-messages-deleted-for-me.ts';
import * as m0018UserGroupsPredefinedFilters from './migrations/0018-user-groups-predefined-filters.ts';
import * as m0019PendingMessages from './migrations/0019-pending-messages.ts';
import * as m0009ReviewQueueBlocklists from './migrations/0009-review-queue-blocklists.ts';
import * as m0007SearchIndex from './migrations/0007-search-index.ts';
import * as m0015Campaigns from './migrations/0015-campaigns.ts';
import * as m0013SectChannels from './migrations/0013-sect-channels.ts';
import * as m0014Notifications from './migrations/0014-notifications.ts';
import * as m0020NotificationData from './migrations/0020-notification-data.ts';
import * as m0022JobLeasesUploadDeletions from './migrations/0022-job-leases-upload-deletions.ts';
import * as m0023ChannelStateVersion from './migrations/0023-channel-state-version.ts';
import * as m0024MessagesAppNewestIndex from './migrations/0024-messages-app-newest-index.ts';
import * as m0025ChannelConfigOverrides from './migrations/0025-channel-config-overrides.ts';
import * as m0026ChannelTruncatedBy from './migrations/0026-channel-truncated-by.ts';
import * as m0027RestrictedVisibility from './migrations/0027-restricted-visibility.ts';

// Listed explicitly (not read from disk) so migrations work the same under tsx, vitest and bundlers.
const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-members-hidden-index': m0002,
  '0003-polls-drafts': m0003PollsDrafts,
  '0004-reminders-locations': m0004RemindersLocations,
  '0005-message-text-updated-at': m0005MessageTextUpdatedAt,
  '0006-blocks-flags': m0006BlocksFlags,
  '0011-channel-types': m0011ChannelTypes,
  '0008-bans': m0008Bans,
  '0010-privacy-settings': m0010PrivacySettings,
  '0012-tasks': m0012Tasks,
  '0016-search-prefix-index': m0016SearchPrefixIndex,
  '0017-messages-deleted-for-me': m0017MessagesDeletedForMe,
  '0018-user-groups-predefined-filters': m0018UserGroupsPredefinedFilters,
  '0019-pending-messages': m0019PendingMessages,
  '0009-review-queue-blocklists': m0009ReviewQueueBlocklists,
  '0007-search-index': m0007SearchIndex,
  '0015-campaigns': m0015Campaigns,
  '0013-sect-channels': m0013SectChannels,
  '0014-notifications': m0014Notifications,
  '0020-notification-data': m0020NotificationData,
  '0022-job-leases-upload-deletions': m0022JobLeasesUploadDeletions,
  '0023-channel-state-version': m0023ChannelStateVersion,
  '0024-messages-app-newest-index': m0024MessagesAppNewestIndex,
  '0025-channel-config-overrides': m0025ChannelConfigOverrides,
  '0026-channel-truncated-by': m0026ChannelTruncatedBy,
  '0027-restricted-visibility': m0027RestrictedVisibility,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Db, kind: SqlDialectKind): Promise<void> {
  await migrateTo(db, kind);
}

/** Brings the schema up to `target` (a migration name), or up to date without one: tests of a data migration. */
export async function migrateTo(db: Db, kind: SqlDialectKind, target?: string): Promise<void> {
  const migrator = new Migrator({ db, provider, ...(await migrationTableSchema(db, kind)) });
  const { error, results } = await (target
    ? migrator.migrateTo(target)
    : migrator.migrateToLatest());
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`chat-server migration ${failed} failed: ${String(error)}`, { cause: error });
  }
}

/**
 * Without a schema, Kysely looks for its migration tables in every schema of the database: a server whose own schema
 * is still empty would take another schema's tables for its own and fail ("kysely_migration_lock does not exist").
 * Pinning them to the connection's current schema (the search_path) keeps servers sharing a database apart.
 */
async function migrationTableSchema(
  db: Db,
  kind: SqlDialectKind,
): Promise<{ migrationTableSchema?: string }> {
  if (kind !== 'postgres') return {};
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  return schema ? { migrationTableSchema: schema } : {};
}
