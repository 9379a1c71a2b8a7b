// Load generator for the fan-out benchmark, run as its own process so it never shares an event loop with a server.
// N raw websocket receivers watch one channel of one server (or of several nodes of one cluster, receiver i on node
// i mod nodes, each watching through its own node) and one sender posts messages over REST at fixed rates;
// the send time travels in the message text, so latency is measured on this process's clock. The orchestrator runs
// one generator per server, all connected at once, and alternates the rate steps between them (baseline 10/s, ours
// 10/s, baseline 50/s, …), so load from other sessions on the box hits both sides alike and the ratios stay fair.
import { randomUUID } from 'node:crypto';
import {
  enterPhase,
  errorText,
  exitAfter,
  exitOnStop,
  measureServerMemory,
  progress,
  sendToParent,
  waitForConfig,
  type ParentMessage,
} from './child-protocol.ts';
import { LatencyHistogram } from './histogram.ts';
import { expectOk, runPool, StreamHttpClient, type StreamAuth } from './http-client.ts';
import { serverToken, userToken } from './jwt.ts';
import { CpuMeter, processCpuSeconds, processMemory, waitForQuietBox } from './proc-stats.ts';
import { BENCH_MARKER, RawReceiver, type DeliverySink } from './raw-receiver.ts';
import {
  BUSY_OTHER_PCT,
  type FanoutConfig,
  type FanoutResult,
  type StepResult,
  stopReason,
} from './results.ts';

const SENDER_ID = 'bench-sender';
const PING_AFTER_MS = 25_000;
// Pads the text to about 100 bytes, the message size of docs/benchmark-method.md.
const PADDING = ' Đạo hữu, tu vi của ta vừa đột phá Kim Đan kỳ, mời đạo hữu ghé động phủ luận đạo.';

class StepCounters implements DeliverySink {
  counts: number[] = [];
  histograms: LatencyHistogram[] = [];
  lastDeliveryUs: number[] = [];
  frameBytes = 0;
  disconnects = 0;
  /** Why the server dropped sockets after their first health.check, with counts. */
  readonly closeReasons = new Map<string, number>();

  count(step: number): number {
    return this.counts[step] ?? 0;
  }

  delivered(step: number, sentUs: number, receivedUs: number, frameBytes: number): void {
    this.counts[step] = (this.counts[step] ?? 0) + 1;
    this.histograms[step]?.record((receivedUs - sentUs) / 1000);
    this.lastDeliveryUs[step] = receivedUs;
    if (this.frameBytes === 0) this.frameBytes = frameBytes;
  }

  closed(receiver: RawReceiver): void {
    this.disconnects++;
    const reason = receiver.closeReason ?? 'closed without a close frame';
    this.closeReasons.set(reason, (this.closeReasons.get(reason) ?? 0) + 1);
  }
}

/** One server under test with its receivers, connected and watching. */
class Side {
  readonly counters = new StepCounters();
  readonly receivers: RawReceiver[] = [];
  readonly watching = new Set<RawReceiver>();
  /** Index into the target's nodes of the node each receiver is connected to. */
  private readonly nodeOf = new Map<RawReceiver, number>();
  readonly steps: StepResult[] = [];
  stoppedEarly: string | null = null;
  private watchResponseBytes = 0;
  /** One client per node: a watch goes to the node holding the receiver's socket. */
  private readonly nodeHttp: StreamHttpClient[];
  private readonly senderHttp: StreamHttpClient;
  private readonly senderAuth: StreamAuth;
  private readonly channelPath: string;
  private readonly meter: CpuMeter;
  private readonly pinger: NodeJS.Timeout;
  private result: Omit<
    FanoutResult,
    'steps' | 'stoppedEarly' | 'peakRssBytes' | 'disconnects' | 'disconnectReasons' | 'frameBytes'
  > | null = null;
  private attempt = 0;

