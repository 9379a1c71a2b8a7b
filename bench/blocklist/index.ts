// The block list's cost on the send path: sends through a channel type carrying a 1,000-word list against sends
// through the same server and type with no list, alternating rounds in one run (docs: BENCHMARKS.md, "Block lists").
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { StreamChat } from 'stream-chat';
import { BUILTIN_CHANNEL_TYPES } from '../../packages/chat-server/src/chat/core/channel-types.ts';
import { compileBlocklist } from '../../packages/chat-server/src/chat/extensions/moderation/blocklist-matcher.ts';
import { startTestChatServer } from '../../packages/chat-server/src/testing/harness.ts';

const WORDS = 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 3000);
const IN_FLIGHT = 8;

/** Ordinary chat lines (none listed), 20 to 200 characters, with Vietnamese accents. */
const TEXTS = [
  'Chào đạo hữu, hôm nay tu luyện thế nào?',
  'Ta vừa đột phá Trúc Cơ, cảm tạ các vị sư huynh đã chỉ điểm. Tối nay mời mọi người uống trà ở Tàng Kinh Các nhé!',
  'ok',
  'Đan dược này luyện mất ba ngày ba đêm, lửa phải giữ đều, nếu không sẽ hỏng cả lò. Ai có kinh nghiệm xin chỉ giáo thêm.',
  'Mai họp môn phái lúc 8 giờ sáng.',
];

function listWords(): string[] {
  // Real-looking entries: single words and two-word phrases, with accents.
  return Array.from({ length: WORDS }, (_, i) => (i % 3 === 0 ? `từ cấm ${i}` : `cấmkỵ${i}`));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Sends for `ms` with IN_FLIGHT requests outstanding; returns acknowledged sends per second. */
async function sendFor(client: StreamChat, type: string, id: string, ms: number): Promise<number> {
  const channel = client.channel(type, id);
  const deadline = performance.now() + ms;
  let sent = 0;
  const started = performance.now();
  const worker = async (offset: number) => {
    for (let i = offset; performance.now() < deadline; i += IN_FLIGHT) {
      await channel.sendMessage({ id: randomUUID(), text: TEXTS[i % TEXTS.length]! });
      sent += 1;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => worker(i)));
  return (sent / (performance.now() - started)) * 1000;
}

function matcherOnly(): { perCallUs: number } {
  const matcher = compileBlocklist(listWords());
  let calls = 0;
  let sink = 0;
  const started = performance.now();
  while (performance.now() - started < 1000) {
    for (const text of TEXTS) sink += matcher.match(text)?.length ?? 0;
    calls += TEXTS.length;
  }
  if (sink !== 0) throw new Error('the bench texts must not match the list');
  return { perCallUs: ((performance.now() - started) * 1000) / calls };
}

async function main(): Promise<void> {
  const server = await startTestChatServer({ config: { rateLimits: { enabled: false } } });
  try {
    const admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
    const userId = `bench-${randomUUID().slice(0, 8)}`;
    await admin.upsertUsers([{ id: userId, name: userId }]);
    const name = 'bench-words';
    await admin.createBlockList({ name, words: listWords() });
    const commerce = BUILTIN_CHANNEL_TYPES.commerce!.config;
    const user = new StreamChat(server.apiKey, {
      baseURL: server.baseURL,
      allowServerSideConnect: true,
    });
    await user.connectUser({ id: userId }, admin.createToken(userId));
    // Same channel type on both sides; only the attached list differs between rounds.
    const id = `bench-${randomUUID().slice(0, 8)}`;
    await admin.channel('commerce', id, { created_by_id: userId, members: [userId] }).create();
    await sendFor(user, 'commerce', id, 1000); // warm-up
    const withList: number[] = [];
    const without: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? [true, false] : [false, true];
      const result: Record<string, number> = {};
      for (const listed of order) {
        if (listed) {
          commerce.blocklist = name;
          commerce.blocklist_behavior = 'block';
        } else delete commerce.blocklist;
        result[String(listed)] = await sendFor(user, 'commerce', id, ROUND_MS);
      }
      withList.push(result.true!);
      without.push(result.false!);
      ratios.push(result.true! / result.false!);
    }
    const matcher = matcherOnly();
    const sendUs = 1e6 / median(without);
    console.log(
      JSON.stringify(
        {
          words: WORDS,
          rounds: ROUNDS,
          roundMs: ROUND_MS,
          inFlight: IN_FLIGHT,
          withListSendsPerSec: Math.round(median(withList)),
          withoutListSendsPerSec: Math.round(median(without)),
          ratioWithOverWithout: Number(median(ratios).toFixed(3)),
          matchPerMessageUs: Number(matcher.perCallUs.toFixed(2)),
          matchShareOfSendTime: `${((matcher.perCallUs / sendUs) * 100).toFixed(3)} %`,
        },
        null,
        2,
      ),
    );
    await user.disconnectUser();
  } finally {
    await server.close();
  }
}

await main();
