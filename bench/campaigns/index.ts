// Campaign delivery rate against plain API sends of the same messages, on one server in one run
// (docs: BENCHMARKS.md, "Campaigns"). Each side gets its own fresh cultivators, so both create every conversation.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { StreamChat } from 'stream-chat';
import { startTestChatServer } from '../../packages/chat-server/src/testing/harness.ts';

const USERS = Number(process.env.BENCH_USERS ?? 10_000);
/** The baseline's requests in flight: the campaign driver's own group size, so both sides send 4 at a time. */
const IN_FLIGHT = 4;
const TEMPLATE = 'Chào {{ receiver.name }}, bí cảnh đã mở!';

async function createCultivators(admin: StreamChat, prefix: string, marker: string) {
  const ids = Array.from({ length: USERS }, (_, i) => `${prefix}-${String(i).padStart(6, '0')}`);
  for (let i = 0; i < ids.length; i += 100)
    await admin.upsertUsers(
      ids
        .slice(i, i + 100)
        .map((id) => ({ id, name: `Đạo hữu ${id}`, tu_vi: 5_000, bench: marker })),
    );
  return ids;
}

/** What a backend would do without campaigns: open each conversation and send the rendered text itself. */
async function plainSends(admin: StreamChat, sender: string, ids: string[]): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < ids.length; i = next++) {
      const target = ids[i]!;
      const channel = admin.channel('messaging', {
        members: [sender, target],
        created_by_id: sender,
      });
      await channel.create();
      await channel.sendMessage({
        text: TEMPLATE.replace('{{ receiver.name }}', `Đạo hữu ${target}`),
        user_id: sender,
      });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return (ids.length / (performance.now() - started)) * 1000;
}

async function campaignSends(admin: StreamChat, sender: string, marker: string): Promise<number> {
  const segment = `bench-${randomUUID().slice(0, 8)}`;
  await admin.createSegment('user', segment, { filter: { bench: marker } });
  const id = `bench-${randomUUID().slice(0, 8)}`;
  await admin.createCampaign({
    id,
    sender_id: sender,
    segment_ids: [segment],
    message_template: { text: TEMPLATE },
    create_channels: true,
  });
  const started = performance.now();
  await admin.startCampaign(id);
  for (;;) {
    const { campaign } = await admin.getCampaign(id);
    if (campaign.status === 'completed') {
      const sent = (campaign.stats as { stats_messages_sent?: number }).stats_messages_sent ?? 0;
      if (sent !== USERS) throw new Error(`the campaign sent ${sent} of ${USERS}`);
      return (USERS / (performance.now() - started)) * 1000;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const server = await startTestChatServer({ config: { rateLimits: { enabled: false } } });
  try {
    // The client's default 3 s timeout ends a 10,000-user run at the first slow request on a shared machine: a bench
    // measures throughput, so it waits instead.
    const admin = new StreamChat(server.apiKey, server.apiSecret, {
      baseURL: server.baseURL,
      timeout: 60_000,
    });
    const sender = `bench-sender-${randomUUID().slice(0, 8)}`;
    await admin.upsertUsers([{ id: sender, name: 'Tông Môn' }]);
    const plainMarker = randomUUID();
    const campaignMarker = randomUUID();
    const plainIds = await createCultivators(admin, `p-${plainMarker.slice(0, 6)}`, plainMarker);
    await createCultivators(admin, `c-${campaignMarker.slice(0, 6)}`, campaignMarker);
    const plain = await plainSends(admin, sender, plainIds);
    const campaign = await campaignSends(admin, sender, campaignMarker);
    console.log(`users per side: ${USERS}`);
    console.log(
      `plain API sends (create channel + send, ${IN_FLIGHT} in flight): ${plain.toFixed(1)} msg/s`,
    );
    console.log(`campaign delivery: ${campaign.toFixed(1)} msg/s`);
    console.log(`campaign / plain: ${(campaign / plain).toFixed(2)}×`);
  } finally {
    await server.close();
  }
}

await main();