  constructor(private readonly config: FanoutConfig) {
    const { server } = config.target;
    this.nodeHttp = config.target.nodes.map(
      (node) => new StreamHttpClient(node.server.baseURL, config.connectInFlight),
    );
    this.senderHttp = new StreamHttpClient(server.baseURL, 32);
    this.senderAuth = {
      apiKey: server.apiKey,
      token: userToken(SENDER_ID, server.apiSecret),
      userId: SENDER_ID,
    };
    this.channelPath = `channels/${config.channelType}/${config.channelId}`;
    this.meter = new CpuMeter(this.nodePids, { meterBackends: config.target.meterBackends });
    this.pinger = setInterval(() => this.pingDue(), 1_000);
  }

  get target() {
    return this.config.target;
  }

  get label(): string {
    return `${this.target.name} N=${this.config.n}`;
  }

  private get nodePids(): number[] {
    return this.target.nodes.map((node) => node.pid);
  }

  /** The client of the first node: setup calls (users, channel, members) go there. */
  private get http(): StreamHttpClient {
    const http = this.nodeHttp[0];
    if (!http) throw new Error(`${this.label} has no server node`);
    return http;
  }

  /** Connects N receivers, watches the channel with each, and measures the server's memory on the way. */
  async prepare(): Promise<void> {
    const { config, target } = this;
    const { server } = target;
    const adminAuth = { apiKey: server.apiKey, token: serverToken(server.apiSecret) };
    if (target.createChannel) {
      const sender = { [SENDER_ID]: { id: SENDER_ID, name: 'Bench' } };
      await expectOk(this.http.call('POST', 'users', adminAuth, { users: sender }));
      await expectOk(
        this.http.call('POST', `${this.channelPath}/query`, adminAuth, {
          data: { created_by_id: SENDER_ID, members: [SENDER_ID] },
          state: false,
          watch: false,
          presence: false,
        }),
      );
    }

    const before = await measureServerMemory();
    progress(
      `${this.label}: connecting ${config.n} websockets (${config.connectInFlight} in flight)`,
    );
    await enterPhase(`${target.name}-connect`);
    const errors: Error[] = [];
    const connectStart = performance.now();
    const connectCpuStart = nodesCpuSeconds(this.nodePids);
    errors.push(
      ...(await runPool(config.n, config.connectInFlight, (index) => this.connectOne(index))),
    );
    const connectSeconds = (performance.now() - connectStart) / 1000;
    const connectCpu = nodesCpuSeconds(this.nodePids) - connectCpuStart;
    await enterPhase(`${target.name}-connected`);
    const connectedMemory = await measureServerMemory();
    progress(
      `${this.label}: ${this.receivers.length} connected in ${connectSeconds.toFixed(1)} s, server RSS ` +
        `${mb(before.rss)} → ${mb(connectedMemory.rss)} MB; watching ${this.channelPath}`,
    );

    if (target.addMembers) {
      const ids = this.receivers.map((receiver) => receiver.userId);
      for (let start = 0; start < ids.length; start += 100) {
        await expectOk(
          this.http.call('POST', this.channelPath, adminAuth, {
            add_members: ids.slice(start, start + 100),
          }),
        );
      }
    }

    await enterPhase(`${target.name}-watch`);
    const watchStart = performance.now();
    const watchCpuStart = nodesCpuSeconds(this.nodePids);
    const watchErrors = await this.watchAll(this.receivers);
    const watchSeconds = (performance.now() - watchStart) / 1000;
    const watchCpu = nodesCpuSeconds(this.nodePids) - watchCpuStart;
    await enterPhase(`${target.name}-settle`);
    // Requests the client gave up on may still be queued in the server; wait until it is idle, then retry them once
    // (a repeated watch is a no-op), so the rate steps measure fan-out and not the tail of the watch phase.
    let settleSeconds = await waitForIdleServer(this.nodePids, 120_000);
    const unwatched = this.receivers.filter(
      (receiver) => !this.watching.has(receiver) && !receiver.isClosed,
    );
    if (unwatched.length > 0) {
      progress(
        `${this.label}: ${watchErrors.length} watch requests failed; retrying ${unwatched.length} once`,
      );
      errors.push(...(await this.watchAll(unwatched)));
      settleSeconds += await waitForIdleServer(this.nodePids, 60_000);
    }
    errors.push(...watchErrors);
    const after = await measureServerMemory();
    const connected = this.receivers.length;
    progress(
      `${this.label}: watched in ${watchSeconds.toFixed(1)} s, server idle ${settleSeconds.toFixed(1)} s later; ` +
        `server RSS ${mb(before.rss)} → ${mb(after.rss)} MB, heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)} MB`,
    );
    this.result = {
      label: this.label,
      n: config.n,
      connected,
      watching: this.watching.size,
      settleSeconds,
      connectErrors: summarize(errors.map((error) => error.message)),
      connectsPerSecond: connected / connectSeconds,
      watchesPerSecond: connected / watchSeconds,
      cpuMsPerConnect: (connectCpu * 1000) / connected,
      cpuMsPerWatch: (watchCpu * 1000) / Math.max(1, this.watching.size),
      rssBeforeBytes: before.rss,
      rssConnectedBytes: connectedMemory.rss,
      rssAfterBytes: after.rss,
      rssPerConnectionBytes: perConnection(connectedMemory.rss - before.rss, connected),
      heapPerConnectionBytes: perConnection(connectedMemory.heapUsed - before.heapUsed, connected),
      rssPerWatcherBytes: perConnection(after.rss - before.rss, connected),
      heapPerWatcherBytes: perConnection(after.heapUsed - before.heapUsed, connected),
      watchResponseBytes: this.watchResponseBytes,
    };
  }

