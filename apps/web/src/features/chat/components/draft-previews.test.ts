import type { DraftResponse } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { DraftPreviews, draftPreviewText } from './draft-previews';

function draft(cid: string, text: string, extra: Partial<DraftResponse> = {}): DraftResponse {
  return {
    channel_cid: cid,
    created_at: new Date(0).toISOString(),
    message: { id: 'd', text },
    ...extra,
  };
}

describe('DraftPreviews', () => {
  it('keeps a channel draft’s text and tells its listeners', () => {
    const previews = new DraftPreviews();
    let calls = 0;
    previews.subscribe(() => (calls += 1));
    previews.put(draft('messaging:a', '  Chào   đạo hữu  '));
    expect(previews.get('messaging:a')).toBe('Chào đạo hữu');
    expect(calls).toBe(1);
  });

  it('ignores a thread’s draft reply, which is not the channel’s draft', () => {
    const previews = new DraftPreviews();
    previews.put(draft('messaging:a', 'Trả lời', { parent_id: 'm1' }));
    expect(previews.get('messaging:a')).toBeUndefined();
  });

  it('drops the marker when the draft is deleted, and not for a thread draft’s deletion', () => {
    const previews = new DraftPreviews();
    previews.put(draft('messaging:a', 'Nháp'));
    previews.remove({ channel_cid: 'messaging:a', parent_id: 'm1' });
    expect(previews.get('messaging:a')).toBe('Nháp');
    previews.remove({ channel_cid: 'messaging:a' });
    expect(previews.get('messaging:a')).toBeUndefined();
  });

  it('treats an emptied draft as no draft', () => {
    const previews = new DraftPreviews();
    previews.put(draft('messaging:a', 'Nháp'));
    previews.put(draft('messaging:a', '   '));
    expect(previews.get('messaging:a')).toBeUndefined();
  });
});

describe('draftPreviewText', () => {
  it('names a draft with only attachments', () => {
    const message = { id: 'd', text: '', attachments: [{ type: 'file' }] };
    expect(draftPreviewText({ message })).toBe('Tệp đính kèm');
    expect(draftPreviewText({ message: { id: 'd', text: '' } })).toBe('');
  });
});
