import { realmOf, type RealmReading } from '@daohuu/domain';

/** What a message header shows for its author's tu vi. */
export interface RealmBadgeInfo {
  label: string;
  /** The major realm ("Kim Đan"), or null for an invalid value; drives the badge colour. */
  major: string | null;
}

/**
 * The realm badge for a chat user's custom `tu_vi` field, or null when the user carries none (a user the product
 * never synced, or a guest). A present but negative or non-finite value still shows "Tu vi không hợp lệ".
 */
export function realmBadgeFor(
  tuVi: unknown,
  reading: RealmReading = 'full',
): RealmBadgeInfo | null {
  if (typeof tuVi !== 'number') return null;
  const realm = realmOf(tuVi, { reading });
  return { label: realm.name, major: realm.valid ? realm.major : null };
}
