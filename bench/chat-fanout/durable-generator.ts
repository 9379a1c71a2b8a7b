// Durable send benchmark, run as its own process: many senders keep `inFlight` POST /message requests pending for a
// fixed time, then every acknowledged id is looked up again through the API. An id that was acknowledged (HTTP
// 200/201) but cannot be read back is a lost message.
import { randomUUID } from 'node:crypto';
import { enterPhase, progress, runAsGenerator } from './child-protocol.ts';
import { LatencyHistogram } from './histogram.ts';
import { expectOk, runPool, StreamHttpClient, type StreamAuth } from './http-client.ts';
import { serverToken, userToken } from './jwt.ts';
import { CpuMeter } from './proc-stats.ts';
import type { DurableConfig, DurableResult } from './results.ts';

const TEXT = 'Tin nhắn bền vững: đạo hữu gửi, máy chủ ghi vào SQLite rồi mới trả lời 201. '.padEnd(
  100,
  '.',
);

async function run(config: DurableConfig): Promise<DurableResult> {
  const { server } = config;
  const http = new StreamHttpClient(server.baseURL, config.inFlight + 4);
  const adminAuth: StreamAuth = { apiKey: server.apiKey, token: serverToken(server.apiSecret) };
  const senders = Array.from({ length: config.inFlight }, (_, index) => `durable-sender-${index}`);
  const channelIds = Array.from({ length: config.channels }, (_, index) => `durable-${index}`);
  const authOf = (userId: string): StreamAuth => ({
    apiKey: server.apiKey,
    token: userToken(userId, server.apiSecret),
    userId,
  });

  if (config.createChannels) {
    const users = Object.fromEntries(senders.map((id) => [id, { id, name: id }]));
    await expectOk(http.call('POST', 'users', adminAuth, { users }));
    for (const channelId of channelIds) {
      await expectOk(
        http.call('POST', `channels/${config.channelType}/${channelId}/query`, adminAuth, {
          data: { created_by_id: senders[0], members: senders },
          state: false,
          watch: false,
          presence: false,
        }),
      );
    }
  }

  progress(`${config.label}: ${config.inFlight} senders for ${config.seconds} s`);
  const ackedByChannel = new Map<string, string[]>(channelIds.map((id) => [id, []]));
  const latency = new LatencyHistogram();
  const errors = new Map<string, number>();
  let attempted = 0;
  let acked = 0;
  await enterPhase(`${config.label}-sends`);
  const meter = new CpuMeter(config.serverPid, { meterBackends: config.meterBackends });
  const start = performance.now();
  const deadline = start + config.seconds * 1000;
  await Promise.all(
    senders.map(async (userId, index) => {
      const auth = authOf(userId);
      const channelId = channelIds[index % channelIds.length] ?? 'durable-0';
      const acknowledged = ackedByChannel.get(channelId) ?? [];
      while (performance.now() < deadline) {
        const id = randomUUID();
        const sentAt = performance.now();
        attempted++;
        try {
          const response = await http.call(
            'POST',
            `channels/${config.channelType}/${channelId}/message`,
            auth,
            {
              message: { id, text: TEXT },
            },
          );
          if (response.status === 200 || response.status === 201) {
            acked++;
            acknowledged.push(id);
            latency.record(performance.now() - sentAt);
          } else {
            const key = `HTTP ${response.status}: ${response.body.slice(0, 200)}`;
            errors.set(key, (errors.get(key) ?? 0) + 1);
          }
        } catch (error) {
          const key = String(error);
          errors.set(key, (errors.get(key) ?? 0) + 1);
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpu = meter.read();
  progress(`${config.label}: ${acked} acknowledged in ${elapsed.toFixed(1)} s; verifying`);

  await enterPhase(`${config.label}-verify`);
  const verifyStart = performance.now();
  const readerAuth = authOf(senders[0] ?? 'durable-sender-0');
  const missing: string[] = [];
  let foundByQuery = 0;
  for (const [channelId, ids] of ackedByChannel) {
    const stored = await pageAllMessageIds(
      http,
      readerAuth,
      `channels/${config.channelType}/${channelId}/query`,
    );
    for (const id of ids) {
      if (stored.has(id)) foundByQuery++;
      else missing.push(id);
    }
  }
  const lost: string[] = [];
  let foundByGet = 0;
  const getErrors = await runPool(missing.length, config.inFlight, async (index) => {
    const id = missing[index] ?? '';
    const response = await http.call('GET', `messages/${encodeURIComponent(id)}`, readerAuth);
    if (response.status === 200) foundByGet++;
    else lost.push(`${id} (HTTP ${response.status})`);
  });
  for (const error of getErrors) lost.push(error.message);
  http.close();
  return {
    label: config.label,
    seconds: elapsed,
    inFlight: config.inFlight,
    attempted,
    acked,
    ackedPerSecond: acked / elapsed,
    errors: [...errors].slice(0, 5).map(([message, count]) => `${count}× ${message}`),
    p50: latency.percentile(50),
    p99: latency.percentile(99),
    serverCpu: cpu.server,
    generatorCpu: cpu.generator,
    backendCpu: cpu.backend,
    otherCpu: cpu.other,
    foundByQuery,
    foundByGet,
    lost: lost.length,
    lostSample: lost.slice(0, 5),
    verifySeconds: (performance.now() - verifyStart) / 1000,
  };
}

/**
 * Pages a channel backwards with messages.id_lt, the way stream-chat loads older messages. Starts at 300 per page
 * (Stream's maximum) and drops to 100 if the server refuses that limit.
 */
async function pageAllMessageIds(
  http: StreamHttpClient,
  auth: StreamAuth,
  path: string,
): Promise<Set<string>> {
  const ids = new Set<string>();
  let before: string | undefined;
  let limit = 300;
  for (;;) {
    const response = await http.call('POST', path, auth, {
      state: true,
      watch: false,
      presence: false,
      messages: before ? { limit, id_lt: before } : { limit },
    });
    if (response.status === 400 && limit > 100) {
      limit = 100;
      continue;
    }
    if (response.status !== 200 && response.status !== 201) return ids;
    const page = (JSON.parse(response.body) as { messages?: { id: string }[] }).messages ?? [];
    const oldest = page[0]?.id;
    if (!oldest || oldest === before || ids.has(oldest)) return ids;
    for (const message of page) ids.add(message.id);
    before = oldest;
  }
}

await runAsGenerator<DurableConfig>(run);
