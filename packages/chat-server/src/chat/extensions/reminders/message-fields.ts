import type { MessageFields } from '../../core/extension-points.ts';
import type { RemindersRepo } from './repo.ts';
import { toReminderBase } from './serialize.ts';

/** Every message carries the viewer's own reminder; shared event payloads (no viewer) carry none. */
export function reminderMessageFields(repo: RemindersRepo): MessageFields {
  return async (appId, rows, viewerId) => {
    const result = new Map<string, Record<string, unknown>>();
    if (!viewerId || rows.length === 0) return result;
    const found = await repo.forMessages(
      appId,
      viewerId,
      rows.map((r) => r.id),
    );
    for (const [messageId, row] of found) result.set(messageId, { reminder: toReminderBase(row) });
    return result;
  };
}