  private async connectOne(index: number): Promise<void> {
    const { nodes } = this.target;
    const nodeIndex = index % nodes.length;
    const server = nodes[nodeIndex]?.server ?? this.target.server;
    const base = new URL(server.baseURL);
    const userId = `watcher-${index}`;
    const params = new URLSearchParams({
      json: JSON.stringify({
        user_id: userId,
        user_details: { id: userId, name: `Đạo hữu ${index}` },
        client_request_id: randomUUID(),
      }),
      api_key: server.apiKey,
      authorization: userToken(userId, server.apiSecret),
      'stream-auth-type': 'jwt',
      'X-Stream-Client': 'stream-chat-js-v9.53.0-node|client_bundle=node-cjs',
    });
    const receiver = await RawReceiver.open({
      host: base.hostname,
      port: Number(base.port),
      path: `${base.pathname.replace(/\/$/, '')}/connect?${params.toString()}`,
      userId,
      sink: this.counters,
      timeoutMs: 30_000,
    });
    this.receivers.push(receiver);
    this.nodeOf.set(receiver, nodeIndex);
  }

  private watchAll(list: RawReceiver[]): Promise<Error[]> {
    const { server } = this.target;
    return runPool(list.length, this.config.connectInFlight, async (index) => {
      const receiver = list[index];
      if (!receiver?.connectionId || receiver.isClosed) return;
      const auth = {
        apiKey: server.apiKey,
        token: userToken(receiver.userId, server.apiSecret),
        userId: receiver.userId,
        connectionId: receiver.connectionId,
      };
      const body = { data: {}, state: true, watch: true, presence: false, messages: { limit: 25 } };
      const http = this.nodeHttp[this.nodeOf.get(receiver) ?? 0] ?? this.http;
      const response = await http.call('POST', `${this.channelPath}/query`, auth, body);
      if (response.status !== 200 && response.status !== 201) {
        // Without the timing, equal errors count as one line of the summary.
        const body = response.body.replace(/"duration":"[^"]*",?/, '');
        throw new Error(`watch: HTTP ${response.status}: ${body.slice(0, 300)}`);
      }
      this.watching.add(receiver);
      this.watchResponseBytes = Math.max(this.watchResponseBytes, Buffer.byteLength(response.body));
    });
  }

  private pingDue(): void {
    const now = performance.now();
    for (const receiver of this.receivers) {
      if (receiver.isClosed) continue;
      if (
        now - receiver.lastHealthCheckAt > PING_AFTER_MS &&
        now - receiver.lastPingAt > PING_AFTER_MS
      )
        receiver.ping();
    }
  }

