import { StreamChat } from 'stream-chat';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureMentions } from '../mentions/configure-mentions';
import { autosaveDrafts } from './draft-autosave';

function client(composer: { client: StreamChat }): StreamChat {
  return composer.client;
}

function composerWithMembers() {
  const client = new StreamChat('khoa');
  client.userID = 'lam-phong';
  const channel = client.channel('messaging', 'dm-nhap');
  channel.state.members = {
    'bach-van': { user_id: 'bach-van', user: { id: 'bach-van', name: 'Bạch Vân' } },
  };
  const composer = channel.messageComposer;
  composer.updateConfig({ drafts: { enabled: true } });
  configureMentions(composer, []);
  const createDraft = vi.spyOn(composer, 'createDraft').mockResolvedValue(undefined);
  vi.spyOn(composer, 'deleteDraft').mockResolvedValue(undefined);
  // What the mounted composer does: its text changes are logged as local edits.
  const unregister = composer.registerSubscriptions();
  return { composer, createDraft, unregister };
}

describe('autosaveDrafts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds the save while an "@" suggestion list is open, and saves once it closes', async () => {
    vi.useFakeTimers();
    const { composer, createDraft, unregister } = composerWithMembers();
    const stop = autosaveDrafts(composer, 100);
    await vi.advanceTimersByTimeAsync(5);
    await composer.textComposer.handleChange({
      text: 'Chào @bach',
      selection: { start: 10, end: 10 },
    });
    expect(composer.textComposer.suggestions).toBeDefined();
    await vi.advanceTimersByTimeAsync(350);
    expect(createDraft).not.toHaveBeenCalled();

    await composer.textComposer.handleChange({
      text: 'Chào bạn',
      selection: { start: 8, end: 8 },
    });
    expect(composer.textComposer.suggestions).toBeUndefined();
    await vi.advanceTimersByTimeAsync(150);
    expect(createDraft).toHaveBeenCalledTimes(1);
    stop();
    unregister();
  });

  it('saves plain text after the pause', async () => {
    vi.useFakeTimers();
    const { composer, createDraft, unregister } = composerWithMembers();
    const stop = autosaveDrafts(composer, 100);
    // Fake timers freeze Date.now; the composer logs each edit by its timestamp, so let a moment pass.
    await vi.advanceTimersByTimeAsync(5);
    await composer.textComposer.handleChange({
      text: 'Đạo tâm kiên định',
      selection: { start: 17, end: 17 },
    });
    await vi.advanceTimersByTimeAsync(150);
    expect(createDraft).toHaveBeenCalledTimes(1);
    stop();
    unregister();
  });

  it('keeps the mention, and what was typed meanwhile, when the server echoes our own save', async () => {
    vi.useFakeTimers();
    const { composer, createDraft, unregister } = composerWithMembers();
    const stop = autosaveDrafts(composer, 100);
    await vi.advanceTimersByTimeAsync(5);
    const bach = { id: 'bach-van', name: 'Bạch Vân' };
    composer.textComposer.state.partialNext({
      text: 'Chào @Bạch Vân ',
      mentionedUsers: [bach],
      selection: { start: 15, end: 15 },
    });
    await vi.advanceTimersByTimeAsync(150);
    expect(createDraft).toHaveBeenCalledTimes(1);
    composer.textComposer.state.partialNext({
      text: 'Chào @Bạch Vân xi',
      selection: { start: 17, end: 17 },
    });

    client(composer).dispatchEvent({
      type: 'draft.updated',
      draft: {
        channel_cid: composer.channel.cid,
        created_at: new Date().toISOString(),
        message: { id: 'nhap-1', text: 'Chào @Bạch Vân ', mentioned_users: ['bach-van'] },
      },
    });

    expect(composer.textComposer.text).toBe('Chào @Bạch Vân xi');
    expect(composer.textComposer.mentionedUsers).toEqual([bach]);
    stop();
    unregister();
  });

  it('still takes a draft written on another device', async () => {
    vi.useFakeTimers();
    const { composer, unregister } = composerWithMembers();
    const stop = autosaveDrafts(composer, 100);
    client(composer).dispatchEvent({
      type: 'draft.updated',
      draft: {
        channel_cid: composer.channel.cid,
        created_at: new Date().toISOString(),
        message: { id: 'nhap-2', text: 'Viết từ điện thoại' },
      },
    });
    expect(composer.textComposer.text).toBe('Viết từ điện thoại');
    stop();
    unregister();
  });
});
