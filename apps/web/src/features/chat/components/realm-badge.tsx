import { REALMS } from '@daohuu/domain';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { realmBadgeFor } from '../utils/realm-badge';

/** Colour steps as the cultivator climbs, one per major realm in the table's order (docs/product-rules.md §3). */
const TONES = [
  'dh-realm-badge--jade',
  'dh-realm-badge--jade-strong',
  'dh-realm-badge--gold',
  'dh-realm-badge--gold-strong',
  'dh-realm-badge--violet',
  'dh-realm-badge--violet',
  'dh-realm-badge--crimson',
  'dh-realm-badge--crimson',
  'dh-realm-badge--crimson',
  'dh-realm-badge--immortal',
];

// Jade for the early realms, gold from Kim Đan, violet from Hóa Thần: keyed by the domain's own major names.
const TONE_BY_MAJOR = new Map(
  [...new Set(REALMS.map((row) => row.major))].map((major, index) => [
    major,
    TONES[index] ?? 'dh-realm-badge--immortal',
  ]),
);

/** The author's realm next to their name in a message header; nothing when the user has no tu vi. */
export function RealmBadge({ tuVi, className }: { tuVi: unknown; className?: string }) {
  const t = useT();
  const badge = realmBadgeFor(tuVi);
  if (!badge) return null;
  const tone = badge.major
    ? (TONE_BY_MAJOR.get(badge.major) ?? 'dh-realm-badge--jade')
    : 'dh-realm-badge--invalid';
  // Realm names are proper names in both languages; an invalid value is a sentence and is translated.
  const label = badge.major ? badge.label : t('chat.realm.invalid');
  return (
    <span
      className={cn('dh-realm-badge', tone, className)}
      data-testid="realm-badge"
      title={t('chat.realm.title', { realm: label })}
    >
      {label}
    </span>
  );
}