  /** One rate step: send for stepSeconds, then wait (bounded) until every watcher got every acknowledged message. */
  async runStep(step: number, rate: number): Promise<StepResult> {
    const { counters, config } = this;
    counters.histograms[step] = new LatencyHistogram();
    const watchers = [...this.watching].filter((receiver) => !receiver.isClosed).length;
    this.meter.reset();
    const sendStartUs = performance.now() * 1000;
    const sends = await sendAtRate(
      this.senderHttp,
      this.senderAuth,
      this.channelPath,
      step,
      rate,
      config.stepSeconds,
    );
    const expected = sends.acked * watchers;
    const deadline = performance.now() + config.drainSeconds * 1000;
    let lastCount = -1;
    let lastProgressAt = performance.now();
    while (counters.count(step) < expected && performance.now() < deadline) {
      await sleep(20);
      const count = counters.count(step);
      if (count !== lastCount) {
        lastCount = count;
        lastProgressAt = performance.now();
      } else if (performance.now() - lastProgressAt > 3_000) {
        break;
      }
    }
    const cpu = this.meter.read();
    const delivered = counters.count(step);
    const histogram = counters.histograms[step];
    const windowSeconds = ((counters.lastDeliveryUs[step] ?? sendStartUs) - sendStartUs) / 1e6;
    const result: StepResult = {
      rate,
      attempts: 1,
      sent: sends.sent,
      acked: sends.acked,
      sendErrors: sends.errors,
      expected,
      delivered,
      deliveriesPerSecond: windowSeconds > 0 ? delivered / windowSeconds : 0,
      p50: histogram?.percentile(50) ?? Number.NaN,
      p99: histogram?.percentile(99) ?? Number.NaN,
      max: histogram?.max() ?? Number.NaN,
      serverCpu: cpu.server,
      nodeCpu: cpu.nodes,
      generatorCpu: cpu.generator,
      backendCpu: cpu.backend,
      otherCpu: cpu.other,
      drained: sends.acked > 0 && delivered >= expected,
    };
    counters.histograms[step] = new LatencyHistogram();
    progress(
      `${this.label}: ${rate} msg/s → ${Math.round(result.deliveriesPerSecond)} deliveries/s, ` +
        `p50 ${result.p50.toFixed(1)} / p99 ${result.p99.toFixed(1)} ms, ${delivered}/${expected}, ` +
        `CPU server ${cpu.nodes.map((value) => value.toFixed(0)).join(' + ')} % / generator ${cpu.generator.toFixed(0)} % / ` +
        `${cpu.backend === null ? '' : `PostgreSQL + Redis ${cpu.backend.toFixed(0)} % / `}other ${cpu.other.toFixed(0)} %`,
    );
    for (const error of sends.errors) progress(`${this.label}: send failed: ${error}`);
    return result;
  }

  /**
   * One rate step once the server is idle, repeated while other sessions disturb it (docs/benchmark-method.md
   * repeats such steps); the least disturbed attempt is kept. Each attempt has its own id in the message text, so late
   * deliveries of an earlier attempt never count twice.
   */
  async step(rate: number): Promise<StepResult> {
    await waitForIdleServer(this.nodePids, 30_000);
    await enterPhase(`${this.target.name}-rate-${rate}`);
    let result = await this.runStep(this.attempt++, rate);
    for (
      let retry = 0;
      retry < this.config.busyRetries && result.otherCpu > BUSY_OTHER_PCT;
      retry++
    ) {
      progress(
        `${this.label}: other processes used ${result.otherCpu.toFixed(0)} % of a core; repeating the step`,
      );
      await waitForIdleServer(this.nodePids, 30_000);
      await waitForQuietBox(5_000);
      const again = await this.runStep(this.attempt++, rate);
      const attempts = result.attempts + 1;
      result = again.otherCpu < result.otherCpu ? again : result;
      result.attempts = attempts;
    }
    await enterPhase(`${this.target.name}-idle`);
    this.record(result);
    return result;
  }

  /** Records a finished step; stops this side's ramp once it is past saturation. */
  private record(result: StepResult): void {
    this.steps.push(result);
    this.stoppedEarly = stopReason(result, this.config.drainSeconds);
  }

