import { BanIcon } from 'lucide-react';
import { banNoticeText, type OwnBan } from './own-ban';

/** Shown in place of the composer while the signed-in user is banned: why, and until when. */
export function BanNotice({ ban }: { ban: OwnBan }) {
  return (
    <div
      role="status"
      data-testid="ban-notice"
      className="m-3 flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/8 px-3 py-2 text-sm text-destructive"
    >
      <BanIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{banNoticeText(ban)}</span>
    </div>
  );
}
