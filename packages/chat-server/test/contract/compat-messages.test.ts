import { describe, expect, it } from 'vitest';
import { expectStreamError, ids, sendText, twoMembers, useContractEnv } from './helpers.ts';

// Messages as Stream's docs use them: paging pinned messages.
describe('pinned messages paging as Stream documents it', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  async function fivePins() {
    const scene = await twoMembers(env(), 'pinpage');
    const pinned: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const message = await sendText(scene.aliceChannel, `Môn quy ${i}`);
      await scene.alice.pinMessage(message);
      pinned.push(message.id);
    }
    await sendText(scene.aliceChannel, 'Không ghim');
    const newestFirst = ids((await scene.bobChannel.getPinnedMessages({ limit: 100 })).messages);
    return { ...scene, pinned, newestFirst };
  }

  it('lists pins newest first by default and oldest first with {pinned_at: 1}', async () => {
    const { bobChannel, pinned, newestFirst } = await fivePins();
    expect(newestFirst).toEqual([...pinned].reverse());
    const oldestFirst = await bobChannel.getPinnedMessages({ limit: 100 }, { pinned_at: 1 });
    expect(ids(oldestFirst.messages)).toEqual(pinned);
  });

  it('pages with id_lt / id_lte / id_gt / id_gte, each returning exactly the next page', async () => {
    const { bobChannel, newestFirst } = await fivePins();
    const page1 = await bobChannel.getPinnedMessages({ limit: 2 }, { pinned_at: -1 });
    expect(ids(page1.messages)).toEqual(newestFirst.slice(0, 2));
    const page2 = await bobChannel.getPinnedMessages(
      { limit: 2, id_lt: newestFirst[1] },
      { pinned_at: -1 },
    );
    expect(ids(page2.messages)).toEqual(newestFirst.slice(2, 4));
    const page3 = await bobChannel.getPinnedMessages(
      { limit: 2, id_lt: newestFirst[3] },
      { pinned_at: -1 },
    );
    expect(ids(page3.messages)).toEqual(newestFirst.slice(4));
    const lte = await bobChannel.getPinnedMessages({ limit: 2, id_lte: newestFirst[1] });
    expect(ids(lte.messages)).toEqual(newestFirst.slice(1, 3));
    // Going back up towards newer pins: the two just after the cursor, still newest first.
    const newer = await bobChannel.getPinnedMessages(
      { limit: 2, id_gt: newestFirst[4] },
      { pinned_at: -1 },
    );
    expect(ids(newer.messages)).toEqual(newestFirst.slice(2, 4));
    const gte = await bobChannel.getPinnedMessages({ limit: 10, id_gte: newestFirst[2] });
    expect(ids(gte.messages)).toEqual(newestFirst.slice(0, 3));
  });

  it('bounds the pin time with pinned_at_before / after (and _or_equal)', async () => {
    const { bobChannel, newestFirst } = await fivePins();
    const listed = (await bobChannel.getPinnedMessages({ limit: 100 })).messages;
    const middle = listed[2]!.pinned_at!;
    const before = await bobChannel.getPinnedMessages({ pinned_at_before: middle });
    expect(ids(before.messages)).toEqual(newestFirst.slice(3));
    const beforeOrEqual = await bobChannel.getPinnedMessages({
      pinned_at_before_or_equal: middle,
    });
    expect(ids(beforeOrEqual.messages)).toEqual(newestFirst.slice(2));
    const after = await bobChannel.getPinnedMessages({ pinned_at_after: middle }, { pinned_at: 1 });
    expect(ids(after.messages)).toEqual(newestFirst.slice(0, 2).reverse());
    const afterOrEqual = await bobChannel.getPinnedMessages({
      pinned_at_after_or_equal: middle,
      limit: 1,
    });
    expect(ids(afterOrEqual.messages)).toEqual([newestFirst[2]]);
  });

  it('refuses bad paging values with code 4 naming the option', async () => {
    const { bobChannel, channelId, alice } = await fivePins();
    const unpinned = await sendText(alice.channel('messaging', channelId), 'Thường');
    await expectStreamError(bobChannel.getPinnedMessages({ id_lt: unpinned.id }), {
      code: 4,
      status: 400,
      message: /id_lt/,
    });
    await expectStreamError(bobChannel.getPinnedMessages({ id_gt: 'không-có' }), {
      code: 4,
      message: /id_gt/,
    });
    await expectStreamError(bobChannel.getPinnedMessages({ pinned_at_after: 'mai' }), {
      code: 4,
      message: /pinned_at_after/,
    });
    await expectStreamError(bobChannel.getPinnedMessages({ limit: 301 }), {
      code: 4,
      message: /limit/,
    });
    await expectStreamError(bobChannel.getPinnedMessages({ offset: -1 }), {
      code: 4,
      message: /offset/,
    });
    await expectStreamError(bobChannel.getPinnedMessages({}, { created_at: -1 } as never), {
      code: 4,
      message: /pinned_at/,
    });
  });
});
