import { avatarInitials, avatarSource } from '@daohuu/domain';
import { cn } from '@/lib/utils';

/**
 * Initials on a jade tile, or the avatar when it is one the avatar rule allows (packages/domain): an image stored
 * before the rule, or sent by a misbehaving server, is never loaded in the viewer's browser.
 */
export function UserAvatar({
  name,
  image,
  className,
}: {
  name: string;
  image?: string | null;
  className?: string;
}) {
  const src = avatarSource(image);
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-linear-to-br from-primary to-[oklch(0.38_0.07_172)] font-display text-sm font-semibold text-primary-foreground ring-1 ring-gold/60',
        className,
      )}
    >
      {src ? <img src={src} alt="" className="size-full object-cover" /> : avatarInitials(name)}
    </span>
  );
}
