import { compact, parseObject } from '../../core/json.ts';
import type { MessageResponse } from '../../core/messages/serialize.ts';
import type { DraftRow } from './repo.ts';

/** Stream's DraftResponse: the draft message plus the messages it refers to, loaded for the draft's owner. */
export interface DraftResponse {
  channel_cid: string;
  created_at: string;
  message: Record<string, unknown>;
  parent_id?: string;
  parent_message?: MessageResponse;
  quoted_message?: MessageResponse;
}

export function toDraftResponse(
  row: DraftRow,
  related: { parent?: MessageResponse; quoted?: MessageResponse },
): DraftResponse {
  return compact({
    channel_cid: row.cid,
    created_at: row.updated_at,
    message: parseObject(row.message),
    parent_id: row.parent_id || undefined,
    parent_message: related.parent,
    quoted_message: related.quoted,
  });
}