  finish(): FanoutResult {
    clearInterval(this.pinger);
    const peakRss = this.nodePids.reduce((sum, pid) => sum + processMemory(pid).peakRss, 0);
    for (const receiver of this.receivers) receiver.close();
    for (const http of this.nodeHttp) http.close();
    this.senderHttp.close();
    if (!this.result) throw new Error(`${this.label} was never prepared`);
    return {
      ...this.result,
      peakRssBytes: peakRss,
      frameBytes: this.counters.frameBytes,
      disconnects: this.counters.disconnects,
      disconnectReasons: [...this.counters.closeReasons].map(
        ([reason, count]) => `${count}× ${reason}`,
      ),
      steps: this.steps,
      stoppedEarly: this.stoppedEarly,
    };
  }
}

interface SendStats {
  sent: number;
  acked: number;
  errors: string[];
}

/** Posts `rate` messages per second for `seconds`, on schedule even while earlier requests are pending. */
function sendAtRate(
  http: StreamHttpClient,
  auth: StreamAuth,
  channelPath: string,
  step: number,
  rate: number,
  seconds: number,
): Promise<SendStats> {
  const total = Math.max(1, Math.round(rate * seconds));
  const stats: SendStats = { sent: 0, acked: 0, errors: [] };
  let settled = 0;
  return new Promise((resolve) => {
    const start = performance.now();
    const sendOne = (): void => {
      stats.sent++;
      const text = `${BENCH_MARKER}${step}@${Math.round(performance.now() * 1000)}@${PADDING}`;
      http
        .call('POST', `${channelPath}/message`, auth, { message: { id: randomUUID(), text } })
        .then((response) => {
          if (response.status === 200 || response.status === 201) stats.acked++;
          else stats.errors.push(`HTTP ${response.status}: ${response.body.slice(0, 200)}`);
        })
        .catch((error: unknown) => stats.errors.push(String(error)))
        .finally(() => {
          if (++settled === total) resolve({ ...stats, errors: summarize(stats.errors) });
        });
    };
    const tick = (): void => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (stats.sent < due) sendOne();
      if (stats.sent >= total) clearInterval(timer);
    };
    const timer = setInterval(tick, 1);
    tick();
  });
}

/** CPU seconds of every server node together. */
function nodesCpuSeconds(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
}

/**
 * Waits until every server node used under 10 % of a core for two consecutive 0.5 s samples; returns seconds waited.
 */
async function waitForIdleServer(pids: number[], maxWaitMs: number): Promise<number> {
  const start = performance.now();
  let quiet = 0;
  let last = pids.map(processCpuSeconds);
  while (quiet < 2 && performance.now() - start < maxWaitMs) {
    await sleep(500);
    const now = pids.map(processCpuSeconds);
    quiet = now.every((seconds, index) => seconds - (last[index] ?? 0) < 0.05) ? quiet + 1 : 0;
    last = now;
  }
  return (performance.now() - start) / 1000;
}

/** Keeps the first distinct messages with counts, so 10,000 identical failures stay one line. */
function summarize(messages: string[]): string[] {
  const counts = new Map<string, number>();
  for (const message of messages) counts.set(message, (counts.get(message) ?? 0) + 1);
  return [...counts].slice(0, 5).map(([message, count]) => `${count}× ${message}`);
}

function perConnection(bytes: number, count: number): number {
  return count > 0 ? bytes / count : Number.NaN;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

// The orchestrator drives this process: `run` (connect and watch) → `prepared`, then `step` → `step-done` per rate
// (it skips a side whose ramp stopped), then `finish` → `result`.
exitOnStop(async () => {});
const side = new Side(await waitForConfig<FanoutConfig>());
process.on('message', (message: ParentMessage) => {
  if (message.type === 'step') {
    side.step(message.rate).then(
      (result) => sendToParent({ type: 'step-done', result }),
      (error: unknown) => sendToParent({ type: 'failed', error: errorText(error) }),
    );
  } else if (message.type === 'finish') {
    exitAfter({ type: 'result', result: side.finish() });
  }
});
side.prepare().then(
  () => sendToParent({ type: 'prepared' }),
  (error: unknown) => exitAfter({ type: 'failed', error: errorText(error) }),
);
