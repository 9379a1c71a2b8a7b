import { randomUUID } from 'node:crypto';
import type { Channel, SharedLocationResponse } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  expectStreamError,
  inMs,
  newClient,
  twoMembers,
  useContractEnv,
  waitForEvent,
} from './contract/helpers.ts';

const FIFTEEN_MINUTES_MS = 15 * 60_000;

describe('shared locations', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  function location(extra: Partial<SharedLocationResponse> = {}) {
    return {
      message_id: randomUUID(),
      created_by_device_id: 'web-desktop-chrome-test',
      latitude: 21.028511,
      longitude: 105.804817,
      ...extra,
    };
  }

  async function shareLive(channel: Channel) {
    const payload = { ...location(), end_at: inMs(FIFTEEN_MINUTES_MS) };
    const { message } = await channel.sendSharedLocation(payload);
    return { payload, message };
  }

  it('advertises shared locations in the channel config and capabilities', async () => {
    const { aliceChannel } = await twoMembers(env(), 'loc-config');
    expect(aliceChannel.getConfig()?.shared_locations).toBe(true);
    expect(aliceChannel.data?.own_capabilities).toContain('share-location');
  });

  it('sends a one-off location that reaches the other user in message.new and channel queries, without end_at', async () => {
    const { aliceId, aliceChannel, bob, bobChannel, channelId } = await twoMembers(
      env(),
      'loc-static',
    );
    const payload = location();
    const seen = waitForEvent(
      bobChannel,
      'message.new',
      (e) => e.message?.id === payload.message_id,
    );
    const { message } = await aliceChannel.sendSharedLocation(payload);

    const expected = {
      message_id: payload.message_id,
      channel_cid: `messaging:${channelId}`,
      user_id: aliceId,
      created_by_device_id: payload.created_by_device_id,
      latitude: payload.latitude,
      longitude: payload.longitude,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    };
    expect(message.shared_location).toEqual(expected);
    expect((await seen).message?.shared_location).toEqual(expected);
    const queried = await bob.channel('messaging', channelId).query({ messages: { limit: 5 } });
    const stored = queried.messages.find((m) => m.id === payload.message_id);
    expect(stored?.shared_location).toEqual(expected);
    // It is not custom data: no stray copy elsewhere on the message.
    expect(stored?.attachments).toEqual([]);
  });

  it('shares a live location: updates move it for the other watcher through message.updated', async () => {
    const { alice, aliceChannel, bobChannel } = await twoMembers(env(), 'loc-live');
    const { payload, message } = await shareLive(aliceChannel);
    expect(Date.parse(message.shared_location?.end_at ?? '')).toBe(Date.parse(payload.end_at));

    const moved = waitForEvent(
      bobChannel,
      'message.updated',
      (e) => e.message?.id === payload.message_id,
    );
    const response = await alice.updateLocation({
      message_id: payload.message_id,
      created_by_device_id: payload.created_by_device_id,
      latitude: 10.776889,
      longitude: 106.700806,
    });
    expect(response).toMatchObject({
      message_id: payload.message_id,
      latitude: 10.776889,
      longitude: 106.700806,
      channel_cid: aliceChannel.cid,
    });
    const event = await moved;
    expect(event.message?.shared_location).toMatchObject({
      latitude: 10.776889,
      longitude: 106.700806,
    });
    expect(
      bobChannel.state.messages.find((m) => m.id === payload.message_id)?.shared_location?.latitude,
    ).toBe(10.776889);
  });

  it('lists the user’s active live locations, also in `me` when connecting', async () => {
    const { aliceId, alice, aliceChannel, bob } = await twoMembers(env(), 'loc-active');
    const { payload } = await shareLive(aliceChannel);
    await aliceChannel.sendSharedLocation(location());

    const active = await alice.getSharedLocations();
    expect(active.active_live_locations.map((l) => l.message_id)).toEqual([payload.message_id]);
    expect((await bob.getSharedLocations()).active_live_locations).toEqual([]);

    const second = newClient(env());
    const connected = await second.connectUser({ id: aliceId }, env().admin.createToken(aliceId));
    const me = connected?.me as { active_live_locations?: SharedLocationResponse[] } | undefined;
    expect(me?.active_live_locations?.map((l) => l.message_id)).toEqual([payload.message_id]);
  });

  it('stops a live share when the client sends the whole location back with end_at now', async () => {
    const { alice, aliceChannel, bobChannel } = await twoMembers(env(), 'loc-stop');
    const { payload, message } = await shareLive(aliceChannel);
    const stopped = waitForEvent(
      bobChannel,
      'message.updated',
      (e) => e.message?.id === payload.message_id,
    );
    // What React's "Stop sharing" passes: the stored location, extra fields included.
    await aliceChannel.stopLiveLocationSharing(message.shared_location!);
    const event = await stopped;
    expect(Date.parse(event.message?.shared_location?.end_at ?? '')).toBeLessThanOrEqual(
      Date.now(),
    );

    expect((await alice.getSharedLocations()).active_live_locations).toEqual([]);
    await expectStreamError(
      alice.updateLocation({ message_id: payload.message_id, latitude: 1, longitude: 1 }),
      { code: 4, status: 400, message: /ended/ },
    );
  });

  it('keeps the stored location when the message is edited, and drops it once the message is deleted', async () => {
    const { alice, aliceChannel } = await twoMembers(env(), 'loc-edit');
    const { payload, message } = await shareLive(aliceChannel);
    // The client sends the whole message back on edit, a stale shared_location included.
    const edited = await alice.updateMessage({
      ...message,
      text: 'Ta đang ở đây',
      shared_location: { ...message.shared_location!, latitude: 1, longitude: 1 },
    });
    expect(edited.message.text).toBe('Ta đang ở đây');
    expect(edited.message.shared_location).toEqual(message.shared_location);

    const deleted = await alice.deleteMessage(payload.message_id);
    expect(deleted.message.shared_location).toBeUndefined();
    expect((await alice.getSharedLocations()).active_live_locations).toEqual([]);
  });

  it('lets only the sharer update a live location, and never a one-off one', async () => {
    const { alice, aliceChannel, bob } = await twoMembers(env(), 'loc-owner');
    const { payload } = await shareLive(aliceChannel);
    await expectStreamError(
      bob.updateLocation({ message_id: payload.message_id, latitude: 1, longitude: 1 }),
      { code: 17, status: 403 },
    );
    const once = location();
    await aliceChannel.sendSharedLocation(once);
    await expectStreamError(
      alice.updateLocation({ message_id: once.message_id, latitude: 1, longitude: 1 }),
      { code: 4, status: 400 },
    );
    await expectStreamError(alice.updateLocation({ message_id: 'no-such-message', latitude: 1 }), {
      code: 16,
      status: 404,
    });
    await expectStreamError(
      alice.updateLocation({ message_id: payload.message_id, latitude: 200 }),
      { code: 4, status: 400 },
    );
  });

  it('refuses a location without device id, message id, latitude or longitude, or shorter than 60 s', async () => {
    const { aliceChannel } = await twoMembers(env(), 'loc-invalid');
    const send = (shared: Record<string, unknown>, id = randomUUID()) =>
      aliceChannel.sendMessage({ id, shared_location: shared as never });
    const id = randomUUID();
    const valid = { ...location(), message_id: id };
    const { created_by_device_id: _device, ...noDevice } = valid;
    const { message_id: _message, ...noMessage } = valid;
    const { latitude: _latitude, ...noLatitude } = valid;
    const { longitude: _longitude, ...noLongitude } = valid;
    for (const bad of [noDevice, noMessage, noLatitude, noLongitude]) {
      await expectStreamError(send(bad, id), { code: 4, status: 400, message: /shared_location/ });
    }
    await expectStreamError(send({ ...valid, latitude: 'bắc' }, id), { code: 4, status: 400 });
    await expectStreamError(send({ ...valid, end_at: inMs(30_000) }, id), {
      code: 4,
      status: 400,
      message: /60 seconds/,
    });
    await expectStreamError(send({ ...valid, end_at: 'mai' }, id), { code: 4, status: 400 });
    await expectStreamError(send({ ...valid, message_id: randomUUID() }, id), {
      code: 4,
      status: 400,
    });
    // None of the refused sends left a message behind; a one-minute share is accepted.
    const { message } = await send({ ...valid, end_at: inMs(60_000) }, id);
    expect(message.shared_location?.end_at).toEqual(expect.any(String));
  });
});
