import { cn } from '@/lib/utils';
import { realmBadgeFor } from '../utils/realm-badge';

// Colour steps as the cultivator climbs: jade for the early realms, gold from Kim Đan, violet from Hóa Thần.
const TONE_BY_MAJOR: Record<string, string> = {
  'Luyện Khí': 'dh-realm-badge--jade',
  'Trúc Cơ': 'dh-realm-badge--jade-strong',
  'Kim Đan': 'dh-realm-badge--gold',
  'Nguyên Anh': 'dh-realm-badge--gold-strong',
  'Hóa Thần': 'dh-realm-badge--violet',
  'Luyện Hư': 'dh-realm-badge--violet',
  'Hợp Thể': 'dh-realm-badge--crimson',
  'Đại Thừa': 'dh-realm-badge--crimson',
  'Độ Kiếp': 'dh-realm-badge--crimson',
  'Tiên Nhân': 'dh-realm-badge--immortal',
};

/** The author's realm next to their name in a message header; nothing when the user has no tu vi. */
export function RealmBadge({ tuVi, className }: { tuVi: unknown; className?: string }) {
  const badge = realmBadgeFor(tuVi);
  if (!badge) return null;
  const tone = badge.major
    ? (TONE_BY_MAJOR[badge.major] ?? 'dh-realm-badge--jade')
    : 'dh-realm-badge--invalid';
  return (
    <span
      className={cn('dh-realm-badge', tone, className)}
      data-testid="realm-badge"
      title={`Cảnh giới: ${badge.label}`}
    >
      {badge.label}
    </span>
  );
}
